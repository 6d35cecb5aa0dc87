#!/usr/bin/env bash
# A real Slurm run on this one machine: starts a one-node cluster (munged, slurmctld, slurmd) from a
# generated slurm.conf in a temporary folder, submits a tournament as a job array of shards and a merge job
# that depends on it (deploy/slurm/submit.sh, the commands of README.md here), waits, and checks that the
# merged games.csv and standings equal an unsplit run of the same config. Stops the daemons at the end.
#
#   deploy/slurm/local-cluster.sh            # configs/shards-connect4.toml in 4 shards
#
# Needs root (slurmd runs each job as its user and must be root to do so; no systemd needed: the daemons
# run in the foreground, in the background of this script). Installs Debian's slurm-wlm and munge with
# apt-get when missing. Uses the arena binary $ARENA (default target/release/arena, built when missing).
# Environment: CONFIG, SHARDS (4), ARENA, TIMEOUT (seconds to wait for the jobs, 600), KEEP=1 keeps the
# temporary folder, SLURMCTLD_PORT/SLURMD_PORT (16817/16818: not Slurm's own, so a real cluster on this
# machine is left alone).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
config=${CONFIG:-configs/shards-connect4.toml}
shards=${SHARDS:-4}
timeout=${TIMEOUT:-600}
ctld_port=${SLURMCTLD_PORT:-16817}
slurmd_port=${SLURMD_PORT:-16818}
started=$(date +%s)
say() { printf '== %s\n' "$*"; }

# Step 1. Root and packages.
if [ "$(id -u)" -ne 0 ]; then
  echo "local-cluster.sh runs as root: slurmd starts each job as its user" >&2
  exit 2
fi
for need in slurmctld:slurm-wlm slurmd:slurm-wlm sbatch:slurm-client munged:munge python3:python3; do
  if ! command -v "${need%%:*}" >/dev/null 2>&1; then
    say "installing ${need#*:} (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge python3 >/dev/null
    break
  fi
done
say "$(slurmctld -V), $(munged -V 2>&1 | head -n 1)"

# Step 2. The arena binary (every node reads it at the same path: one node here).
arena=${ARENA:-$repo/target/release/arena}
if [ ! -x "$arena" ]; then
  say "building $arena (cargo build --release)"
  cargo build --release -q -p arena
