#!/usr/bin/env bash
# Published measurements against the simulator, per preset and curve, with the error: every point
# of every curve in tests/fidelity/data (fidelity.py without --quick; several minutes), then the
# summary README's "Fidelity" section shows. Extra arguments go to fidelity.py, e.g.
#   tools/calibration/report.sh build --html fidelity.html     # and draw each curve
#   tools/calibration/report.sh build --curve latency_v100
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
exec python3 tools/calibration/fidelity.py --bin "$build/gpumemsim" "$@"
