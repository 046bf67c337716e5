#!/usr/bin/env bash
# CI: a sweep under a real Slurm. Installs Debian's slurm-wlm and munge when missing, starts a
# single-node cluster on this machine (munged, slurmctld, slurmd; tools/slurm/ci/slurm.conf.in,
# localhost only, no accounting, no cgroups, every file in one temporary folder), submits
# tools/slurm/sweep_array.sh as a job array and tools/slurm/sweep_merge.sh after it
# (--dependency=afterok), waits with a bounded timeout, compares the merged CSV byte for byte
# with a single-machine sweep, and stops the daemons (also on failure). Needs a build of
# gpumemsim. Runs as root (CI containers) or as a user with sudo for the install; the daemons
# run as the user who starts the script.
#   bash .ci/slurm.sh [BUILD_DIR]        (default build/)
# Environment: SLURM_CI_TIMEOUT (seconds for the jobs, default 300), SLURM_CI_PORT (slurmctld's
# port, default 16817; slurmd takes the next one: away from a real cluster's 6817/6818).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${1:-build}
prog="$root/$build/gpumemsim"
[[ -x "$prog" ]] || { echo "slurm.sh: no $prog (build first)" >&2; exit 1; }
timeout_s=${SLURM_CI_TIMEOUT:-300}
port=${SLURM_CI_PORT:-16817}
start=$(date +%s)

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
   ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
  echo "== Installing slurm-wlm and munge"
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  # The package lists are fresh after tools/install-deps.sh: update only if the install fails.
  install=($sudo apt-get install -y -q --no-install-recommends slurm-wlm munge)
  "${install[@]}" || { $sudo apt-get update -q && "${install[@]}"; }
fi

dir=$(mktemp -d /tmp/gms-slurm.XXXXXX)
chmod 711 "$dir"  # munge clients must reach the socket; nothing here is listable
node=$(hostname -s)  # slurmctld runs only on the host its SlurmctldHost names
stop_daemons() {
  local status=$?
  set +e
  [[ -f "$dir/slurmctld.pid" ]] && timeout 5 scancel --quiet --user "$(id -un)" 2>/dev/null
  for d in slurmd slurmctld munged; do
    [[ -f "$dir/$d.pid" ]] && kill "$(cat "$dir/$d.pid")" 2>/dev/null
  done
  for d in slurmd slurmctld munged; do  # wait (bounded) for each to go
    for _ in $(seq 50); do
      [[ -f "$dir/$d.pid" ]] && kill -0 "$(cat "$dir/$d.pid")" 2>/dev/null || break
      sleep 0.1
    done
  done
  if [[ $status -ne 0 ]]; then
    for f in "$dir"/*.log "$dir"/munged.log.txt; do
      [[ -f "$f" ]] && { echo "---- $f"; tail -n 30 "$f"; } >&2
    done
  fi
  rm -rf "$dir"
  exit $status
}
trap stop_daemons EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "== Single-node Slurm in $dir (slurmctld port $port)"
# munge: its own key, socket, pid, log and seed files; --force lets it run as root and under a
# world-writable /tmp.
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge.key"
munged --force --socket="$dir/munge.socket" --key-file="$dir/munge.key" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log.txt" --seed-file="$dir/munge.seed"
mkdir -p "$dir/state" "$dir/slurmd"
sed -e "s|@DIR@|$dir|g" -e "s|@NODE@|$node|g" -e "s|@USER@|$(id -un)|g" \
  -e "s|@CPUS@|2|g" -e "s|@CTLD_PORT@|$port|g" -e "s|@SLURMD_PORT@|$((port + 1))|g" \
  tools/slurm/ci/slurm.conf.in >"$dir/slurm.conf"
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF" -N "$node"

deadline=$(($(date +%s) + timeout_s))
until sinfo -h -N -o '%T' 2>/dev/null | grep -qx idle; do
  if [[ $(date +%s) -ge $deadline ]]; then echo "slurm.sh: the node never became idle" >&2; exit 1; fi
  sleep 0.5
done
sinfo -N

# The sweep: 2 traces x 2 presets x 3 segment sizes = 12 points, per instruction, in 3 tasks.
args=(--trace "$root/tests/data/example_stream.wtrace" "$root/tests/data/a3_stride2.wtrace"
  --vary preset=kepler-k40-ca,volta-v100 --vary coalescer.segment_bytes=32,64,128
  --per-instruction --preset-dir "$root/configs")
out="$dir/out"
mkdir -p "$out"
export GPUMEMSIM="$prog"  # sbatch runs a copy of the script, away from this checkout
array=$(sbatch --parsable --array=0-2 --cpus-per-task=1 --output="$dir/array-%A_%a.log" \
  tools/slurm/sweep_array.sh "$out" -- "${args[@]}")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" --cpus-per-task=1 \
  --output="$dir/merge-%j.log" tools/slurm/sweep_merge.sh "$out" "$out/merged.csv")
merge=${merge%%;*}
echo "submitted array job $array (3 tasks) and merge job $merge (afterok:$array)"
squeue -o '%.12i %.20j %.10T %.20E' || true

# A job's states (an array's tasks may differ), and the merge's reason while it waits.
state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort -u | tr '\n' ' '; }
while :; do
  s="$(state "$merge") $(scontrol show job "$merge" 2>/dev/null | grep -o 'Reason=[A-Za-z]*')"
  case "$s" in
    *COMPLETED*) break ;;
    *FAILED* | *CANCELLED* | *TIMEOUT* | *NODE_FAIL* | *OUT_OF_MEMORY* | *DependencyNeverSatisfied*)
      echo "slurm.sh: merge job $merge ended as $s (array: $(state "$array"))" >&2
      cat "$dir"/array-*.log "$dir"/merge-*.log >&2 2>/dev/null || true
      exit 1 ;;
  esac
  if [[ $(date +%s) -ge $deadline ]]; then
    echo "slurm.sh: jobs still not done after ${timeout_s}s (merge: $s; array: $(state "$array"))" >&2
    squeue >&2 || true
    exit 1
  fi
  sleep 0.5
done
echo "array job $array: $(state "$array")"
echo "merge job $merge: $(state "$merge")"
tail -n +1 "$dir"/array-*.log "$dir"/merge-*.log  # what each task said (under slurmd)
"$prog" sweep "${args[@]}" --no-progress -o "$dir/single.csv"
if ! cmp "$out/merged.csv" "$dir/single.csv"; then
  echo "slurm.sh: the merged CSV differs from the single-machine sweep" >&2
  exit 1
fi
echo "slurm.sh: the merged CSV of the Slurm array is the single-machine sweep, byte for byte" \
  "($(wc -c <"$dir/single.csv") bytes, $(($(date +%s) - start)) s)"
