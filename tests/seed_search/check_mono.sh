#!/usr/bin/env bash
# ctest seed_search.mono (label long): the dotnet-random family against Debian's mono
# (System.Random). Installs mono-mcs and mono-runtime with apt-get when no `mcs` is on PATH;
# exits 77 (skipped, with the reason) when it cannot. Usage: check_mono.sh SHUFL_TESTS_BINARY
set -u
if ! command -v mcs >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "skipped: no mcs on PATH, and installing mono-mcs mono-runtime needs root and apt-get"
    exit 77
  fi
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mono-mcs mono-runtime >/dev/null 2>&1; then
    echo "skipped: apt-get could not install mono-mcs mono-runtime (offline?)"
    exit 77
  fi
fi
mono --version | head -1 2>&1
SHUFL_SEED_SEARCH_MONO=1 exec "$1" --gtest_filter='SeedSearchFamilies.DotnetRandomIsMono'
