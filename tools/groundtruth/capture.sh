#!/usr/bin/env bash
# Captures the hardware ground truth of docs/groundtruth.md on a machine with an
# NVIDIA GPU, into tests/groundtruth/ (or OUT_DIR):
#   0. cuobjdump -sass of the binary, read by gms_sass_loads: loads_in_flight.csv, each plain
#      kernel's loads in flight per warp (issue 34), which step 4 writes on its #kernel line
#   1. the kernels without capture under ncu (cold caches, clocks not locked)
#   2. ncu_to_csv.py: h200_counters.csv (kernel_id, name, one column per metric)
#   3. gms_calibrate --plain --latency: the pointer chase latencies, h200_latency.csv
#   4. gms_calibrate --capture: every calibration kernel with the trace capture on, giving
#      traces/<id>-<name>.wtrace.zst, or traces/<id>-<name>.recipe (command + SHA-256) when the
#      compressed trace would pass 1 MiB; every trace is compared with the host model on the spot
#   5. README.md: GPU, driver, CUDA and ncu versions, date, the commands
#   6. packs OUT_DIR into one groundtruth-capture.tar.zst (at most 16 MiB) in PACK_DIR
#
# usage: tools/groundtruth/capture.sh [GMS_CALIBRATE] [OUT_DIR] [PACK_DIR]
#   GMS_CALIBRATE  the binary built with -DGMS_BUILD_CUDA=ON (default build-cap/tools/groundtruth/
#                  gms_calibrate, then build/...); NCU=path overrides the ncu found on PATH or in
#                  /usr/local/cuda*/ and /opt/nvidia/nsight-compute/*/
# Needs: an NVIDIA GPU and driver, ncu, cuobjdump (CUDA toolkit; CUOBJDUMP=path overrides),
# gms_sass_loads beside GMS_CALIBRATE (built with it), python3, tar and zstd. Nothing is
# written into OUT_DIR that the GPU (or, for loads_in_flight.csv, the binary it ran) did not
# produce; a failed step stops the script with a non-zero status, except a captured trace that
# differs from the host model: that is recorded (traces/captures.csv, capture.log, README.md)
# and the counters are still taken, since a GPU's time is scarce; the script then ends with
# status 1.
set -euo pipefail
start=$(date +%s)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

bin=${1:-}
if [[ -z $bin ]]; then
  for c in "$root/build-cap/tools/groundtruth/gms_calibrate" "$root/build/tools/groundtruth/gms_calibrate"; do
    [[ -x $c ]] && bin=$c && break
  done
fi
[[ -n $bin && -x $bin ]] || { echo "capture.sh: gms_calibrate not found (build with -DGMS_BUILD_CUDA=ON)" >&2; exit 1; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
out=${2:-$root/tests/groundtruth}
pack=${3:-$root}
ncu=${NCU:-$(command -v ncu || true)}
if [[ -z $ncu ]]; then
  for c in /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu; do
    [[ -x $c ]] && ncu=$c && break
  done
fi
[[ -n $ncu && -x $ncu ]] || { echo "capture.sh: ncu not found (set NCU=...)" >&2; exit 1; }
command -v nvidia-smi >/dev/null || { echo "capture.sh: nvidia-smi not found: no NVIDIA driver" >&2; exit 1; }
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || true)}
if [[ -z $cuobjdump ]]; then
  for c in /usr/local/cuda*/bin/cuobjdump; do
    [[ -x $c ]] && cuobjdump=$c && break
  done
fi
[[ -n $cuobjdump && -x $cuobjdump ]] || { echo "capture.sh: cuobjdump not found (set CUOBJDUMP=...)" >&2; exit 1; }
sass_loads=$(dirname "$bin")/gms_sass_loads
[[ -x $sass_loads ]] || { echo "capture.sh: $sass_loads not found (built beside gms_calibrate)" >&2; exit 1; }

# The metrics of docs/statistics.md, plus the shared-memory configuration each launch got (the carve-out).
metrics=gpu__time_duration.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
# The L1 hit rate under both names ncu has used (2025.3 on the H200 reported neither under the
# older one), and its two counts; ncu_to_csv.py leaves a metric ncu did not report empty.
metrics+=,l1tex__t_sector_hit_rate_pipe_lsu_mem_global_op_ld.pct,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
metrics+=,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
metrics+=,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,launch__grid_size,launch__block_size
metrics+=,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
metrics+=,launch__occupancy_limit_shared_mem,sm__cycles_elapsed.avg,launch__shared_mem_config_size

work=$(mktemp -d)
trap 'echo "capture.sh: logs in $work" >&2' EXIT
mkdir -p "$out"
rm -rf "$out/traces" "$out/h200_counters.csv" "$out/h200_latency.csv" "$out/README.md" \
  "$out/loads_in_flight.csv"
mkdir -p "$out/traces"

cmd_sass=("$cuobjdump" -sass "$bin")
cmd_capture=("$bin" --capture "$out/traces" --loads-in-flight "$out/loads_in_flight.csv")
cmd_latency=("$bin" --plain --only 110 --latency "$out/h200_latency.csv")
cmd_ncu=("$ncu" --csv --page raw --print-units base --cache-control all --clock-control none
         --kernel-name "regex:gt[0-9]+_" --metrics "$metrics" "$bin" --plain)

