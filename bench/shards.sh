#!/usr/bin/env bash
# Sharded bias runs (issue 15): the figures of README's "Beyond one machine".
#  1. Trials per second per core (--threads 1, user CPU time, so machine load does not lower it)
#     at n = 3, 8 and 52 (52 with and without the secondary statistics), and the core-hours
#     10^12 trials take at that rate.
#  2. A merge of PARTS (default 10000) real part files: one seeded run at n = 52
#     (--no-secondary, to keep generating them short) of PARTS chunks of 65536 trials, sharded
#     PARTS ways (xargs -P, one chunk per shard), then `bias --merge` of them all:
#     wall time and peak RSS (/usr/bin/time), the part files' sizes.
# Usage: bench/shards.sh [path/to/shufl]   (default: build/shufl; SKIP_RATES=1 skips part 1). Needs about
# 20 KB x PARTS in $TMPDIR; removes everything. Prints `uptime` before and after (shared machine).
set -euo pipefail
cd "$(dirname "$0")/.."
shufl=$(readlink -f "${1:-build/shufl}")
parts=${PARTS:-10000}
[ -x /usr/bin/time ] || { echo "no /usr/bin/time" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/shufl-bench-shards-XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "load before: $(uptime)"

if [ "${SKIP_RATES:-0}" = 1 ]; then echo "(rates skipped: SKIP_RATES=1)"; else
echo "== trials/s per core (--threads 1, user CPU seconds)"
rate() {  # rate LABEL TRIALS ARGS...
  local label=$1 trials=$2; shift 2
  local user
  user=$( { /usr/bin/time -f '%U' "$shufl" bias --threads 1 --seed bench --algo fisher-yates --trials "$trials" "$@" \
              >/dev/null; } 2>&1 | tail -1)
  awk -v l="$label" -v t="$trials" -v u="$user" 'BEGIN {
    r = t / u; printf "%-28s %12.0f trials in %6.2f s CPU: %6.1f million trials/s/core; 10^12 trials = %8.1f core-hours\n",
    l, t, u, r / 1e6, 1e12 / r / 3600 }'
}
rate "n = 3 (table)" 300000000 --n 3
rate "n = 8 (table)" 50000000 --n 8
rate "n = 52 (position + secondary)" 5000000 --n 52
rate "n = 52 (--no-secondary)" 20000000 --n 52 --no-secondary
fi

echo "== $parts part files"
trials=$((parts * 65536))
mkdir "$work/parts"
start=$(date +%s.%N)
# xargs rather than parallel: less overhead per job, and the parts are what is measured here.
seq 0 $((parts - 1)) | xargs -P "$(nproc)" -I{} "$shufl" bias --n 52 --no-secondary --trials "$trials" --seed bench-merge \
  --algo fisher-yates --threads 1 --shard {}/"$parts" --save-counts "$work/parts/part-{}.json" 2>"$work/shards.err" ||
  { echo "some shards failed:" >&2; grep -v '^shufl bias: shard' "$work/shards.err" | head -5 >&2; exit 1; }
echo "generated in $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s: $trials trials"
du -sh "$work/parts" | awk '{print "part files: " $1 " in all"}'
ls -l "$work/parts/part-0.json" "$work/parts/part-$((parts - 1)).json" | awk '{print "  " $5 " bytes  " $9}'
echo "== merge of $parts files"
cd "$work/parts"
/usr/bin/time -f 'merge: %e s wall, %U s user, peak RSS %M KiB' "$shufl" bias --merge part-*.json --format json \
  >"$work/merged.json"
python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print("merged:", j["trials"], "trials,", len(j["merged"]["files"]), "files, verdict", j["results"][0]["verdict"])' \
  "$work/merged.json"
echo "load after: $(uptime)"
