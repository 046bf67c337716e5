#!/usr/bin/env bash
# Times the build that the README's test command does after tools/quickstart.sh (everything but
# the program: tests, benchmarks, Python module), with and without GMS_TEST_PCH, each in a new
# build folder configured as quickstart configures it. The program is built first (through
# ccache, untimed); the rest is timed with ccache off, so both sides compile everything.
#   bash tools/time_test_build.sh [DIR]      (DIR default /tmp/gms-test-build; removed first)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/gms-test-build}
for pch in ON OFF; do
  out=$dir/pch-$pch
  rm -rf "$out"
  cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGMS_TEST_PCH=$pch >/dev/null
  cmake --build "$out" --target gpumemsim >/dev/null
  start=$(date +%s%N)
  CCACHE_DISABLE=1 cmake --build "$out" >/dev/null
  end=$(date +%s%N)
  echo "GMS_TEST_PCH=$pch: the rest of the build took $(((end - start) / 1000000000)) s of wall" \
    "time ($(git rev-parse --short HEAD), $(nproc) cores)"
done
