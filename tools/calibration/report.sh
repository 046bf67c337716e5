#!/usr/bin/env bash
# Published measurements against the simulator, per preset and curve, with the error: every point
# of every curve in tests/fidelity/data (fidelity.py without --quick; several minutes), then the
# summary the fidelity page (docs/fidelity.md) shows. With --html FILE, also the HTML page of the report
# family: fidelity.py --points-csv writes every point and error metric to a temporary CSV, and
# `gpumemsim fidelity CSV --format html -o FILE` draws each curve, published against simulated,
# with its errors and bounds (no page is written when the run fails). Other arguments go to
# fidelity.py. BUILD and FILE are relative to the repository root. For example
#   tools/calibration/report.sh build --html fidelity.html     # and draw each curve
#   tools/calibration/report.sh build --quick --curve latency_v100
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
html=
args=()
while (($#)); do
  case "$1" in
    --html)
      (($# >= 2)) || { echo "report.sh: --html needs a file" >&2; exit 2; }
      html=$2
      shift 2
      ;;
    --html=*) html=${1#--html=}; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
if [[ -z $html ]]; then
  exec python3 tools/calibration/fidelity.py --bin "$build/gpumemsim" "${args[@]}"
fi
points=$(mktemp --suffix=.csv)
trap 'rm -f "$points"' EXIT
python3 tools/calibration/fidelity.py --bin "$build/gpumemsim" --points-csv "$points" "${args[@]}"
"$build/gpumemsim" fidelity "$points" --format html -o "$html"
