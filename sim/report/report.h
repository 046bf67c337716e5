#pragma once
/// Printers for run results: a human table (ranked by wasted bytes, like cg_annotate), CSV and
/// JSON. The only code that knows statistic names, descriptions and units.

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"

namespace gms {

/// An instruction of a kernel: (kernel id, inst, op, size).
using InstrKey = std::tuple<std::uint32_t, std::uint32_t, Op, std::uint8_t>;

/// Everything one `gpumemsim run` produced.
struct RunReport {
  SimConfig config;
  std::vector<std::string> traces;
  std::vector<KernelStats> kernels;
  /// `run --pattern`: each instruction's access-pattern label (sim/diagnosis/pattern.h). Empty
  /// otherwise, and then no output has a pattern column (the outputs stay as they were).
  std::map<InstrKey, std::string> patterns;

  /// The pattern of `i` in kernel `kernel_id`; "-" when none was diagnosed.
  const std::string& pattern_of(std::uint32_t kernel_id, const InstrStats& i) const {
    static const std::string kNone = "-";
    const auto it = patterns.find({kernel_id, i.inst, i.op, i.size});
    return it == patterns.end() ? kNone : it->second;
  }
};

enum class ReportFormat { Table, Csv, Json, Html };

/// Parses "table", "csv", "json" or "html" (one self-contained page, sim/report/report_html.cc);
/// throws SimError otherwise.
ReportFormat parse_report_format(const std::string& name);

void print_report(std::ostream& out, const RunReport& report, ReportFormat format);

/// Efficiency (docs/statistics.md): distinct bytes / bytes fetched (0 when nothing fetched).
double efficiency(const AccessCounters& c);

}  // namespace gms
