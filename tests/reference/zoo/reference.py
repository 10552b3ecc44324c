#!/usr/bin/env python3
"""Independent exact laws of the machine and hand shuffles (thorp, shelf, overhand, pile, cut, sequences)
for small decks, written from the definitions with Python lists and fractions (no shufl code).

Each shuffle is modelled as a function from a deck (a tuple, top card first) to its law (a dict
deck -> Fraction); passes and sequences compose laws. Writes laws.json in the format of
tests/reference/exact_distributions.json (decks written as the cards at positions 1..n, the input
deck being 1..n). Also prints the reachable-order counts of pile:K and the overhand's packet-size
law. Run: python3 reference.py > /dev/null (writes laws.json next to this file).
"""
import itertools
import json
import math
import os
import sys
from fractions import Fraction


def shelf(m):
    """DFH shelf shuffler, one pass: cards fed from the bottom of the deck one at a time; each to a
    uniformly random one of m shelves, on top of or under that shelf's pile (1/2 each); then the
    piles are stacked with shelf 1's pile on top."""
    def law(deck):
        out = {}
        n = len(deck)
        weight = Fraction(1, (2 * m) ** n)
        for choices in itertools.product(range(m), (False, True), repeat=n) if False else \
                itertools.product(list(itertools.product(range(m), (False, True))), repeat=n):
            piles = [[] for _ in range(m)]
            for card, (s, under) in zip(reversed(deck), choices):  # fed from the bottom
                if under:
                    piles[s].append(card)      # a pile is listed top first
                else:
                    piles[s].insert(0, card)
            result = tuple(c for p in piles for c in p)
            out[result] = out.get(result, 0) + weight
        return out
    return law


def overhand(q):
    """Pemantle's overhand: each of the n-1 gaps a cut point with probability q, independently;
    packets stacked in reverse order, each keeping its order."""
    def law(deck):
        out = {}
        n = len(deck)
        for cuts in itertools.product((False, True), repeat=max(n - 1, 0)):
            w = Fraction(1)
            for c in cuts:
                w *= q if c else 1 - q
            if w == 0:
                continue
            packets, cur = [], [deck[0]]
            for i, c in enumerate(cuts):
                if c:
                    packets.append(cur)
                    cur = []
                cur.append(deck[i + 1])
            packets.append(cur)
            result = tuple(c for p in reversed(packets) for c in p)
            out[result] = out.get(result, 0) + w
        return out
    return law


def pile(k):
    """Deal round the table into k piles (each card on top of its pile), gather the piles in a
    uniformly random order."""
    def law(deck):
        piles = [[] for _ in range(k)]
        for i, card in enumerate(deck):
            piles[i % k].insert(0, card)
        piles = [p for p in piles if p]
        orders = list(itertools.permutations(range(len(piles))))
        out = {}
        for o in orders:
            result = tuple(c for j in o for c in piles[j])
            out[result] = out.get(result, 0) + Fraction(1, len(orders))
        return out
    return law


