#!/usr/bin/env python3
"""The null law of the change detector's bet on runs (docs/monitor.md, "Replays at any lag"),
computed independently of shufl: for two small packs and a fixed history, the exact probability
(fractions, all n! orders of the next deck equally likely) that some window of L consecutive
cards of the next deck equals an aligned window of a deck in the history, against the union
bound p_r = S·m·p1 the detector bets with, and the exact mean of its e-value
(1 − w) + w·[hit]/p_r for w in {1/64, 1/2}, which must be at most one.
The exact counts are also pinned in tests/audit_replay_runs_test.cpp."""
from fractions import Fraction
from itertools import permutations
import sys


def check(copies, history, expected_hits):
    faces = [f for f, c in enumerate(copies) for _ in range(c)]
    n = len(faces)
    L = min(10, n // 2)
    stored = [tuple(d[i:i + L]) for d in history for i in range(0, n - L + 1, L)]
    m = n - L + 1
    p1 = Fraction(1)
    for t in range(L):
        p1 *= Fraction(min(max(copies), n - t), n - t)
    p_r = len(stored) * m * p1
    hits = 0
    total = 0
    for order in permutations(range(n)):  # card ids: every order has probability 1/n!
        deck = [faces[i] for i in order]
        total += 1
        if any(tuple(deck[i:i + L]) in set(stored) for i in range(m)):
            hits += 1
    prob = Fraction(hits, total)
    print(f"copies {copies}: L = {L}, S = {len(stored)}, m = {m}, p1 = {p1}, p_r = {p_r}, "
          f"exact P(hit) = {hits}/{total} = {float(prob):.6f}")
    ok = prob <= p_r and hits == expected_hits
    for w in (Fraction(1, 64), Fraction(1, 2)):
        mean = (1 - w) + w * prob / p_r
        print(f"  w = {w}: E[e] = {mean} = {float(mean):.6f}")
        ok = ok and mean <= 1
    return ok


ok = check([1] * 6, [[0, 1, 2, 3, 4, 5], [5, 3, 1, 0, 2, 4]], 92)
ok = check([2, 2, 1, 1], [[0, 0, 1, 1, 2, 3]], 128) and ok
sys.exit(0 if ok else 1)
