#pragma once
/// The one table of statistics: every figure a printer, the sweep CSV, compare, validate or an
/// HTML page shows of an instruction's or a kernel's counters is a row here, with its unit, its
/// meaning (docs/statistics.md is checked against these rows by a test), the counters it
/// applies to and how it is computed from them.
///
/// Adding a statistic: a counter (if it needs one) in AccessCounters, a row below, and its name
/// in the column lists of the outputs that show it (report_stats.h for run's table, CSV and
/// JSON; sweep.cc; compare.cc; study_html.cc). tests/sim/report/metrics_test.cc fails until
/// docs/statistics.md names exactly these rows and the sweep CSV, the output that carries
/// every statistic, has a column for each.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "sim/core/stats.h"
#include "sim/report/study_stats.h"

namespace gms {

/// Which counters a statistic reads: the global, local and atomic classes', shared memory's,
/// or either.
enum class MetricSpace : std::uint8_t { Memory, Shared, Any };

struct Metric {
  std::string_view name;
  std::string_view unit;     ///< "count", "sectors", "bytes", "wavefronts" or "fraction"
  std::string_view meaning;  ///< one line; docs/statistics.md says it in full
  MetricSpace space;
  /// A count of the cache hierarchy: a real lookup in cached mode; in cold mode every access
  /// misses by definition (and the compare and sweep pages show it only beside a cached run).
  bool hierarchy;
  /// Exactly one of these is set: integer counts, or ratios of counts.
  std::uint64_t (*count)(const AccessCounters&);
  double (*ratio)(const AccessCounters&);

