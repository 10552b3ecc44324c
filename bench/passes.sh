#!/usr/bin/env bash
# "How many passes": for each pass count of a family (shelf:10xP, overhand:0.5xK, riffle:K by
# default), the number of 52-card decks at which each test of `shufl bias` first flags it at
# ALPHA (its own p-value, before the Holm correction of the verdict), median over SEEDS seeds.
# Deck counts double from 64 to MAX_DECKS; "-" = not flagged by MAX_DECKS in the median seed.
# The tests: the position chi-squared (card x position, valid from 260 decks), the z-tests of
# fixed points, cycles, inversions and rising sequences, and the duplicates (birthday) test.
# Usage: bench/passes.sh [path/to/shufl] [ALGO ...]
# Environment: SEEDS (3), MAX_DECKS (262144), ALPHA (0.01), THREADS (2).
set -euo pipefail
cd "$(dirname "$0")/.."
shufl=$(readlink -f "${1:-build/shufl}")
shift || true
if [ $# -eq 0 ]; then
  set -- shelf:10x1 shelf:10x2 shelf:10x3 shelf:10x4 \
         overhand:0.5x1 overhand:0.5x10 overhand:0.5x100 overhand:0.5x1000 \
         riffle:1 riffle:2 riffle:3 riffle:4 riffle:5 riffle:6 riffle:7 riffle:8
fi
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"
SHUFL="$shufl" SEEDS="${SEEDS:-3}" MAX_DECKS="${MAX_DECKS:-262144}" ALPHA="${ALPHA:-0.01}" THREADS="${THREADS:-2}" \
python3 - "$@" <<'PY'
import json, math, os, statistics, subprocess, sys

shufl, seeds = os.environ["SHUFL"], int(os.environ["SEEDS"])
max_decks, alpha, threads = int(os.environ["MAX_DECKS"]), float(os.environ["ALPHA"]), os.environ["THREADS"]
tests = ["position chi-squared", "fixed points", "cycles", "inversions", "rising sequences", "duplicates"]

def flagged(algo, decks, seed):
    out = subprocess.run([shufl, "bias", "--n", "52", "--algo", algo, "--trials", str(decks), "--seed",
                          f"passes-{seed}", "--threads", threads, "--format", "json"],
                         check=False, capture_output=True, text=True)
    if out.returncode not in (0, 3, 4):
        sys.exit(f"shufl bias failed for {algo}: {out.stderr}")
    r = json.loads(out.stdout)["results"][0]
    found = {}
    if r["primary"]["valid"]:
        found["position chi-squared"] = r["chi_squared"]["ln_p"] < math.log(alpha)
    for s in r["secondary"]:
        found[s["name"]] = s["ln_p"] < math.log(alpha)
    return found

print(f"decks of 52 cards until each test flags at alpha {alpha} (median of {seeds} seeds; '-': not by {max_decks})")
print(f"{'algorithm':<18}" + "".join(f"{t:>22}" for t in tests))
for algo in sys.argv[1:]:
    first = {t: [] for t in tests}
    for seed in range(1, seeds + 1):
        seen = {}
        decks = 64
        while decks <= max_decks and len(seen) < len(tests):
            for t, hit in flagged(algo, decks, seed).items():
                if hit and t not in seen:
                    seen[t] = decks
            decks *= 2
        for t in tests:
            first[t].append(seen.get(t, math.inf))
    cells = []
    for t in tests:
        m = statistics.median_low(first[t])
        cells.append("-" if m == math.inf else str(m))
    print(f"{algo:<18}" + "".join(f"{c:>22}" for c in cells), flush=True)
PY
