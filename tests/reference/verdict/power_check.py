#!/usr/bin/env python3
"""S04: does `shufl bias` detect what its power statement promises?

Reads the claim from `shufl bias --n 8 --trials 2000 --algo fisher-yates` (the detectable per-card
position TV delta), then builds the least detectable law with that TV on every card: with
probability w = 2*delta a permutation that keeps every card's parity (uniform within evens and
within odds), else a uniform one. Every card's position law then differs from uniform by +-w/n
in every cell (TV = w/2 = delta), the pattern of smallest non-centrality for that TV. RUNS samples
of 2000 such permutations go through `shufl bias --input -`; the fraction flagged "biased" must
reach the claimed 90% (less a binomial margin of 2.5 standard errors).

usage: power_check.py SHUFL RUNS SEED   (exit 0: claim holds; 1: it does not)
"""
import json
import math
import random
import subprocess
import sys

N, TRIALS = 8, 2000


def main():
    shufl, runs, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    claim = json.loads(subprocess.run([shufl, "bias", "--n", str(N), "--trials", str(TRIALS), "--algo",
                                       "fisher-yates", "--seed", "1", "--format", "json"],
                                      check=True, capture_output=True, text=True).stdout)
    power = claim["results"][0]["power"]
    delta = power["detectable_total_variation"]
    w = 2 * delta
    rng = random.Random(seed)
    flagged = 0
    for _ in range(runs):
        lines = []
        for _ in range(TRIALS):
            if rng.random() < w:
                evens, odds = list(range(0, N, 2)), list(range(1, N, 2))
                rng.shuffle(evens)
                rng.shuffle(odds)
                perm = [evens[i // 2] if i % 2 == 0 else odds[i // 2] for i in range(N)]
            else:
                perm = list(range(N))
                rng.shuffle(perm)
            lines.append(" ".join(str(x + 1) for x in perm))
        out = subprocess.run([shufl, "bias", "--input", "-", "--format", "json"], input="\n".join(lines) + "\n",
                             check=True, capture_output=True, text=True).stdout
        flagged += json.loads(out)["results"][0]["verdict"] == "biased"
    fraction = flagged / runs
    margin = 2.5 * math.sqrt(0.9 * 0.1 / runs)
    print(f"delta {delta:.6g} at alpha {power['alpha']:.6g} over {power['tests']} tests: "
          f"flagged {flagged}/{runs} = {fraction:.3f} (claim 0.9, accept >= {0.9 - margin:.3f})")
    sys.exit(0 if fraction >= 0.9 - margin else 1)


if __name__ == "__main__":
    main()
