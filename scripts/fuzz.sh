#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz/ with clang (a separate build directory, building
# only shufl_core and the harnesses) and runs each for SECONDS (default 10) from its seed corpus
# in tests/fuzz/corpus/<harness>/, one after the other. Fails on any finding (crash, sanitizer
# report, failed property, leak, timeout, out-of-memory); the input that caused it is kept in
# $SHUFL_FUZZ_OUT (default build-fuzz/findings/). New inputs found go to a scratch directory,
# never into the repository's corpus.
#   scripts/fuzz.sh [SECONDS] [HARNESS...]     e.g. scripts/fuzz.sh 300 bias_input
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
shift || true
dir=${SHUFL_FUZZ_BUILD:-build-fuzz}
out=${SHUFL_FUZZ_OUT:-$dir/findings}
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1   # objects shared between clones
fi
cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release -DSHUFL_FUZZ=ON \
  -DSHUFL_BUILD_TESTS=OFF -DSHUFL_BUILD_BENCH=OFF "${launcher[@]}" > /dev/null
cmake --build "$dir" -j"$(nproc)" --target fuzzers
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  harnesses=(records random_source bias_input merge cards algo lines_argv numbers weights audit_reader monitor_state audit_counts csv seed_search_inputs signed_page follow_state seed_search card_array)
fi
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=0
for h in "${harnesses[@]}"; do
  mkdir -p "$scratch/$h"
  log="$out/$h.log"
  # -close_fd_mask=3: the harnesses' own stdout/stderr (error messages, getopt's diagnostics) are
  # dropped; libFuzzer's and the sanitizers' reports still show.
  if "$dir/tests/fuzz/fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$out/$h-" \
       "$scratch/$h" "tests/fuzz/corpus/$h" > "$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    echo "fuzz $h: ok, $runs runs in ${seconds}s, $cov"
  else
    echo "fuzz $h: FAILED (see $log and $out/$h-*)"
    grep -E 'ERROR|fuzz property failed|SUMMARY|runtime error' "$log" | head -5 || true
    failed=1
  fi
done
exit $failed
