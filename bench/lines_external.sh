#!/usr/bin/env bash
# The larger-than-memory shuffle of `shufl lines` (issue 6): a SIZE_GB file (default 4) of
# 100-byte lines, shuffled in memory (the default --memory, half the available RAM) and with
# --memory 512M (external: 256 bucket files in $TMPDIR), both seeded, reporting wall time and
# peak RSS (/usr/bin/time), and checking that both print the same bytes (SHA-256).
# Targets: --memory 512M peaks under 600 MiB and takes at most 2.5x the in-memory time.
# Usage: bench/lines_external.sh [path/to/shufl]   (default: build/shufl)
# Needs about 2 x SIZE_GB free in $TMPDIR (the input and the bucket files); removes everything.
set -euo pipefail
cd "$(dirname "$0")/.."
shufl=$(readlink -f "${1:-build/shufl}")
size_gb=${SIZE_GB:-4}
memory=${MEMORY:-512M}
[ -x /usr/bin/time ] || { echo "no /usr/bin/time" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/shufl-bench-ext-XXXXXX")
trap 'rm -rf "$work"' EXIT
df -h "$work" | tail -1 | awk '{print "free space in " $6 ": " $4}'
nproc | awk '{print "cores: " $1}'
free -m | awk '/^Mem:/ {print "RAM: " $2 " MiB, available " $7 " MiB"}'

echo "generating ${size_gb} GB of 100-byte lines in $work ..."
awk 'BEGIN { for (i = 1; i <= 10000000; i++) printf "line-%094d\n", i }' > "$work/1g.txt"
for _ in $(seq "$size_gb"); do cat "$work/1g.txt"; done > "$work/in.txt"
rm -f "$work/1g.txt"
ls -l "$work/in.txt" | awk '{print "input: " $5 " bytes"}'

# run LABEL ARGS...: one timed run to /dev/null; prints seconds and peak RSS.
run() {
  local label=$1; shift
  sync
  read -r t m < <( { /usr/bin/time -f "%e %M" "$shufl" lines "$@" > /dev/null; } 2>&1 | tail -1 )
  awk -v l="$label" -v t="$t" -v m="$m" 'BEGIN { printf "%-28s %8.2f s %10.1f MiB\n", l, t, m / 1024 }'
  echo "$t" > "$work/$label.t"
}

run in-memory --seed 1 "$work/in.txt"
run "memory-$memory" --seed 1 --memory "$memory" --temp-dir "$work" "$work/in.txt"
awk -v a="$(cat "$work/in-memory.t")" -v b="$(cat "$work/memory-$memory.t")" \
  'BEGIN { printf "external / in-memory time: %.2fx\n", b / a }'

if [ "${CHECK:-1}" = 1 ]; then
  a=$("$shufl" lines --seed 1 "$work/in.txt" | sha256sum | cut -d' ' -f1)
  b=$("$shufl" lines --seed 1 --memory "$memory" --temp-dir "$work" < "$work/in.txt" | sha256sum | cut -d' ' -f1)
  [ "$a" = "$b" ] && echo "same output (file in memory vs pipe with --memory $memory): $a" ||
    { echo "OUTPUT DIFFERS: $a vs $b"; exit 1; }
fi