  bool is_ratio() const { return ratio != nullptr; }
  /// A fraction of 1, shown as a percentage by the human-readable outputs.
  bool percent() const { return unit == "fraction"; }
  /// The value as a double (counts convert exactly below 2^53).
  double value(const AccessCounters& c) const {
    return ratio != nullptr ? ratio(c) : static_cast<double>(count(c));
  }
};

namespace detail {
// clang-format off
inline constexpr std::array kMetricRows = {
    Metric{"instructions", "count", "warp-level executions with an active lane", MetricSpace::Any, false,
           [](const AccessCounters& c) { return c.instructions; }, nullptr},
    Metric{"active_threads", "count", "active lanes, summed", MetricSpace::Any, false,
           [](const AccessCounters& c) { return c.active_threads; }, nullptr},
    Metric{"requests", "count", "1 per execution", MetricSpace::Any, false,
           [](const AccessCounters& c) { return c.requests; }, nullptr},
    Metric{"sectors", "sectors", "distinct 32-byte blocks, per execution", MetricSpace::Memory, false,
           [](const AccessCounters& c) { return c.sectors; }, nullptr},
    Metric{"transactions", "count", "distinct segment-size blocks, per execution", MetricSpace::Memory, false,
           [](const AccessCounters& c) { return c.transactions; }, nullptr},
    Metric{"lines", "count", "distinct 128-byte blocks, per execution", MetricSpace::Memory, false,
           [](const AccessCounters& c) { return c.lines; }, nullptr},
    Metric{"bytes_requested", "bytes", "active lanes x access size", MetricSpace::Any, false,
           [](const AccessCounters& c) { return c.bytes_requested; }, nullptr},
    Metric{"bytes_distinct", "bytes", "distinct bytes, per execution", MetricSpace::Memory, false,
           [](const AccessCounters& c) { return c.bytes_distinct; }, nullptr},
    Metric{"bytes_fetched", "bytes", "transactions x segment size", MetricSpace::Memory, false,
           [](const AccessCounters& c) { return c.bytes_fetched; }, nullptr},
    Metric{"efficiency", "fraction", "bytes_distinct / bytes_fetched", MetricSpace::Memory, false,
           nullptr, [](const AccessCounters& c) { return fetch_efficiency(c); }},
    Metric{"wasted_bytes", "bytes", "bytes_fetched - bytes_distinct", MetricSpace::Memory, false,
           [](const AccessCounters& c) { return c.bytes_fetched - c.bytes_distinct; }, nullptr},
    Metric{"sectors_per_request", "sectors", "sectors / requests", MetricSpace::Memory, false,
           nullptr, [](const AccessCounters& c) { return sectors_per_request(c); }},
    Metric{"ideal_sectors_per_request", "sectors", "ceil(bytes_distinct / requests / 32)", MetricSpace::Memory, false,
           nullptr, [](const AccessCounters& c) { return ideal_sectors_per_request(c); }},
    Metric{"wavefronts", "wavefronts", "bank-array passes", MetricSpace::Shared, false,
           [](const AccessCounters& c) { return c.wavefronts; }, nullptr},
    Metric{"ideal_wavefronts", "wavefronts", "passes without conflicts", MetricSpace::Shared, false,
           [](const AccessCounters& c) { return c.ideal_wavefronts; }, nullptr},
    Metric{"conflicts", "wavefronts", "wavefronts - ideal_wavefronts", MetricSpace::Shared, false,
           [](const AccessCounters& c) { return c.wavefronts - c.ideal_wavefronts; }, nullptr},
    Metric{"l1_sector_hits", "sectors", "requested sectors found in L1", MetricSpace::Memory, true,
           [](const AccessCounters& c) { return c.l1_sector_hits; }, nullptr},
    Metric{"l1_sector_misses", "sectors", "requested sectors not found in L1", MetricSpace::Memory, true,
           [](const AccessCounters& c) { return c.l1_sector_misses; }, nullptr},
    Metric{"l1_hit_rate", "fraction", "l1_sector_hits / (hits + misses)", MetricSpace::Memory, true,
           nullptr, [](const AccessCounters& c) { return l1_hit_rate(c); }},
    Metric{"l2_read_sectors", "sectors", "sectors read from L2", MetricSpace::Memory, true,
           [](const AccessCounters& c) { return c.l2_read_sectors; }, nullptr},
    Metric{"l2_read_sector_hits", "sectors", "L2 read sectors that hit", MetricSpace::Memory, true,
           [](const AccessCounters& c) { return c.l2_read_sector_hits; }, nullptr},
    Metric{"l2_read_sector_misses", "sectors", "L2 read sectors that missed", MetricSpace::Memory, true,
           [](const AccessCounters& c) { return c.l2_read_sector_misses; }, nullptr},
    Metric{"l2_hit_rate", "fraction", "l2_read_sector_hits / l2_read_sectors", MetricSpace::Memory, true,
           nullptr, [](const AccessCounters& c) { return l2_hit_rate(c); }},
    Metric{"l2_write_sectors", "sectors", "sectors written to L2", MetricSpace::Memory, true,
           [](const AccessCounters& c) { return c.l2_write_sectors; }, nullptr},
    Metric{"l2_atomic_sectors", "sectors", "sectors updated by atomics in L2", MetricSpace::Memory, true,
           [](const AccessCounters& c) { return c.l2_atomic_sectors; }, nullptr},
    Metric{"dram_read_bytes", "bytes", "DRAM bytes read for this instruction's misses", MetricSpace::Memory, true,
           [](const AccessCounters& c) { return c.dram_read_bytes; }, nullptr},
    Metric{"dram_write_bytes", "bytes", "DRAM write-backs of lines it dirtied last", MetricSpace::Memory, true,
           [](const AccessCounters& c) { return c.dram_write_bytes; }, nullptr},
};
// clang-format on
}  // namespace detail

/// Every statistic, in the order docs/statistics.md gives them.
inline constexpr std::span<const Metric> all_metrics() {
  return detail::kMetricRows;
}

/// The row named `name`; an unknown name does not compile where it is constant.
consteval const Metric* metric(std::string_view name) {
  for (const Metric& m : detail::kMetricRows)
    if (m.name == name) return &m;
  throw "no such statistic in sim/report/metrics.h";
}

/// The same at run time: null for an unknown name.
inline const Metric* find_metric(std::string_view name) {
  for (const Metric& m : detail::kMetricRows)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace gms
