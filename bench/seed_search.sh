#!/usr/bin/env bash
# Seed-search speed (docs/seed-search.md "How fast"): in one run, for every family, shufl's search
# (one thread) against the plain loop in the family's own language — seed, build the 52-card
# list, shuffle it as the family does, compare the first 5 cards — each looking for the first 5
# cards of a deal no seed in the range makes. Rates are seeds per CPU second of one thread (CPU
# time measured inside each program). Languages not installed are skipped and named; Go, Java
# and mono are not installed by this script. Then the whole 2^32 cpp-mt19937 search with GNU
# parallel, extrapolated from a measured slice (SLICE shards of 1/4096 on 2 jobs).
# Usage: bench/seed_search.sh [BUILD_DIR]   (after building shufl_core; SEEDS=2^20 for shufl)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
seeds=${SEEDS:-1048576}
slice=${SLICE:-8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) logical cores); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
c++ -std=c++20 -O2 -Iinclude bench/seed_search_driver.cpp "$build/libshufl_core.a" -lfmt -lpthread -o "$tmp/driver"

# --- the plain loops: each prints "rate=R" (seeds per CPU second) ---------------------------
cat > "$tmp/loops.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
/* MODE 0: srand/rand (glibc), 1: rand_r, 2: the Microsoft C LCG written out. */
static unsigned ms;
static int ms_rand(void) { ms = ms * 214013u + 2531011u; return (ms >> 16) & 0x7fff; }
int main(int argc, char** argv) {
  int mode = atoi(argv[1]); unsigned long n = strtoul(argv[2], 0, 10);
  int a[52], hits = 0;
  clock_t t0 = clock();
  for (unsigned long s = 0; s < n; ++s) {
    unsigned r = (unsigned)s;
    if (mode == 0) srand(r); else ms = r;
    for (int i = 0; i < 52; ++i) a[i] = i;
    for (int i = 51; i > 0; i--) {
      int x = mode == 0 ? rand() : mode == 1 ? rand_r(&r) : ms_rand();
      int j = x % (i + 1), t = a[i]; a[i] = a[j]; a[j] = t;
    }
    hits += a[0] == 1 && a[1] == 2 && a[2] == 3 && a[3] == 4 && a[4] == 5;
  }
  printf("rate=%.0f hits=%d\n", n / ((double)(clock() - t0) / CLOCKS_PER_SEC), hits);
  return 0;
}
C
cat > "$tmp/loop_mt.cpp" <<'CPP'
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <numeric>
#include <random>
int main(int, char** argv) {
  unsigned long n = std::strtoul(argv[1], nullptr, 10);
  int a[52], hits = 0;
  std::clock_t t0 = std::clock();
  for (unsigned long s = 0; s < n; ++s) {
    std::mt19937 g(static_cast<unsigned>(s));
    std::iota(a, a + 52, 0);
    std::shuffle(a, a + 52, g);
    hits += a[0] == 1 && a[1] == 2 && a[2] == 3 && a[3] == 4 && a[4] == 5;
  }
  std::printf("rate=%.0f hits=%d\n", n / (double(std::clock() - t0) / CLOCKS_PER_SEC), hits);
}
CPP
cat > "$tmp/loop.py" <<'PY'
import random, sys, time
n = int(sys.argv[1]); hits = 0; t0 = time.process_time()
for s in range(n):
    random.seed(s); x = list(range(52)); random.shuffle(x); hits += x[:5] == [1, 2, 3, 4, 5]
print(f"rate={n / (time.process_time() - t0):.0f} hits={hits}")
PY
cat > "$tmp/loop.php" <<'PHP'
<?php
[$legacy, $n] = [$argv[1] === 'legacy', (int)$argv[2]]; $hits = 0;
$u = getrusage(); $t0 = $u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6;
for ($s = 0; $s < $n; $s++) {
    if ($legacy) mt_srand($s, MT_RAND_PHP); else mt_srand($s);
    $a = range(0, 51); shuffle($a); $hits += array_slice($a, 0, 5) === [1, 2, 3, 4, 5];
}
$u = getrusage(); printf("rate=%.0f hits=%d\n", $n / ($u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6 - $t0), $hits);
PHP
cat > "$tmp/loop.go" <<'GO'
package main

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"syscall"
)

