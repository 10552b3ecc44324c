# Independent check of the seeded sampler modes of `shufl lines` (issue 17), written from their
# documentation in include/shufl/lines/modes.hpp, not from the C++ code. Uses the documented
# deterministic logarithm of independent_sample.py (only + - * / on binary64, as Python floats).
# Usage (input on stdin, records end with '\n', fields separated by TAB):
#   independent_modes.py prob SEED P               Bernoulli with geometric skips
#   independent_modes.py distinct SEED P FIELD     SipHash-2-4 of the key field below floor(P*2^64)
#   independent_modes.py weighted SEED K|all FIELD Efraimidis-Spirakis keys with A-ExpJ jumps
#   independent_modes.py replace SEED K [FIELD]    with replacement, uniform or weighted
import sys, os, heapq, bisect, struct
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from independent_rng import key_from_seed, derive_key, words, below
from independent_sample import open_unit, det_log, skip

M = 2**64 - 1
def rotl(x, b): return ((x << b) | (x >> (64 - b))) & M
def siphash24(k, m):
    k0, k1 = struct.unpack('<QQ', k)
    v0, v1, v2, v3 = k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d, k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573
    def rnd():
        nonlocal v0, v1, v2, v3
        v0 = (v0 + v1) & M; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
        v2 = (v2 + v3) & M; v3 = rotl(v3, 16); v3 ^= v2
        v0 = (v0 + v3) & M; v3 = rotl(v3, 21); v3 ^= v0
        v2 = (v2 + v1) & M; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)
    b = len(m)
    tail = m[b - b % 8:] + b'\0' * (7 - b % 8) + bytes([b & 0xff])
    for i in range(0, b - b % 8, 8):
        mi = struct.unpack_from('<Q', m, i)[0]; v3 ^= mi; rnd(); rnd(); v0 ^= mi
    mi = struct.unpack('<Q', tail)[0]; v3 ^= mi; rnd(); rnd(); v0 ^= mi
    v2 ^= 0xff
    for _ in range(4): rnd()
    return v0 ^ v1 ^ v2 ^ v3

def records():
    rs = sys.stdin.buffer.read().split(b'\n')
    if rs and rs[-1] == b'': rs.pop()
    return rs

def field(r, f): return r.split(b'\t')[f - 1]

def main():
    mode, seed = sys.argv[1], sys.argv[2]
    root = key_from_seed(seed)
    rs = records()
    out = []
    if mode == 'prob':
        p = float(sys.argv[3]); w = words(derive_key(root, 'lines/bernoulli', 0), 0); i = 0
        while True:
            i += skip(open_unit(next(w)), p)
            if i >= len(rs): break
            out.append(rs[i]); i += 1
    elif mode == 'distinct':
        p, f = float(sys.argv[3]), int(sys.argv[4])
        hk = derive_key(root, 'lines/distinct', 0)[:16]
        t = int(p * 2.0**64)
        out = [r for r in rs if p >= 1 or siphash24(hk, field(r, f)) < t]
    elif mode == 'weighted':
        k = 2**64 if sys.argv[3] == 'all' else int(sys.argv[3]); f = int(sys.argv[4])
        w = words(derive_key(root, 'lines/weighted', 0), 0)
        U = lambda: open_unit(next(w))
        E = lambda: -det_log(U())
        heap = []  # entries (zero, key, position) as a max-heap of negatives
        def top(): z, key, pos = heap[0]; return (-z, -key, -pos)
        jump = None
        for pos, r in enumerate(rs):
            wt = float(field(r, f))
            if len(heap) < k:
                e = (0, E() / wt, pos) if wt > 0 else (1, U(), pos)
                heapq.heappush(heap, (-e[0], -e[1], -e[2])); continue
            t = top()
            if t[0] == 1:
                e = (0, E() / wt, pos) if wt > 0 else (1, U(), pos)
                if e < t: heapq.heapreplace(heap, (-e[0], -e[1], -e[2]))
                continue
            if wt == 0: continue
            tau = t[1]
            if jump is None: jump = E() / tau
            if jump >= wt: jump -= wt; continue
            offset, jump = jump, None
            if wt * tau >= 1.0:
                while True:
                    key = E() / wt
                    if key < tau: break
            else:
                key = U() * tau; rest = wt - offset
                while True:
                    gap = E() / tau
                    if gap >= rest: break
                    rest -= gap; key = min(key, U() * tau)
            heapq.heapreplace(heap, (0, -key, -pos))
        out = [rs[-e[2]] for e in sorted(heap, key=lambda e: (-e[0], -e[1], -e[2]))]
    elif mode == 'replace':
        k = int(sys.argv[3]); w = words(derive_key(root, 'lines/with-replacement', 0), 0)
        if len(sys.argv) > 4:
            f = int(sys.argv[4]); ws = [float(field(r, f)) for r in rs]
            run, tot = [], 0.0
            for x in ws: tot += x; run.append(tot)
            for _ in range(k):
                t = open_unit(next(w)) * tot
                out.append(rs[min(bisect.bisect_right(run, t), len(rs) - 1)])
        else:
            out = [rs[below(w, len(rs))] for _ in range(k)]
    sys.stdout.buffer.write(b''.join(r + b'\n' for r in out))

if __name__ == '__main__':
    main()
