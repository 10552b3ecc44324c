# An independent reimplementation of the seeded draws of `shufl trace --seed S` (fisher-yates and
# naive), written from the documented contract only: key = BLAKE2b-256(seed); trace key =
# BLAKE2b-256 keyed with it over "trace" 0x00 <stream 0 as 8 LE bytes>; ChaCha20 (64-bit nonce 0,
# counter from 0) read as little-endian 64-bit words; Lemire's bounded integers. Prints the
# "i = .., j = .." of each step and the result line, for comparison with a golden file:
#   python3 tests/golden/trace/independent_check.py fisher-yates 6 7
#   grep -o 'i = [0-9]*, j = [0-9]*' tests/golden/trace/fisher_yates_seed7.out; tail -1 ...
# Needs Python 3 with the `cryptography` package. Run by ctest (golden.independent).
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from independent_rng import below, derive_key, key_from_seed, words
algo, n, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
w = words(derive_key(key_from_seed(seed), 'trace', 0))
a = [str(k) for k in range(1, n+1)]
steps = range(n-1, 0, -1) if algo == 'fisher-yates' else range(n)
for i in steps:
    j = below(w, i+1 if algo == 'fisher-yates' else n)
    print(f"i = {i}, j = {j}")
    a[i], a[j] = a[j], a[i]
print("result: " + ' '.join(a))
