#!/usr/bin/env bash
# The merge step of a Slurm sweep (see sweep_array.sh): joins OUT_DIR/piece-*.csv into OUT.csv,
# exactly the CSV one unsharded `gpumemsim sweep` writes. `gpumemsim merge` fails, naming it, when
# a piece is missing or comes from another sweep.
#
#   sbatch --dependency=afterok:$jid tools/slurm/sweep_merge.sh OUT_DIR sweep.csv [--format html]
#SBATCH --job-name=gpumemsim-merge
#SBATCH --cpus-per-task=1
#SBATCH --output=gpumemsim-merge-%j.log
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: sweep_merge.sh OUT_DIR OUT [merge options]" >&2
  exit 2
fi
out_dir=$1
out=$2
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prog=${GPUMEMSIM:-}
if [[ -z "$prog" ]]; then
  if [[ -x "$here/../../build/gpumemsim" ]]; then prog="$here/../../build/gpumemsim"; else prog=gpumemsim; fi
fi
shopt -s nullglob
pieces=("$out_dir"/piece-*.csv)
if [[ ${#pieces[@]} -eq 0 ]]; then
  echo "sweep_merge.sh: no piece-*.csv in $out_dir" >&2
  exit 1
fi
exec "$prog" merge "${pieces[@]}" -o "$out" "$@"
