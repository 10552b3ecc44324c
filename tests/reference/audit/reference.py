#!/usr/bin/env python3
"""Independent reference values for the exact null laws of `shufl audit`.

Written from the definitions (not from shufl's C++), with exact fractions and mpmath:

* per-deck laws of n distinct cards (positions from the top, cards 0..n-1):
  - n <= 8: brute-force enumeration of all n! permutations, each statistic computed from its
    definition;
  - n = 52, 104: exact rational formulas/recursions chosen to differ from shufl's:
    fixed points by the rencontres sum (1/k!) * sum_j (-1)^j / j!; successions by
    inclusion-exclusion over glued pairs (N(j) = C(n-1,j)(n-j)!); adjacent pairs by an
    insertion DP (insert the largest card into a permutation of the others, tracking whether the
    largest two are neighbours); descents by the explicit Eulerian sum
    A(n,k) = sum_j (-1)^j C(n+1,j)(k+1-j)^n; rising sequences = 1 + descents of the inverse;
    alternating runs by a relative-rank DP (last element's rank, last direction, runs so far);
    guessing with feedback as the product of Bernoulli(1/k) laws.
  The DPs and formulas are checked against the enumeration for n <= 8 before use.
* tails of the sum of T iid per-deck values:
  - small T: exact convolution in fractions;
  - larger T: the coefficients of f(z)^T by J. C. P. Miller's recurrence for powers of a power
    series (Knuth, TAOCP vol. 2, 4.7), in mpmath at 150 digits (and checked against 200 digits),
    summed for the lower tail; the upper tail as 1 - P(S <= s-1) at that precision (for laws
    whose lowest value is common: fixed points, successions, guessing);
  - laws whose lowest value is rare (runs, descents, adjacent pairs at n = 52): the exact integer
    coefficients of (sum_k count_k z^k)^T for T up to 30.

Output: reference.json next to this script (probabilities as the nearest double, ln of tails
as floats, ln 0 as null). Run: python3 reference.py (about 15 s of CPU; needs mpmath).
"""

import itertools
import json
import math
import os
from fractions import Fraction

import mpmath

# ---------------------------------------------------------------------------------------------
# Statistics of one deck, from the definitions.


def fixed_points(d):
    return sum(1 for i, c in enumerate(d) if c == i)


def successions(d):
    return sum(1 for p in range(len(d) - 1) if d[p + 1] == d[p] + 1)


def adjacent_pairs(d):
    return sum(1 for p in range(len(d) - 1) if abs(d[p + 1] - d[p]) == 1)


def descents(d):
    return sum(1 for p in range(len(d) - 1) if d[p] > d[p + 1])


def rising_sequences(d):
    pos = {c: p for p, c in enumerate(d)}
    return 1 + sum(1 for i in range(len(d) - 1) if pos[i + 1] < pos[i])


def runs_up_down(d):
    if len(d) < 2:
        return 0
    dirs = [d[p + 1] > d[p] for p in range(len(d) - 1)]
    return 1 + sum(1 for p in range(len(dirs) - 1) if dirs[p] != dirs[p + 1])


def guessing_by_enumeration(n):
    """Guessing with feedback: the guesser names an unseen card each time (say the smallest
    unseen); count the correct guesses over all n! decks."""
    counts = [0] * (n + 1)
    for d in itertools.permutations(range(n)):
        unseen = set(range(n))
        right = 0
        for c in d:
            if min(unseen) == c:
                right += 1
            unseen.discard(c)
        counts[right] += 1
    return counts


STATS = {
    "fixed_points": (fixed_points, lambda n: n + 1),
    "successions": (successions, lambda n: n),
    "adjacent_pairs": (adjacent_pairs, lambda n: n),
    "descents": (descents, lambda n: n),
    "rising_sequences": (rising_sequences, lambda n: n + 1),
    "runs_up_down": (runs_up_down, lambda n: n),
}


