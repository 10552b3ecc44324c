#!/bin/bash
# Speed of `shufl audit --follow` through a pipe on one core: DECKS 52-card decks in poker codes
# (made once with `shufl deck --count`) fed by cat into the monitor pinned to one CPU (taskset),
# measured in the monitor's processor time (user + system, so other load on the machine counts
# less than in wall time). For comparison, the batch `shufl audit --threads 1` on the same pipe
# (reading, parsing and the battery without the e-process). Median of RUNS runs. Then a quiet
# monitor: one following a file that does not grow, over 3 s (its CPU time and its wake-ups).
# Usage: bench/follow.sh [SHUFL] [DECKS=200000] [RUNS=3]
set -euo pipefail
SHUFL=${1:-build/shufl}
DECKS=${2:-200000}
RUNS=${3:-3}
DIR=${TMPDIR:-/tmp}/shufl-follow-bench
mkdir -p "$DIR"
FILE="$DIR/decks-$DECKS.txt"
if [ ! -s "$FILE" ]; then
  "$SHUFL" deck --count "$DECKS" --seed follow-bench > "$FILE.tmp"
  mv "$FILE.tmp" "$FILE"
fi
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') ($(nproc) cores)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $DECKS decks, $(stat -c %s "$FILE") bytes, through a pipe, one core"
# CPU seconds (user + system) of one command reading the pipe; the median over RUNS.
cpu_of() {
  local label=$1
  shift
  local all=()
  for _ in $(seq "$RUNS"); do
    local t
    t=$( { cat "$FILE" | /usr/bin/time -f '%U %S' taskset -c 0 "$@" > /dev/null; } 2>&1 | tail -1)
    all+=("$(python3 -c "print(round(${t% *} + ${t#* }, 2))")")
  done
  local median
  median=$(printf '%s\n' "${all[@]}" | sort -g | sed -n "$(( (RUNS + 1) / 2 ))p")
  echo "$label: $median CPU s = $(python3 -c "print(f'{$DECKS / $median:,.0f}')") decks/s" >&2
  echo "$median"
}
follow=$(cpu_of "audit --follow" "$SHUFL" audit --follow - --every 100000)
batch=$(cpu_of "audit --threads 1 (batch battery)" "$SHUFL" audit - --threads 1)
echo "ratio: the monitor takes $(python3 -c "print(f'{$follow / $batch:.2f}')") times the batch audit's CPU time"
# A quiet monitor: following a file that does not grow, after its decks are read.
head -n 100 "$FILE" > "$DIR/quiet.txt"
"$SHUFL" audit --follow "$DIR/quiet.txt" --every 100 > /dev/null 2>&1 &
pid=$!
sleep 1
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
wakes() { awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$pid/status"; }
t0=$(ticks); w0=$(wakes)
sleep 3
t1=$(ticks); w1=$(wakes)
kill -TERM "$pid"; wait "$pid" || true
echo "quiet monitor over 3 s: $((t1 - t0)) clock ticks of CPU ($(getconf CLK_TCK)/s), $((w1 - w0)) wake-ups"
