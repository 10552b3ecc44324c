"""ASF Software's shuffle as published (Arkin et al., "How We Learned to Cheat at Online Poker",
1999), 1-based as in the Pascal original, on Delphi's Random: RandSeed := RandSeed * $08088405 + 1
(mod 2^32), Random(m) = RandSeed * m shr 32. For each SEED (RandSeed after Randomize), DEALS
shuffles of a fresh deck 1..N, printed 0-based one deal per line.
Usage: python3 asf_poker.py N DEALS SEED..."""
import sys

n, deals = int(sys.argv[1]), int(sys.argv[2])
for seed in map(int, sys.argv[3:]):
    rand_seed = seed % 2**32

    def random(m):
        global rand_seed
        rand_seed = (rand_seed * 0x08088405 + 1) % 2**32
        return (rand_seed * m) >> 32

    for _ in range(deals):
        card = [None] + list(range(1, n + 1))  # card[1..n]
        for ctr in range(1, n + 1):
            random_number = random(n - 1) + 1
            card[ctr], card[random_number] = card[random_number], card[ctr]
        print(" ".join(str(c - 1) for c in card[1:]))
