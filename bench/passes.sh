#!/usr/bin/env bash
# "How many passes": for each pass count of a family (shelf:10xP, overhand:0.5xK, riffle:K by
# default), the number of 52-card decks from which each test of the `shufl audit` battery flags
# it at ALPHA (the test's own p-value, before the Holm correction of the decision; a test that is
# not-valid at a deck count does not flag): the smallest count at which it flags and keeps
# flagging at every larger count tried, so a chance flag at one count (each test looks about 12
# times) is not taken for detection; median over SEEDS seeds. Deck counts double from 64 to
# MAX_DECKS (the decks of a count are the first decks of every larger count of the same seed);
# "-" = not flagging steadily by MAX_DECKS in the median seed. For riffle:K the exact
# total variation distance from uniform (Bayer-Diaconis closed form, `shufl bias --exact`) is added.
# The columns are the battery's rows as the audit reports them (20 with whole decks), so a test
# added to the battery gets a column. Each run: shufl audit --algo A --trials D --seed passes-S
# --threads THREADS --format json. Cost: about 1 s of CPU per algorithm and seed at MAX_DECKS
# 131072 (the audits are cheap; the 100-overhand decks take longer to make); the elapsed time and
# the CPU seconds of the audits go to stderr at the end.
# Usage: bench/passes.sh [path/to/shufl] [ALGO ...]
# Environment: SEEDS (3), MAX_DECKS (65536), ALPHA (0.01), THREADS (1).
set -euo pipefail
cd "$(dirname "$0")/.."
shufl=$(readlink -f "${1:-build/shufl}")
shift || true
if [ $# -eq 0 ]; then
  set -- shelf:10x1 shelf:10x2 shelf:10x3 \
         overhand:0.5x1 overhand:0.5x10 overhand:0.5x100 \
         riffle:1 riffle:2 riffle:3 riffle:4 riffle:5 riffle:6 riffle:7 riffle:8
fi
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"
SHUFL="$shufl" SEEDS="${SEEDS:-3}" MAX_DECKS="${MAX_DECKS:-65536}" ALPHA="${ALPHA:-0.01}" THREADS="${THREADS:-1}" \
python3 - "$@" <<'PY'
import json, math, os, resource, statistics, subprocess, sys, time

shufl, seeds = os.environ["SHUFL"], int(os.environ["SEEDS"])
max_decks, alpha, threads = int(os.environ["MAX_DECKS"]), float(os.environ["ALPHA"]), os.environ["THREADS"]
tests = []  # the battery's rows, in its order, as the audits report them (whole decks, no --game)

def flagged(algo, decks, seed):
    out = subprocess.run([shufl, "audit", "--algo", algo, "--trials", str(decks), "--seed", f"passes-{seed}",
                          "--threads", threads, "--format", "json"], check=False, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"shufl audit failed for {algo}: {out.stderr}")
    found = {}
    for t in json.loads(out.stdout)["tests"]:
        if t["name"] not in tests:
            tests.append(t["name"])
        if t["result"] in ("pass", "fail"):
            found[t["name"]] = t["ln_p"] < math.log(alpha)
    return found

def tv(algo):
    if not algo.startswith("riffle:"):
        return "-"
    out = subprocess.run([shufl, "bias", "--exact", "--n", "52", "--algo", algo, "--format", "json"],
                         check=False, capture_output=True, text=True)
    try:
        return f"{json.loads(out.stdout)['results'][0]['exact']['total_variation_distance']:.3f}"
    except (ValueError, KeyError, IndexError, TypeError):
        return "?"

start = time.time()
print(f"decks of 52 cards from which each audit test flags at alpha {alpha} at every larger count "
      f"(median of {seeds} seeds; '-': not by {max_decks})")
flagged(sys.argv[1], 64, 1)  # learns the battery's rows
print("| algorithm | TV | " + " | ".join(tests) + " |")
print("|---|---|" + "---|" * len(tests), flush=True)
for algo in sys.argv[1:]:
    first = {t: [] for t in tests}
    for seed in range(1, seeds + 1):
        since = {t: math.inf for t in tests}  # the start of the current run of flags
        decks = 64
        while decks <= max_decks:
            found = flagged(algo, decks, seed)
            for t in tests:
                if not found.get(t, False):
                    since[t] = math.inf
                elif since[t] == math.inf:
                    since[t] = decks
            decks *= 2
        for t in tests:
            first[t].append(since[t])
    cells = []
    for t in tests:
        m = statistics.median_low(first[t])
        cells.append("-" if m == math.inf else str(m))
    print(f"| `{algo}` | {tv(algo)} | " + " | ".join(cells) + " |", flush=True)
cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"elapsed {time.time() - start:.0f} s, CPU {cpu.ru_utime + cpu.ru_stime:.0f} s (user+sys of the audits)",
      file=sys.stderr)
PY
