#!/usr/bin/python3
"""Independent check of the gap test (docs/audit-laws.md, "Gaps"): enumerates every order of a
small pack (itertools, no shufl code), histograms the gaps between consecutive cards of one suit
(lengths 0..B-1 one bin each, B or more the last), and builds the histogram's exact null mean and
covariance in fractions, checked against the closed form of docs/audit-laws.md. Prints the Wald
statistic of fixed decks (numpy's generic pseudo-inverse) and the rank, which
tests/audit_pairs_test.cpp (AuditGap.WaldMatchesEnumeration) compares with shufl's."""
from fractions import Fraction
from itertools import permutations
from math import comb

import numpy as np


def gaps(deck, suit_of, suit):
    pos = [i for i, c in enumerate(deck) if suit_of[c] == suit]
    return [pos[j + 1] - pos[j] - 1 for j in range(len(pos) - 1)]


def hist(deck, suit_of, suit, B):
    h = [0] * (B + 1)
    for g in gaps(deck, suit_of, suit):
        h[min(g, B)] += 1
    return h


def closed(n, s, B):
    """Mean and covariance per deck from P(j) = C(n-j-1, s-1)/C(n, s) and
    P2(i, j) = C(n-i-j-2, s-2)/C(n, s)."""
    m = s - 1
    P = [Fraction(comb(n - j - 1, s - 1), comb(n, s)) for j in range(n)]
    bins = lambda j: min(j, B)
    p = [Fraction(0)] * (B + 1)
    for j in range(n):
        p[bins(j)] += P[j]
    p2 = [[Fraction(0)] * (B + 1) for _ in range(B + 1)]
    for i in range(n):
        for j in range(n):
            if n - i - j - 2 >= 0 and s >= 2:
                p2[bins(i)][bins(j)] += Fraction(comb(n - i - j - 2, s - 2), comb(n, s))
    mean = [m * x for x in p]
    cov = [[(m * p[a] if a == b else 0) + m * (m - 1) * p2[a][b] - m * m * p[a] * p[b] for b in range(B + 1)]
           for a in range(B + 1)]
    return mean, cov


SUITS = [0, 0, 0, 1, 1, 1, 2, 2]  # 8 cards: suits of 3, 3 and 2 cards
DECKS = [[0, 1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1, 0], [0, 3, 6, 1, 4, 7, 2, 5], [3, 0, 4, 6, 1, 5, 2, 7],
         [6, 7, 0, 3, 1, 4, 2, 5], [1, 6, 2, 7, 3, 5, 0, 4], [4, 0, 5, 1, 6, 2, 7, 3]]


def main():
    n = len(SUITS)
    for suit, B in ((0, 2), (0, 3), (1, 4), (2, 3)):
        s = SUITS.count(suit)
        count = 0
        s1 = np.zeros(B + 1, dtype=object)
        s2 = np.zeros((B + 1, B + 1), dtype=object)
        for d in permutations(range(n)):
            h = np.array(hist(d, SUITS, suit, B), dtype=object)
            s1 += h
            s2 += np.outer(h, h)
            count += 1
        mean = [Fraction(int(v), count) for v in s1]
        cov = [[Fraction(int(s2[a][b]), count) - mean[a] * mean[b] for b in range(B + 1)] for a in range(B + 1)]
        cm, cc = closed(n, s, B)
        assert cm == mean and cc == cov, (suit, B)
        T = len(DECKS)
        x = np.zeros(B + 1)
        for d in DECKS:
            x += np.array(hist(d, SUITS, suit, B), dtype=float)
        y = x - T * np.array([float(v) for v in mean])
        S = T * np.array([[float(v) for v in row] for row in cov])
        rank = np.linalg.matrix_rank(S, tol=1e-12)
        q = float(y @ np.linalg.pinv(S, rcond=1e-12) @ y)
        print(f"suit {suit} ({s} cards of {n}), last bin {B}: closed form matches, rank {rank}, "
              f"histogram {[int(v) for v in x]}, Wald of {T} decks {q:.12f}")


if __name__ == "__main__":
    main()
