#!/usr/bin/env python3
"""S04: does `shufl bias` detect what its power statement promises?

Reads the claim from `shufl bias --n 8 --trials 2000 --algo fisher-yates` (the detectable per-card
position TV delta), then builds the least detectable law with that TV on every card: with
probability w = 2*delta a permutation that keeps every card's parity (uniform within evens and
within odds), else a uniform one. Every card's position law then differs from uniform by +-w/n
in every cell (TV = w/2 = delta), the pattern of smallest non-centrality for that TV. RUNS samples
of 2000 such permutations go through `shufl bias --input -`; the fraction flagged "biased" must
reach the claimed 90% (less a binomial margin of 2.5 standard errors).

The statement covers laws near uniform (a mixture (1 - w) uniform + w Q with w small: the position
counts keep uniformity's covariance to first order, which the non-central chi-squared law assumes).
A second least detectable law of that class with another covariance is checked the same way: with
probability w a permutation that keeps every card in its half of the deck (uniform within each
half), again +-w/n in every cell of every card's row. Both must be flagged 90% of the time.

Before simulating, an exact check that tells the statements apart (scipy, independent of shufl's
Boost code): the decision rule's level is alpha / m, with m counted from the JSON's own list of
tests in the verdict (never from power.alpha); the non-centrality of that law is computed from its
cell probabilities; the primary test's power at that level (Holm's first step, a lower bound on
the rule's power) must be at least 90%. The old statement (delta solved at alpha itself, m = 1:
power 0.76 measured in S04) fails this check, and the script asserts that it would.

usage: power_check.py SHUFL RUNS SEED   (exit 0: claim holds; 1: it does not)
"""
import json
import math
import random
import subprocess
import sys

N, TRIALS = 8, 2000


def parity_permutation(rng):
    """Every card keeps the parity of its position (uniform within evens and within odds)."""
    evens, odds = list(range(0, N, 2)), list(range(1, N, 2))
    rng.shuffle(evens)
    rng.shuffle(odds)
    return [evens[i // 2] if i % 2 == 0 else odds[i // 2] for i in range(N)]


def halves_permutation(rng):
    """Every card stays in its half of the deck (uniform within each half)."""
    low, high = list(range(0, N // 2)), list(range(N // 2, N))
    rng.shuffle(low)
    rng.shuffle(high)
    return low + high


def noncentrality(delta):
    """T (n-1)/n sum (p - 1/n)^2 / (1/n) over the n x n cells of the least detectable law."""
    w = 2 * delta
    total = 0.0
    for card in range(N):
        for pos in range(N):
            p = (1 - w) / N + (w / (N // 2) if card % 2 == pos % 2 else 0.0)
            total += (p - 1 / N) ** 2 * N
    return TRIALS * (N - 1) / N * total


def rule_power(delta, level):
    from scipy.stats import chi2, ncx2
    df = (N - 1) ** 2
    return ncx2.sf(chi2.isf(level, df), df, noncentrality(delta))


def exact_check(result, alpha):
    """The stated delta against the rule actually used; exits 1 when the claim fails."""
    from scipy.optimize import brentq
    m = int(result["primary"]["in_verdict"]) + sum(1 for s in result["secondary"] if s["in_verdict"])
    delta = result["power"]["detectable_total_variation"]
    power = rule_power(delta, alpha / m)
    old = brentq(lambda d: rule_power(d, alpha) - 0.9, 1e-6, 0.5)  # the pre-fix statement (level alpha)
    old_power = rule_power(old, alpha / m)
    print(f"exact: {m} tests in the verdict, level {alpha / m:.6g}; stated delta {delta:.6g} -> power {power:.4f}; "
          f"the old statement's delta {old:.6g} -> power {old_power:.4f}")
    if not old_power < 0.85:
        print("the check cannot tell the old statement from the new one")
        sys.exit(1)
    if power < 0.9 - 1e-6:
        print("the stated delta is not detected with 90% probability by the rule actually used")
        sys.exit(1)


def main():
    shufl, runs, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    claim = json.loads(subprocess.run([shufl, "bias", "--n", str(N), "--trials", str(TRIALS), "--algo",
                                       "fisher-yates", "--seed", "1", "--format", "json"],
                                      check=True, capture_output=True, text=True).stdout)
    power = claim["results"][0]["power"]
    exact_check(claim["results"][0], claim["alpha"])
    if "near uniform" not in power["alternative"] or "near uniform" not in power["statement"]:
        print(f"the statement does not name the class it holds for: {power['statement']!r}")
        sys.exit(1)
    delta = power["detectable_total_variation"]
    w = 2 * delta
    rng = random.Random(seed)
    ok = True
    for name, special in (("parity", parity_permutation), ("halves", halves_permutation)):
        flagged = 0
        for _ in range(runs):
            lines = []
            for _ in range(TRIALS):
                if rng.random() < w:
                    perm = special(rng)
                else:
                    perm = list(range(N))
                    rng.shuffle(perm)
                lines.append(" ".join(str(x + 1) for x in perm))
            out = subprocess.run([shufl, "bias", "--input", "-", "--format", "json"], input="\n".join(lines) + "\n",
                                 check=True, capture_output=True, text=True).stdout
            flagged += json.loads(out)["results"][0]["verdict"] == "biased"
        fraction = flagged / runs
        margin = 2.5 * math.sqrt(0.9 * 0.1 / runs)
        print(f"{name}: delta {delta:.6g} at alpha {power['alpha']:.6g} over {power['tests']} tests: "
              f"flagged {flagged}/{runs} = {fraction:.3f} (claim 0.9, accept >= {0.9 - margin:.3f})")
        ok = ok and fraction >= 0.9 - margin
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
