#!/usr/bin/env bash
# Installs every Debian package shufl's build, tests and benchmarks use, then configures and
# builds (Release) into build/. Safe to run again. Needs root or sudo for apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake g++ make pkg-config
  libcli11-dev libfmt-dev libboost-dev libsodium-dev libssl-dev nlohmann-json3-dev libutf8proc-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-numpy python3-cryptography nodejs jq hyperfine time bc coreutils util-linux openssl
  librsvg2-bin poppler-utils prometheus-node-exporter chromium chromium-driver python3-selenium python3-jsonschema python3-mpmath python3-scipy parallel
  bash-completion zsh fish dpkg-dev groff-base man-db
  clang libclang-rt-14-dev ccache
  php-cli
  pybind11-dev python3-pybind11 python3-dev python3-pytest
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The binary and the Python module (the quick start's main jobs; the module's core objects are
# the binary's); scripts/test.sh builds the tests and benchmarks.
# ccache, when installed, makes rebuilds in other clones cheap.
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1   # objects shared between clones
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSHUFL_PYTHON=ON "${launcher[@]}"
cmake --build build -j"$(nproc)" --target shufl shufl_python
