#!/usr/bin/env bash
# Simulated vs measured for every calibration kernel: replays tests/groundtruth/traces (stored
# traces, and recipes regenerated with gms_gt_recipe) with the H200 preset and prints
# `gpumemsim validate`'s table against tests/groundtruth/h200_counters.csv (coalescer counts,
# L1/L2/DRAM traffic, and the time estimate against gpu__time_duration.sum). The fidelity page's
# calibration table (docs/fidelity.md) is this command's output.
#
# usage: tools/groundtruth/calibration_table.sh [BUILD_DIR] [--format table|csv|json|html]
# Exits 77 (skip) while no capture exists.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
dir=tests/groundtruth
csv=$dir/h200_counters.csv
if [ ! -f "$csv" ]; then
  echo "no H200 counters yet ($csv): run tools/groundtruth/capture.sh on a GPU machine" >&2
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
traces=()
# Kernel ids in numeric order, whatever the file names sort as.
while IFS= read -r f; do
  case "$f" in
    *.recipe)
      out="$tmp/$(basename "$f" .recipe).gmt"
      "$build/tools/groundtruth/gms_gt_recipe" "$f" | "$build/gpumemsim" convert - "$out"
      traces+=("$out") ;;
    *.wtrace|*.wtrace.zst|*.gmt) traces+=("$f") ;;
  esac
done < <(ls "$dir/traces" | sort -n | sed "s|^|$dir/traces/|")
if [ ${#traces[@]} -eq 0 ]; then
  echo "no traces in $dir/traces" >&2
  exit 77
fi
"$build/gpumemsim" validate --ncu "$csv" --match id "${traces[@]}" "$@"
