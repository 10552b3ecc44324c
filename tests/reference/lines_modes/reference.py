#!/usr/bin/env python3
# Exact laws for the statistical tests of the sampler modes (tests/lines_modes_test.cpp),
# computed from first principles with exact rationals (fractions), not from shufl:
#  * weighted sampling without replacement = successive draws, each record chosen with
#    probability w / (weights not yet drawn); once no positive weight is left, uniformly among
#    the zero-weight records (the documented rule for zeros). The law of the ordered sample is
#    the product of the draw probabilities; unordered subsets sum their orderings.
#  * Bernoulli(p) counts: the binomial law C(n, c) p^c (1 - p)^(n - c).
#  * weighted with replacement: w / W per draw.
# Usage: python3 reference.py > reference.txt   (the test reads reference.txt)
from fractions import Fraction as F
from itertools import permutations, combinations
from math import comb

def ordered_law(weights, k):
    n = len(weights)
    out = {}
    for seq in permutations(range(n), k):
        p = F(1)
        left = set(range(n))
        for i in seq:
            pos = [j for j in left if weights[j] > 0]
            if pos:
                tot = sum(weights[j] for j in pos)
                p *= weights[i] / tot if weights[i] > 0 else 0
            else:
                p *= F(1, len(left))
            left.remove(i)
        if p:
            out[seq] = p
    assert sum(out.values()) == 1
    return out

def emit(name, law):
    for seq, p in sorted(law.items()):
        print(name, ','.join(map(str, seq)), float(p))

cases = {
    # positive weights of mixed sizes: the entering key is drawn by both exact methods
    'ordered_a': ([F(1), F(1, 4), F(3), F(6), F(2)], 2),
    # light records first, then heavy ones: w·tau >> 1 (rejection path)
    'ordered_b': ([F(1, 100), F(2, 100), F(50), F(3, 100), F(100)], 2),
    # zero weights: chosen only after every positive one, uniformly among themselves
    'ordered_zero': ([F(0), F(2), F(0), F(1)], 3),
}
for name, (w, k) in cases.items():
    emit(name, ordered_law(w, k))

# One draw (K = 1) among weights chosen so that the entering record's key is drawn by the
# Poisson-points method with w·tau near 1, where a wrong key law shows most.
emit('single', ordered_law([F(1), F(9, 10), F(1), F(9, 10), F(1)], 1))

# Unordered 3-subsets of 12 weighted records (a longer stream: 9 records after the fill).
w12 = [F(1, 2), F(1), F(3, 2), F(2), F(5, 2), F(3), F(1, 10), F(7), F(4), F(3, 4), F(5), F(5, 4)]
subsets = {}
for seq, p in ordered_law(w12, 3).items():
    key = tuple(sorted(seq))
    subsets[key] = subsets.get(key, 0) + p
emit('subset12', subsets)

# Binomial(40, 1/5) for the Bernoulli counts.
p = F(1, 5)
for c in range(41):
    print('binom40', c, float(comb(40, c) * p**c * (1 - p)**(40 - c)))

# Weights at the edges of binary64 (the exact doubles the tests use, as fractions): the laws
# depend only on the ratios, so the smallest subnormals and the largest doubles must give the
# same laws as ordinary weights.
D = lambda s: F(float(s))  # the double nearest the decimal, exactly
emit('edge_tiny_pair', ordered_law([D('1e-310'), D('3e-310')], 2))
emit('edge_huge4', ordered_law([D('1e308')] * 4, 1))
emit('edge_sub3', ordered_law([D('5e-324')] * 3, 3))
emit('edge_mixed', ordered_law([D('5e-324'), D('1.7976931348623157e308'), D('1.5e-323'), D('1e308'),
                                D('2e-323')], 3))
for name, scale in (('edge_single_sub', F(1, 2**1060)), ('edge_single_huge', F(2**1023))):
    emit(name, ordered_law([scale * x for x in (F(1), F(3, 4), F(1), F(1, 2), F(1))], 1))
# Draws with replacement: record i with probability w_i / W.
for name, ws in (('wr_huge', ['1e308', '1e308', '1']), ('wr_sub', ['5e-324', '1e-323', '1.5e-323']),
                 ('wr_tiny_pair', ['1e-310', '3e-310'])):
    w = [D(s) for s in ws]
    for i, x in enumerate(w):
        print(name, i, float(x / sum(w)))
