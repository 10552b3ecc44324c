#!/usr/bin/env python3
"""numpy's best at the job `shufl bias --n 3` does: shuffle (trials, 3) rows with
Generator.permuted and count the 6 orders. Prints trials per second (and the counts to stderr)."""
import sys
import time

import numpy as np


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 30_000_000
    batch = 10_000_000
    rng = np.random.default_rng(1)
    base = np.arange(3, dtype=np.int8)
    counts = np.zeros(27, dtype=np.int64)
    start = time.perf_counter()
    done = 0
    while done < trials:
        size = min(batch, trials - done)
        rows = rng.permuted(np.broadcast_to(base, (size, 3)), axis=1)
        code = rows[:, 0].astype(np.int64) * 9 + rows[:, 1] * 3 + rows[:, 2]
        counts += np.bincount(code, minlength=27)
        done += size
    seconds = time.perf_counter() - start
    print(f"{trials / seconds:.0f}")
    print("numpy counts:", counts[counts > 0].tolist(), file=sys.stderr)


if __name__ == "__main__":
    main()
