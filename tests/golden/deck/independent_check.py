# An independent reimplementation of `shufl deck --deal 4x5 --seed S` (default chacha20), written
# from the documented contract only: key = BLAKE2b-256(seed); deck key = BLAKE2b-256 keyed with it
# over "deck" 0x00 <stream 0 as 8 LE bytes>; ChaCha20 (64-bit nonce = 0, counter from 0) read as
# little-endian 64-bit words; Lemire's bounded integers; Fisher-Yates (Durstenfeld) over the
# canonical order (suits s h d c, ranks A 2..9 T J Q K); dealt round the table.
# Needs Python 3 with the `cryptography` package. Not run by ctest; used to check the golden:
#   python3 tests/golden/deck/independent_check.py 7 | diff - tests/golden/deck/deal_4x5_seed7.out
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
