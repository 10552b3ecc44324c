#!/usr/bin/env bash
# ctest monitor.promtool (label long): `promtool check metrics` on the Prometheus file of
# `shufl audit --follow --metrics` (labels with quotes, backslashes and newlines in their
# values included), so Prometheus' own linter accepts what node_exporter serves. Installs
# Debian's `prometheus` package (which ships promtool) when no promtool is on PATH; exits 77
# (skipped, with the reason) when it cannot. Usage: check_promtool.sh SHUFL_BINARY
set -u
shufl=$1
if ! command -v promtool >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "skipped: no promtool on PATH, and installing prometheus needs root and apt-get"
    exit 77
  fi
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q prometheus >/dev/null 2>&1; then
    echo "skipped: apt-get could not install prometheus (offline?)"
    exit 77
  fi
fi
promtool --version 2>&1 | head -1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
check() {  # check NAME FILE: promtool's verdict, and any finding fails the test
  local out
  if ! out=$(promtool check metrics < "$2" 2>&1) || [ -n "$out" ]; then
    echo "FAIL $1: promtool check metrics:"
    echo "$out"
    status=1
  else
    echo "ok $1"
  fi
}
"$shufl" deck --count 300 --seed promtool |
  "$shufl" audit --follow - --every 100 --metrics "$dir/fair.prom" \
    --metrics-label table=07 --metrics-label 'note=a "quoted" \ value' >/dev/null 2>&1
check "a fair stream with labels" "$dir/fair.prom"
# An alarm (a deck repeated at once), no labels.
deck=$("$shufl" deck --count 1 --seed promtool-alarm)
printf '%s\n%s\n' "$deck" "$deck" | "$shufl" audit --follow - --metrics "$dir/alarm.prom" >/dev/null 2>&1
grep -q '^shufl_audit_alarm{group=""} 1$' "$dir/alarm.prom" || { echo "FAIL: no alarm in alarm.prom"; status=1; }
check "an alarm" "$dir/alarm.prom"
[ "$status" = 0 ] && echo "2 passed, 0 failed" || echo "failed"
exit "$status"
