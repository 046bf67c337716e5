#!/usr/bin/env bash
# Runs the capture examples on a machine with an NVIDIA GPU, replays their traces with gpumemsim
# and compares, kernel by kernel, with the hardware's own counters read by Nsight Compute:
#   global load/store requests and sectors, shared load/store wavefronts (cold mode: exact).
#   1. gms_capture_<example> --capture OUT/traces   one .wtrace.zst per kernel
#   2. gpumemsim convert (to .gmt) and gpumemsim run --format json, per trace
#   3. ncu on gms_capture_<example> --plain, then tools/groundtruth/ncu_to_csv.py
#   4. a side-by-side table (OUT/compare.txt); exit 1 when an exact counter differs
#
# usage: tools/capture/examples/capture_and_compare.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR  a build with -DGMS_BUILD_CUDA=ON (default build-cap, then build); NCU=path
#              overrides the ncu on PATH or in /usr/local/cuda*/ and /opt/nvidia/nsight-compute/*/
# Needs: an NVIDIA GPU and driver, ncu, python3.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-}
if [[ -z $build ]]; then
  for c in "$root/build-cap" "$root/build"; do
    [[ -x $c/tools/capture/examples/gms_capture_matmul ]] && build=$c && break
  done
fi
[[ -n $build && -x $build/tools/capture/examples/gms_capture_matmul ]] ||
  { echo "capture_and_compare.sh: examples not built (cmake -DGMS_BUILD_CUDA=ON)" >&2; exit 1; }
out=${2:-$root/out/capture-compare}
gms=$build/gpumemsim
ncu=${NCU:-$(command -v ncu || true)}
if [[ -z $ncu ]]; then
  for c in /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
    [[ -x $c ]] && ncu=$c && break
  done
fi
[[ -n $ncu && -x $ncu ]] || { echo "capture_and_compare.sh: ncu not found (set NCU=...)" >&2; exit 1; }

metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum

rm -rf "$out" && mkdir -p "$out/traces" "$out/sim"
: > "$out/counters.csv"
for e in seed_patterns transpose matmul; do
  bin=$build/tools/capture/examples/gms_capture_$e
  echo "== $e: capture"
  "$bin" --capture "$out/traces"
  "$bin" --list > "$out/$e.kernels"
  echo "== $e: ncu"
  "$ncu" --csv --page raw --print-units base --cache-control all --clock-control none \
    --kernel-name "regex:gt[0-9]+_" --metrics "$metrics" "$bin" --plain > "$out/$e.ncu.csv"
  python3 "$root/tools/groundtruth/ncu_to_csv.py" "$out/$e.ncu.csv" "$out/$e.kernels" "$metrics" \
    > "$out/$e.counters.csv"
  if [[ -s $out/counters.csv ]]; then tail -n +2 "$out/$e.counters.csv" >> "$out/counters.csv"
  else cat "$out/$e.counters.csv" > "$out/counters.csv"; fi
done

echo "== replay"
for t in "$out"/traces/*.wtrace.zst; do
  name=$(basename "$t" .wtrace.zst)
  "$gms" convert "$t" "$out/traces/$name.gmt"
  "$gms" run "$out/traces/$name.gmt" --format json -o "$out/sim/$name.json"
done

python3 - "$out" <<'PY' | tee "$out/compare.txt"
import csv, glob, json, os, sys
out = sys.argv[1]
pairs = [  # ncu metric, gpumemsim class, statistic
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global_load", "requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global_load", "sectors"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global_store", "requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global_store", "sectors"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared_load", "wavefronts"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared_store", "wavefronts"),
]
sim = {}
for f in glob.glob(os.path.join(out, "sim", "*.json")):
    for k in json.load(open(f))["kernels"]:
        sim[int(k["id"])] = k["totals"]
bad = 0
print(f"{'id':>4} {'kernel':<24} {'counter':<44} {'ncu':>12} {'gpumemsim':>12}")
for row in csv.DictReader(open(os.path.join(out, "counters.csv"))):
    kid = int(row["kernel_id"])
    for metric, cls, stat in pairs:
        hw = row.get(metric, "")
        s = sim[kid].get(cls, {}).get(stat, 0) if kid in sim else None
        same = hw != "" and s is not None and float(hw) == float(s)
        bad += not same
        print(f"{kid:>4} {row['name'][:24]:<24} {cls + '.' + stat:<44} {hw:>12} {str(s):>12}"
              f" {'' if same else '  <-- differs'}")
print(f"{bad} difference(s)")
sys.exit(1 if bad else 0)
PY
