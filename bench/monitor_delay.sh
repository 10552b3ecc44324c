#!/bin/sh
# The detection-delay table of docs/monitor.md: five faults switched on after 0, 10^4, 10^5 (and
# with MAX_HISTORY=1000000, 10^6) fair decks, median and 90th percentile over SEEDS seeds, at the
# default --arl. Needs the library built in build/ (cmake --build build --target shufl_core).
# Usage: bench/monitor_delay.sh [SEEDS [MAX_HISTORY [ARL]]]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$here/build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
grep -m1 'model name' /proc/cpuinfo || true
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
${CXX:-g++} -std=c++20 -O2 -DNDEBUG -I"$here/include" "$here/bench/monitor_delay.cpp" \
  "$build/libshufl_core.a" -lfmt -lsodium -lpthread -o "$out/monitor_delay"
"$out/monitor_delay" "${1:-20}" "${2:-100000}" "${3:-1e9}"
