#!/usr/bin/env bash
# ctest seed_search.java (label long): the java-random family against a real JDK. Installs
# Debian's default-jdk-headless with apt-get when no `java` is on PATH; exits 77 (skipped, with
# the reason) when it cannot. Usage: check_java.sh SHUFL_TESTS_BINARY
set -u
if ! command -v java >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "skipped: no java on PATH, and installing default-jdk-headless needs root and apt-get"
    exit 77
  fi
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q default-jdk-headless >/dev/null 2>&1; then
    echo "skipped: apt-get could not install default-jdk-headless (offline?)"
    exit 77
  fi
fi
java -version 2>&1 | head -1
SHUFL_SEED_SEARCH_JAVA=1 exec "$1" --gtest_filter='SeedSearchFamilies.JavaRandomIsTheJdk'
