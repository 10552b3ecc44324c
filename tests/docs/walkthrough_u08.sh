#!/usr/bin/env bash
# U08: a new user's walkthrough, with the commands README.md shows for each task, in the order a
# reader meets them (ctest docs.walkthrough_u08). Each step checks stdout, stderr and the exit
# status against what the task needs (not against shufl's earlier output):
#   sample 5 rows of a CSV reproducibly keeping the header; shuffle a file larger than --memory
#   (the README's 400 MB with 64 MB, scaled to 19 MB with the 16M minimum); deal 4 poker hands;
#   a 4x4 memory grid; test Python's random.shuffle and JavaScript's sort(() => Math.random() -
#   0.5) for bias; the JSON verdict with jq; the heatmap; step through the naive shuffle.
# Usage: walkthrough_u08.sh SHUFL_BINARY
set -uo pipefail
bin_dir=$(cd "$(dirname "$1")" && pwd)
export PATH="$bin_dir:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failed=0
fail() { echo "FAIL: $*" >&2; failed=$((failed + 1)); }

# run NAME CMD: runs CMD with bash, keeps $out, $err, $status; exit 0 and empty stderr expected.
run() {
  local name=$1
  shift
  out=$(bash -c "$1" 2>"$work/err")
  status=$?
  err=$(cat "$work/err")
  [[ $status == 0 ]] || fail "$name: exit $status: $err"
  [[ -z $err ]] || fail "$name: stderr: $err"
}

# 1. A reproducible sample of 5 rows of a CSV, header kept (README: --header 1 -n K --seed S).
{ echo 'name,score,comment'; for i in $(seq 1 20); do echo "p$i,$i,\"a, b\""; done; } > scores.csv
run csv 'shufl lines --header 1 -n 5 --seed 1 scores.csv'
first=$out
run csv-again 'shufl lines --header 1 -n 5 --seed 1 scores.csv'
[[ $out == "$first" ]] || fail "csv: the same seed gave another sample"
[[ $(head -1 <<<"$out") == "name,score,comment" ]] || fail "csv: header not first: $out"
[[ $(wc -l <<<"$out") == 6 ]] || fail "csv: not header + 5 rows: $out"
[[ $(tail -n +2 <<<"$out" | sort -u | wc -l) == 5 ]] || fail "csv: rows repeat: $out"
tail -n +2 <<<"$out" | while IFS= read -r row; do grep -qxF -- "$row" scores.csv || echo "$row"; done | grep -q . &&
  fail "csv: a row not in the file (split at a comma?): $out"

# 2. A file larger than the memory budget (README: --memory SIZE, temporary files).
seq 1 2500000 > big.txt
run external 'shufl lines --memory 16M --seed 1 big.txt > shuffled.txt'
cmp -s <(sort big.txt) <(sort shuffled.txt) || fail "external: the output is not a permutation of the input"
cmp -s big.txt shuffled.txt && fail "external: the output is the input unshuffled"
# The memory bound holds for optimised builds; a Debug (sanitizer) build's shadow memory is not
# the program's.
if [[ -x /usr/bin/time ]] && ! shufl --version | grep -q "Debug build"; then
  rss=$(/usr/bin/time -f %M shufl lines --memory 16M --seed 1 big.txt 2>&1 >/dev/null)
  ((rss < 48 * 1024)) || fail "external: peak RSS $rss KiB for --memory 16M"
fi

# 3. Four poker hands (README: shufl deck --deal 4x5 --seed 7).
run poker 'shufl deck --deal 4x5 --seed 7'
hands=$(grep -E '^hand [1-4]: ' <<<"$out")
[[ $(wc -l <<<"$hands") == 4 ]] || fail "poker: not 4 hands: $out"
cards=$(sed -E 's/^hand [1-4]: //' <<<"$hands" | tr ' ' '\n')
[[ $(grep -cxE '[AKQJT2-9][shdc]' <<<"$cards") == 20 ]] || fail "poker: not 20 cards: $out"
[[ $(sort -u <<<"$cards" | wc -l) == 20 ]] || fail "poker: a card dealt twice: $out"

# 4. A 4x4 memory-match grid (README: --grid 4x4).
run grid 'shufl deck --grid 4x4 --seed kids'
[[ $(wc -l <<<"$out") == 4 ]] || fail "grid: not 4 rows: $out"
awk 'NF != 4 { bad = 1 } END { exit bad }' <<<"$out" || fail "grid: a row without 4 cells: $out"
[[ -z $(tr ' ' '\n' <<<"$out" | sort | uniq -c | awk '$1 != 2') ]] || fail "grid: a symbol not exactly twice: $out"

# 5. Python's random.shuffle passes; JavaScript's sort(() => Math.random() - 0.5) is flagged
#    (README: ... | shufl bias --input -).
#    Python seeded as in the README: an unseeded run is a random test that a fair shuffle fails with
#    probability about alpha (the flake seen once under ASan).
run python "python3 -c 'import random
random.seed(1)
for _ in range(60000): d = [1, 2, 3]; random.shuffle(d); print(*d)' | shufl bias --input -"
grep -q 'verdict: no evidence of bias' <<<"$out" || fail "python: $(grep verdict <<<"$out")"
if command -v node >/dev/null; then
  run node "node -e 'for (let t = 0; t < 60000; t++) console.log([1, 2, 3].sort(() => Math.random() - 0.5).join(\",\"))' | shufl bias --input -"
  grep -q 'verdict: biased' <<<"$out" || fail "node: $(grep verdict <<<"$out")"
else
  fail "node: not installed (scripts/setup.sh installs nodejs)"
fi

# 6. The JSON verdict with jq (README: .results[] | .algorithm, .verdict).
if command -v jq >/dev/null; then
  run jq "shufl bias --n 3 --seed 1 --format json | jq -r '.results[] | \"\\(.algorithm): \\(.verdict)\"'"
  [[ $out == $'fisher-yates: no-evidence\nnaive: biased' ]] || fail "jq: $out"
else
  fail "jq: not installed (scripts/setup.sh installs jq)"
fi

# 7. The heatmap (README: --plot FILE.svg): a well-formed SVG written next to the report.
run plot 'shufl bias --n 8 --trials 20000 --seed 1 --plot m.svg'
grep -q 'verdict:' <<<"$out" || fail "plot: no report on stdout"
python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse("m.svg").getroot(); sys.exit(0 if r.tag.endswith("svg") else 1)' ||
  fail "plot: m.svg is not a well-formed SVG"

# 8. Step through the naive shuffle (README: shufl trace --algo naive --n 4 --seed 1, and the
#    page with --format html).
run trace 'shufl trace --algo naive --n 4 --seed 1'
[[ $(grep -c '^step [1-4]: ' <<<"$out") == 4 ]] || fail "trace: not 4 steps: $out"
grep -q '^counting: .*4^4 = 256 .*not divisible by 4! = 24' <<<"$out" || fail "trace: no counting argument: $out"
grep -qE '^result: [1-4] [1-4] [1-4] [1-4]$' <<<"$out" || fail "trace: no result line: $out"
run trace-html 'shufl trace --algo naive --n 5 --seed 1 --format html > trace.html'
grep -qi '<!doctype html>' trace.html || fail "trace: trace.html is not a page"

# A typo on the way gets the closest name (U03), and help is one command away.
out=$(shufl trace --alog naive 2>&1)
[[ $? == 1 && $out == *"did you mean '--algo'?"* && $out == *"Try 'shufl trace --help'"* ]] || fail "typo: $out"

if ((failed)); then
  echo "$failed failure(s)" >&2
  exit 1
fi
echo "U08 walkthrough: ok"
