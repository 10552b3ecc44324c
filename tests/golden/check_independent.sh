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
[ $failed -eq 0 ] && echo "independent checks: 5 passed, 0 failed"
exit $failed
