#!/usr/bin/python3
"""The attribution table of docs/audit.md: for each planted flaw (decks made here with Python's
own generator, the flaws of shufl's end-to-end tests) and some algorithms of the zoo, which
tests of `shufl audit` fail. Usage: bench/audit_attribution.py path/to/shufl"""
import json
import os
import random
import subprocess
import sys
import tempfile

SHUFL = sys.argv[1] if len(sys.argv) > 1 else "build/shufl"
RANKS, SUITS = "A23456789TJQK", "shdc"


def code(k):
    return RANKS[k % 13] + SUITS[k // 13]


def planted(make, decks, seed):
    rng = random.Random(seed)
    out, prev = [], None
    for t in range(decks):
        prev = make(rng, t, prev)
        out.append(" ".join(code(k) for k in prev))
    return "\n".join(out) + "\n"


def fresh(rng):
    d = list(range(52))
    rng.shuffle(d)
    return d


def rotated(rng, t, prev):  # the previous deck again, cut by one card, 2% of the time
    if t and rng.random() < 0.02:
        return prev[1:] + prev[:1]
    return fresh(rng)


def kept_top(rng, t, prev):  # the previous deck's top card kept on top half the time
    d = fresh(rng)
    if t and rng.random() < 0.5:
        i = d.index(prev[0])
        d[0], d[i] = d[i], d[0]
    return d


def glued(rng, t, prev):  # card c+1 moved right below a random card c in 20% of the decks
    d = fresh(rng)
    if rng.random() < 0.2:
        c = rng.randrange(51)
        d.remove(c + 1)
        d.insert(d.index(c) + 1, c + 1)
    return d


def stuck(rng, t, prev):  # the ace of spades on top in 30% of the decks, independently
    d = fresh(rng)
    if rng.random() < 0.3:
        i = d.index(0)
        d[0], d[i] = d[i], d[0]
    return d


def failed(args, text=None):
    r = subprocess.run([SHUFL, "audit", *args, "--format", "json"], input=text, capture_output=True, text=True, check=True)
    return [t["name"] for t in json.loads(r.stdout)["tests"] if t["result"] == "fail"]


rows = []
with tempfile.TemporaryDirectory() as tmp:
    for name, make, decks in (("previous deck again, cut by one, 2% of the time", rotated, 5000),
                              ("previous top card kept on top half the time", kept_top, 5000),
                              ("an original pair glued in 20% of the decks", glued, 5000),
                              ("a stuck card: ace of spades on top in 30% of the decks", stuck, 5000)):
        path = os.path.join(tmp, "d.txt")
        with open(path, "w") as f:
            f.write(planted(make, decks, 1))
        rows.append((name, decks, failed([path])))
    for algo in ("riffle:3", "riffle:4", "naive", "asf-poker", "shelf:10", "overhand:0.5", "fisher-yates"):
        rows.append((f"`--algo {algo}`", 20000, failed(["--algo", algo, "--trials", "20000", "--seed", "1"])))
print("| flaw | decks | tests that fail (alpha 0.01, Holm) |")
print("|---|---|---|")
for name, decks, names in rows:
    print(f"| {name} | {decks:,} | {', '.join('`' + n + '`' for n in names) or 'none'} |")
