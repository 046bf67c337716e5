#!/usr/bin/env bash
# One task of a gpumemsim sweep run as a Slurm job array: task I of N runs the I-th of N
# deterministic slices (`gpumemsim sweep --shard I/N`) and writes OUT_DIR/piece-I.csv;
# sweep_merge.sh then joins the pieces into exactly the CSV one unsharded run writes.
#
#   jid=$(sbatch --parsable --array=0-7 tools/slurm/sweep_array.sh OUT_DIR -- \
#         --trace t1.gmt t2.gmt --vary preset=kepler-k40-ca,volta-v100 --vary l1.sets=16,32,64)
#   sbatch --dependency=afterok:$jid tools/slurm/sweep_merge.sh OUT_DIR sweep.csv
#
# Everything after `--` is passed to `gpumemsim sweep` unchanged (give every task the same
# arguments). The program is $GPUMEMSIM, else build/gpumemsim of this checkout, else gpumemsim
# on the PATH. Threads per task: $SLURM_CPUS_PER_TASK (all cores when unset). Without Slurm, set
# SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT by hand (the tests do).
#
# Every task runs with --resume: it keeps OUT_DIR/piece-I.csv.journal while it runs, and stops
# after its current points on SIGTERM (what Slurm sends at the time limit or on preemption), so a
# requeued task (scontrol requeue, or --requeue with preemption) skips the points it finished.
#SBATCH --job-name=gpumemsim-sweep
#SBATCH --cpus-per-task=8
#SBATCH --output=gpumemsim-sweep-%A_%a.log
set -euo pipefail

if [[ $# -lt 2 || "$2" != "--" ]]; then
  echo "usage: sweep_array.sh OUT_DIR -- SWEEP_ARGS..." >&2
  exit 2
fi
out_dir=$1
shift 2

task=${SLURM_ARRAY_TASK_ID:?"not in a Slurm job array (set SLURM_ARRAY_TASK_ID)"}
count=${SLURM_ARRAY_TASK_COUNT:-}
if [[ -z "$count" ]]; then
  # Older Slurm: derive the count from the array's bounds, which must start at 0.
  min=${SLURM_ARRAY_TASK_MIN:?"set SLURM_ARRAY_TASK_COUNT"}
  max=${SLURM_ARRAY_TASK_MAX:?"set SLURM_ARRAY_TASK_COUNT"}
  [[ "$min" == 0 ]] || { echo "sweep_array.sh: the array must start at 0 (--array=0-N)" >&2; exit 2; }
  count=$((max - min + 1))
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prog=${GPUMEMSIM:-}
if [[ -z "$prog" ]]; then
  if [[ -x "$here/../../build/gpumemsim" ]]; then prog="$here/../../build/gpumemsim"; else prog=gpumemsim; fi
fi

mkdir -p "$out_dir"
exec "$prog" sweep "$@" --shard "$task/$count" --jobs "${SLURM_CPUS_PER_TASK:-0}" \
  --no-progress --resume -o "$out_dir/piece-$task.csv"
