#!/usr/bin/python3
"""Exact P(D_m >= d) of the two-sided one-sample Kolmogorov-Smirnov statistic for
tests/audit_batches_test.cpp's KsMatchesScipy: Durbin's matrix formula in 60-digit mpmath (the
value the test uses), and scipy.stats.kstwo.sf (Simard-L'Ecuyer) beside it. The two agree to 1e-12
up to m = 100; beyond m = 140 scipy switches to an approximation (it differs from the 60-digit value
by 1.6e-7 at m = 400, d = 0.05), so only the mpmath value is pinned there."""
import mpmath
from scipy.stats import kstwo

CASES = [(2, 0.6), (3, 0.9), (10, 0.274), (20, 0.35), (50, 0.1), (100, 0.1358), (100, 0.25),
         (400, 0.05), (1000, 0.043), (1000, 0.08)]


def durbin_sf(m, d):
    mpmath.mp.dps = 60
    d = mpmath.mpf(d)
    k = int(mpmath.floor(m * d)) + 1
    r = 2 * k - 1
    h = k - m * d
    H = mpmath.matrix(r, r)
    for i in range(r):
        for j in range(r):
            H[i, j] = 1 if i - j + 1 >= 0 else 0
    for i in range(r):
        H[i, 0] -= h ** (i + 1)
        H[r - 1, i] -= h ** (r - i)
    if 2 * h - 1 > 0:
        H[r - 1, 0] += (2 * h - 1) ** r
    for i in range(r):
        for j in range(r):
            if i - j + 1 > 0:
                H[i, j] /= mpmath.factorial(i - j + 1)
    Q = H ** m
    return 1 - Q[k - 1, k - 1] * mpmath.factorial(m) / mpmath.mpf(m) ** m


for m, d in CASES:
    print(f"{{{m}, {d}, {mpmath.nstr(durbin_sf(m, d), 17)}}},  // scipy kstwo.sf: {kstwo.sf(d, m)!r}")
