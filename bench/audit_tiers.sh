#!/bin/sh
# The table of docs/audit.md "Tiers": `shufl audit --tier TIER --seed 1 --threads 1` on every
# algorithm of the zoo (`shufl bias --list`, parameters at their defaults), one Markdown row each:
# the result, the tests that fail after Holm (how many of the family, then their names, or "all
# but" the names of those that pass when that is shorter), the batches row's p and the CPU
# seconds (user + system of the audit, measured by /usr/bin/time, from Debian's package `time`).
# Usage:
#   bench/audit_tiers.sh [--out DIR] [TIER [SHUFL [ALGO...]]]   run the audits, print the table
#   bench/audit_tiers.sh --table DIR                  print the table of the results already in DIR
# TIER is small by default, SHUFL build/shufl, the ALGOs every algorithm of the zoo (name some to
# split a long run into queues sharing DIR). The run keeps, per algorithm A (':' written '_'),
# DIR/A.json (the audit's JSON), DIR/A.time (user, system and elapsed seconds, then "rc N") and
# DIR/A.err, and adds to DIR/run.txt shufl's version, the CPU model and the load before and after;
# without --out DIR is a new temporary directory. An algorithm whose A.json is already in DIR is
# not run again, so an interrupted run resumes.
# --table reads only those files (the tier, algorithm and seed from each JSON; it does not need the
# JSON's input.trials), so anyone can rebuild the table of a long run from its directory; an
# algorithm without A.json shows "not finished".
# CPU with --threads 1 (measured on the project's shared 2-core Xeon): small about 0.1 s per
# algorithm, seconds in all; standard 1-7 s per algorithm, under a minute in all; big, 100 times the
# decks of standard, about 100 times that: 1.5-11 minutes per algorithm, over an hour in all.
set -eu
algos="fisher-yates inside-out pencil-and-paper two-array naive sattolo asf-poker sort-coin:insertion
sort-coin:merge sort-coin:bubble sort-coin:selection random-keys modulo transpositions riffle:4
riffle:7 thorp shelf overhand pile cut weak-seed"
cpu_model() { grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

table() {  # DIR: prints the Markdown table of DIR's results
  # shellcheck disable=SC2086 # one argument per algorithm
  /usr/bin/python3 - "$1" $algos <<'PY'
import glob, json, os, sys

folder, algos = sys.argv[1], sys.argv[2:]
run = os.path.join(folder, "run.txt")
if os.path.exists(run):
    for line in open(run, encoding="utf-8"):
        print("# " + line.rstrip("\n"))
else:
    print("# %s has no run.txt: CPU model and load of the run not recorded" % folder)
files = {os.path.basename(f)[:-5]: f for f in glob.glob(os.path.join(folder, "*.json"))}
names = [a.replace(":", "_") for a in algos]
order = names + sorted(set(files) - set(names))
rows, tiers = [], set()


def cpu_seconds(stem):
    """user + system seconds and the exit status from STEM.time (`%U %S %e`, then "rc N")."""
    secs, rc = None, None
    try:
        lines = open(os.path.join(folder, stem + ".time"), encoding="utf-8").read().split("\n")
    except OSError:
        return None, None
    for line in lines:
        f = line.split()
        if len(f) == 2 and f[0] == "rc":
            rc = int(f[1])
        elif len(f) == 3:
            try:
                secs = float(f[0]) + float(f[1])
            except ValueError:
                pass
    return secs, rc


def names_cell(fails, family):
    passes = [t["name"] for t in family if t["result"] == "pass"]
    if not fails:
        return "0 of %d" % len(family)
    if len(passes) < len(fails):
        listed = "all but " + (", ".join(passes) if passes else "none")
    else:
        listed = ", ".join(fails)
    return "%d of %d: %s" % (len(fails), len(family), listed)


for stem in order:
    label = algos[names.index(stem)] if stem in names else stem
    path = files.get(stem)
    secs, rc = cpu_seconds(stem)
    if rc not in (None, 0):
        rows.append("| `%s` | error (exit %d) | | | |" % (label, rc))
        continue
    if path is None or os.path.getsize(path) == 0:
        rows.append("| `%s` | not finished | | | |" % label)
        continue
    j = json.load(open(path, encoding="utf-8"))
    label = j.get("input", {}).get("algorithm", label)
    tiers.add((j.get("tier", {}).get("name", "?"), j.get("decks"), j.get("input", {}).get("seed")))
    family = [t for t in j["tests"] if t["result"] in ("pass", "fail")]
    fails = [t["name"] for t in family if t["result"] == "fail"]
    b = [t for t in family if t["name"] == "batches"]
    bp = "%.3g" % b[0]["p"] if b and b[0].get("p") is not None else "-"
    rows.append("| `%s` | %s | %s | %s | %s |" % (label, "fail" if fails else "pass", names_cell(fails, family),
                                                 bp, "-" if secs is None else "%.1f" % secs))
for name, decks, seed in sorted(tiers, key=str):
    print("# tier %s, %s decks, seed %s (from the JSON)" % (name, decks, seed))
print("| algorithm | result | tests failing after Holm (of the family) | batches p | CPU s |")
print("|---|---|---|---|---|")
print("\n".join(rows))
PY
}

if [ "${1:-}" = "--table" ]; then
  if [ $# -ne 2 ] || [ ! -d "$2" ]; then echo "usage: bench/audit_tiers.sh --table DIR" >&2; exit 1; fi
  table "$2"
  exit 0
fi
dir=
if [ "${1:-}" = "--out" ]; then
  [ $# -ge 2 ] || { echo "usage: bench/audit_tiers.sh [--out DIR] [TIER [SHUFL [ALGO...]]]" >&2; exit 1; }
  dir=$2
  shift 2
fi
tier=${1:-small}
shufl=$(readlink -f "${2:-build/shufl}")
if [ $# -gt 2 ]; then shift 2; run_algos=$*; else run_algos=$algos; fi
[ -x /usr/bin/time ] || { echo "audit_tiers.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
if [ -z "$dir" ]; then dir=$(mktemp -d "${TMPDIR:-/tmp}/audit_tiers.XXXXXX"); fi
mkdir -p "$dir"
{
  # shellcheck disable=SC2086 # the algorithms on one line
  echo "$("$shufl" --version | head -n1), tier $tier, seed 1, --threads 1, one audit at a time:" $run_algos
  echo "CPU: $(cpu_model); load before: $(load); started $(date -u '+%Y-%m-%d %H:%M UTC')"
} >> "$dir/run.txt"
for a in $run_algos; do
  f=$dir/$(echo "$a" | tr ':' '_')
  [ -s "$f.json" ] && continue
  rc=0
  /usr/bin/time -f '%U %S %e' -o "$f.time" \
    "$shufl" audit --algo "$a" --seed 1 --tier "$tier" --format json --threads 1 > "$f.json.tmp" 2> "$f.err" || rc=$?
  echo "rc $rc" >> "$f.time"
  [ "$rc" -eq 0 ] && mv "$f.json.tmp" "$f.json"
done
echo "load after: $(load); ended $(date -u '+%Y-%m-%d %H:%M UTC')" >> "$dir/run.txt"
echo "# results in $dir" >&2
table "$dir"