echo "== 0/5 loads in flight per kernel (cuobjdump -sass, gms_sass_loads)"
"${cmd_sass[@]}" > "$work/sass.txt"
"$sass_loads" "$work/sass.txt" > "$work/loads_in_flight.csv"
mv "$work/loads_in_flight.csv" "$out/loads_in_flight.csv"
echo "== 1/5 ncu (the counters first: they are what the tests compare with)"
"${cmd_ncu[@]}" > "$work/ncu.csv" 2> "$work/ncu.err" || { cat "$work/ncu.err" >&2; exit 1; }
echo "== 2/5 h200_counters.csv"
"$bin" --list > "$work/kernels.txt"
python3 "$here/ncu_to_csv.py" "$work/ncu.csv" "$work/kernels.txt" "$metrics" > "$work/counters.csv"
mv "$work/counters.csv" "$out/h200_counters.csv"
echo "== 3/5 pointer-chase latency"
"${cmd_latency[@]}"
echo "== 4/5 capture ($bin)"
capture_status=0
"${cmd_capture[@]}" 2> >(tee "$work/capture.log" >&2) || capture_status=$?
[[ -s $out/traces/captures.csv ]] || { echo "capture.sh: the capture wrote nothing" >&2; exit 1; }
cp "$work/capture.log" "$out/capture.log"

echo "== 5/5 README.md"
# The commands as the README lists them: paths inside the checkout relative to its root, so that
# the tracked file names no folder of the machine that ran the capture (CTest NoMachinePaths).
rel() { local p=$1; [[ $p == "$root/"* ]] && p=${p#"$root/"}; printf '%s' "$p"; }
shown() { local a out=(); for a in "$@"; do out+=("$(rel "$a")"); done; echo "${out[*]}"; }
q() { nvidia-smi --query-gpu="$1" --format=csv,noheader | head -1; }
{
  echo "# Hardware ground truth (written by tools/groundtruth/capture.sh)"
  echo
  echo "- GPU: $(q name) ($(q pci.bus_id)), $(q memory.total), compute capability $(q compute_cap 2>/dev/null || echo '?')"
  echo "- Driver: $(q driver_version); CUDA (driver): $(nvidia-smi | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -1)"
  nvcc_id=$(grep -a -m1 -o 'cuda_[0-9.]*\.r[0-9.]*/compiler[.0-9_]*' "$bin" || true)
  echo "- Kernels built with: ${nvcc_id:-nvcc (version not recorded in the binary)}"
  echo "- Nsight Compute: $("$ncu" --version | tail -1)"
  echo "- Clocks during the capture: SM $(q clocks.sm), memory $(q clocks.mem) (not locked)"
  echo "- Date: $(date -u +%Y-%m-%dT%H:%M:%SZ); host $(hostname)"
  if (( capture_status != 0 )); then
    echo "- **The capture failed (status $capture_status)**: some traces differ from the host model;"
    echo "  \`traces/captures.csv\` (matches_model) and \`capture.log\` say which."
  fi
  echo
  echo "## Files"
  echo
  echo "- \`traces/<id>-<name>.wtrace.zst\`: captured traces, records in lockstep order (every"
  echo "  warp's n-th memory instruction, by CTA and warp, before any warp's next; each warp's in"
  echo "  program order), not the execution order; \`traces/<id>-<name>.recipe\`: traces whose"
  echo "  compressed size would pass 1 MiB, kept as the kernel line, the SM of each CTA and the"
  echo "  SHA-256 of the captured text; \`gms_gt_recipe FILE.recipe\` regenerates the text"
  echo "  (CTest GroundtruthRecipes checks every hash). \`traces/captures.csv\` lists them all;"
  echo "  every trace matched the host model (tools/groundtruth/kernel_model.h) on the GPU."
  echo "- \`h200_counters.csv\`: one row per calibration launch, ncu raw metric names, base units."
  echo "- \`h200_latency.csv\`: pointer chase (id 110), one warp, per footprint: clock64 cycles and"
  echo "  %globaltimer ns over $(grep -o 'kChaseSteps = [0-9]*' "$here/kernel_addressing.h" | grep -o '[0-9]*$') dependent loads."
  echo "- \`loads_in_flight.csv\`: each plain kernel's loads in flight per warp, read from the"
  echo "  binary's SASS (\`cuobjdump -sass\`, then \`gms_sass_loads\`); the captured traces carry it"
  echo "  on their \`#kernel\` lines (\`loads_in_flight=\`)."
  echo "- \`capture.log\`: what the capture printed."
  echo
  echo "## Commands"
  echo
  echo '```'
  echo "$(shown "${cmd_sass[@]}") > sass.txt && $(basename "$sass_loads") sass.txt > loads_in_flight.csv"
  shown "${cmd_capture[@]}"
  shown "${cmd_latency[@]}"
  for a in "${cmd_ncu[@]}"; do printf '%q ' "$(rel "$a")"; done; echo "> ncu.csv"
  echo "python3 tools/groundtruth/ncu_to_csv.py ncu.csv kernels.txt METRICS > h200_counters.csv"
  echo '```'
} > "$out/README.md"

size_kb=$(du -sk "$out" | cut -f1)
if (( size_kb > 8000 )); then
  echo "capture.sh: $out is ${size_kb} KB, over the 8 MB limit" >&2
  exit 1
fi
mkdir -p "$pack"
tar -C "$out" -cf - . | zstd -q -19 -f -o "$pack/groundtruth-capture.tar.zst"
pack_bytes=$(stat -c %s "$pack/groundtruth-capture.tar.zst")
if (( pack_bytes > 16 * 1024 * 1024 )); then
  echo "capture.sh: the pack is $pack_bytes bytes, over 16 MiB" >&2
  exit 1
fi
trap - EXIT
if (( capture_status != 0 )); then
  echo "capture.sh: packed, but the capture failed (status $capture_status): see capture.log" >&2
  exit 1
fi
echo "capture.sh: done in $(( $(date +%s) - start )) s; $out is ${size_kb} KB; pack $pack/groundtruth-capture.tar.zst ($pack_bytes bytes)"
