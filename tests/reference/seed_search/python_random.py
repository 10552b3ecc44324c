"""The real CPython random module: for each SEED, random.seed(SEED) once, then DEALS times a fresh
list 0..N-1 shuffled with random.shuffle, printed one deal per line (index 0 first).
Usage: python3 python_random.py N DEALS SEED..."""
import random
import sys

n, deals = int(sys.argv[1]), int(sys.argv[2])
for seed in map(int, sys.argv[3:]):
    random.seed(seed)
    for _ in range(deals):
        x = list(range(n))
        random.shuffle(x)
        print(" ".join(map(str, x)))
