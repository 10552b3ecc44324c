#!/usr/bin/env python3
"""Monte-Carlo simulation, independent of shufl, of the guessing test of Diaconis, Fulman and
Holmes ("Analysis of casino shelf shuffling machines", Ann. Appl. Probab. 23(4), 2013) for the
shelf shuffler with M shelves on a 52-card deck.

A guesser names the cards one at a time from the top, being shown each card after the guess.
Strategy ("original successor"): guess card 1 first; after card c is shown, guess c + 1 if it has
not been seen, else the smallest unseen card above c, else the largest unseen card below c.
Strategy "shelf" (following the rising and falling runs a shelf pass leaves): guess card 1 first;
after card c is shown, if c is above the card shown before it (or is the first card) guess the
smallest unseen card above c, else the largest unseen below; if c is below the card before it,
guess the largest unseen card below c, else the smallest unseen above.
Prints the mean number of correct guesses per deck with its standard error for both strategies
(DFH report about 9.3 for ten shelves with their strategy; for a uniform deck any strategy
averages H_52 ~ 4.54).

Usage: guessing.py [DECKS=20000] [SHELVES=10] [PASSES=1] [SEED=1]
"""
import random
import statistics
import sys


def shelf_pass(deck, m, rng):
    # Fed from the bottom one at a time; each card to a uniform shelf, on top or under (1/2 each);
    # piles stacked with shelf 1 on top.
    piles = [[] for _ in range(m)]
    for card in reversed(deck):
        s = rng.randrange(m)
        if rng.randrange(2):
            piles[s].append(card)
        else:
            piles[s].insert(0, card)
    return [c for p in piles for c in p]


def correct_guesses(deck):
    n = len(deck)
    unseen = set(range(1, n + 1))
    guess, right = 1, 0
    for card in deck:
        right += guess == card
        unseen.discard(card)
        if not unseen:
            break
        if card + 1 in unseen:
            guess = card + 1
        else:
            above = [u for u in unseen if u > card]
            guess = min(above) if above else max(u for u in unseen if u < card)
    return right


def shelf_guesses(deck):
    unseen = set(range(1, len(deck) + 1))
    guess, right, previous = 1, 0, None
    for card in deck:
        right += guess == card
        unseen.discard(card)
        if not unseen:
            break
        above = [u for u in unseen if u > card]
        below = [u for u in unseen if u < card]
        if previous is None or card > previous:
            guess = min(above) if above else max(below)
        else:
            guess = max(below) if below else min(above)
        previous = card
    return right


def main():
    decks = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    m = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    passes = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    shelved, uniform = [], []
    for _ in range(decks):
        deck = list(range(1, 53))
        for _ in range(passes):
            deck = shelf_pass(deck, m, rng)
        shelved.append(deck)
    for _ in range(decks):
        deck = list(range(1, 53))
        rng.shuffle(deck)
        uniform.append(deck)
    h52 = sum(1 / k for k in range(1, 53))
    for name, strategy in (("original successor", correct_guesses), ("shelf", shelf_guesses)):
        for what, sample in ((f"shelf:{m}x{passes}", shelved), ("uniform", uniform)):
            scores = [strategy(d) for d in sample]
            se = statistics.stdev(scores) / len(scores) ** 0.5
            print(f"{name:<18} {what:<12} {decks} decks of 52: mean correct guesses {statistics.mean(scores):.3f} "
                  f"(standard error {se:.3f})")
    print(f"H_52 = {h52:.3f}")


if __name__ == "__main__":
    main()
