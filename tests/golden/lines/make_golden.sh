#!/usr/bin/env bash
# Regenerates the golden outputs of tests/e2e_lines_test.cpp (GoldenGnu / GoldenSeeded).
#   gnu_*.out     made with GNU coreutils 9.1 /usr/bin/shuf and source.bin: pin GNU compatibility
#   seed_*.out    made with shufl itself: pin our seeded output on purpose (changing them is a
#                 breaking change of the --seed contract)
# Usage: tests/golden/lines/make_golden.sh path/to/shufl
set -euo pipefail
cd "$(dirname "$0")"
shufl=${1:?usage: make_golden.sh path/to/shufl}
gnu() { local name=$1; shift; /usr/bin/shuf "$@" > "$name"; }
gnu gnu_full.out --random-source=source.bin input.txt
gnu gnu_n5.out -n 5 --random-source=source.bin input.txt
gnu gnu_r7.out -r -n 7 --random-source=source.bin input.txt
gnu gnu_z.out -z --random-source=source.bin input.txt
gnu gnu_e.out -e a b c d e --random-source=source.bin
gnu gnu_i.out -i 10-40 --random-source=source.bin
gnu gnu_i_huge.out -i 1-2882303761517117440 -n 2 --random-source=source.bin
/usr/bin/shuf -n 3 --random-source=source.bin < /dev/stdin > gnu_pipe_n3.out < <(cat input.txt)
seed() { local name=$1; shift; "$shufl" lines "$@" > "$name"; }
seed seed_full.out --seed golden input.txt
seed seed_n5.out --seed golden -n 5 input.txt
seed seed_r7.out --seed golden -r -n 7 input.txt
seed seed_z.out --seed golden -z input.txt
seed seed_e.out --seed golden -e a b c d e
seed seed_i.out --seed golden -i 10-40
seq 100000 | "$shufl" lines --seed golden -n 10 > seed_n10_seq100000.out
seed seed_i_n.out --seed golden -i 1-18446744073709551615 -n 3
"$shufl" lines --seed golden -i 1-200000 | sha256sum | cut -d' ' -f1 > seed_i_200000.sha256
# The sampler modes (issue 17); tests/golden/lines/independent_modes.py recomputes them.
seed seed_keep_order_n5.out --seed golden -n 5 --keep-order input.txt
seed seed_prob.out --seed golden --prob 0.3 input.txt
seq 100000 | "$shufl" lines --seed golden --prob 0.001 > seed_prob_seq100000.out
seed seed_distinct.out --seed golden --prob 0.3 --key-fields 3 weighted.tsv
seed seed_weighted_n5.out --seed golden --weight-field 2 -n 5 weighted.tsv
seed seed_weighted_all.out --seed golden --weight-field 2 weighted.tsv
seed seed_replace_n8.out --seed golden --with-replacement -n 8 input.txt
seed seed_replace_weighted_n8.out --seed golden --with-replacement -n 8 --weight-field 2 weighted.tsv
