#!/usr/bin/env bash
# ctest `golden.independent`: seeded golden files agree with a Python reimplementation of the
# randomness contract written from the documentation (independent_rng.py), not with shufl itself.
# Skips (exit 77) where Python's `cryptography` package is missing. Usage: check_independent.sh PYTHON
set -uo pipefail
python=${1:-python3}
here=$(cd "$(dirname "$0")" && pwd)
"$python" -c 'import cryptography' 2>/dev/null || { echo "SKIP: python cryptography package missing"; exit 77; }
failed=0
"$python" "$here/deck/independent_check.py" 7 | diff - "$here/deck/deal_4x5_seed7.out" || { echo "FAIL: deck deal_4x5_seed7"; failed=1; }
for c in "fisher-yates 6 7 fisher_yates_seed7" "naive 5 7 naive_seed7"; do
  set -- $c
  got=$("$python" "$here/trace/independent_check.py" "$1" "$2" "$3")
  want=$(grep -o 'i = [0-9]*, j = [0-9]*' "$here/trace/$4.out"; tail -1 "$here/trace/$4.out")
  [ "$got" = "$want" ] || { echo "FAIL: trace $4"; diff <(echo "$got") <(echo "$want"); failed=1; }
done
# seeded -n K (skip-based reservoir): a small and a large input
"$python" "$here/lines/independent_sample.py" golden 5 < "$here/lines/input.txt" | cmp -s - "$here/lines/seed_n5.out" || { echo "FAIL: lines seed_n5"; failed=1; }
seq 100000 | "$python" "$here/lines/independent_sample.py" golden 10 | cmp -s - "$here/lines/seed_n10_seq100000.out" || { echo "FAIL: lines seed_n10_seq100000"; failed=1; }
# the sampler modes (issue 17), from modes.hpp's documentation
m=$here/lines/independent_modes.py
check_mode() {  # NAME GOLDEN INPUT ARGS...
  local name=$1 golden=$2 input=$3; shift 3
  "$python" "$m" "$@" < "$input" | cmp -s - "$here/lines/$golden" || { echo "FAIL: lines $name"; failed=1; }
}
check_mode prob seed_prob.out "$here/lines/input.txt" prob golden 0.3
check_mode prob-seq seed_prob_seq100000.out <(seq 100000) prob golden 0.001
check_mode distinct seed_distinct.out "$here/lines/weighted.tsv" distinct golden 0.3 3
check_mode weighted-n5 seed_weighted_n5.out "$here/lines/weighted.tsv" weighted golden 5 2
check_mode weighted-all seed_weighted_all.out "$here/lines/weighted.tsv" weighted golden all 2
check_mode replace seed_replace_n8.out "$here/lines/input.txt" replace golden 8
check_mode replace-weighted seed_replace_weighted_n8.out "$here/lines/weighted.tsv" replace golden 8 2
[ $failed -eq 0 ] && echo "independent checks: 12 passed, 0 failed"
exit $failed
