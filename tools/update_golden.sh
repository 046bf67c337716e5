#!/usr/bin/env bash
# Regenerates tests/golden/: the JSON output (both modes, H200 preset) of every hand-written
# trace in tests/data/. Run it only when a change is meant to alter results, and say why in the
# commit; tests/e2e/golden_test.cc fails on any other difference (e.g. an optimization that
# changes a count).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/gpumemsim}
rm -f tests/golden/*.json
for t in tests/data/*.wtrace; do
  name=$(basename "$t" .wtrace)
  "$bin" run "$t" --mode both --format json -o "tests/golden/$name.json"
done
echo "wrote $(ls tests/golden/*.json | wc -l) files to tests/golden/"
