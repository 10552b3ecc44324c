#!/usr/bin/env bash
# `shufl bias` against numpy on the same job in the same run (numpy_permuted.py: Generator.permuted
# in batches, then the counts). One row per job of the speed issue:
#   n = 3, table counts, one thread (trials/s per core) and two threads;
#   n = 52, every statistic (the default) and the position matrix alone (--no-secondary), two threads.
# Each row: RUNS warm runs of each side (default 5, one untimed warm-up), the median trials/s from
# the wall time of the whole process (startup and report included), its peak RSS (/usr/bin/time),
# and the ratio shufl / numpy. Only Fisher-Yates is run (`--algo fisher-yates`).
# Prints the date and the load before and after: on a shared machine compare ratios, not rates.
#   bench/bias_vs_numpy.sh [path/to/shufl]
#   env: RUNS (5), N3_TRIALS (1e9), N52_TRIALS (2e7), NUMPY_N3_TRIALS (3e7), NUMPY_N52_TRIALS (2e6)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shufl="$(readlink -f "${1:-$here/../build/shufl}")"
python="${PYTHON:-/usr/bin/python3}"
runs=${RUNS:-5}
[ -x /usr/bin/time ] || { echo "no /usr/bin/time" >&2; exit 1; }
"$python" -c 'import numpy' 2>/dev/null || { echo "numpy is not installed for $python" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/shufl-bias-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "shufl: $shufl; numpy $("$python" -c 'import numpy; print(numpy.__version__)')"

# median_rate TRIALS CMD...: runs CMD (one warm-up, then RUNS times); prints "median_trials_per_s peak_kib".
median_rate() {
  local trials=$1; shift
  "$@" > /dev/null 2>&1
  local rates=() peak=0 t m
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > /dev/null 2> /dev/null
    read -r t m < "$work/time"
    rates+=("$(awk -v n="$trials" -v t="$t" 'BEGIN { printf "%.0f", n / (t > 0 ? t : 0.01) }')")
    [ "$m" -gt "$peak" ] && peak=$m
  done
  printf '%s\n' "${rates[@]}" | sort -g | awk -v p="$peak" '{ a[NR] = $1 } END {
    m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; print m, p }'
}

# numpy_rate TRIALS N: numpy's own rate (timed inside, startup excluded) as median of RUNS, and peak RSS.
numpy_rate() {
  local trials=$1 n=$2 rates=() peak=0 r m
  for _ in $(seq "$runs"); do
    r=$(/usr/bin/time -f "%M" -o "$work/time" "$python" "$here/numpy_permuted.py" "$trials" "$n" 2> /dev/null)
    m=$(tail -1 "$work/time")
    rates+=("$r")
    [ "$m" -gt "$peak" ] && peak=$m
  done
  printf '%s\n' "${rates[@]}" | sort -g | awk -v p="$peak" '{ a[NR] = $1 } END {
    m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; print m, p }'
}

n3=${N3_TRIALS:-1000000000}
n52=${N52_TRIALS:-20000000}
read -r np3 np3m < <(numpy_rate "${NUMPY_N3_TRIALS:-30000000}" 3)
read -r np52 np52m < <(numpy_rate "${NUMPY_N52_TRIALS:-2000000}" 52)

printf '\n%-44s %12s %8s %12s %8s %8s\n' "job (Fisher-Yates)" "shufl M/s" "RSS MiB" "numpy M/s" "RSS MiB" "ratio"
row() {
  local name=$1 trials=$2 np=$3 npm=$4; shift 4
  read -r r m < <(median_rate "$trials" "$shufl" bias --algo fisher-yates --seed bench --format csv --trials "$trials" "$@")
  awk -v n="$name" -v r="$r" -v m="$m" -v np="$np" -v npm="$npm" 'BEGIN {
    printf "%-44s %12.1f %8.0f %12.2f %8.0f %7.1fx\n", n, r / 1e6, m / 1024, np / 1e6, npm / 1024, r / np }'
}
row "--n 3, one thread (per core)"            "$n3"  "$np3"  "$np3m"  --n 3 --threads 1
row "--n 3, two threads"                      "$n3"  "$np3"  "$np3m"  --n 3 --threads 2
row "--n 52, every statistic, two threads"    "$n52" "$np52" "$np52m" --n 52 --threads 2
row "--n 52 --no-secondary, two threads"      "$n52" "$np52" "$np52m" --n 52 --threads 2 --no-secondary
echo "(shufl: median of $runs warm runs, whole process; numpy: median of $runs, timed inside, one thread;"
echo " numpy counts the 6 orders at n = 3 and the position matrix at n = 52)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
