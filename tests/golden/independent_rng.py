# The randomness contract of shufl, reimplemented in Python from its documentation only (not
# from the C++ code), for the independent checks of seeded golden files:
#   key = BLAKE2b-256(seed); sub-key = BLAKE2b-256 keyed with key over domain 0x00 <stream, 8 LE>;
#   ChaCha20 (64-bit nonce, block counter from 0) read as little-endian 64-bit words;
#   Lemire's nearly-divisionless bounded integers.
# Needs Python 3 with the `cryptography` package (Debian: python3-cryptography).
import hashlib, struct
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
