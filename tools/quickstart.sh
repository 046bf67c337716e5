#!/usr/bin/env bash
# A newcomer's first command: install the dependencies, build the gpumemsim program in Release
# (only it and the libraries it links: the tests, benchmarks and Python module are built by the
# README's test command, or `cmake --build build`), and replay the bundled example trace,
# printing the per-instruction table. ccache, which tools/install-deps.sh installs, is used when
# present (root CMakeLists.txt, GMS_CCACHE).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
# GMS_TEST_PCH and GMS_TEST_UNITY, for the README's test command that builds the test files
# next: their common headers precompiled, and the files compiled sixteen to a translation unit
# (tools/time_test_build.sh times that build each way; docs/getting-started.md). A build configured
# by hand leaves both off, so that each test file shows it includes what it uses.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGMS_TEST_PCH=ON -DGMS_TEST_UNITY=16
cmake --build build --target gpumemsim
./build/gpumemsim run tests/data/example_stream.wtrace
