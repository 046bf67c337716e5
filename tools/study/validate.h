#pragma once
/// Simulated statistics against Nsight Compute counters. One table maps each simulator
/// statistic to the ncu metric that measures it and says in which mode the simulator's figure
/// is comparable: coalescer counts (requests, sectors, wavefronts) come from the cold model, the
/// hierarchy counts (hit rates, L2 sectors, DRAM bytes) from cached mode, as ncu measures with
/// `--cache-control all` (every cache empty at each launch).

#include <cmath>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/report/report.h"
#include "tools/study/ncu_csv.h"

namespace gms {

/// One row of the metric table.
struct MetricMapping {
  const char* statistic;   ///< the simulator's name, e.g. "global_load.sectors"
  const char* ncu_metric;  ///< e.g. "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
  const char* mode;        ///< "cold", "cached" or "launch" (kernel launch parameters)
  bool percent;            ///< a percentage: the error is in points, not relative
  double (*simulated)(const KernelStats& cold, const KernelStats& cached);
  const char* note;  ///< when the comparison holds, for the README table
};

/// The whole mapping, in report order.
const std::vector<MetricMapping>& metric_mappings();

/// How simulated kernels find their measured launch: the i-th with the i-th, by kernel name
/// (the k-th launch of a name with the k-th row of that name; ncu's argument list and a leading
/// "void " are ignored), or by kernel id (the ground-truth layout's kernel_id).
enum class MatchBy { Order, Name, Id };
MatchBy parse_match_by(const std::string& name);

struct MetricCheck {
  const MetricMapping* mapping = nullptr;
  double simulated = 0, measured = 0;
  double error = 0;    ///< relative, in percent; in points for percentages; inf when measured is 0
  bool within = true;  ///< error <= tolerance (true without a tolerance)
};

struct KernelValidation {
  KernelInfo kernel;
  std::string measured_id, measured_name;
  std::vector<MetricCheck> checks;
};

struct Validation {
  std::string ncu_file;
  MeasuredLayout layout = MeasuredLayout::NcuRaw;
  std::vector<std::string> traces;
  SimConfig config;
  MatchBy match = MatchBy::Order;
  std::optional<double> tolerance;  ///< percent (points for percentages)
  std::vector<KernelValidation> kernels;
  std::vector<std::string> unmatched;  ///< kernels (either side) without a partner, described

  std::size_t checks() const;
  std::size_t failures() const;
};

/// Matches and compares. `results` come from simulate() in mode Both (cold, cached per kernel).
/// Throws SimError when no kernel matches.
Validation validate_kernels(const MeasuredTable& measured, const std::vector<KernelStats>& results,
                            MatchBy match, std::optional<double> tolerance);

/// Error of one figure as MetricCheck::error defines it.
double check_error(double simulated, double measured, bool percent);

/// Table, CSV, JSON or HTML.
void print_validation(std::ostream& out, const Validation& v, ReportFormat format);

}  // namespace gms
