#!/usr/bin/env bash
# The installed C++ library as another project sees it: `cmake --install` into a temporary
# prefix, then (1) libshufl.so carries its SONAME and the headers and package files are there,
# (2) a consumer project (tests/install/consumer) configures with find_package(shufl CONFIG),
# builds against shufl::shufl and runs, (3) the same program builds with `pkg-config --cflags
# --libs shufl` alone, and (4) its audits agree with the binary's.
# Usage: check_library.sh BUILD_DIR SHUFL_BINARY [CXX_COMPILER]
set -uo pipefail
build=$1 shufl=$2 cxx=${3:-c++}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || bad "cmake --install: $(tail -3 "$tmp/install.log")"
lib=$(ls "$prefix"/lib*/libshufl.so.*.*.* 2>/dev/null | head -1)
if [[ -n $lib ]]; then
  soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
  [[ $soname == libshufl.so.0.* ]] && ok || bad "SONAME of $lib: '$soname'"
  libdir=$(dirname "$lib")
  [[ -L $libdir/$soname && -L $libdir/libshufl.so ]] && ok || bad "links $soname and libshufl.so"
else
  bad "no libshufl.so.X.Y.Z under $prefix"
  libdir=$prefix/lib
fi
for f in include/shufl/audit.hpp include/shufl/cards.hpp include/shufl/version.hpp include/shufl/detail/huge_pages.hpp; do
  [[ -f $prefix/$f ]] && ok || bad "not installed: $f"
done
[[ -f $libdir/cmake/shufl/shufl-config.cmake && -f $libdir/cmake/shufl/shufl-config-version.cmake ]] && ok || bad "CMake package files"
export PKG_CONFIG_PATH=$libdir/pkgconfig
requires=$(pkg-config --print-requires shufl 2>&1)
[[ $requires == *fmt* && $requires == *nlohmann_json* ]] && ok || bad "pkg-config Requires: $requires"
private=$(pkg-config --print-requires-private shufl 2>&1)
[[ $private == *libsodium* && $private == *libcrypto* ]] && ok || bad "pkg-config Requires.private: $private"
[[ $(pkg-config --variable=includedir shufl) -ef $prefix/include ]] && ok || bad "pkg-config includedir: $(pkg-config --variable=includedir shufl)"

expect_output() {  # what: the consumer's output in $1
  local out=$1 what=$2
  [[ $out == *"fisher-yates 2000 pass no evidence of non-randomness in 2000 decks at alpha 0.01"* ]] && ok || bad "$what: fisher-yates: $out"
  [[ $out == *"naive 2000 fail evidence of non-randomness"* ]] && ok || bad "$what: naive: $out"
  [[ $out == *"text 2 cards 3"* ]] && ok || bad "$what: text decks: $out"
}

# 2. CMake: find_package(shufl CONFIG) → shufl::shufl.
if cmake -S "$here/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
     -DCMAKE_BUILD_TYPE=Release >"$tmp/configure.log" 2>&1 &&
   cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1; then
  ok
  out=$("$tmp/consumer/consumer" 2>&1)
  expect_output "$out" "CMake consumer"
  # The run's numbers are the binary's: the same summaries from `shufl audit --algo`.
  cli=$("$shufl" audit --algo fisher-yates,naive --trials 2000 --seed 1 2>&1)
  summary=$(sed -n 's/^fisher-yates 2000 pass //p' <<<"$out")
  [[ -n $summary && $cli == *"$summary"* ]] && ok || bad "the binary's report lacks '$summary'"
  readelf -d "$tmp/consumer/consumer" | grep -q "NEEDED.*libshufl.so.0" && ok || bad "consumer does not link libshufl.so"
else
  bad "consumer project: $(tail -15 "$tmp/configure.log" "$tmp/build.log" 2>/dev/null)"
fi

# 3. pkg-config alone.
if "$cxx" -O1 -o "$tmp/pc_consumer" "$here/consumer/main.cpp" $(pkg-config --cflags --libs shufl) 2>"$tmp/pc.log"; then
  ok
  out=$(LD_LIBRARY_PATH=$libdir "$tmp/pc_consumer" 2>&1)
  expect_output "$out" "pkg-config consumer"
else
  bad "pkg-config build: $(tail -10 "$tmp/pc.log")"
fi

# 4. The Python package (when built): in lib/pythonX.Y/dist-packages under the prefix, where
# Debian's python3 looks for /usr and /usr/local, and it imports from there.
if [[ -f $build/python/shufl/__init__.py ]]; then
  site=$(ls -d "$prefix"/lib/python3.*/dist-packages 2>/dev/null | head -1)
  if [[ -n $site && -f $site/shufl/__init__.py && -f $site/shufl/__init__.pyi ]]; then
    ok
    out=$(cd "$tmp" && PYTHONPATH=$site /usr/bin/python3 -c 'import shufl; print(shufl.__file__, shufl.__version__)' 2>&1)
    [[ $out == "$site/shufl/__init__.py "* ]] && ok || bad "installed module imports: $out"
    want=$(/usr/bin/python3 -c 'import sys; print(f"python{sys.version_info[0]}.{sys.version_info[1]}")')
    [[ $site == */lib/$want/dist-packages && " $(/usr/bin/python3 -c 'import sys; print(*sys.path)') " == *" /usr/lib/$want/dist-packages "* ]] && ok ||
      bad "$site is not where Debian's python3 looks"
  else
    bad "the Python package is not installed under $prefix/lib/python3.X/dist-packages"
  fi
fi

echo "library: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
