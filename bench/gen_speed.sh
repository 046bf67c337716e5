#!/usr/bin/env bash
# Times `gpumemsim gen` of two builds side by side on the patterns the calibration scripts
# generate most (tools/calibration/fidelity.py: the pointer chase and the L2 reuse kernel) and on
# the bulk ones, alternating the builds, best of RUNS wall times each, and checks that both write
# the same bytes.
#   bash bench/gen_speed.sh OLD_GPUMEMSIM NEW_GPUMEMSIM [RUNS]   (RUNS default 3)
set -euo pipefail
old=$1 new=$2 runs=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
patterns=(
  "pointer_chase --elem 8 --stride 8 --footprint 77594624 --n 1212364"
  "pointer_chase --elem 8 --stride 8 --footprint 524288 --n 1000000"
  "cta_reuse --block 1024 --n 8 --elem 8 --footprint 8388608 --ctas 1056"
  "stream_occupancy --kind triad --block 256 --elem 8 --footprint 268435456"
  "stream --records 2000000"
  "random --records 400000"
)
best() {  # best wall seconds of $runs runs of: gpumemsim gen PATTERN -o FILE
  local bin=$1 out=$2 b=
  shift 2
  for ((i = 0; i < runs; i++)); do
    local s e
    s=$(date +%s%N)
    # shellcheck disable=SC2086  # the pattern is its arguments, split on purpose
    "$bin" gen $* -o "$out"
    e=$(date +%s%N)
    local t=$(((e - s) / 1000000))
    if [[ -z $b || $t -lt $b ]]; then b=$t; fi
  done
  echo "$b"
}
printf '%-72s %8s %8s %s\n' "gen PATTERN" "old ms" "new ms" "output"
for p in "${patterns[@]}"; do
  o=$(best "$old" "$tmp/old.gmt" "$p")
  n=$(best "$new" "$tmp/new.gmt" "$p")
  same=$(cmp -s "$tmp/old.gmt" "$tmp/new.gmt" && echo identical || echo DIFFERENT)
  printf '%-72s %8s %8s %s\n' "$p" "$o" "$n" "$same"
done
