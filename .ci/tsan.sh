#!/usr/bin/env bash
# ThreadSanitizer: builds the threaded tests only (tests/CMakeLists.txt gms_threaded_tests, the
# files in GMS_THREADED_TEST_SOURCES: read-ahead, sweeps and their journal, the parallel replay
# and its thread team) and the layers they link (gms_study and below: not the CLI, the
# generators or the rest of the suite) with -fsanitize=thread, and runs them. Fails on any data
# race TSan reports. -O1 -g1 (line tables, what TSan's reports print): the build is most of this stage's
# time, and -O1 is what TSan's documentation suggests. A stage of .ci/run.
#   bash .ci/tsan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== ThreadSanitizer build of the threaded tests"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGMS_WERROR=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DGMS_BUILD_BENCH=OFF -DGMS_BUILD_CUDA=OFF \
  -DGMS_PYTHON=OFF >/dev/null
cmake --build build-tsan --target gms_threaded_tests -j "$(nproc)"
# Not CliTakesTheThreads: it runs the program, which this stage does not build (the replay on
# threads it starts is the one the other ParallelReplayTest cases run in the test process). Not
# MixedTracesAgreeOnEveryThreadCountAndMode: 252 s under TSan here (18 s in Release), the same
# thread team and phases as RandomTraces... and SmsSharingLines..., which run (68 s and 10 s).
skip=ParallelReplayTest.CliTakesTheThreads
skip+=:ParallelReplayTest.MixedTracesAgreeOnEveryThreadCountAndMode
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 build-tsan/tests/gms_threaded_tests \
  --gtest_filter="-$skip"
echo "tsan.sh: no data race in the threaded tests"
