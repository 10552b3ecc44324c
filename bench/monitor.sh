#!/bin/sh
# The monitor's figures in docs/monitor.md: drift under a fair shuffle, decks to alarm for planted
# flaws, decks per second. Needs the library built in build/ (cmake --build build --target shufl_core).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$here/build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
grep -m1 'model name' /proc/cpuinfo || true
${CXX:-g++} -std=c++20 -O2 -DNDEBUG -I"$here/include" "$here/bench/monitor.cpp" \
  "$build/libshufl_core.a" -lfmt -lsodium -lpthread -o "$out/monitor"
"$out/monitor"
