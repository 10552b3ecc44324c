#!/usr/bin/env python3
"""Independent values for the `shufl bias` verdict cases S01-S07 (issue 11).

Exact enumeration and mpmath only; nothing here reads shufl's output. Run:
    python3 reference.py > reference.txt
The end-to-end tests in tests/e2e_bias_verdict_test.cpp compare against reference.txt.
"""
import itertools
import random
from collections import Counter

import mpmath

mpmath.mp.dps = 50


def ln_fact(n):
    return mpmath.loggamma(n + 1)


def s01_input():
    # The case's generator: a shuffler with 1000 seeds dealing 5000 decks of 52.
    out = []
    for t in range(5000):
        r = random.Random(t % 1000)
        d = list(range(1, 53))
        r.shuffle(d)
        out.append(tuple(d))
    return out


def poisson_ln_upper(k, lam):
    # ln P(X >= k), X ~ Poisson(lam), by the series from the first term.
    first = -lam + k * mpmath.log(lam) - mpmath.loggamma(k + 1)
    s, term, i = mpmath.mpf(1), mpmath.mpf(1), 1
    while True:
        term *= lam / (k + i)
        s += term
        i += 1
        if term < mpmath.mpf(10) ** -40 * s:
            break
    return first + mpmath.log(s)


def main():
    # S01: duplicates (birthday) test. Repeats = draws that repeat an earlier permutation.
    decks = s01_input()
    seen, repeats = set(), 0
    for d in decks:
        repeats += d in seen
        seen.add(d)
    d = len(decks)
    # shufl compares permutations of more than 20 cards by 64-bit fingerprints, so two decks
    # match with probability 1/52! + 2^-64 (its documented model); the floor uses 1/52! alone.
    lam = mpmath.mpf(d) * (d - 1) / 2 * (1 / mpmath.factorial(52) + mpmath.mpf(2) ** -64)
    print(f"S01 repeats {repeats}")
    print(f"S01 duplicates_ln_p {mpmath.nstr(poisson_ln_upper(repeats, lam), 15)}")
    print(f"S01 duplicates_floor {mpmath.nstr(-repeats * ln_fact(52), 15)}")

    # S02: 5 permutations of 3 (4 x "123", 1 x "132"); the exact p of the Pearson statistic
    # over all 6^5 equally likely sequences, X2 increasing in the sum of squared counts.
    perms = list(itertools.permutations(range(3)))
    obs_table = Counter({0: 4, 1: 1})
    obs_ss = sum(c * c for c in obs_table.values())
    at_least = 0
    obs_pos = [[0] * 3 for _ in range(3)]
    for p in [perms[0]] * 4 + [perms[1]]:
        for pos, e in enumerate(p):
            obs_pos[e][pos] += 1
    obs_pos_ss = sum(c * c for row in obs_pos for c in row)
    at_least_pos = 0
    total = 0
    for seq in itertools.product(range(6), repeat=5):
        total += 1
        c = Counter(seq)
        at_least += sum(v * v for v in c.values()) >= obs_ss
        m = [[0] * 3 for _ in range(3)]
        for s in seq:
            for pos, e in enumerate(perms[s]):
                m[e][pos] += 1
        at_least_pos += sum(v * v for row in m for v in row) >= obs_pos_ss
    print(f"S02 table_exact_p {at_least}/{total} = {at_least / total:.6f}")
    print(f"S02 position_exact_p {at_least_pos}/{total} = {at_least_pos / total:.6f}")

    # S03: the smallest Monte-Carlo p-value with B = 50 tables.
    print(f"S03 smallest_mc_p 1/51 = {1 / 51:.6f}")

    # S06: 100 identical identity decks: no outcome of 100 trials is below (1/52!)^100, and the
    # fixed-point sum 5200 is reached only by that outcome, so its p is exactly the floor.
    print(f"S06 floor_100_trials {mpmath.nstr(-100 * ln_fact(52), 15)}")
    # S07: one identity deck: p(52 fixed points) = 1/52!.
    print(f"S07 floor_1_trial {mpmath.nstr(-ln_fact(52), 15)}")


if __name__ == "__main__":
    main()
