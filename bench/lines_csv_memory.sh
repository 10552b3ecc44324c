#!/usr/bin/env bash
# Peak memory of `shufl lines --csv` on one record with a very large quoted field (default
# 300 MiB, SIZE_MIB to change), in two shapes: line breaks inside the field every 100 bytes
# ("broken") and none ("flat"). Each mode that keeps records runs once under /usr/bin/time -v;
# the table gives the peak RSS and its ratio to the field's size (target: at most ~1.25). GNU
# shuf on the same bytes (its lines, not CSV records) is the peer where it makes sense: the full
# shuffle and -n. With a second binary (e.g. the main branch's build) its rows come first, for
# a before/after in the same run.
# Usage: bench/lines_csv_memory.sh [path/to/shufl [path/to/baseline-shufl]]
set -euo pipefail
cd "$(dirname "$0")/.."
shufl=$(readlink -f "${1:-build/shufl}")
baseline=${2:+$(readlink -f "$2")}
mib=${SIZE_MIB:-300}
[ -x /usr/bin/time ] || { echo "no /usr/bin/time" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/shufl-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') ($(nproc) cores)"
echo "load: $(uptime)"
python3 - "$work" "$mib" <<'PY'
import sys
work, mib = sys.argv[1], int(sys.argv[2])
size = mib << 20
with open(f"{work}/broken.csv", "wb") as f:
    f.write(b"a,b\n1,2\n3,\"")
    f.write((b"y" * 99 + b"\n") * (size // 100))
    f.write(b"\"\n4,5\n")
with open(f"{work}/flat.csv", "wb") as f:
    f.write(b"a,b\n1,2\n3,\"")
    f.write(b"x" * size)
    f.write(b"\"\n4,5\n")
PY
field_kib=$((mib * 1024))

row() {  # LABEL CMD...: one run, peak RSS and wall time from GNU time -v
  local label=$1; shift
  /usr/bin/time -v -o "$work/time" "$@" > /dev/null
  local rss wall
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time")
  printf '%-58s %9d KiB %6.2fx field %9s\n' "$label" "$rss" "$(awk -v a="$rss" -v b="$field_kib" 'BEGIN{print a/b}')" "$wall"
}

echo "field: $mib MiB = $field_kib KiB"
for shape in broken flat; do
  f=$work/$shape.csv
  echo
  echo "== $shape field"
  for bin in ${baseline:+"$baseline"} "$shufl"; do
    tag=$([ "$bin" = "$shufl" ] && echo shufl || echo baseline)
    row "$tag --csv --seed 1 (full shuffle, file)" "$bin" lines --csv --seed 1 "$f"
    row "$tag --csv --seed 1 (full shuffle, pipe)" sh -c "cat '$f' | '$bin' lines --csv --seed 1"
    row "$tag --csv --seed 1 -n 2" "$bin" lines --csv --seed 1 -n 2 "$f"
    row "$tag --csv -n 2 --random-source (GNU draws)" "$bin" lines --csv -n 2 --random-source="$f" "$f"
    row "$tag --csv --seed 1 --prob 1" "$bin" lines --csv --seed 1 --prob 1 "$f"
    row "$tag --csv --seed 1 --header 1 --weight-field a -n 2" "$bin" lines --csv --seed 1 --header 1 --weight-field a -n 2 "$f"
    row "$tag --csv --seed 1 --with-replacement -n 2" "$bin" lines --csv --seed 1 --with-replacement -n 2 "$f"
  done
  row "GNU shuf (full shuffle of the lines)" /usr/bin/shuf --random-source="$f" "$f"
  row "GNU shuf -n 2 (lines)" /usr/bin/shuf -n 2 --random-source="$f" "$f"
done
