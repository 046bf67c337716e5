#!/usr/bin/env bash
# Every figure of bench/RESULTS.md from one command (issue 7): the Google Benchmark
# microbenchmarks per stage, end-to-end throughput on the regular (stream) and irregular
# (random) traces, peak memory from 10 million to GMS_BENCH_BIG_RECORDS (default 1 billion)
# warp instructions, sweep scaling on 1 vs 2 jobs, and the parallel replay (1 thread against
# one per core). Generated traces stay in GMS_BENCH_DIR
# (default /tmp/gms-bench; the 1-billion-record stream is about 1.3 MB as .gmt, the 10-million-
# record random trace 1 GB). Build first:
#   cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release -DGMS_BUILD_CUDA=OFF
#   ninja -C build-rel && bench/run_all.sh build-rel > results.md
# The 1-billion-instruction cached run takes several minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-rel}
bin=$build/gpumemsim
dir=${GMS_BENCH_DIR:-/tmp/gms-bench}
big=${GMS_BENCH_BIG_RECORDS:-1000000000}
e2e=(python3 bench/e2e_throughput.py --bin "$bin" --dir "$dir")

echo "## Microbenchmarks"
"$build/bench/gms_bench" --benchmark_min_time=0.2
echo
echo "## End to end"
"${e2e[@]}" --records 10000000 --patterns stream --formats gmt,wtrace.zst
"${e2e[@]}" --records 10000000 --patterns stream_lists --formats gmt
# The irregular trace: cold over 10 million warps (1 GB of .gmt: a million take 0.1 s, of which
# starting up is a tenth), cached over 1 million (2 s).
"${e2e[@]}" --records 10000000 --patterns random --formats gmt --modes cold
"${e2e[@]}" --records 1000000 --patterns random --formats gmt --modes cached
echo
echo "## Memory from 10 million to $big warp instructions"
"${e2e[@]}" --flat-memory "10000000,$big"
echo
echo "## Sweep scaling"
"${e2e[@]}" --sweep-records 2000000
echo
echo "## Parallel replay: --threads 1 against one thread per core"
python3 bench/thread_scaling.py --bin "$bin" --threads "$(nproc)" --dir "$dir"
echo
echo "## What-if replays: explain --top 8 against 9 runs"
python3 bench/explain_whatifs.py --bin "$bin" --warps 65536 --repeat 2 --kernels 1
python3 bench/explain_whatifs.py --bin "$bin" --warps 65536 --repeat 2 --kernels 8
