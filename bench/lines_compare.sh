#!/usr/bin/env bash
# Whole-command comparison of `shufl lines` with GNU /usr/bin/shuf, in the same run:
#   seq 10000000 (79 MB) and 10 million lines of 100 bytes (1 GB), full shuffle, -n 10, and
#   GNU mode (--random-source) where both consume the same bytes and print the same output.
# Each command runs RUNS times (default 3) under /usr/bin/time; the best wall time and the
# largest peak RSS are reported, with the ratio shuf/shufl (time) and shufl/shuf (RSS).
# Usage: bench/lines_compare.sh [path/to/shufl]   (default: build/shufl)
# Needs about 2.2 GB free in $TMPDIR (or /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
shufl=$(readlink -f "${1:-build/shufl}")
gnu=/usr/bin/shuf
runs=${RUNS:-3}
[ -x "$gnu" ] || { echo "no $gnu" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "no /usr/bin/time" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/shufl-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
df -h "$work" | tail -1 | awk '{print "free space in " $6 ": " $4}'

echo "generating inputs in $work ..."
seq 10000000 > "$work/seq.txt"
awk 'BEGIN { for (i = 1; i <= 10000000; i++) printf "line-%094d\n", i }' > "$work/1g.txt"
head -c 64M /dev/urandom > "$work/random.bin"
ls -l "$work"/seq.txt "$work"/1g.txt | awk '{print $5, $9}'

# measure NAME CMD...: prints "best_seconds peak_kib"
measure() {
  local best="" peak=0 t m
  for _ in $(seq "$runs"); do
    read -r t m < <( { /usr/bin/time -f "%e %M" "$@" > /dev/null; } 2>&1 | tail -1 )
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    [ "$m" -gt "$peak" ] && peak=$m
  done
  echo "$best $peak"
}

printf '\n%-34s %9s %9s %7s %10s %10s %7s\n' case "shuf s" "shufl s" speedup "shuf MiB" "shufl MiB" "RSS"
compare() {
  local name=$1; shift
  local gnu_args=() shufl_args=()
  while [ "$1" != "--" ]; do gnu_args+=("$1"); shift; done; shift
  shufl_args=("$@")
  read -r gt gm < <(measure "$gnu" "${gnu_args[@]}")
  read -r st sm < <(measure "$shufl" lines "${shufl_args[@]}")
  awk -v n="$name" -v gt="$gt" -v st="$st" -v gm="$gm" -v sm="$sm" 'BEGIN {
    printf "%-34s %9.2f %9.2f %6.1fx %10.1f %10.1f %6.2fx\n", n, gt, st, (st > 0 ? gt / st : 0), gm / 1024, sm / 1024, sm / gm }'
}

S=$work/seq.txt; G=$work/1g.txt; R=$work/random.bin
compare "seq 10M: full shuffle"            "$S" -- "$S"
compare "seq 10M: full shuffle (--seed)"   "$S" -- --seed 1 "$S"
compare "seq 10M: -n 10"                   -n 10 "$S" -- -n 10 "$S"
compare "1 GB: full shuffle"               "$G" -- "$G"
compare "1 GB: full shuffle (--seed)"      "$G" -- --seed 1 "$G"
compare "1 GB: -n 10"                      -n 10 "$G" -- -n 10 "$G"
compare "1 GB: -n 10 (--seed)"             -n 10 "$G" -- --seed 1 -n 10 "$G"
compare "GNU mode seq 10M: full"           --random-source="$R" "$S" -- --random-source="$R" "$S"
compare "GNU mode 1 GB: full"              --random-source="$R" "$G" -- --random-source="$R" "$G"
compare "GNU mode 1 GB: -n 10 (reservoir)" -n 10 --random-source="$R" "$G" -- -n 10 --random-source="$R" "$G"

# GNU mode must also print the same bytes.
if cmp -s <("$gnu" -n 10 --random-source="$R" "$G") <("$shufl" lines -n 10 --random-source="$R" "$G") &&
   cmp -s <("$gnu" --random-source="$R" "$S") <("$shufl" lines --random-source="$R" "$S"); then
  echo "GNU mode output: identical to $gnu"
else
  echo "GNU mode output: DIFFERS from $gnu"
fi
