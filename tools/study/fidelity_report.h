#pragma once
/// The calibration report of `gpumemsim fidelity`: published measurements against the
/// simulator, per preset and curve, with the errors and their bounds (the points of
/// tools/calibration/fidelity.py --points-csv, tools/study/fidelity_points.h).
///
///   print_fidelity_html(out, read_fidelity_points("points.csv"));

#include <ostream>

namespace gms {

struct FidelityPoints;

/// The summary, one line per curve: preset, points, every metric's error, the gaps (bounds
/// above issue 20's target) and the metrics over their bound; then the totals.
void print_fidelity_table(std::ostream& out, const FidelityPoints& p);

/// One self-contained page: the summary table (a curve with a metric over its bound is a "fail"
/// row), then per preset and curve its board and source, a line chart of published against
/// simulated (one pair of lines per series), its error table and its points.
void print_fidelity_html(std::ostream& out, const FidelityPoints& p);

}  // namespace gms