def enumerate_laws(n):
    out = {}
    perms = list(itertools.permutations(range(n)))
    for name, (f, size) in STATS.items():
        counts = [0] * size(n)
        for d in perms:
            counts[f(d)] += 1
        out[name] = counts
    out["guessing"] = guessing_by_enumeration(n)
    return out


# ---------------------------------------------------------------------------------------------
# Exact counts for large n, by methods other than shufl's.


def fixed_points_counts(n):
    f = math.factorial(n)
    law = []
    for k in range(n + 1):
        s = sum(Fraction((-1) ** j, math.factorial(j)) for j in range(n - k + 1))
        law.append(Fraction(1, math.factorial(k)) * s * f)
    return [int(x) for x in law]


def successions_counts(n):
    # N(j) = number of (permutation, set of j successions present) = C(n-1, j) (n-j)!
    big = [math.comb(n - 1, j) * math.factorial(n - j) for j in range(n)]
    return [sum((-1) ** (j - k) * math.comb(j, k) * big[j] for j in range(k, n)) for k in range(n)]


def adjacent_pairs_counts(n):
    # state (k pairs, f = the two largest cards are neighbours) over permutations of [m]
    if n == 1:
        return [1]
    state = {(1, True): 2}  # m = 2: "01" and "10", one pair each
    for m in range(3, n + 1):  # insert card m-1 (the new largest) into a permutation of m-1 cards
        nxt = {}

        def add(key, v):
            nxt[key] = nxt.get(key, 0) + v

        for (k, f), v in state.items():
            if not f:
                add((k + 1, True), 2 * v)  # either side of the old largest
                if k:
                    add((k - 1, False), k * v)  # into a pair gap
                add((k, False), (m - 2 - k) * v)
            else:
                add((k, True), v)  # between the old largest and its neighbour pair
                add((k + 1, True), v)  # the old largest's other side
                if k - 1:
                    add((k - 1, False), (k - 1) * v)
                add((k, False), (m - k - 1) * v)
        state = nxt
    counts = [0] * n
    for (k, _), v in state.items():
        counts[k] += v
    return counts


def eulerian_counts(n):
    return [sum((-1) ** j * math.comb(n + 1, j) * (k + 1 - j) ** n for j in range(k + 2)) for k in range(n)]


def runs_counts(n):
    if n == 1:
        return [1]
    # f[(j, up, r)]: sequences of length m, last element has rank j (0-based among m), last step
    # up or down, r runs. Append an element of rank i in 0..m among m+1: up iff i > j.
    f = {(1, True, 1): 1, (0, False, 1): 1}
    for m in range(2, n):
        # prefix sums over j for each (up, r)
        nxt = {}
        by = {}
        for (j, up, r), v in f.items():
            by.setdefault((up, r), [0] * m)[j] += v
        for (up, r), arr in by.items():
            pre = [0] * (m + 1)
            for j in range(m):
                pre[j + 1] = pre[j] + arr[j]
            for i in range(m + 1):
                # up: previous rank j < i; down: j >= i
                s_up = pre[i]
                s_down = pre[m] - pre[i]
                if s_up:
                    key = (i, True, r if up else r + 1)
                    nxt[key] = nxt.get(key, 0) + s_up
                if s_down:
                    key = (i, False, r if not up else r + 1)
                    nxt[key] = nxt.get(key, 0) + s_down
        f = nxt
    counts = [0] * n
    for (_, _, r), v in f.items():
        counts[r] += v
    return counts


def guessing_counts(n):
    law = [Fraction(1)]
    for k in range(1, n + 1):
        p = Fraction(1, k)
        nxt = [Fraction(0)] * (len(law) + 1)
        for i, x in enumerate(law):
            nxt[i] += x * (1 - p)
            nxt[i + 1] += x * p
        law = nxt
    f = math.factorial(n)
    return [int(x * f) for x in law]


