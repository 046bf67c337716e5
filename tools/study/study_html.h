#pragma once
/// HTML pages of the study commands (sweep and merge, compare, validate); the run report is
/// sim/report/report_html.cc. Each writes one self-contained page: inline SVG charts and the same
/// figures as tables.

#include <ostream>

namespace gms {

struct TidyCsv;
struct Comparison;
struct Validation;

/// Sweep curves: each metric against the first varied key, one line per trace / kernel (and
/// instruction, and value of the other varied keys), then the tidy table.
void print_sweep_html(std::ostream& out, const TidyCsv& sweep);

/// Per kernel: A vs B bars of the traffic per instruction, totals and the ranked instructions.
void print_comparison_html(std::ostream& out, const Comparison& c);

/// Simulated vs measured scatter (log-log, y = x diagonal) and the per-metric table.
void print_validation_html(std::ostream& out, const Validation& v);

}  // namespace gms
