#!/usr/bin/env bash
# Long test (ctest bias.slurm_array, label long; issue 15): starts a private single-node Slurm on
# this machine (munged, slurmctld and slurmd with their own key, socket, ports and state in a
# temporary directory), submits examples/slurm/submit.sh 4 (the sbatch array of 4 shards, then
# the merge job that waits for it) and checks that the merged JSON report equals the unsharded
# run's (but for the documented provenance fields threads and merged).
# Installs slurm-wlm and munge itself with apt-get when they are missing (they are not in
# scripts/setup.sh); exits 77 (skipped) saying why when it cannot. Stops every daemon it started.
#   usage: check_slurm.sh SHUFL_BINARY
set -euo pipefail
shufl=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
skip() { echo "SKIPPED: $*" >&2; exit 77; }

[ "$(id -u)" = 0 ] || skip "a private Slurm needs root (slurmd runs jobs as their users; apt-get installs the packages)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  echo "installing slurm-wlm and munge with apt-get ..." >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends slurm-wlm munge >/tmp/shufl-slurm-apt.log 2>&1; then
    apt-get update >>/tmp/shufl-slurm-apt.log 2>&1 || true
    apt-get install -y --no-install-recommends slurm-wlm munge >>/tmp/shufl-slurm-apt.log 2>&1 ||
      skip "apt-get install slurm-wlm munge failed (no network or no such packages?): see /tmp/shufl-slurm-apt.log: $(tail -1 /tmp/shufl-slurm-apt.log)"
  fi
fi
for tool in munged slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$tool" >/dev/null || skip "$tool is missing after installing slurm-wlm and munge"
done

tmp=$(mktemp -d /tmp/shufl-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -s "$tmp/munged.pid" ] && kill "$(cat "$tmp/munged.pid")" 2>/dev/null || true
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" != 0 ] && [ "$status" != 77 ]; then
    for log in "$tmp"/*.log "$tmp"/parts/*.out; do [ -f "$log" ] && { echo "== $log"; tail -20 "$log"; }; done >&2
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT

# munge: our own key, socket and pid file (never the system's daemon).
mkdir -p "$tmp/munge"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge.socket" --pid-file="$tmp/munged.pid" \
  --log-file="$tmp/munged.log" --seed-file="$tmp/munge/seed" ||
  skip "munged would not start: $(tail -2 "$tmp/munged.log" 2>/dev/null)"

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/parts"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=shufltest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=shufl Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
ready=
for _ in $(seq 1 120); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  case "$state" in idle*|mixed*|allocated*) ready=1; break ;; esac
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || skip "a Slurm daemon exited at start: $(tail -3 "$tmp"/slurm*.out "$tmp"/slurm*.log 2>/dev/null)"; done
  sleep 0.5
done
[ -n "$ready" ] || skip "the private Slurm never became ready (sinfo: '${state:-}'): $(tail -3 "$tmp/slurmctld.log" "$tmp/slurmd.log" 2>/dev/null)"
echo "Slurm ready on $host: $(sinfo -h -o '%P %D %T %c')"

# The run: 4 shards of a seeded run through the example's submit.sh, the merge as a dependent job.
args='--n 12 --trials 3000000 --seed slurm --algo fisher-yates,naive'
cd "$tmp/parts"
ids=$(SHUFL="$shufl" SHUFL_ARGS="$args" PARTS="$tmp/parts" "$src/examples/slurm/submit.sh" 4)
echo "$ids"
merge=${ids##* }
for _ in $(seq 1 600); do
  job_state=$(scontrol show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 || true)
  case "$job_state" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;; esac
  sleep 1
done
[ "$job_state" = COMPLETED ] || { echo "FAIL: merge job $merge ended $job_state" >&2; exit 1; }
ls "$tmp/parts"
for i in 0 1 2 3; do
  [ -s "$tmp/parts/part-$i.json" ] || { echo "FAIL: part-$i.json missing" >&2; exit 1; }
done
# shellcheck disable=SC2086
"$shufl" bias $args --format json >"$tmp/single.json"
python3 - "$tmp/parts/report.json" "$tmp/single.json" <<'PY'
import json, sys
merged, single = (json.load(open(f)) for f in sys.argv[1:3])
shards = merged["merged"]["runs"][0]["shards"]
assert shards == [[0, 4], [1, 4], [2, 4], [3, 4]], shards
for j in (merged, single):
    j.pop("threads", None)
    j.pop("merged", None)
assert merged == single, "the merged report differs from the single run"
print("merged report of 4 Slurm array tasks == single run:", [r["verdict"] for r in single["results"]])
PY
grep -q 'verdict: biased' "$tmp/parts/report.txt" || { echo "FAIL: report.txt lacks naive's verdict" >&2; exit 1; }
echo PASS
