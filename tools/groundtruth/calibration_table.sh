#!/usr/bin/env bash
# Simulated vs measured for every calibration kernel: replays tests/groundtruth/traces (stored
# traces, and recipes regenerated with gms_gt_recipe) with the H200 preset and prints
# `gpumemsim validate`'s table against tests/groundtruth/h200_counters.csv (coalescer counts,
# L1/L2/DRAM traffic, and the time estimate against gpu__time_duration.sum). The fidelity page's
# calibration table (docs/fidelity.md) is this command's output.
#
# Each kernel's loads in flight per warp come from tests/groundtruth/loads_in_flight_ptx.csv
# where its trace's #kernel line has none (the capture writes it there from the binary's SASS;
# tools/groundtruth/ptx_loads.py wrote the table from the PTX of the same kernels for the
# capture that predates it): the line gains `loads_in_flight=N` before the replay.
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
loads=$dir/loads_in_flight_ptx.csv
# figure ID ARCH: kernel ID's loads in flight on ARCH from the table (nothing where it has none).
figure() {
  [[ -f $loads ]] || return 0
  awk -F, -v id="$1" -v arch="$2" 'NR > 1 && $1 == id && $3 == arch && $5 != 0 { print $5 }' \
    "$loads"
}
# with_figure N: the trace text on stdin, its #kernel line given loads_in_flight=N unless it
# has one (or N is empty).
with_figure() {
  if [[ -z $1 ]]; then cat; return; fi
  sed "/^#kernel /{/ loads_in_flight=/!s/\$/ loads_in_flight=$1/}"
}
arch_of() { sed -n '/^#\{0,1\}kernel[_ ]/{s/.* arch=\([^ ]*\).*/\1/p;q}'; }
traces=()
# Kernel ids in numeric order, whatever the file names sort as.
while IFS= read -r f; do
  id=$(basename "$f" | cut -d- -f1)
  case "$f" in
    *.recipe)
      out="$tmp/$(basename "$f" .recipe).gmt"
      n=$(figure "$id" "$(arch_of < "$f")")
      "$build/tools/groundtruth/gms_gt_recipe" "$f" | with_figure "$n" |
        "$build/gpumemsim" convert - "$out"
      traces+=("$out") ;;
    *.wtrace|*.wtrace.zst)
      out="$tmp/$(basename "$f" .zst)"
      n=$(figure "$id" "$({ zstdcat -f "$f" || true; } | arch_of)")
      zstdcat -f "$f" | with_figure "$n" > "$out"
      traces+=("$out") ;;
    *.gmt) traces+=("$f") ;;  # binary: replayed as stored
  esac
done < <(ls "$dir/traces" | sort -n | sed "s|^|$dir/traces/|")
if [ ${#traces[@]} -eq 0 ]; then
  echo "no traces in $dir/traces" >&2
  exit 77
fi
"$build/gpumemsim" validate --ncu "$csv" --match id "${traces[@]}" "$@"
