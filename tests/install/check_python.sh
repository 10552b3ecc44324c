#!/usr/bin/env bash
# ctest install.python (label long: two builds of the module): the Python package installs
# without the internet from a clone, with Debian's packages only (docs/python.md):
#   /usr/bin/python3 -m venv --system-site-packages v && v/bin/pip install --no-build-isolation --no-index .
#   /usr/bin/python3 -m pip install --no-build-isolation --no-index --no-deps --target DIR .
# and each install imports and audits. Exits 77 (skipped) without python3-venv, python3-pip,
# python3-setuptools or python3-wheel.
# Usage: check_python.sh SOURCE_DIR
set -u
src=$1
/usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null || { echo "skipped: python3-venv missing"; exit 77; }
/usr/bin/python3 -m pip --version >/dev/null 2>&1 || { echo "skipped: python3-pip missing"; exit 77; }
/usr/bin/python3 -c 'import setuptools, wheel' 2>/dev/null || { echo "skipped: python3-setuptools or python3-wheel missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
git clone -q "$src" "$tmp/clone" || { echo "FAIL: git clone"; exit 1; }
# Uncommitted changes of a working tree come along (the clone is of HEAD).
(cd "$src" && git diff HEAD) | (cd "$tmp/clone" && git apply --allow-empty 2>/dev/null || true)
# The CI build's flags, so ccache shares the library's objects (build-python/ sits where build/ does).
export SHUFL_CMAKE_ARGS=-DSHUFL_WERROR=ON CCACHE_BASEDIR=$tmp/clone CCACHE_NOHASHDIR=1 CMAKE_BUILD_PARALLEL_LEVEL=2
check_import() {  # what PYTHON [PYTHONPATH]
  local out
  out=$(cd "$tmp" && PYTHONPATH=${3:-} "$2" -c 'import numpy as np, shufl
d = np.argsort(np.random.default_rng(1).random((500, 52)), axis=1) + 1
print(shufl.__version__, shufl.audit(d).result, shufl.shuffle(list("abc"), seed="1"))' 2>&1)
  [[ $out == *" pass ["* ]] && ok || bad "$1: $out"
}
/usr/bin/python3 -m venv --system-site-packages "$tmp/v" || bad "venv"
if (cd "$tmp/clone" && nice "$tmp/v/bin/pip" install -q --no-build-isolation --no-index . >"$tmp/pip1.log" 2>&1); then
  ok
  check_import "venv install" "$tmp/v/bin/python"
else
  bad "pip install into a venv: $(tail -15 "$tmp/pip1.log")"
fi
if (cd "$tmp/clone" && nice /usr/bin/python3 -m pip install -q --no-build-isolation --no-index --no-deps --target "$tmp/target" . >"$tmp/pip2.log" 2>&1); then
  ok
  check_import "--target install" /usr/bin/python3 "$tmp/target"
  [[ -f $tmp/target/shufl/__init__.pyi && -f $tmp/target/shufl/py.typed ]] && ok || bad "stubs not installed"
else
  bad "pip install --target: $(tail -15 "$tmp/pip2.log")"
fi
echo "python install: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
