# An independent reimplementation of `shufl deck --deal 4x5 --seed S` (default chacha20), written
# from the documented contract only: key = BLAKE2b-256(seed); deck key = BLAKE2b-256 keyed with it
# over "deck" 0x00 <stream 0 as 8 LE bytes>; ChaCha20 (64-bit nonce = 0, counter from 0) read as
# little-endian 64-bit words; Lemire's bounded integers; Fisher-Yates (Durstenfeld) over the
# canonical order (suits s h d c, ranks A 2..9 T J Q K); dealt round the table.
# Needs Python 3 with the `cryptography` package. Run by ctest (golden.independent); by hand:
#   python3 tests/golden/deck/independent_check.py 7 | diff - tests/golden/deck/deal_4x5_seed7.out
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from independent_rng import below, derive_key, key_from_seed, words
def shuffle(n, seed):
    w = words(derive_key(key_from_seed(seed), 'deck', 0))
    a = list(range(n))
    for i in range(n-1, 0, -1):
        j = below(w, i+1); a[i], a[j] = a[j], a[i]
    return a
ranks = ['A','2','3','4','5','6','7','8','9','T','J','Q','K']
deck = [r+s for s in 'shdc' for r in ranks]
order = [deck[i] for i in shuffle(52, sys.argv[1])]
h, c = 4, 5
hands = [[order[r*h+k] for r in range(c)] for k in range(h)]
for k in range(h): print(f"hand {k+1}: " + ' '.join(hands[k]))
print("stock: " + ' '.join(order[h*c:]))
