#!/usr/bin/python3
"""Independent check of position-pairs (docs/audit-laws.md, "Pairs of positions"): enumerates
every permutation of n cards (itertools, no shufl code), builds the exact null mean and
covariance of the lag-k pair table X_ab = #{i : card a at i, card b at i+k} of one deck in
fractions, and computes the Wald statistic (x - T mu)' (T Sigma)^+ (x - T mu) of a few fixed
decks with numpy's generic pseudo-inverse, and its rank (the df). tests/audit_pairs_test.cpp
(AuditPairs.WaldMatchesEnumeration) compares shufl's closed form with the values printed here."""
from fractions import Fraction
from itertools import permutations

import numpy as np


def cells(n):
    return [(a, b) for a in range(n) for b in range(n) if a != b]


def table(d, k, index):
    x = [0] * len(index)
    for i in range(len(d) - k):
        x[index[(d[i], d[i + k])]] += 1
    return x


def moments(n, k):
    cs = cells(n)
    index = {c: j for j, c in enumerate(cs)}
    m = len(cs)
    s1 = [0] * m
    s2 = [[0] * m for _ in range(m)]
    count = 0
    for d in permutations(range(n)):
        x = table(d, k, index)
        nz = [j for j in range(m) if x[j]]
        for j in nz:
            s1[j] += x[j]
            for l in nz:
                s2[j][l] += x[j] * x[l]
        count += 1
    mu = [Fraction(v, count) for v in s1]
    cov = [[Fraction(s2[j][l], count) - mu[j] * mu[l] for l in range(m)] for j in range(m)]
    return index, mu, cov


DECKS = {
    6: [[0, 1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0], [1, 3, 5, 0, 2, 4], [2, 0, 4, 1, 5, 3], [3, 5, 1, 4, 0, 2]],
    7: [[0, 1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1, 0], [1, 3, 5, 0, 2, 4, 6], [2, 0, 4, 6, 1, 5, 3],
        [3, 6, 1, 4, 0, 2, 5], [4, 2, 6, 0, 5, 3, 1]],
}


def main():
    for n in (6, 7):
        for k in (1, 2):
            index, mu, cov = moments(n, k)
            S = np.array([[float(v) for v in row] for row in cov])
            rank = np.linalg.matrix_rank(S, tol=1e-10)
            # The closed-form covariance of docs/audit-laws.md, checked entry by entry.
            f3 = Fraction(max(n - 2 * k, 0), n * (n - 1) * (n - 2))
            f4 = Fraction((n - k) ** 2 - (n - k) - 2 * max(n - 2 * k, 0), n * (n - 1) * (n - 2) * (n - 3))
            m1 = Fraction(n - k, n * (n - 1))
            for (a, b), j in index.items():
                for (c, d), l in index.items():
                    if (a, b) == (c, d):
                        e = m1
                    elif len({a, b, c, d}) == 4:
                        e = f4
                    elif b == c and a != d:
                        e = f3
                    elif a == d and b != c:
                        e = f3
                    else:
                        e = 0
                    assert cov[j][l] == e - m1 * m1, (n, k, a, b, c, d)
            decks = DECKS[n]
            T = len(decks)
            x = np.zeros(len(index))
            for d in decks:
                x += np.array(table(d, k, index), dtype=float)
            y = x - T * np.array([float(v) for v in mu])
            q = float(y @ np.linalg.pinv(T * S, rcond=1e-10) @ y)
            print(f"n={n} k={k}: rank {rank} (n(n-1)-1 = {n * (n - 1) - 1}), covariance closed form matches, "
                  f"Wald of {T} decks {q:.12f}")


if __name__ == "__main__":
    main()
