#!/usr/bin/env bash
# `shufl audit` against a vectorised numpy implementation of the same battery (audit_numpy.py:
# the file parsed with numpy too, every accumulator of the battery, in batches) on the same file
# in the same run: DECKS 52-card decks in poker codes made by `shufl deck --count DECKS --seed
# audit-bench` (156 bytes a deck). Each side: one untimed warm-up, then RUNS runs; the median wall
# time, the user+system CPU of that run and the peak RSS of all runs (/usr/bin/time). Prints the
# CPU model and the load before and after: on a shared machine compare the ratio, not the rates.
#   bench/audit_vs_numpy.sh [path/to/shufl]
#   env: DECKS (1000000), THREADS (2), RUNS (5), PYTHON (/usr/bin/python3)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shufl="$(readlink -f "${1:-$here/../build/shufl}")"
python="${PYTHON:-/usr/bin/python3}"
decks=${DECKS:-1000000}
threads=${THREADS:-2}
runs=${RUNS:-5}
[ -x /usr/bin/time ] || { echo "no /usr/bin/time" >&2; exit 1; }
"$python" -c 'import numpy' 2>/dev/null || { echo "numpy is not installed for $python" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/shufl-audit-numpy-XXXXXX")
trap 'rm -rf "$work"' EXIT
file="$work/decks.txt"
"$shufl" deck --count "$decks" --seed audit-bench > "$file"

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $decks decks, $(stat -c %s "$file") bytes; shufl --threads $threads; numpy $("$python" -c 'import numpy; print(numpy.__version__)')"

# measure NAME CMD...: prints "NAME median_wall_s cpu_s peak_kib" (the CPU of the median run).
measure() {
  local name=$1; shift
  "$@" > /dev/null 2>&1
  local rows=() peak=0 t u s m
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > /dev/null 2> /dev/null
    read -r t u s m < "$work/time"
    rows+=("$t $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')")
    [ "$m" -gt "$peak" ] && peak=$m
  done
  printf '%s\n' "${rows[@]}" | sort -g | sed -n "$(( (runs + 1) / 2 ))p" | awk -v n="$name" -v p="$peak" '{ print n, $1, $2, p }'
}

# Both sides compute the same battery: their totals and SHA-256 agree on the first 20000 decks.
head -n 20000 "$file" > "$work/check.txt"
"$shufl" audit "$work/check.txt" --format json 2> /dev/null > "$work/check-shufl.json" || [ $? -eq 3 ]
"$python" "$here/audit_numpy.py" "$work/check.txt" > "$work/check-numpy.json"
"$python" - "$work/check-shufl.json" "$work/check-numpy.json" <<'PY'
import json, sys
s, n = (json.load(open(p)) for p in sys.argv[1:3])
observed = {t["name"]: t["observed"] for t in s["tests"]}
pairs = {"successions": "successions", "adjacent-pairs": "adjacent_pairs", "descents": "descents",
         "rising-sequences": "rising_sequences", "runs-up-down": "runs_up_down", "fixed-points": "fixed_points",
         "guessing": "guessing", "guessing-shelf": "guessing_shelf", "serial-successions": "serial_successions",
         "serial-position": "serial_position_repeats", "duplicates": "repeats"}
bad = [k for k, v in pairs.items() if observed[k] != n[v]]
bad += [k for k, v in (("permutation-3", "permutation_3"), ("permutation-4", "permutation_4"))
        if abs(observed[k] - n[v]) > 1e-9 * max(1.0, abs(n[v]))]
bad += [k for k, v in (("coupon-collector-suits", "coupon_suits"), ("coupon-collector-ranks", "coupon_ranks"))
        if observed[k] != n[v]]
bad += [k for k, v in (("position-pairs", "position_pairs"), ("gap", "gap"))
        if abs(observed[k] - n[v]) > 1e-9 * max(1.0, abs(n[v]))]
if s["input"]["sha256"] != n["sha256"]:
    bad.append("sha256")
if bad:
    sys.exit("shufl and numpy disagree on: " + ", ".join(bad))
print("check: shufl and numpy agree on the totals and the SHA-256 of the first 20000 decks")
PY

s=$(measure shufl "$shufl" audit "$file" --threads "$threads")
n=$(measure numpy "$python" "$here/audit_numpy.py" "$file")
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %10s %10s %12s %14s\n' side "wall s" "CPU s" "peak RSS KiB" "decks/s (wall)"
for row in "$s" "$n"; do
  read -r name wall cpu peak <<< "$row"
  printf '%-6s %10s %10s %12s %14s\n' "$name" "$wall" "$cpu" "$peak" "$(awk -v d="$decks" -v t="$wall" 'BEGIN { printf "%.0f", d / t }')"
done
read -r _ sw _ _ <<< "$s"
read -r _ nw _ _ <<< "$n"
echo "ratio (numpy wall / shufl wall): $(awk -v a="$nw" -v b="$sw" 'BEGIN { printf "%.1f", a / b }')x"
