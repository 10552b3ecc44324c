#!/usr/bin/python3
"""Independent check of permutation-3 and permutation-4 (docs/audit-laws.md, "Knuth's permutation
test"): enumerates every permutation of n cards with Python's itertools (no shufl code) and
counts the joint relative orders of the disjoint t-tuples of positions. Each joint pattern must
be equally frequent (the tuples' orders uniform and independent), so the counts over decks are
exactly multinomial. Prints the Lehmer code of every order of 0..t-1, which
tests/audit_serial_test.cpp (AuditPermutation.*) compares with permutation_pattern3/4."""
from collections import Counter
from itertools import permutations
from math import factorial


def lehmer(v):
    t = len(v)
    return sum(sum(v[j] < v[i] for j in range(i + 1, t)) * factorial(t - 1 - i) for i in range(t))


def check(n, t):
    blocks = n // t
    joint = Counter()
    for d in permutations(range(n)):
        joint[tuple(lehmer(d[b * t:(b + 1) * t]) for b in range(blocks))] += 1
    k = factorial(t) ** blocks
    assert len(joint) == k and len(set(joint.values())) == 1, (n, t)
    print(f"n={n} t={t}: {blocks} tuples, {k} joint patterns, each {factorial(n) // k} decks")


if __name__ == "__main__":
    for t in (3, 4):
        for order in permutations(range(t)):
            print(t, order, lehmer(order))
    check(7, 3)
    check(8, 4)
    check(9, 3)
