#!/usr/bin/env bash
# ThreadSanitizer: builds the library and the threaded tests only (tests/CMakeLists.txt
# gms_threaded_tests: read-ahead, sweeps and their journal) with -fsanitize=thread, and runs them.
# Fails on any data race TSan reports. Not in .ci/run by default (it is a second build of the
# library: 1076 s here on the shared 2-core machine, of which the tests 81 s).
#   bash .ci/tsan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== ThreadSanitizer build of the threaded tests"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGMS_WERROR=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DGMS_BUILD_BENCH=OFF -DGMS_BUILD_CUDA=OFF >/dev/null
cmake --build build-tsan --target gms_threaded_tests -j "$(nproc)"
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build-tsan/tests/gms_threaded_tests
echo "tsan.sh: no data race in the threaded tests"
