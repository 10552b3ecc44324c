#!/usr/bin/env bash
# shufl bias against numpy on the same job in the same run: shuffle 3 cards many times and count
# the 6 orders. Prints trials/s for both and the ratio, then times 1e9 trials of shufl.
#   bench/bias_vs_numpy.sh [path/to/shufl] [numpy trials] [shufl trials]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
shufl="${1:-$here/../build/shufl}"
numpy_trials="${2:-30000000}"
shufl_trials="${3:-1000000000}"
python="${PYTHON:-/usr/bin/python3}"

echo "machine: $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
numpy_rate=$("$python" "$here/numpy_permuted.py" "$numpy_trials" 2>/dev/null)
echo "numpy Generator.permuted, n = 3: $numpy_trials trials, $numpy_rate trials/s"

start=$(date +%s.%N)
"$shufl" bias --n 3 --trials "$shufl_trials" --algo fisher-yates --threads 2 --seed bench --format csv >/dev/null
end=$(date +%s.%N)
seconds=$(echo "$end - $start" | bc -l)
shufl_rate=$(echo "$shufl_trials / $seconds" | bc -l)
printf 'shufl bias --n 3 --threads 2: %d trials in %.2f s, %.0f trials/s\n' "$shufl_trials" "$seconds" "$shufl_rate"
printf 'ratio shufl / numpy: %.1fx\n' "$(echo "$shufl_rate / $numpy_rate" | bc -l)"
