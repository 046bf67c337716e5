#!/usr/bin/env bash
# The benchmarks of bench/RESULTS.md that need no other setup, from one command (issue 7), its
# output headed by the machine, the commit and the command (issue 60): the Google Benchmark
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

# The machine, the commit and the command first: every table below is theirs (bench/RESULTS.md
# states them for each table it keeps).
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
mem=$(awk '/^MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null || true)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit+=" with uncommitted changes"
echo "# Benchmark results"
echo
echo "- machine: ${cpu:-unknown CPU}, $(nproc) cores, ${mem:-? GiB}; $(uname -sr)"
echo "- commit: $commit; build: $build"
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
echo "- command: bench/run_all.sh $*"
echo

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
echo "## Replay orders: --order lockstep and timed against the file's order"
python3 bench/order_speed.py --bin "$bin" --dir "$dir"
echo
echo "## What-if replays: explain --top 8 against 9 runs"
python3 bench/explain_whatifs.py --bin "$bin" --warps 65536 --repeat 2 --kernels 1
python3 bench/explain_whatifs.py --bin "$bin" --warps 65536 --repeat 2 --kernels 8
