#!/bin/sh
# The table of docs/audit.md "Tiers": `shufl audit --tier TIER --seed 1` on every algorithm of the
# zoo (`shufl bias --list`, parameters at their defaults), one Markdown row each: the result, the
# tests that fail after Holm, the batches row's p and the CPU seconds. Usage:
#   bench/audit_tiers.sh [TIER] [SHUFL]    (TIER small by default; SHUFL build/shufl)
# small takes seconds in all; standard about a minute per algorithm; big is not for CI machines.
set -eu
tier=${1:-small}
shufl=${2:-build/shufl}
echo "# CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $("$shufl" --version | head -n1), tier $tier, seed 1"
echo "| algorithm | result | failing tests (Holm) | batches p | CPU s |"
echo "|---|---|---|---|---|"
for a in fisher-yates inside-out pencil-and-paper two-array naive sattolo asf-poker sort-coin:insertion \
         sort-coin:merge sort-coin:bubble sort-coin:selection random-keys modulo transpositions riffle:4 \
         riffle:7 thorp shelf overhand pile cut weak-seed; do
  t0=$(date +%s.%N)
  json=$("$shufl" audit --algo "$a" --seed 1 --tier "$tier" --format json --threads 1)
  t1=$(date +%s.%N)
  printf '%s' "$json" | /usr/bin/python3 -c '
import json, sys
a, secs = sys.argv[1], float(sys.argv[3]) - float(sys.argv[2])
j = json.load(sys.stdin)
fails = [t["name"] for t in j["tests"] if t["result"] == "fail"]
b = [t for t in j["tests"] if t["name"] == "batches"]
bp = "%.3g" % b[0]["p"] if b and b[0].get("p") is not None and b[0]["result"] != "not-applicable" else "-"
res = "pass" if not fails else "fail"
print("| `%s` | %s | %s | %s | %.1f |" % (a, res, ", ".join(fails) if fails else "-", bp, secs))
' "$a" "$t0" "$t1"
done
