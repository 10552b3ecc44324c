#!/usr/bin/env bash
# The Python a build uses is Debian's /usr/bin/python3 even when another python3 comes first on
# PATH (a pyenv shim on a developer's machine): a scratch configure of the sources with such a
# python3 first on PATH caches /usr/bin/python3 for the module (Python_EXECUTABLE) and for the
# test scripts (Python3_EXECUTABLE). Exits 77 (skipped) without /usr/bin/python3.
# Usage: check_python_pin.sh SOURCE_DIR
set -uo pipefail
src=$1
[[ -x /usr/bin/python3 ]] || { echo "skipped: no /usr/bin/python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# A stand-in for the shim: a working python3 that is not /usr/bin/python3.
printf '#!/bin/sh\nexec /usr/bin/python3 "$@"\n' > "$tmp/bin/python3"
chmod +x "$tmp/bin/python3"
PATH="$tmp/bin:$PATH" cmake -S "$src" -B "$tmp/build" -DSHUFL_BUILD_TESTS=OFF -DSHUFL_BUILD_BENCH=OFF >"$tmp/log" 2>&1 ||
  { tail -5 "$tmp/log" >&2; echo "FAIL: configure" >&2; exit 1; }
failed=0
for v in Python_EXECUTABLE Python3_EXECUTABLE _Python3_EXECUTABLE; do
  got=$(sed -n "s/^$v:[A-Z]*=//p" "$tmp/build/CMakeCache.txt")
  [[ $got == /usr/bin/python3 ]] || { echo "FAIL: $v is '$got', not /usr/bin/python3" >&2; failed=1; }
done
exit $failed
