#!/usr/bin/env bash
# Seed-search speed (docs/seed-search.md "How fast"): shufl's search over SEEDS seeds (one thread,
# CPU time) against the obvious alternatives in the same run — a Python loop calling random.seed
# and random.shuffle, and a C loop calling srand and the textbook shuffle — each looking for the
# first 5 cards of a deal no seed in the range makes. Rates are seeds per CPU second; the 2^32
# figures extrapolate them (on 2 cores: half the 1-core time). Keep it short on a shared machine.
# Usage: bench/seed_search.sh [BUILD_DIR]   (after building shufl_core; SEEDS=2^20, PY_SEEDS=2^15)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
seeds=${SEEDS:-1048576}
py_seeds=${PY_SEEDS:-32768}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) logical cores); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
c++ -std=c++20 -O2 -Iinclude bench/seed_search_driver.cpp "$build/libshufl_core.a" -lfmt -lpthread -o "$tmp/driver"

cat > "$tmp/c_loop.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char** argv) {
  unsigned long n = strtoul(argv[1], 0, 10);
  int want[5], a[52], hits = 0;
  srand((unsigned)n);  /* the target: the first 5 cards of seed n's deal */
  for (int i = 0; i < 52; ++i) a[i] = i;
  for (int i = 51; i > 0; i--) { int j = rand() % (i + 1), t = a[i]; a[i] = a[j]; a[j] = t; }
  for (int i = 0; i < 5; ++i) want[i] = a[i];
  clock_t t0 = clock();
  for (unsigned long s = 0; s < n; ++s) {
    srand((unsigned)s);
    for (int i = 0; i < 52; ++i) a[i] = i;
    for (int i = 51; i > 0; i--) { int j = rand() % (i + 1), t = a[i]; a[i] = a[j]; a[j] = t; }
    hits += a[0] == want[0] && a[1] == want[1] && a[2] == want[2] && a[3] == want[3] && a[4] == want[4];
  }
  double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
  printf("c-loop seeds=%lu cpu=%.3f s rate=%.0f seeds/cpu-s matches=%d\n", n, cpu, n / cpu, hits);
  return 0;
}
C
cc -O2 -o "$tmp/c_loop" "$tmp/c_loop.c"

cat > "$tmp/py_loop.py" <<'PY'
import random, sys, time
n = int(sys.argv[1])
random.seed(n); x = list(range(52)); random.shuffle(x); want = x[:5]
t0 = time.process_time(); hits = 0
for s in range(n):
    random.seed(s)
    x = list(range(52))
    random.shuffle(x)
    hits += x[:5] == want
cpu = time.process_time() - t0
print(f"python-loop seeds={n} cpu={cpu:.3f} s rate={n / cpu:.0f} seeds/cpu-s matches={hits}")
PY

rate() { sed -n 's/.*rate=\([0-9]*\).*/\1/p'; }
py_loop=$(python3 "$tmp/py_loop.py" "$py_seeds"); echo "$py_loop"
c_loop=$("$tmp/c_loop" "$seeds"); echo "$c_loop"
declare -A ours
for family in python-random c-rand cpp-mt19937 java-random asf-poker glibc-rand-r msvc-rand; do
  line=$("$tmp/driver" "$family" 0 $((seeds - 1)) 1); echo "shufl $line"
  ours[$family]=$(echo "$line" | rate)
done
two32=4294967296
awk -v p="${ours[python-random]}" -v pl="$(echo "$py_loop" | rate)" -v c="${ours[c-rand]}" -v cl="$(echo "$c_loop" | rate)" \
    -v m="${ours[cpp-mt19937]}" -v t="$two32" 'BEGIN {
  printf "python-random: shufl %.0f seeds/s vs the Python loop %.0f seeds/s: %.0fx\n", p, pl, p / pl
  printf "c-rand: shufl %.0f seeds/s vs the C loop %.0f seeds/s: %.1fx\n", c, cl, c / cl
  printf "2^32 seeds on 2 cores (extrapolated): c-rand %.1f min (C loop %.1f min), python-random %.1f min (Python loop %.1f days), cpp-mt19937 %.1f min\n",
         t / c / 2 / 60, t / cl / 2 / 60, t / p / 2 / 60, t / pl / 2 / 86400, t / m / 2 / 60
}'
