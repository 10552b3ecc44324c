# An independent reimplementation of the seeded draws of `shufl trace --seed S` (fisher-yates and
# naive), written from the documented contract only: key = BLAKE2b-256(seed); trace key =
# BLAKE2b-256 keyed with it over "trace" 0x00 <stream 0 as 8 LE bytes>; ChaCha20 (64-bit nonce 0,
# counter from 0) read as little-endian 64-bit words; Lemire's bounded integers. Prints the
# "i = .., j = .." of each step and the result line, for comparison with a golden file:
#   python3 tests/golden/trace/independent_check.py fisher-yates 6 7
#   grep -o 'i = [0-9]*, j = [0-9]*' tests/golden/trace/fisher_yates_seed7.out; tail -1 ...
# Needs Python 3 with the `cryptography` package. Not run by ctest.
import hashlib, struct, sys
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
def key_from_seed(s): return hashlib.blake2b(s.encode(), digest_size=32).digest()
def derive_key(k, domain, stream): return hashlib.blake2b(domain.encode()+b'\0'+struct.pack('<Q',stream), digest_size=32, key=k).digest()
def words(key, stream=0):
    nonce = struct.pack('<Q', 0) + struct.pack('<Q', stream)  # counter(8 LE) + nonce(8)
    enc = Cipher(algorithms.ChaCha20(key, nonce), mode=None).encryptor()
    while True:
        block = enc.update(b'\0'*512)
        for i in range(64): yield struct.unpack_from('<Q', block, 8*i)[0]
def below(w, s):
    m = next(w)*s; low = m & (2**64-1)
    if low < s:
        t = (2**64 - s) % s
        while low < t:
            m = next(w)*s; low = m & (2**64-1)
    return m >> 64
algo, n, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
w = words(derive_key(key_from_seed(seed), 'trace', 0))
a = [str(k) for k in range(1, n+1)]
steps = range(n-1, 0, -1) if algo == 'fisher-yates' else range(n)
for i in steps:
    j = below(w, i+1 if algo == 'fisher-yates' else n)
    print(f"i = {i}, j = {j}")
    a[i], a[j] = a[j], a[i]
print("result: " + ' '.join(a))
