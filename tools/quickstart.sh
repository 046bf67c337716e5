#!/usr/bin/env bash
# A newcomer's first command: install the dependencies, build in Release, and replay the bundled
# example trace, printing the per-instruction table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
./build/gpumemsim run tests/data/example_stream.wtrace
