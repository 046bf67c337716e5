#pragma once
/// Two runs of the same traces side by side: two configurations (e.g. kepler-k40-ca vs
/// volta-v100) or one configuration cold vs cached. Kernels pair by position, instructions by
/// (inst, op, size); each kernel's instructions are ranked by how much their DRAM traffic
/// changes (bytes fetched in cold mode), then sectors, transactions and wavefronts.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/replay/simulator.h"
#include "sim/report/metrics.h"
#include "sim/report/report.h"

namespace gms {

/// One side: a label for the output, its configuration and mode (Cold or Cached).
struct CompareSide {
  std::string label;
  SimConfig config;
  SimMode mode = SimMode::Cold;
};

/// One static instruction on both sides (a side where it did not run holds zeros).
struct InstrComparison {
  std::uint32_t inst = 0;
  Op op = Op::LDG;
  std::uint8_t size = 4;
  AccessCounters a, b;
  std::uint32_t segment_a = 0, segment_b = 0;
};

struct KernelComparison {
  KernelStats a, b;
  std::vector<InstrComparison> instructions;  ///< most changed first
};

struct Comparison {
  std::vector<std::string> traces;
  CompareSide a, b;
  std::vector<KernelComparison> kernels;
  /// Whether the hierarchy columns (L2, DRAM, hit rates) mean something: a side is cached.
  bool hierarchy() const { return a.mode == SimMode::Cached || b.mode == SimMode::Cached; }
};

/// Simulates both sides (in parallel when the configurations differ; in one pass for cold vs
/// cached of one configuration) and pairs the results.
Comparison compare_runs(const std::vector<std::string>& traces, const CompareSide& a,
                        const CompareSide& b);

/// Pairs two result lists of the same traces (exposed for tests).
std::vector<KernelComparison> pair_kernels(const std::vector<KernelStats>& a,
                                           const std::vector<KernelStats>& b);

/// One compared figure: a name, how to read it from counters, whether it is a fraction.
/// The statistics a comparison shows (rows of sim/report/metrics.h; hierarchy ones only when a
/// side is cached).
using CompareMetric = Metric;
const std::vector<CompareMetric>& compare_metrics();

/// Table, CSV, JSON or HTML.
void print_comparison(std::ostream& out, const Comparison& c, ReportFormat format);

}  // namespace gms
