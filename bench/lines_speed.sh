#!/usr/bin/env bash
# The full shuffle where users send it: into a pipe, into a file and to /dev/null, for
# `seq 10000000` (79 MB) and 10 million lines of 100 bytes (1 GB), and `-n 10` of each. Each row runs shufl, GNU
# /usr/bin/shuf and, where installed, Debian rust-coreutils (`coreutils shuf`, uutils) in the
# same run: RUNS warm runs each (default 5; one untimed warm-up first), the median wall time of
# the command (until its output is drained) and its peak RSS, and the ratio peer/shufl.
# Prints the date and the load (uptime) before and after: on a shared machine the ratios are
# what to compare, not the seconds.
# Usage: bench/lines_speed.sh [path/to/shufl]   (default: build/shufl)
# Needs about 3.2 GB free in $TMPDIR (or /tmp): the inputs and one output file.
set -euo pipefail
cd "$(dirname "$0")/.."
shufl=$(readlink -f "${1:-build/shufl}")
runs=${RUNS:-5}
[ -x /usr/bin/time ] || { echo "no /usr/bin/time" >&2; exit 1; }
[ -x /usr/bin/shuf ] || { echo "no /usr/bin/shuf" >&2; exit 1; }
uutils=""
if command -v coreutils > /dev/null && coreutils shuf --version > /dev/null 2>&1; then uutils=$(command -v coreutils); fi

work=$(mktemp -d "${TMPDIR:-/tmp}/shufl-speed-XXXXXX")
trap 'rm -rf "$work"' EXIT
seq 10000000 > "$work/seq.txt"
awk 'BEGIN { for (i = 1; i <= 10000000; i++) printf "line-%094d\n", i }' > "$work/1g.txt"

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load before: $(uptime | sed 's/.*load average: //')"
echo "shufl: $shufl; GNU: $(/usr/bin/shuf --version | head -1); uutils: ${uutils:+$($uutils shuf --version 2>&1 | head -1)}"

# one SINK CMD...: runs CMD once with its output to SINK (pipe, file, null); prints "seconds kib":
# the wall time in ns resolution around the command (for a pipe, until the reader has drained it;
# /usr/bin/time's own %e has only 10 ms steps), and the peak RSS of CMD from /usr/bin/time.
one() {
  local sink=$1; shift
  local t="$work/time" start end
  start=$(date +%s%N)
  case $sink in
    pipe) /usr/bin/time -f "%M" -o "$t" "$@" | cat > /dev/null ;;
    file) /usr/bin/time -f "%M" -o "$t" "$@" > "$work/out" ;;
    null) /usr/bin/time -f "%M" -o "$t" "$@" > /dev/null ;;
  esac
  end=$(date +%s%N)
  rm -f "$work/out"
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", (b - a) / 1e9 }') $(tail -1 "$t")"
}

# measure SINK CMD...: prints "median_seconds peak_kib" over RUNS runs after one warm-up.
measure() {
  local sink=$1; shift
  one "$sink" "$@" > /dev/null
  local times=() peak=0 t m
  for _ in $(seq "$runs"); do
    read -r t m < <(one "$sink" "$@")
    times+=("$t")
    [ "$m" -gt "$peak" ] && peak=$m
  done
  printf '%s\n' "${times[@]}" | sort -g | awk -v p="$peak" '{ a[NR] = $1 } END {
    m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; print m, p }'
}

printf '\n%-36s %8s %9s %9s %8s %9s %9s %8s\n' "full shuffle" "shufl s" "GNU s" "GNU/shufl" "RSS MiB" \
  "uutils s" "uu/shufl" "RSS MiB"
# row NAME SINK INPUT [OPTION...]: the same options go to all three tools.
row() {
  local name=$1 sink=$2 input=$3; shift 3
  read -r st sm < <(measure "$sink" "$shufl" lines "$@" "$input")
  read -r gt gm < <(measure "$sink" /usr/bin/shuf "$@" "$input")
  local ut="-" um=0
  if [ -n "$uutils" ]; then read -r ut um < <(measure "$sink" "$uutils" shuf "$@" "$input"); fi
  awk -v n="$name" -v st="$st" -v sm="$sm" -v gt="$gt" -v gm="$gm" -v ut="$ut" -v um="$um" 'BEGIN {
    printf "%-36s %8.3f %9.3f %8.2fx %4.0f/%-4.0f", n, st, gt, gt / st, sm / 1024, gm / 1024
    if (ut == "-") printf " %9s %9s %8s\n", "-", "-", "-"
    else printf " %9.3f %8.2fx %4.0f/%-4.0f\n", ut, ut / st, sm / 1024, um / 1024 }'
}
row "seq 10000000 | cat (pipe)"          pipe "$work/seq.txt"
row "seq 10000000 > /dev/null"           null "$work/seq.txt"
row "1 GB (10M x 100 B) | cat (pipe)"    pipe "$work/1g.txt"
row "1 GB > /dev/null"                   null "$work/1g.txt"
row "1 GB > file"                        file "$work/1g.txt"
row "-n 10 of seq 10000000 | cat"        pipe "$work/seq.txt" -n 10
row "-n 10 of 1 GB | cat"                pipe "$work/1g.txt" -n 10
echo "(RSS MiB: shufl/peer, peak of the shuffling process; times: median of $runs warm runs)"
echo "load after: $(uptime | sed 's/.*load average: //')"
