#!/usr/bin/python3
"""Independent check of the serial tests' tail beyond the matched binomial's support
(docs/audit-laws.md, "Serial tests"; AuditSerial.CantelliBeyondTheBinomialsSupport).

Lopsided margins: 40 decks with one value, 3 with another (T = 43, P = 42 pairs). Enumerates
every arrangement (the 3 minority positions among 43, itertools, no shufl code) for the exact law
of D = #{t : X_t = X_{t+1}}, its mean E and variance V as fractions; the matched binomial
Bin(E/q, q), q = 1 - V/E, ends at E/q = 37.04 and is skewed to the left (q > 1/2). For every
observed D above E it prints Cantelli's bound V/(V + (D - E)^2) in fractions (what shufl reports
when q > 1/2 or D >= E/q) next to the true tail P(D >= d), which it must never undercut; and at
the last count inside the binomial's support, that binomial's tail (scipy's regularised
incomplete beta function), which shufl reported before.
"""
from fractions import Fraction
from itertools import combinations

T, MINOR = 43, 3


def law():
    dist = {}
    for pos in combinations(range(T), MINOR):
        x = [0] * T
        for p in pos:
            x[p] = 1
        d = sum(a == b for a, b in zip(x, x[1:]))
        dist[d] = dist.get(d, 0) + 1
    return dist


if __name__ == "__main__":
    dist = law()
    n = sum(dist.values())
    mean = Fraction(sum(d * c for d, c in dist.items()), n)
    var = Fraction(sum(d * d * c for d, c in dist.items()), n) - mean * mean
    q = 1 - var / mean
    end = mean / q
    print("E", mean, float(mean), "V", var, float(var), "binomial ends at", float(end))
    from scipy.special import betainc  # the binomial's tail inside its support, shufl's p before

    d_in = int(end)
    print("d", d_in, "inside: binomial", repr(float(betainc(d_in, float(end - d_in + 1), float(q)))),
          "true tail", float(Fraction(sum(c for k, c in dist.items() if k >= d_in), n)))
    for d in sorted(dist):
        if d <= mean:
            continue
        cantelli = var / (var + (d - mean) ** 2)
        tail = Fraction(sum(c for k, c in dist.items() if k >= d), n)
        assert cantelli >= tail
        print("d", d, "cantelli", cantelli, f"{float(cantelli):.17g}", "true tail", tail, f"{float(tail):.6g}")