fi
arena=$(cd "$(dirname "$arena")" && pwd)/$(basename "$arena")
name=$(sed -n 's/^name[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$config" | head -n 1)

# Step 3. The cluster's folder: munge key and socket, slurm.conf, state, spool, logs, results.
dir=$(mktemp -d /tmp/arena-slurm.XXXXXX)
# munged wants every folder on its socket's path searchable by all.
chmod 755 "$dir"
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/results"
chmod 755 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$dir/munge/munge.key"
pids=()
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  if [ -f "$dir/munge/munged.pid" ]; then
    kill "$(cat "$dir/munge/munged.pid")" 2>/dev/null || true
  fi
  if [ "$rc" -ne 0 ]; then
    for log in "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/slurm-*.out; do
      [ -f "$log" ] && { echo "--- $log (last lines)"; tail -n 15 "$log"; }
    done
  fi
  if [ "${KEEP:-0}" = 1 ] || [ "$rc" -ne 0 ]; then
    echo "kept $dir"
  else
    rm -rf "$dir"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
cpus=$(nproc)
cat >"$dir/slurm.conf" <<EOF
# A one-node cluster for deploy/slurm/local-cluster.sh. No cgroups, no accounting, no systemd.
ClusterName=arena-local
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$dir/slurm.conf

# Step 4. The daemons, in the foreground (-D) as children of this script.
say "starting munged, slurmctld and slurmd ($cpus CPUs, $mem_mb MB) in $dir"
munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed"
slurmctld -D >"$dir/slurmctld.console" 2>&1 &
pids+=($!)
slurmd -D -N localhost >"$dir/slurmd.console" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
  sinfo -h -N -o %T 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -N -o '%N %T %c CPUs' | grep idle || { echo "the node did not come up" >&2; exit 1; }

# Step 5. The two commands of README.md: the shards' job array, then the merge job after it.
say "submitting $config as $shards shards and a merge job"
export ARENA=$arena ARENA_RESULTS=$dir/results
config_abs=$(cd "$(dirname "$config")" && pwd)/$(basename "$config")
(cd "$dir" && "$repo/deploy/slurm/submit.sh" "$config_abs" "$shards") | tee "$dir/submitted"
merge_job=$(sed -n 's/.*merge: job \([0-9]*\) .*/\1/p' "$dir/submitted")
shards_job=$(sed -n 's/^shards: job array \([0-9]*\) .*/\1/p' "$dir/submitted")
squeue

# Step 6. Wait for the merge job (it never starts if a shard fails: afterok).
state=""
for _ in $(seq "$timeout"); do
  state=$(scontrol show job "$merge_job" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  reason=$(scontrol show job "$merge_job" 2>/dev/null | sed -n 's/.*Reason=\([A-Za-z_]*\).*/\1/p')
  case "$state" in
    COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;;
  esac
  [ "$reason" = DependencyNeverSatisfied ] && { state="never started: a shard failed"; break; }
  sleep 1
done
say "jobs ($(($(date +%s) - started)) s since the start)"
for job in "$shards_job" "$merge_job"; do
  scontrol -o show job "$job" | while read -r line; do
    echo "  $(tr ' ' '\n' <<<"$line" | grep -E '^(JobId|ArrayTaskId|JobState|ExitCode|RunTime)=' | paste -sd ' ')"
  done
done
echo "  merge job $merge_job: ${state:-still waiting after $timeout s}"
for out in "$dir"/slurm-arena-shards-*.out; do
  echo "--- $(basename "$out"): $(grep -m1 'shard ' "$out" || true)"
done
echo "--- slurm-arena-merge-$merge_job.out"
cat "$dir/slurm-arena-merge-$merge_job.out" || true
[ "$state" = COMPLETED ] || { echo "FAIL: the merge job did not complete" >&2; exit 1; }

# Step 7. The same config unsplit, on this machine outside Slurm, and the comparison.
say "the unsplit run"
"$arena" run "$config" --no-progress --results "$dir/unsplit" >"$dir/unsplit.out" 2>&1 \
  || { cat "$dir/unsplit.out"; exit 1; }
say "comparing $dir/results/$name with $dir/unsplit/$name"
python3 - "$dir/results/$name" "$dir/unsplit/$name" <<'EOF'
# games.csv sorted by id, every column but those that depend on timing (the clocks, the ms per move, the
# date); standings.csv but its ms_per_move; crosstable.csv as it is.
import csv, sys
merged, unsplit = sys.argv[1], sys.argv[2]
timing = {"time_first_ms", "time_second_ms", "move_ms", "date", "ms_per_move"}

def table(folder, file):
    with open(f"{folder}/{file}", newline="") as f:
        rows = list(csv.DictReader(f))
    cols = [c for c in rows[0] if c not in timing] if rows else []
    return cols, [tuple(r[c] for c in cols) for r in rows]

ok = True
for file, key in [("games.csv", 0), ("standings.csv", None), ("crosstable.csv", None)]:
    (ca, a), (cb, b) = table(merged, file), table(unsplit, file)
    if key is not None:
        a, b = sorted(a), sorted(b)
    same = ca == cb and a == b
    ok &= same
    print(f"{file}: {len(a)} rows merged, {len(b)} unsplit, {'identical' if same else 'DIFFERENT'}"
          f" ({', '.join(ca)})")
    if not same:
        for x, y in zip(a, b):
            if x != y:
                print(f"  first difference:\n    merged  {x}\n    unsplit {y}")
                break
sys.exit(0 if ok else 1)
EOF
say "OK: the merged shards equal the unsplit run ($(($(date +%s) - started)) s in all)"
