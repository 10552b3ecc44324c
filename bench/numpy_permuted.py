#!/usr/bin/env python3
"""numpy's best at the job `shufl bias --n N` does, as the peer for bench/bias_vs_numpy.sh.

Shuffles (trials, n) rows with Generator.permuted (Fisher-Yates per row, in C) in batches and
counts them: for n <= 8 the n! orders (what `shufl bias` tallies for its table test), for larger
n the n x n position matrix (card c at position p; what `shufl bias --no-secondary` tallies).
Usage: numpy_permuted.py TRIALS [N]   (N default 3). Prints trials per second on stdout; the
counts' total goes to stderr as a check that every trial was counted."""
import math
import sys
import time

import numpy as np


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 30_000_000
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    batch = max(1, 30_000_000 // n)
    rng = np.random.default_rng(1)
    base = np.arange(n, dtype=np.int64)
    table = n <= 8
    counts = np.zeros(n ** n if table else n * n, dtype=np.int64)
    weights = n ** np.arange(n - 1, -1, -1, dtype=np.int64)  # mixed-radix code of an order
    positions = np.arange(n, dtype=np.int64)
    start = time.perf_counter()
    done = 0
    while done < trials:
        size = min(batch, trials - done)
        rows = rng.permuted(np.broadcast_to(base, (size, n)), axis=1)
        code = rows @ weights if table else (rows * n + positions).ravel()
        counts += np.bincount(code, minlength=counts.size)
        done += size
    seconds = time.perf_counter() - start
    print(f"{trials / seconds:.0f}")
    total = counts.sum() if table else counts.sum() // n
    print(f"numpy: {total} trials counted; {np.count_nonzero(counts)} cells of "
          f"{math.factorial(n) if table else n * n} hit", file=sys.stderr)


if __name__ == "__main__":
    main()
