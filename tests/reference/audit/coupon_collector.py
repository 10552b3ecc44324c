#!/usr/bin/python3
"""Independent check of coupon-collector-suits and coupon-collector-ranks (docs/audit-laws.md,
"Coupon collector"): the number of cards dealt until every group (suit, rank) has appeared.
Its law by inclusion-exclusion in fractions, P(T > t) = sum over nonempty sets S of groups of
(-1)^(|S|+1) C(n - |S's cards|, t) / C(n, t), checked against enumeration of every order of small
packs (itertools, no shufl code). Prints the exact law of a standard pack (4 suits of 13, 13 ranks
of 4), of one with two jokers, and of an 8-deck shoe's suits, which tests/audit_pairs_test.cpp
(AuditCoupon.LawMatchesInclusionExclusion) compares with shufl's."""
from fractions import Fraction
from itertools import combinations, permutations
from math import comb


def law(sizes, others=0):
    n = sum(sizes) + others
    g = len(sizes)
    survive = []
    for t in range(n + 1):
        s = Fraction(0)
        for j in range(1, g + 1):
            for S in combinations(range(g), j):
                rest = n - sum(sizes[i] for i in S)
                s += (-1) ** (j + 1) * Fraction(comb(rest, t), comb(n, t))
        survive.append(s)  # P(T > t)
    return [survive[t - 1] - survive[t] if t > 0 else Fraction(0) for t in range(n + 1)]


def enumerate_law(groups):
    n = len(groups)
    counts = [0] * (n + 1)
    total = 0
    want = {g for g in groups if g is not None}
    for d in permutations(range(n)):
        seen = set()
        for t, c in enumerate(d, 1):
            if groups[c] is not None:
                seen.add(groups[c])
            if seen == want:
                counts[t] += 1
                break
        total += 1
    return [Fraction(c, total) for c in counts]


def main():
    for groups, sizes, others in (([0, 0, 0, 1, 1, 1], [3, 3], 0), ([0, 0, 1, 1, 2, 2, None], [2, 2, 2], 1),
                                  ([0, 1, 1, 2, 2, 2, None, None], [1, 2, 3], 2)):
        assert enumerate_law(groups) == law(sizes, others), groups
    print("enumeration: three small packs match inclusion-exclusion")
    for name, sizes, others in (("suits", [13] * 4, 0), ("ranks", [4] * 13, 0), ("suits+2 jokers", [13] * 4, 2),
                                ("shoe-8 suits", [104] * 4, 0)):
        p = law(sizes, others)
        mean = sum(t * q for t, q in enumerate(p))
        var = sum(t * t * q for t, q in enumerate(p)) - mean * mean
        support = [t for t, q in enumerate(p) if q]
        print(f"{name}: support {support[0]}..{support[-1]}, mean {float(mean):.15g}, variance {float(var):.15g}")
        for t in (support[0], support[0] + 1, (support[0] + support[-1]) // 2, support[-1] - 1, support[-1]):
            print(f"  P(T = {t}) = {float(p[t]):.15e}")


if __name__ == "__main__":
    main()
