#!/usr/bin/env bash
# Regenerates tests/golden/: the JSON output (both modes, H200 preset) of every hand-written
# trace in tests/data/, and in tests/golden/calibration/ that of every calibration kernel's
# modelled trace up to 300k records (gms_gt_recipe --model; tests/e2e/calibration_golden_test.cc). Run it only when a change is meant to alter results, and say why in the
# commit; tests/e2e/golden_test.cc fails on any other difference (e.g. an optimization that
# changes a count).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/gpumemsim}
recipe=${2:-$(dirname "$bin")/tools/groundtruth/gms_gt_recipe}
rm -f tests/golden/*.json
for t in tests/data/*.wtrace; do
  name=$(basename "$t" .wtrace)
  "$bin" run "$t" --mode both --format json -o "tests/golden/$name.json"
done
echo "wrote $(ls tests/golden/*.json | wc -l) files to tests/golden/"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p tests/golden/calibration
rm -f tests/golden/calibration/*.json
"$recipe" --list | while read -r id name records; do
  [[ $records -le 300000 ]] || continue
  "$recipe" --model "$id" >"$tmp/k.wtrace"
  "$bin" run "$tmp/k.wtrace" --mode both --format json -o "tests/golden/calibration/$id-$name.json"
done
echo "wrote $(ls tests/golden/calibration/*.json | wc -l) files to tests/golden/calibration/"
