#!/usr/bin/python3
"""The Python package against its peers, in one run on one machine (compare the ratios):

1. shufl.audit on a numpy array of DECKS 52-card decks (uint8, cards 1..52) against the CLI
   `shufl audit FILE` on the same decks as a text file of poker codes, and against numpy's own
   implementation of the same battery (bench/audit_numpy.py's accumulators) on the same
   in-memory array; wall time, median of RUNS (numpy: one run);
2. peak memory: a MEMORY_DECKS × 52 uint8 array audited in a fresh process, the growth of its
   peak RSS (VmHWM) during the audit as a share of the array's size (no hidden copy);
3. audit_shuffle's overhead: shufl.audit_shuffle(random.shuffle, trials=T) against the loop
   that only copies and shuffles the same lists T times.

    bench/python_audit.py [path/to/shufl]
    env: DECKS (1000000), MEMORY_DECKS (10000000; 0 skips), THREADS (2), RUNS (3), TRIALS (50000),
         PYTHONPATH (the build's python/ directory, default BUILD/python next to the binary)
"""
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
shufl_bin = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "build", "shufl"))
build_python = os.path.join(os.path.dirname(shufl_bin), "python")
sys.path.insert(0, build_python)
sys.path.insert(0, here)
import numpy as np  # noqa: E402

import shufl  # noqa: E402
from audit_numpy import numpy_battery  # noqa: E402

DECKS = int(float(os.environ.get("DECKS", "1000000")))
MEMORY_DECKS = int(float(os.environ.get("MEMORY_DECKS", "10000000")))
THREADS = int(os.environ.get("THREADS", "2"))
RUNS = int(os.environ.get("RUNS", "3"))
TRIALS = int(float(os.environ.get("TRIALS", "50000")))


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def median_wall(fn, runs=RUNS):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def poker_text(decks):
    """The decks (1..52) as lines of poker codes, made with numpy."""
    ranks = np.frombuffer(b"A23456789TJQK", np.uint8)
    suits = np.frombuffer(b"shdc", np.uint8)
    d = decks.astype(np.int64) - 1
    out = np.full((decks.shape[0], 156), ord(" "), np.uint8)
    out[:, 0::3] = ranks[d % 13]
    out[:, 1::3] = suits[d // 13]
    out[:, -1] = ord("\n")
    return out.tobytes()


def numpy_audit(decks, batch=65536):
    b = numpy_battery()
    for i in range(0, decks.shape[0], batch):
        d = decks[i:i + batch].astype(np.int64) - 1
        b.add(d, d // 13, d % 13)
    return b.result()


MEMORY_CHILD = r"""
import sys, numpy as np, shufl
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
n = int(sys.argv[1])
rng = np.random.default_rng(3)
base = rng.permuted(np.tile(np.arange(1, 53, dtype=np.uint8), (4096, 1)), axis=1)
decks = np.empty((n, 52), np.uint8)
for i in range(0, n, 4096):
    decks[i:i + 4096] = base[: min(4096, n - i)]
before = hwm()
r = shufl.audit(decks, threads=int(sys.argv[2]))
print(before, hwm(), decks.nbytes, r.decks)
"""


def main():
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; cpu: {cpu_model()}, {os.cpu_count()} cores")
    print(f"load before: {load()}")
    print(f"shufl {shufl.__version__} ({shufl.__file__}); numpy {np.__version__}; threads {THREADS}")

    rng = np.random.default_rng(1)
    decks = rng.permuted(np.tile(np.arange(1, 53, dtype=np.uint8), (DECKS, 1)), axis=1)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "decks.txt")
        with open(path, "wb") as f:
            f.write(poker_text(decks))
        # The three sides agree before they are timed.
        r = shufl.audit(decks, threads=THREADS)
        cli = subprocess.run([shufl_bin, "audit", path, "--format", "json", "--threads", str(THREADS)],
                             capture_output=True, text=True)
        import json
        cj = json.loads(cli.stdout)
        assert [t["p"] for t in cj["tests"]] == [t.p for t in r.tests], "array and file disagree"
        t_numpy = time.perf_counter()
        n = numpy_audit(decks)
        t_numpy = time.perf_counter() - t_numpy
        assert n["successions"] == r["successions"].observed and n["repeats"] == r["duplicates"].observed
        t_array = median_wall(lambda: shufl.audit(decks, threads=THREADS))
        t_cli = median_wall(lambda: subprocess.run([shufl_bin, "audit", path, "--threads", str(THREADS)],
                                                   capture_output=True, check=False))
    print(f"1. {DECKS} decks of 52 cards (uint8 array, {decks.nbytes} bytes; text file {DECKS * 156} bytes)")
    print(f"   shufl.audit(array)      {t_array:8.3f} s wall")
    print(f"   shufl audit FILE (CLI)  {t_cli:8.3f} s wall   ratio CLI/array   {t_cli / t_array:6.2f}x")
    print(f"   numpy battery on array  {t_numpy:8.3f} s wall   ratio numpy/array {t_numpy / t_array:6.1f}x")

    if MEMORY_DECKS > 0:
        out = subprocess.run([sys.executable, "-c", MEMORY_CHILD, str(MEMORY_DECKS), str(THREADS)],
                             capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=build_python))
        if out.returncode != 0:
            print("2. memory: failed:", out.stderr[-500:])
        else:
            before, after, size, audited = map(int, out.stdout.split())
            print(f"2. {audited} decks ({size / 2**20:.0f} MiB uint8): peak RSS {before / 2**20:.0f} -> {after / 2**20:.0f} MiB"
                  f" during the audit: +{(after - before) / 2**20:.1f} MiB = {100 * (after - before) / size:.1f}% of the array")

    fresh = list(range(1, 53))

    def only_shuffle():
        for _ in range(TRIALS):
            random.shuffle(fresh.copy())

    t_plain = median_wall(only_shuffle)
    t_audit = median_wall(lambda: shufl.audit_shuffle(random.shuffle, n=52, trials=TRIALS, threads=THREADS))
    print(f"3. {TRIALS} calls of random.shuffle on 52 cards: {t_plain:.3f} s alone, {t_audit:.3f} s in audit_shuffle"
          f" (+{100 * (t_audit - t_plain) / t_plain:.0f}%)")
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
