#pragma once
/// Internal to the printers: the statistic tables (name, member, meaning) and derived values.
/// Global/local/atomic rows report the coalescer's and the hierarchy's counts; shared rows the
/// bank arbiter's.

#include <array>
#include <charconv>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/report/metrics.h"
#include "sim/report/study_stats.h"

namespace gms::detail {

/// The printers' column lists (table rows of sim/report/metrics.h, in the printers' order).
using MetricList = std::array<const Metric*, 9>;

/// Coalescing counts of global, local and atomic rows.
inline constexpr MetricList kMemoryStats = {
    metric("instructions"),    metric("active_threads"), metric("requests"),
    metric("sectors"),         metric("transactions"),   metric("lines"),
    metric("bytes_requested"), metric("bytes_distinct"), metric("bytes_fetched")};

/// Hierarchy counters, reported for global, local and atomic rows in both modes.
inline constexpr MetricList kHierarchyStats = {
    metric("l1_sector_hits"),      metric("l1_sector_misses"),      metric("l2_read_sectors"),
    metric("l2_read_sector_hits"), metric("l2_read_sector_misses"), metric("l2_write_sectors"),
    metric("l2_atomic_sectors"),   metric("dram_read_bytes"),       metric("dram_write_bytes")};

/// Shared-memory rows.
inline constexpr std::array<const Metric*, 6> kSharedStats = {
    metric("instructions"),    metric("active_threads"), metric("requests"),
    metric("bytes_requested"), metric("wavefronts"),     metric("ideal_wavefronts")};

inline bool is_shared_class(OpClass c) {
  return c == OpClass::SharedLoad || c == OpClass::SharedStore;
}
inline std::uint64_t wasted_bytes(const AccessCounters& c) {
  return metric("wasted_bytes")->count(c);
}
inline std::uint64_t conflicts(const AccessCounters& c) {
  return metric("conflicts")->count(c);
}

/// Kernel-level L2 and DRAM totals: the hierarchy counters of the memory-space sums (shared
/// accesses have none), write-backs of data that earlier kernels dirtied included.
inline AccessCounters kernel_traffic(const KernelStats& k) {
  return kernel_sums(k).memory;
}

/// Source lines per instruction id, from the kernel's `lineinfo=ID:LINE,...` parameter (written
/// by the Accel-Sim importer when the trace has line numbers); empty when absent or malformed.
inline std::map<std::uint32_t, std::uint32_t> line_map(const KernelInfo& k) {
  std::map<std::uint32_t, std::uint32_t> out;
  for (const auto& [key, value] : k.params) {
    if (key != "lineinfo") continue;
    std::size_t pos = 0;
    while (pos < value.size()) {
      const std::size_t end = std::min(value.find(',', pos), value.size());
      const std::size_t colon = value.find(':', pos);
      std::uint32_t id = 0, line = 0;
      if (colon >= end ||
          std::from_chars(value.data() + pos, value.data() + colon, id).ec != std::errc() ||
          std::from_chars(value.data() + colon + 1, value.data() + end, line).ec != std::errc())
        return {};
      out[id] = line;
      pos = end + 1;
    }
  }
  return out;
}

/// Header values of the trace that could not be true and were not used (an importer records
/// each as a `header_<field>=<value>` parameter): (field, value) pairs in line order.
inline std::vector<std::pair<std::string, std::string>> ignored_header_values(const KernelInfo& k) {
  std::vector<std::pair<std::string, std::string>> out;
  constexpr std::string_view kPrefix = "header_";
  for (const auto& [key, value] : k.params)
    if (key.starts_with(kPrefix)) out.emplace_back(key.substr(kPrefix.size()), value);
  return out;
}

/// a / b as a fraction, 0 when b is 0.
inline double ratio(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / b;
}

}  // namespace gms::detail
