#!/usr/bin/env bash
# Fuzzing: builds the libFuzzer targets of tests/fuzz with clang (-DGMS_FUZZ=ON: the library under
# -fsanitize=fuzzer-no-link,address,undefined) and runs each from its seed corpus
# tests/fuzz/corpus/<target>/ for FUZZ_SECONDS (default 20). Fails on any crash, sanitizer report,
# leak or timeout; the input that caused it is left in build-fuzz/artifacts/.
#   bash .ci/fuzz.sh                  all targets
#   FUZZ_SECONDS=300 bash .ci/fuzz.sh fuzz_accelsim
# A short run mutates from a fixed seed (FUZZ_SEED=1): the same inputs in the same order on every
# machine, so CI's run is reproducible and a longer run of that seed here covers it.
# Long mode (FUZZ_KEEP=1), for runs of hours, in pieces if need be: each target's work corpus is
# kept in build-fuzz/corpus/<target>/ between runs; after a run without a finding, the inputs of
# it that add coverage are merged into tests/fuzz/corpus/<target>/ (libFuzzer -merge=1: the
# committed seeds stay, a new input is added only for coverage they lack, the smallest one that
# has it), to be committed; and one line per run (date, target, seconds, executions, new units,
# corpus entries added, CPU seconds: user + sys of the fuzzing processes, what a shared machine
# leaves them of the wall seconds) is appended to build-fuzz/fuzz-runs.tsv for tests/fuzz/README.md.
#   FUZZ_KEEP=1 FUZZ_SECONDS=3600 bash .ci/fuzz.sh fuzz_gmt
# FUZZ_JOBS=N runs N copies of a target at once on the shared work corpus (long mode).
# FUZZ_PARALLEL=N (short mode; default: the number of CPUs) runs N targets side by side.
# FUZZ_BUILD=0 skips the build and uses the targets already in build-fuzz/tests/fuzz/ (the next
# piece of a long run).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-20}
keep=${FUZZ_KEEP:-0}
fuzz_jobs=${FUZZ_JOBS:-1}
cxx=${FUZZ_CXX:-$(command -v clang++-14 || command -v clang++)}
cc=${FUZZ_CC:-$(command -v clang-14 || command -v clang)}
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(fuzz_wtrace fuzz_gmt fuzz_accelsim fuzz_nvbit fuzz_config fuzz_sass fuzz_tracez fuzz_engines)

if [[ ${FUZZ_BUILD:-1} != 0 ]]; then
  echo "== Fuzz build (clang: $cxx)"
  # Warnings are errors in the GCC builds; clang's extra warnings do not stop the fuzz build.
  # -O1 -g1: the flags of libFuzzer's own tutorial (-g -O1), with line tables only (what a crash's
  # stack trace prints); most of this stage is the build.
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DCMAKE_C_COMPILER="$cc" -DGMS_FUZZ=ON -DGMS_WERROR=OFF -DGMS_BUILD_TESTS=OFF \
    -DGMS_BUILD_BENCH=OFF -DGMS_BUILD_CUDA=OFF >/dev/null
  cmake --build build-fuzz --target "${targets[@]}" -j "$(nproc)"
fi

# One target: its run, its statistics and (long mode) the merge and the runs table's line.
fuzz_one() {
  local t=$1 work status cpu_file cpu before added execs units logs
  echo "== $t (${seconds}s)"
  if [[ $keep == 1 ]]; then
    work="build-fuzz/corpus/$t"  # kept: the next run goes on from here
    mkdir -p "$work"
  else
    work=$(mktemp -d)  # new inputs go here; the committed seeds stay as they are
  fi
  parallel=()
  [[ $fuzz_jobs -gt 1 ]] && parallel=(-jobs="$fuzz_jobs" -workers="$fuzz_jobs")
  # Short mode (CI) mutates from a fixed seed (FUZZ_SEED, default 1), so a red run is the same
  # inputs again on any machine and a clean longer run of that seed here covers what CI reaches;
  # long mode draws a new seed each run (libFuzzer's -seed=0) to explore further.
  seed=(-seed="${FUZZ_SEED:-1}")
  [[ $keep == 1 ]] && seed=(-seed="${FUZZ_SEED:-0}")
  status=0
  cpu_file=$(mktemp)
  TIMEFORMAT='%U %S'
  { time ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "build-fuzz/tests/fuzz/$t" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="build-fuzz/artifacts/$t-" "${seed[@]}" "${parallel[@]}" "$work" \
    "tests/fuzz/corpus/$t" \
    >"build-fuzz/$t.log" 2>&1 || status=$?; } 2>"$cpu_file"
  cpu=$(awk '{printf "%.0f", $1 + $2}' "$cpu_file")
  rm -f "$cpu_file"
  [[ $keep == 1 ]] || rm -rf "$work"
  if [[ $status -ne 0 ]]; then
    tail -n 60 "build-fuzz/$t.log" >&2
    echo "fuzz.sh: $t failed (status $status); log build-fuzz/$t.log, reproducer in" \
      "build-fuzz/artifacts/" >&2
    return 1
  fi
  grep -aE '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' \
    "build-fuzz/$t.log" | sed "s/^/$t /" || true
  if [[ $keep == 1 ]]; then
    before=$(ls "tests/fuzz/corpus/$t" | wc -l)
    "build-fuzz/tests/fuzz/$t" -merge=1 -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      "tests/fuzz/corpus/$t" "$work" >"build-fuzz/$t.merge.log" 2>&1
    added=$(($(ls "tests/fuzz/corpus/$t" | wc -l) - before))
    # With -jobs the workers' logs (fuzz-N.log) hold their statistics, and libFuzzer copies
    # them into the main log as well: count them once, from the workers' logs.
    shopt -s nullglob
    logs=(fuzz-*.log)
    shopt -u nullglob
    [[ ${#logs[@]} -gt 0 ]] || logs=("build-fuzz/$t.log")
    execs=$(awk '/^stat::number_of_executed_units/ {s += $2} END {print s + 0}' "${logs[@]}")
    units=$(awk '/^stat::new_units_added/ {s += $2} END {print s + 0}' "${logs[@]}")
    rm -f fuzz-*.log
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$seconds" "$execs" "$units" \
      "$added" "$cpu" >>build-fuzz/fuzz-runs.tsv
    echo "fuzz.sh: $t: $added new corpus entries in tests/fuzz/corpus/$t (commit them)"
  fi
}

mkdir -p build-fuzz/artifacts
if [[ $keep == 1 ]]; then
  for t in "${targets[@]}"; do fuzz_one "$t"; done  # one after the other: each merges seeds
else
  # Short mode (CI): the targets side by side, one per CPU (FUZZ_PARALLEL), each a single
  # process for its FUZZ_SECONDS as before; on CI's two CPUs 5 x 20 s takes 60 s, not 100 s.
  parallel_targets=${FUZZ_PARALLEL:-$(nproc)}
  running=0
  failed=0
  for t in "${targets[@]}"; do
    if [[ $running -ge $parallel_targets ]]; then
      wait -n || failed=1
      running=$((running - 1))
    fi
    fuzz_one "$t" &
    running=$((running + 1))
  done
  while [[ $running -gt 0 ]]; do
    wait -n || failed=1
    running=$((running - 1))
  done
  [[ $failed == 0 ]] || exit 1
fi
echo "fuzz.sh: all targets ran ${seconds}s without a finding"
