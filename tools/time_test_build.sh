#!/usr/bin/env bash
# Times the build that the README's test command does after tools/quickstart.sh (everything but
# the program: tests, benchmarks, Python module) three ways, each in a new build folder
# configured as quickstart configures it but for the test options: each test file alone, with
# precompiled test headers (GMS_TEST_PCH), and with those plus GMS_TEST_UNITY=N test files to a
# translation unit (N from the second argument, default 16). The program is built first (through
# ccache, untimed); the rest is timed with ccache off, so every side compiles everything.
#   bash tools/time_test_build.sh [DIR [N]]   (DIR default /tmp/gms-test-build; removed first)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/gms-test-build}
unity=${2:-16}
for variant in "-DGMS_TEST_PCH=OFF" "-DGMS_TEST_PCH=ON" "-DGMS_TEST_PCH=ON -DGMS_TEST_UNITY=$unity"; do
  out=$dir/$(echo "$variant" | tr -c 'A-Za-z0-9=\n' '_')
  rm -rf "$out"
  # shellcheck disable=SC2086  # the variant is two options at most, split on purpose
  cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release $variant >/dev/null
  cmake --build "$out" --target gpumemsim >/dev/null
  start=$(date +%s%N)
  CCACHE_DISABLE=1 cmake --build "$out" >/dev/null
  end=$(date +%s%N)
  echo "$variant: the rest of the build took $(((end - start) / 1000000000)) s of wall time" \
    "($(git describe --always --dirty), $(nproc) cores)"
done
