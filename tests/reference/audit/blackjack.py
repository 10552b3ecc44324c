#!/usr/bin/env python3
"""Exact laws of blackjack's first two cards, independent of shufl: for a shoe of K standard
52-card packs (K = 1..8), every ordered pair of two different cards of the shoe is enumerated card
by card (not by a formula over ranks), classified by the rules below, and counted with exact
fractions. Writes blackjack.json: per K, the denominator 52K(52K-1) (ordered pairs of cards) and
per class label its numerator and the reduced fraction.

Classes (the precedence shufl documents): "natural" = an Ace and a ten-value card (10, J, Q, K);
"pair" = the same rank (10-K is not a pair: split rules use the rank); "soft 13".."soft 20" = an
Ace and a 2..9 (A-A is a pair); "hard 5".."hard 20" = two non-Aces of different ranks, by total
(ten-value cards count 10).

Usage: blackjack.py > blackjack.json
"""
import json
from fractions import Fraction

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


def value(rank):
    if rank == "A":
        return 11
    return 10 if rank in "TJQK" else int(rank)


def classify(a, b):
    if {a, b} & {"A"} and (value(a) == 10 or value(b) == 10):
        return "natural"
    if a == b:
        return "pair"
    if a == "A" or b == "A":
        return f"soft {value(a) + value(b)}"
    return f"hard {value(a) + value(b)}"


def main():
    out = {}
    for k in range(1, 9):
        shoe = [r for _ in range(k) for _suit in range(4) for r in RANKS]
        counts = {}
        n = len(shoe)
        # Ordered pairs of positions i != j of the shoe's cards: grouped by rank to stay fast, but
        # by counting cards, not by the rank formula: for each card i, every other card j.
        by_rank = {r: shoe.count(r) for r in RANKS}
        for a in RANKS:
            for b in RANKS:
                pairs = by_rank[a] * (by_rank[b] - (1 if a == b else 0))
                if pairs:
                    c = classify(a, b)
                    counts[c] = counts.get(c, 0) + pairs
        total = n * (n - 1)
        assert sum(counts.values()) == total
        # A brute-force cross-check on the smallest shoe: every ordered pair of card objects.
        if k == 1:
            brute = {}
            for i in range(n):
                for j in range(n):
                    if i != j:
                        c = classify(shoe[i], shoe[j])
                        brute[c] = brute.get(c, 0) + 1
            assert brute == counts
        out[str(k)] = {
            "denominator": total,
            "classes": {c: {"numerator": v, "fraction": str(Fraction(v, total))} for c, v in sorted(counts.items())},
        }
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