def thorp(deck):
    """Thorp: cut exactly in half (the top half has the extra card when n is odd); for each i a
    fair coin decides whether the i-th card of the top half or of the bottom half comes first."""
    n = len(deck)
    h = (n + 1) // 2
    top, bottom = deck[:h], deck[h:]
    out = {}
    for coins in itertools.product((False, True), repeat=n // 2):
        result = []
        for i, bottom_first in enumerate(coins):
            result += [bottom[i], top[i]] if bottom_first else [top[i], bottom[i]]
        result += top[n // 2:]
        result = tuple(result)
        out[result] = out.get(result, 0) + Fraction(1, 2 ** (n // 2))
    return out


def cut(deck):
    n = len(deck)
    out = {}
    for c in range(n):
        result = tuple(deck[c:] + deck[:c])
        out[result] = out.get(result, 0) + Fraction(1, n)
    return out


def riffle_law(n, k):
    """GSR riffle k times by the Bayer-Diaconis formula: C(2^k + n - r, n) / 2^(kn), r the number
    of rising sequences of the resulting deck."""
    out = {}
    for perm in itertools.permutations(range(1, n + 1)):
        pos = {c: i for i, c in enumerate(perm)}
        r = 1 + sum(1 for c in range(1, n) if pos[c + 1] < pos[c])
        p = Fraction(math.comb(2 ** k + n - r, n), 2 ** (k * n))
        if p:
            out[perm] = p
    return out


def then(law, step):
    """The law of `step` applied after `law`."""
    out = {}
    for deck, p in law.items():
        for d2, p2 in step(deck).items():
            out[d2] = out.get(d2, 0) + p * p2
    return out


def passes(step, times, n):
    law = {tuple(range(1, n + 1)): Fraction(1)}
    for _ in range(times):
        law = then(law, step)
    return law


def text(f):
    f = Fraction(f)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def case(name, n, law):
    assert sum(law.values()) == 1, name
    perms = list(itertools.permutations(range(1, n + 1)))
    u = Fraction(1, len(perms))
    tv = sum(abs(law.get(p, 0) - u) for p in perms) / 2
    matrix = [[Fraction(0)] * n for _ in range(n)]
    for deck, p in law.items():
        for pos, card in enumerate(deck):
            matrix[card - 1][pos] += p
    return {
        "algorithm": name, "n": n,
        "probability": {"".join(map(str, p)): text(law.get(p, 0)) for p in perms},
        "total_variation_distance": text(tv),
        "reachable_orders": sum(1 for p in perms if law.get(p, 0) != 0),
        "position_matrix_element_by_position": [[text(x) for x in row] for row in matrix],
    }


def main():
    cases = []
    for n in range(2, 7):
        cases.append(case("shelf:2", n, passes(shelf(2), 1, n)))
        cases.append(case("shelf:3", n, passes(shelf(3), 1, n)))
        cases.append(case("overhand:0.5", n, passes(overhand(Fraction(1, 2)), 1, n)))
        cases.append(case("pile:2", n, passes(pile(2), 1, n)))
        cases.append(case("pile:3", n, passes(pile(3), 1, n)))
        cases.append(case("cut", n, passes(cut, 1, n)))
        cases.append(case("thorp:1", n, passes(thorp, 1, n)))
        cases.append(case("thorp:3", n, passes(thorp, 3, n)))
    for n in range(2, 6):
        cases.append(case("shelf:2x2", n, passes(shelf(2), 2, n)))
        cases.append(case("overhand:0.3", n, passes(overhand(Fraction(3, 10)), 1, n)))
        cases.append(case("overhand:0.5x3", n, passes(overhand(Fraction(1, 2)), 3, n)))
        if n <= 3:  # shufl enumerates riffle paths one drop draw at a time: (2^n n!)^3 paths
            cases.append(case("riffle:3+cut", n, then(riffle_law(n, 3), cut)))
        cases.append(case("riffle:1+cut", n, then(riffle_law(n, 1), cut)))
        cases.append(case("pile:2+cut", n, then(passes(pile(2), 1, n), cut)))
        cases.append(case("overhand:0.5+riffle:1", n, then(passes(overhand(Fraction(1, 2)), 1, n),
                                                           lambda d: {tuple(d[i - 1] for i in p): w
                                                                      for p, w in riffle_law(n, 1).items()})))
    doc = {
        "convention": "the input deck is 1..n in order; a deck is written as the card at position 1, 2, ..., n "
                      "after shuffling; probabilities are exact fractions; reachable_orders counts the decks of "
                      "nonzero probability",
        "source": "tests/reference/zoo/reference.py (Python lists and fractions from the definitions)",
        "cases": cases,
    }
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "laws.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    # Reachable orders of pile:K on 8 cards: min(K, 8)!.
    for k in range(1, 10):
        law = passes(pile(k), 1, 8)
        print(f"pile:{k} on 8 cards reaches {len(law)} orders (min(K, 8)! = {math.factorial(min(k, 8))})")
    # The overhand's packet-size law: the top packet has l cards with probability (1-Q)^(l-1) Q for
    # l < n and (1-Q)^(n-1) for l = n (a geometric law truncated at n).
    q, n = Fraction(3, 10), 6
    sizes = {}
    for cuts in itertools.product((False, True), repeat=n - 1):
        w = Fraction(1)
        for c in cuts:
            w *= q if c else 1 - q
        l = next((i + 1 for i, c in enumerate(cuts) if c), n)
        sizes[l] = sizes.get(l, 0) + w
    for l in range(1, n + 1):
        expected = (1 - q) ** (l - 1) * (q if l < n else 1)
        assert sizes[l] == expected
        print(f"overhand:0.3 on {n}: top packet of {l}: {text(sizes[l])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
