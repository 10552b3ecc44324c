# Independent check of seeded `shufl lines -n K` (the skip-based reservoir sampler), written from
# its documentation in include/shufl/lines/sampling.hpp, not from the C++ code: every record gets
# a key in (0, 1); the K smallest keys win; after the first K, the number of records passed over
# is floor(ln u / ln(1 - W)) with W the largest key kept, computed with the documented
# deterministic logarithm (only + - * / on binary64, which Python floats are); the entering
# record's key is W*u'. Output: Fisher-Yates (i from n-1 down, j below i+1) on stream 1.
# Usage: independent_sample.py SEED K < input   (prints the sample)
import sys, os, heapq
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from independent_rng import key_from_seed, derive_key, words, below
import struct

def open_unit(w): return float((w >> 12) * 2 + 1) * 2.0**-53

def det_log(x):
    bits = struct.unpack('<Q', struct.pack('<d', x))[0]
    e = ((bits >> 52) & 0x7FF) - 1023
    m = struct.unpack('<d', struct.pack('<Q', (bits & ((1 << 52) - 1)) | (0x3FF << 52)))[0]
    if m > float.fromhex('0x1.6A09E667F3BCDp+0'):
        m *= 0.5; e += 1
    f = m - 1.0
    s = f / (2.0 + f)
    z = s * s
    p = 1.0 / 25.0
    for d in (23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3):
        p = p * z + 1.0 / d
    two_s = 2.0 * s
    ln_m = two_s + two_s * (z * p)
    de = float(e)
    return de * float.fromhex('0x1.62E42FEFp-1') + (ln_m + de * float.fromhex('0x1.473DE6AF278EDp-34'))

def log1m(p):
    u = 1.0 - p
    if u == 1.0: return -p
    return (det_log(u) * -p) / (u - 1.0)

def skip(u, p):
    if p >= 1.0: return 0
    x = det_log(u) / log1m(p)
    return int(x) if x < 2.0**64 else 2**64 - 1

def main():
    seed, k = sys.argv[1], int(sys.argv[2])
    records = sys.stdin.buffer.read().split(b'\n')
    if records and records[-1] == b'': records.pop()
    key = derive_key(key_from_seed(seed), 'lines/sample', 0)
    w = words(key, 0)
    slots, heap = [], []  # heap of (-key, -slot): the largest (key, slot) on top
    i = 0
    while i < len(records) and len(slots) < k:
        heapq.heappush(heap, (-open_unit(next(w)), -len(slots))); slots.append(records[i]); i += 1
    while i < len(records):
        W = -heap[0][0]
        i += skip(open_unit(next(w)), W)
        if i >= len(records): break
        key_new = W * open_unit(next(w))
        _, neg_slot = heapq.heappop(heap)
        heapq.heappush(heap, (-key_new, neg_slot))
        slots[-neg_slot] = records[i]; i += 1
    order = words(key, 1)
    for j in range(len(slots) - 1, 0, -1):
        r = below(order, j + 1); slots[j], slots[r] = slots[r], slots[j]
    sys.stdout.buffer.write(b''.join(s + b'\n' for s in slots))

if __name__ == '__main__':
    main()
