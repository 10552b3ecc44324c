#!/usr/bin/python3
"""Independent check of the serial tests' repeat moments (docs/audit-laws.md, "Serial tests").

For a multiset of values with counts m (T = sum m), every distinct arrangement is equally
likely; D = number of t with X_t = X_{t+1}. Enumerates every arrangement with Python's own
itertools (no shufl code, no formula) and prints the exact mean and variance of D as fractions
and floats, which tests/audit_test.cpp (AuditSerial.*) compares against repeat_moments_of.
"""
from fractions import Fraction
from itertools import permutations


def moments(counts):
    seq = [v for v, m in enumerate(counts) for _ in range(m)]
    seen = set(permutations(seq))
    n = len(seen)
    s1 = sum(sum(a == b for a, b in zip(x, x[1:])) for x in seen)
    s2 = sum(sum(a == b for a, b in zip(x, x[1:])) ** 2 for x in seen)
    mean = Fraction(s1, n)
    var = Fraction(s2, n) - mean * mean
    return mean, var


if __name__ == "__main__":
    for counts in ([3, 2, 1, 1], [4, 4], [2, 2, 2, 2], [5, 1, 1, 1], [3, 3, 2, 1]):
        mean, var = moments(counts)
        print(counts, mean, var, f"{float(mean):.17g}", f"{float(var):.17g}")