func cpu() float64 {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return float64(u.Utime.Sec) + float64(u.Utime.Usec)/1e6
}

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	a := make([]int, 52)
	hits := 0
	t0 := cpu()
	for s := 0; s < n; s++ {
		r := rand.New(rand.NewSource(int64(s)))
		for i := range a {
			a[i] = i
		}
		r.Shuffle(52, func(i, j int) { a[i], a[j] = a[j], a[i] })
		if a[0] == 1 && a[1] == 2 && a[2] == 3 && a[3] == 4 && a[4] == 5 {
			hits++
		}
	}
	fmt.Printf("rate=%.0f hits=%d\n", float64(n)/(cpu()-t0), hits)
}
GO
cat > "$tmp/Loop.java" <<'JAVA'
import java.lang.management.ManagementFactory;
import java.util.*;
public class Loop {
  public static void main(String[] args) {
    int n = Integer.parseInt(args[0]), hits = 0;
    var bean = ManagementFactory.getThreadMXBean();
    long t0 = bean.getCurrentThreadCpuTime();
    List<Integer> want = List.of(1, 2, 3, 4, 5);
    for (int s = 0; s < n; ++s) {
      List<Integer> a = new ArrayList<>(52);
      for (int i = 0; i < 52; ++i) a.add(i);
      Collections.shuffle(a, new Random(s));
      if (a.subList(0, 5).equals(want)) ++hits;
    }
    System.out.printf("rate=%.0f hits=%d%n", n / ((bean.getCurrentThreadCpuTime() - t0) / 1e9), hits);
  }
}
JAVA
cat > "$tmp/Loop.cs" <<'CS'
using System;
using System.Diagnostics;
static class Loop {
  static void Main(string[] args) {
    int n = int.Parse(args[0]), hits = 0; var a = new int[52];
    var t0 = Process.GetCurrentProcess().UserProcessorTime;
    for (int s = 0; s < n; ++s) {
      var rnd = new Random(s);
      for (int i = 0; i < 52; ++i) a[i] = i;
      for (int i = 51; i > 0; --i) { int j = rnd.Next(i + 1); int t = a[i]; a[i] = a[j]; a[j] = t; }
      if (a[0] == 1 && a[1] == 2 && a[2] == 3 && a[3] == 4 && a[4] == 5) ++hits;
    }
    var cpu = (Process.GetCurrentProcess().UserProcessorTime - t0).TotalSeconds;
    Console.WriteLine("rate={0:F0} hits={1}", n / cpu, hits);
  }
}
CS

rate() { sed -n 's/.*rate=\([0-9]*\).*/\1/p'; }
skipped=()
declare -A loop lang
cc -O2 -o "$tmp/loops" "$tmp/loops.c"
loop[c-rand]=$("$tmp/loops" 0 "$seeds" | rate); lang[c-rand]="C (srand, rand)"
loop[glibc-rand-r]=$("$tmp/loops" 1 "$seeds" | rate); lang[glibc-rand-r]="C (rand_r)"
loop[msvc-rand]=$("$tmp/loops" 2 "$seeds" | rate); lang[msvc-rand]="C (the LCG written out)"
c++ -std=c++17 -O2 -o "$tmp/loop_mt" "$tmp/loop_mt.cpp"
loop[cpp-mt19937]=$("$tmp/loop_mt" $((seeds / 4)) | rate); lang[cpp-mt19937]="C++ (mt19937, std::shuffle)"
loop[python-random]=$(python3 "$tmp/loop.py" 32768 | rate); lang[python-random]="Python $(python3 -c 'import sys; print(*sys.version_info[:2], sep=".")')"
if command -v php >/dev/null; then
  loop[php-mt-rand]=$(php "$tmp/loop.php" mt 131072 | rate); lang[php-mt-rand]="PHP $(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')"
  loop[php-mt-rand-legacy]=$(php "$tmp/loop.php" legacy 131072 | rate); lang[php-mt-rand-legacy]=${lang[php-mt-rand]}
