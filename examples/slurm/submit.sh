#!/bin/bash
# Submits a sharded `shufl bias` run to Slurm: N array tasks (shufl-bias.sbatch), then the merge
# as a job that starts when every task succeeded and writes report.txt and report.json in PARTS.
#
#   SHUFL_ARGS='--n 52 --trials 1000000000000 --seed cert-1 --algo fisher-yates' ./submit.sh 1000
#
# Prints the two job ids. Extra sbatch options (partition, account, time) go in SBATCH_EXTRA.
set -euo pipefail
N=${1:?usage: submit.sh N (number of shards)}
here=$(cd "$(dirname "$0")" && pwd)
: "${SHUFL:=shufl}"
: "${PARTS:=$PWD/parts}"
export SHUFL SHUFL_ARGS PARTS
# shellcheck disable=SC2086
array=$(sbatch --parsable --export=ALL ${SBATCH_EXTRA:-} --array="0-$((N - 1))" "$here/shufl-bias.sbatch")
# shellcheck disable=SC2086
merge=$(sbatch --parsable --export=ALL ${SBATCH_EXTRA:-} --dependency="afterok:${array%%;*}" \
  --job-name=shufl-merge --output="$PARTS/merge-%j.out" \
  --wrap "\"\$SHUFL\" bias --merge \"\$PARTS\"/part-*.json --format json > \"\$PARTS/report.json\" &&
          \"\$SHUFL\" bias --merge \"\$PARTS\"/part-*.json > \"\$PARTS/report.txt\"")
echo "array job $array, merge job $merge"
