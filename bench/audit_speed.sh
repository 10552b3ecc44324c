#!/bin/bash
# Speed of `shufl audit`: the whole battery over a file of DECKS 52-card decks in poker codes
# (made once with `shufl deck --count`), on THREADS worker threads; median of RUNS runs with peak
# RSS. Prints the CPU model and the load so figures can be compared.
# Usage: bench/audit_speed.sh [SHUFL] [DECKS=1000000] [THREADS=2] [RUNS=5]
set -euo pipefail
SHUFL=${1:-build/shufl}
DECKS=${2:-1000000}
THREADS=${3:-2}
RUNS=${4:-5}
DIR=${TMPDIR:-/tmp}/shufl-audit-bench
mkdir -p "$DIR"
FILE="$DIR/decks-$DECKS.txt"
if [ ! -s "$FILE" ]; then
  "$SHUFL" deck --count "$DECKS" --seed audit-bench > "$FILE.tmp"
  mv "$FILE.tmp" "$FILE"
fi
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') ($(nproc) cores)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $DECKS decks, $(stat -c %s "$FILE") bytes; --threads $THREADS"
times=()
for _ in $(seq "$RUNS"); do
  out=$( { /usr/bin/time -f '%e %U %S %M' "$SHUFL" audit "$FILE" --threads "$THREADS" > /dev/null; } 2>&1 | tail -1)
  times+=("$out")
  echo "run: wall ${out%% *} s (user, sys, maxrss KiB: ${out#* })"
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
wall=${median%% *}
echo "median wall: $wall s = $(python3 -c "print(f'{$DECKS / $wall:,.0f}')") decks/s"
