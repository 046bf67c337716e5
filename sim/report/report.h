#pragma once
/// Printers for run results: a human table (ranked by wasted bytes, like cg_annotate), CSV and
/// JSON. The only code that knows statistic names, descriptions and units.

#include <ostream>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"

namespace gms {

/// Everything one `gpumemsim run` produced.
struct RunReport {
  SimConfig config;
  std::vector<std::string> traces;
  std::vector<KernelStats> kernels;
};

enum class ReportFormat { Table, Csv, Json, Html };

/// Parses "table", "csv", "json" or "html" (one self-contained page, sim/report/report_html.cc);
/// throws SimError otherwise.
ReportFormat parse_report_format(const std::string& name);

void print_report(std::ostream& out, const RunReport& report, ReportFormat format);

/// Efficiency as defined in the README: distinct bytes / bytes fetched (0 when nothing fetched).
double efficiency(const AccessCounters& c);

}  // namespace gms
