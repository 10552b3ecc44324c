#!/usr/bin/env bash
# ctest seed_search.go (label long): the go-math-rand family against Debian's Go. Installs
# golang-go with apt-get when no `go` is on PATH; exits 77 (skipped, with the reason) when it
# cannot. Usage: check_go.sh SHUFL_TESTS_BINARY
set -u
if ! command -v go >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "skipped: no go on PATH, and installing golang-go needs root and apt-get"
    exit 77
  fi
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends golang-go >/dev/null 2>&1; then
    echo "skipped: apt-get could not install golang-go (offline?)"
    exit 77
  fi
fi
go version 2>&1
SHUFL_SEED_SEARCH_GO=1 exec "$1" --gtest_filter='SeedSearchFamilies.GoMathRandIsGo'
