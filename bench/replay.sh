#!/bin/sh
# CPU per deck of the change detector's replay windows (bench/replay.cpp): a fair stream and one
# deck dealt again and again, in one run, with the window empty and full (2^20 decks). About 10 s.
# Needs the library built in build/ (cmake --build build --target shufl_core).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$here/build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') ($(nproc) cores)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
${CXX:-g++} -std=c++20 -O2 -DNDEBUG -I"$here/include" "$here/bench/replay.cpp" \
  "$build/libshufl_core.a" -lfmt -lsodium -lpthread -o "$out/replay"
"$out/replay"