else skipped+=("php-mt-rand, php-mt-rand-legacy (no php)"); fi
if command -v go >/dev/null; then
  (cd "$tmp" && GOCACHE="$tmp/gocache" GO111MODULE=off go build -o loop_go loop.go)
  loop[go-math-rand]=$("$tmp/loop_go" 65536 | rate); lang[go-math-rand]="Go $(go env GOVERSION | sed 's/^go//')"
else skipped+=("go-math-rand (no go)"); fi
if command -v javac >/dev/null; then
  javac -d "$tmp" "$tmp/Loop.java" && loop[java-random]=$(java -cp "$tmp" Loop 262144 | rate)
  lang[java-random]="Java $(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p')"
else skipped+=("java-random (no javac)"); fi
if command -v mcs >/dev/null && command -v mono >/dev/null; then
  mcs -out:"$tmp/loop_cs.exe" "$tmp/Loop.cs" >/dev/null && loop[dotnet-random]=$(mono "$tmp/loop_cs.exe" 262144 | rate)
  lang[dotnet-random]="C# (mono $(mono --version | sed -n '1s/.*version \([0-9.]*\).*/\1/p'))"
else skipped+=("dotnet-random (no mono)"); fi
skipped+=("asf-poker (Delphi: no Pascal compiler here)")

printf '\n%-20s %14s   %-28s %12s %8s\n' family "shufl seeds/s" "plain loop" "loop seeds/s" ratio
declare -A ours
for family in python-random c-rand cpp-mt19937 java-random asf-poker glibc-rand-r msvc-rand php-mt-rand \
              php-mt-rand-legacy go-math-rand dotnet-random; do
  ours[$family]=$("$tmp/driver" "$family" 0 $((seeds - 1)) 1 | rate)
  if [ -n "${loop[$family]:-}" ]; then
    awk -v f="$family" -v o="${ours[$family]}" -v l="${loop[$family]}" -v n="${lang[$family]}" \
        'BEGIN { printf "%-20s %14.0f   %-28s %12.0f %7.1fx\n", f, o, n, l, o / l }'
  else
    printf '%-20s %14s   %-28s %12s %8s\n' "$family" "${ours[$family]}" "(skipped)" - -
  fi
done
echo "skipped: $(IFS=';'; echo "${skipped[*]}" | sed 's/;/; /g')"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- the whole 2^32 cpp-mt19937 space with GNU parallel, from a measured slice -----------------
if command -v parallel >/dev/null; then
  echo "As Kd Qh Jc Ts" > "$tmp/seen.txt"
  # Exit 0 or 4 is a finished shard (nothing found, or a chance match); wall and CPU time of all.
  /usr/bin/time -f "%e %U %S" -o "$tmp/time" bash -c "seq 0 $((slice - 1)) | parallel -j 2 \
      'build/shufl audit --seed-search cpp-mt19937 --dealt 5 --seeds 0..2^32-1 --threads 1 --shard {}/4096 \
       --format json $tmp/seen.txt > $tmp/shard-{}.json; test \$? -eq 0 -o \$? -eq 4'"
  read -r wall user sys < "$tmp/time"
  awk -v w="$wall" -v c="$(echo "$user + $sys" | bc)" -v k="$slice" -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
    printf "cpp-mt19937 with GNU parallel -j 2: %d shards of 1/4096 (2^20 seeds each): %.1f s wall, %.1f CPU-s (load %s)\n", k, w, c, load
    printf "  the whole 2^32 (extrapolated from these %d of 4096 shards): %.0f CPU-min; %.1f min on 2 idle cores, %.1f min wall at this load\n",
           k, c * 4096 / k / 60, c * 4096 / k / 60 / 2, w * 4096 / k / 60
  }'
else
  echo "cpp-mt19937 over 2^32 with GNU parallel: skipped (no parallel)"
fi
