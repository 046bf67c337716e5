#!/usr/bin/env bash
# A newcomer's first command: install the dependencies, build the gpumemsim program in Release
# (only it and the libraries it links: the tests, benchmarks and Python module are built by the
# README's test command, or `cmake --build build`), and replay the bundled example trace,
# printing the per-instruction table. ccache, which tools/install-deps.sh installs, is used when
# present (root CMakeLists.txt, GMS_CCACHE).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --target gpumemsim
./build/gpumemsim run tests/data/example_stream.wtrace
