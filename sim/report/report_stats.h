#pragma once
/// Internal to the printers: the statistic tables (name, member, meaning) and derived values.
/// Global/local/atomic rows report the coalescer's and the hierarchy's counts; shared rows the
/// bank arbiter's.

#include <charconv>
#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "sim/config/config.h"
#include "sim/core/stats.h"

namespace gms::detail {

struct StatSpec {
  const char* name;
  std::uint64_t AccessCounters::*member;
  const char* help;
};

inline constexpr StatSpec kMemoryStats[] = {
    {"instructions", &AccessCounters::instructions, "warp-level executions"},
    {"active_threads", &AccessCounters::active_threads, "active lanes, summed"},
    {"requests", &AccessCounters::requests, "1 per execution"},
    {"sectors", &AccessCounters::sectors, "distinct 32-byte blocks, per execution"},
    {"transactions", &AccessCounters::transactions, "distinct segment-size blocks, per execution"},
    {"lines", &AccessCounters::lines, "distinct 128-byte blocks, per execution"},
    {"bytes_requested", &AccessCounters::bytes_requested, "active lanes x access size"},
    {"bytes_distinct", &AccessCounters::bytes_distinct, "distinct bytes, per execution"},
    {"bytes_fetched", &AccessCounters::bytes_fetched, "transactions x segment size"},
};

/// Hierarchy counters, reported for global, local and atomic rows in both modes.
inline constexpr StatSpec kHierarchyStats[] = {
    {"l1_sector_hits", &AccessCounters::l1_sector_hits, "requested sectors found in L1"},
    {"l1_sector_misses", &AccessCounters::l1_sector_misses, "requested sectors not found in L1"},
    {"l2_read_sectors", &AccessCounters::l2_read_sectors, "sectors read from L2"},
    {"l2_read_sector_hits", &AccessCounters::l2_read_sector_hits, "L2 read sectors that hit"},
    {"l2_read_sector_misses", &AccessCounters::l2_read_sector_misses,
     "L2 read sectors that missed"},
    {"l2_write_sectors", &AccessCounters::l2_write_sectors, "sectors written to L2"},
    {"l2_atomic_sectors", &AccessCounters::l2_atomic_sectors, "sectors updated by atomics in L2"},
    {"dram_read_bytes", &AccessCounters::dram_read_bytes,
     "DRAM bytes read for this instruction's misses"},
    {"dram_write_bytes", &AccessCounters::dram_write_bytes,
     "DRAM write-backs of lines it dirtied last"},
};

inline constexpr StatSpec kSharedStats[] = {
    {"instructions", &AccessCounters::instructions, "warp-level executions"},
    {"active_threads", &AccessCounters::active_threads, "active lanes, summed"},
    {"requests", &AccessCounters::requests, "1 per execution"},
    {"bytes_requested", &AccessCounters::bytes_requested, "active lanes x access size"},
    {"wavefronts", &AccessCounters::wavefronts, "bank-array passes"},
    {"ideal_wavefronts", &AccessCounters::ideal_wavefronts, "passes without conflicts"},
};

inline bool is_shared_class(OpClass c) {
  return c == OpClass::SharedLoad || c == OpClass::SharedStore;
}
inline std::uint64_t wasted_bytes(const AccessCounters& c) {
  return c.bytes_fetched - c.bytes_distinct;
}
inline std::uint64_t conflicts(const AccessCounters& c) {
  return c.wavefronts - c.ideal_wavefronts;
}

/// Kernel-level L2 and DRAM totals: sums over all classes (plus write-backs of data that earlier
/// kernels dirtied).
struct KernelTraffic {
  std::uint64_t l2_read_sectors = 0, l2_read_sector_hits = 0, l2_read_sector_misses = 0;
  std::uint64_t l2_write_sectors = 0, l2_atomic_sectors = 0;
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
};

inline KernelTraffic kernel_traffic(const KernelStats& k) {
  KernelTraffic t;
  for (const AccessCounters& c : k.totals) {
    t.l2_read_sectors += c.l2_read_sectors;
    t.l2_read_sector_hits += c.l2_read_sector_hits;
    t.l2_read_sector_misses += c.l2_read_sector_misses;
    t.l2_write_sectors += c.l2_write_sectors;
    t.l2_atomic_sectors += c.l2_atomic_sectors;
    t.dram_read_bytes += c.dram_read_bytes;
    t.dram_write_bytes += c.dram_write_bytes;
  }
  t.dram_write_bytes += k.earlier_kernels_write_bytes;
  return t;
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

/// a / b as a fraction, 0 when b is 0.
inline double ratio(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / b;
}

}  // namespace gms::detail