FORMULAS = {
    "fixed_points": fixed_points_counts,
    "successions": successions_counts,
    "adjacent_pairs": adjacent_pairs_counts,
    "descents": eulerian_counts,
    "rising_sequences": lambda n: [0] + eulerian_counts(n),
    "runs_up_down": runs_counts,
    "guessing": guessing_counts,
}

# ---------------------------------------------------------------------------------------------
# Sums over decks.


def ln_fraction(x):
    if x == 0:
        return float("-inf")
    with mpmath.workdps(50):
        return float(mpmath.log(mpmath.mpf(x.numerator)) - mpmath.log(mpmath.mpf(x.denominator)))


def fraction_power_tails(counts, T, points):
    total = sum(counts)
    p = [Fraction(c, total) for c in counts]
    law = [Fraction(1)]
    for _ in range(T):
        nxt = [Fraction(0)] * (len(law) + len(p) - 1)
        for i, x in enumerate(law):
            if x:
                for j, y in enumerate(p):
                    if y:
                        nxt[i + j] += x * y
        law = nxt
    rows = []
    for s in points:
        up = sum(law[s:], Fraction(0))
        lo = sum(law[: s + 1], Fraction(0))
        rows.append({"s": s, "ln_upper": ln_fraction(up), "ln_lower": ln_fraction(lo)})
    return rows


def miller_cdf(counts, T, smax, dps):
    """P(S <= s) for s = 0..smax (S = sum of T iid copies of the law counts/sum), by Miller's
    recurrence for the coefficients of f(z)^T, f the pgf shifted to start at its lowest
    support point. Returns (shift, list of mpf cdf values indexed by s - T*shift)."""
    with mpmath.workdps(dps):
        total = sum(counts)
        lo = next(i for i, c in enumerate(counts) if c)
        a = [mpmath.mpf(c) / total for c in counts[lo:]]
        m = len(a) - 1
        top = smax - T * lo
        g = [mpmath.mpf(0)] * (top + 1)
        if top >= 0:
            g[0] = a[0] ** T
        for k in range(1, top + 1):
            acc = mpmath.mpf(0)
            for j in range(1, min(k, m) + 1):
                if a[j]:
                    acc += ((T + 1) * j - k) * a[j] * g[k - j]
            g[k] = acc / (k * a[0])
        cdf = []
        run = mpmath.mpf(0)
        for x in g:
            run += x
            cdf.append(+run)
        return lo, cdf


def miller_tails(counts, T, points):
    smax = max(points)
    rows = []
    lo, cdf_a = miller_cdf(counts, T, smax, 150)
    _, cdf_b = miller_cdf(counts, T, smax, 200)
    with mpmath.workdps(150):
        for s in points:
            i = s - T * lo

            def at(cdf, idx):
                if idx < 0:
                    return mpmath.mpf(0)
                return cdf[idx]

            lower_a, lower_b = at(cdf_a, i), at(cdf_b, i)
            upper_a, upper_b = 1 - at(cdf_a, i - 1), 1 - at(cdf_b, i - 1)
            for x, y in ((lower_a, lower_b), (upper_a, upper_b)):
                assert x > 0 and abs(x - y) <= mpmath.mpf(10) ** -30 * abs(y), (s, x, y)
            rows.append({"s": s, "ln_upper": float(mpmath.log(upper_a)), "ln_lower": float(mpmath.log(lower_a))})
    return rows


def integer_power_tails(counts, T, points):
    """Exact tails from the integer coefficients of (sum_k counts[k] z^k)^T over (sum counts)^T
    (for laws whose lowest term is tiny, where Miller's recurrence divides by it and cancels)."""
    poly = [1]
    for _ in range(T):
        nxt = [0] * (len(poly) + len(counts) - 1)
        for i, x in enumerate(poly):
            if x:
                for j, y in enumerate(counts):
                    if y:
                        nxt[i + j] += x * y
        poly = nxt
    denominator = sum(counts) ** T
    rows = []
    for s in points:
        up = sum(poly[s:])
        lo = sum(poly[: s + 1])
        rows.append({"s": s, "ln_upper": ln_fraction(Fraction(up, denominator)),
                     "ln_lower": ln_fraction(Fraction(lo, denominator))})
    return rows


