#!/usr/bin/env bash
# Fuzzing: builds the libFuzzer targets of tests/fuzz with clang (-DGMS_FUZZ=ON: the library under
# -fsanitize=fuzzer-no-link,address,undefined) and runs each from its seed corpus
# tests/fuzz/corpus/<target>/ for FUZZ_SECONDS (default 20). Fails on any crash, sanitizer report,
# leak or timeout; the input that caused it is left in build-fuzz/artifacts/.
#   bash .ci/fuzz.sh                  all targets
#   FUZZ_SECONDS=300 bash .ci/fuzz.sh fuzz_accelsim
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-20}
cxx=${FUZZ_CXX:-$(command -v clang++-14 || command -v clang++)}
cc=${FUZZ_CC:-$(command -v clang-14 || command -v clang)}
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(fuzz_wtrace fuzz_gmt fuzz_accelsim fuzz_nvbit fuzz_config)

echo "== Fuzz build (clang: $cxx)"
# Warnings are errors in the GCC builds; clang's extra warnings do not stop the fuzz build.
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_C_COMPILER="$cc" -DGMS_FUZZ=ON -DGMS_WERROR=OFF -DGMS_BUILD_TESTS=OFF \
  -DGMS_BUILD_BENCH=OFF -DGMS_BUILD_CUDA=OFF >/dev/null
cmake --build build-fuzz --target "${targets[@]}" -j "$(nproc)"

mkdir -p build-fuzz/artifacts
for t in "${targets[@]}"; do
  echo "== $t (${seconds}s)"
  work=$(mktemp -d)  # new inputs go here; the committed seeds stay as they are
  status=0
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "build-fuzz/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$t-" \
    "$work" "tests/fuzz/corpus/$t" >"build-fuzz/$t.log" 2>&1 || status=$?
  rm -rf "$work"
  if [[ $status -ne 0 ]]; then
    tail -n 60 "build-fuzz/$t.log" >&2
    echo "fuzz.sh: $t failed (status $status); log build-fuzz/$t.log, reproducer in" \
      "build-fuzz/artifacts/" >&2
    exit 1
  fi
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' \
    "build-fuzz/$t.log" || true
done
echo "fuzz.sh: all targets ran ${seconds}s without a finding"
