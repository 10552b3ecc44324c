#!/usr/bin/env bash
# The sampler modes of `shufl lines` (issue 17) against their natural peers, in the same run, on
# `seq 10000000` (79 MB, a regular file: GNU shuf -n then samples with a reservoir and reads every
# line too):
#   --prob 0.01            vs GNU `shuf -n 100000` (the same expected count; target: >= 5x faster)
#                          and Miller `filter 'urand() < 0.01'` (Bernoulli)
#   --weight-field 1 -n 1000 vs the unweighted `-n 1000` (target: within 2x) and Miller `sample -k 1000`
#   --with-replacement -n 1000 vs Miller `bootstrap -n 1000`
# Each command runs once to warm up (page cache, binary), then RUNS times (default 5); the
# median wall time and the peak RSS (largest over the runs) are reported, and the ratios are
# between medians of this same run. Miller rows are skipped where `mlr` is absent.
# Usage: bench/lines_modes.sh [path/to/shufl]
set -euo pipefail
cd "$(dirname "$0")/.."
shufl=$(readlink -f "${1:-build/shufl}")
runs=${RUNS:-5}
[ -x /usr/bin/time ] || { echo "no /usr/bin/time" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/shufl-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
seq 10000000 > "$work/seq.txt"
echo "load: $(uptime)"

measure() {  # CMD...: prints "median_seconds peak_kib" (after one warm-up run)
  local peak=0 t m times=()
  "$@" > /dev/null
  for _ in $(seq "$runs"); do
    # Wall time from bash's microsecond clock (GNU time's %e has only centiseconds).
    local start=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o "$work/rss" "$@" > /dev/null
    t=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.4f", b - a}')
    m=$(tail -1 "$work/rss")
    times+=("$t")
    [ "$m" -gt "$peak" ] && peak=$m
  done
  printf '%s\n' "${times[@]}" | sort -g | awk -v p="$peak" '{v[NR]=$1} END{m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; print m, p}'
}
row() {  # NAME CMD...
  local name=$1; shift
  read -r t m < <(measure "$@")
  printf '%-44s %8.3f s %8d KiB\n' "$name" "$t" "$m"
  echo "$t" > "$work/t.$(echo "$name" | tr -c 'a-zA-Z0-9\n' '_')"
}
ratio() { awk "BEGIN{printf \"%.2f\", $(cat "$work/t.$1") / $(cat "$work/t.$2")}"; }

f=$work/seq.txt
row prob "$shufl" lines --seed 1 --prob 0.01 "$f"
row gnu_n100000 /usr/bin/shuf -n 100000 "$f"
row unweighted_n1000 "$shufl" lines --seed 1 -n 1000 "$f"
row weighted_n1000 "$shufl" lines --seed 1 --weight-field 1 -n 1000 "$f"
row with_replacement_n1000 "$shufl" lines --seed 1 --with-replacement -n 1000 "$f"
if command -v mlr > /dev/null; then
  row mlr_bernoulli mlr --inidx --ifs tab --onidx filter 'urand() < 0.01' "$f"
  row mlr_sample_k1000 mlr --inidx --ifs tab --onidx sample -k 1000 "$f"
  row mlr_bootstrap_n1000 mlr --inidx --ifs tab --onidx bootstrap -n 1000 "$f"
fi
echo
echo "GNU shuf -n 100000 / shufl --prob 0.01:          $(ratio gnu_n100000 prob)x"
echo "shufl weighted -n 1000 / unweighted -n 1000:    $(ratio weighted_n1000 unweighted_n1000)x"
if command -v mlr > /dev/null; then
  echo "mlr bernoulli filter / shufl --prob 0.01:       $(ratio mlr_bernoulli prob)x"
  echo "mlr sample -k 1000 / shufl weighted -n 1000:    $(ratio mlr_sample_k1000 weighted_n1000)x"
  echo "mlr bootstrap / shufl --with-replacement:       $(ratio mlr_bootstrap_n1000 with_replacement_n1000)x"
fi
