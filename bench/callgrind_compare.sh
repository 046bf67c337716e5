#!/usr/bin/env bash
# Instructions executed (valgrind --tool=callgrind: the same count for the same binary and input,
# whatever else the machine does) by two gpumemsim binaries on the same replays, side by side,
# with each pair's outputs compared byte for byte. For before/after tables in bench/RESULTS.md
# on a shared machine, where wall times drift.
#   bench/callgrind_compare.sh BASE_BIN NEW_BIN [DIR] [RUN_ARGS...]
# DIR (default /tmp/gms-callgrind) holds the traces, generated once by NEW_BIN; RUN_ARGS (default
# --threads 1) are added to every run. With MODEL_CHANGE=1 (a commit meant to change results)
# a pair whose outputs differ is marked in the table instead of stopping the script.
set -euo pipefail
base=$1
new=$2
dir=${3:-/tmp/gms-callgrind}
shift $(($# < 3 ? $# : 3))
extra=("$@")
[[ ${#extra[@]} -gt 0 ]] || extra=(--threads 1)
mkdir -p "$dir"
# name: gen arguments
declare -A gen=(
  [stream-1M.gmt]="stream --records 1000000"
  [random-200K.gmt]="random --records 200000"
  [matmul-128.gmt]="matmul_naive --n 128"
  [lists-200K.gmt]="stream_lists --records 200000"
)
for f in "${!gen[@]}"; do
  [[ -f $dir/$f ]] || "$new" gen ${gen[$f]} -o "$dir/$f" >/dev/null
done
# An Accel-Sim import (bench/thread_scaling.py's: 576,000 records of post-processed text).
[[ -f $dir/accelsim/kernel-1.traceg ]] || { mkdir -p "$dir/accelsim" &&
  python3 "$(dirname "$0")/gen_raw_accelsim.py" "$dir/accelsim" >/dev/null; }
instructions() {  # BIN TRACE MODE OUT: the program's instruction count
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" run "$2" --mode "$3" \
    --format json -o "$4" --no-progress "${extra[@]}" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
echo "base: $base; new: $new; run arguments: ${extra[*]}"
echo
echo "| trace | mode | base | new | change |"
echo "|---|---|---|---|---|"
for c in "stream-1M.gmt cold" "stream-1M.gmt cached" "random-200K.gmt cold" \
  "random-200K.gmt cached" "matmul-128.gmt cold" "matmul-128.gmt cached" "lists-200K.gmt both" \
  "accelsim/kernel-1.traceg cold" "accelsim/kernel-1.traceg cached"; do
  read -r f mode <<<"$c"
  b=$(instructions "$base" "$dir/$f" "$mode" "$dir/base.json")
  n=$(instructions "$new" "$dir/$f" "$mode" "$dir/new.json")
  note=""
  if ! cmp -s "$dir/base.json" "$dir/new.json"; then
    [[ ${MODEL_CHANGE:-0} == 1 ]] || { echo "outputs differ: $f --mode $mode" >&2; exit 1; }
    note=" (outputs differ)"
  fi
  printf '| %s | %s%s | %s | %s | %+.1f%% |\n' "$f" "$mode" "$note" "$b" "$n" \
    "$(awk -v b="$b" -v n="$n" 'BEGIN { print (n - b) * 100 / b }')"
done