def moments(counts):
    total = sum(counts)
    mean = Fraction(sum(k * c for k, c in enumerate(counts)), total)
    var = Fraction(sum((k - mean) ** 2 * c for k, c in enumerate(counts)), total)
    return mean, var


def grid(counts, T, zs):
    mean, var = moments(counts)
    sd = math.sqrt(T * var)
    lo = next(i for i, c in enumerate(counts) if c)
    hi = max(i for i, c in enumerate(counts) if c)
    pts = set()
    for z in zs:
        s = round(float(T * mean) + z * sd)
        if T * lo <= s <= T * hi:
            pts.add(s)
    return sorted(pts)


def main():
    out = {"per_deck": {}, "tails": []}
    # Enumeration for n <= 8, and the large-n methods checked against it.
    for n in range(1, 9):
        enum = enumerate_laws(n)
        for name, counts in enum.items():
            assert counts == FORMULAS[name](n), (name, n, counts, FORMULAS[name](n))
            f = math.factorial(n)
            out["per_deck"].setdefault(name, {})[str(n)] = [float(Fraction(c, f)) for c in counts]
    exact = {}
    for n in (52, 104):
        f = math.factorial(n)
        for name, method in FORMULAS.items():
            counts = method(n)
            assert sum(counts) == f, (name, n)
            exact[(name, n)] = counts
            out["per_deck"][name][str(n)] = [float(Fraction(c, f)) for c in counts]

    # Exact tails in fractions: small T.
    for name in ("fixed_points", "successions", "runs_up_down", "guessing", "adjacent_pairs", "descents"):
        small = FORMULAS[name](10)
        for T in (1, 3, 6):
            hi = T * (len(small) - 1)
            pts = sorted(set(list(range(0, hi + 2, max(1, hi // 12))) + [hi, hi + 1]))
            out["tails"].append({"law": name, "n": 10, "T": T, "method": "fractions",
                                 "rows": fraction_power_tails(small, T, pts)})
        counts = exact[(name, 52)]
        out["tails"].append({"law": name, "n": 52, "T": 3, "method": "fractions",
                             "rows": fraction_power_tails(counts, 3, grid(counts, 3, [-6, -3, -1, 0, 1, 3, 6, 10, 20, 40]))})
    # Miller's recurrence: medium and large T at n = 52.
    zs = [-8, -5, -3, -1.5, -0.5, 0, 0.5, 1.5, 3, 5, 8, 12, 20]
    for name, Ts in (("fixed_points", (100, 300, 1000, 3000)), ("successions", (100, 300, 1000, 3000)),
                     ("guessing", (100, 300, 1000))):
        counts = exact[(name, 52)]
        for T in Ts:
            out["tails"].append({"law": name, "n": 52, "T": T, "method": "miller-mpmath",
                                 "rows": miller_tails(counts, T, grid(counts, T, zs))})
    # Laws whose lowest value is rare (Miller's recurrence would cancel): exact integers.
    for name, Ts in (("runs_up_down", (10, 30)), ("descents", (20,)), ("adjacent_pairs", (30,))):
        counts = exact[(name, 52)]
        for T in Ts:
            hi = T * (len(counts) - 1)
            pts = sorted(set(grid(counts, T, zs) + [hi - 30, hi - 8, hi - 1, hi]))
            out["tails"].append({"law": name, "n": 52, "T": T, "method": "integers",
                                 "rows": integer_power_tails(counts, T, pts)})
    # ln 0 = -inf is written as null (JSON has no infinities).
    for block in out["tails"]:
        for row in block["rows"]:
            for key in ("ln_upper", "ln_lower"):
                if row[key] == float("-inf"):
                    row[key] = None
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.json")
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1, allow_nan=False)
        fh.write("\n")


if __name__ == "__main__":
    main()
