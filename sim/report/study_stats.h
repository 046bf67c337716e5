#pragma once
/// Derived per-kernel and per-instruction figures the study outputs share (sweep rows, compare
/// tables, HTML charts): sums by memory space and the ratios docs/statistics.md defines.

#include <cmath>
#include <cstdint>

#include "sim/core/stats.h"
#include "sim/core/types.h"

namespace gms {

/// A kernel's counters summed by space: global, local and atomic classes in `memory`, shared
/// loads and stores in `shared`. `dram_write_bytes` of `memory` includes write-backs of data
/// that earlier kernels dirtied.
struct KernelSums {
  AccessCounters memory;
  AccessCounters shared;
};

inline KernelSums kernel_sums(const KernelStats& k) {
  KernelSums s;
  for (int c = 0; c < kOpClassCount; ++c) {
    const OpClass cls = static_cast<OpClass>(c);
    if (cls == OpClass::SharedLoad || cls == OpClass::SharedStore)
      s.shared += k.totals[c];
    else
      s.memory += k.totals[c];
  }
  s.memory.dram_write_bytes += k.earlier_kernels_write_bytes;
  s.memory.dram_read_bytes += k.earlier_kernels_read_bytes;
  return s;
}

/// a / b, 0 when b is 0.
inline double safe_ratio(double a, double b) {
  return b == 0 ? 0.0 : a / b;
}

/// Bytes used of the bytes fetched (bytes_distinct / bytes_fetched), 0 when nothing was fetched.
inline double fetch_efficiency(const AccessCounters& c) {
  return c.bytes_fetched == 0 ? 0.0 : static_cast<double>(c.bytes_distinct) / c.bytes_fetched;
}

/// L1 sector hit rate of loads, as a fraction (0 when nothing was looked up).
inline double l1_hit_rate(const AccessCounters& c) {
  return safe_ratio(static_cast<double>(c.l1_sector_hits),
                    static_cast<double>(c.l1_sector_hits + c.l1_sector_misses));
}

/// L2 read sector hit rate, as a fraction.
inline double l2_hit_rate(const AccessCounters& c) {
  return safe_ratio(static_cast<double>(c.l2_read_sector_hits),
                    static_cast<double>(c.l2_read_sectors));
}

/// Sectors per request (global, local, atomic).
inline double sectors_per_request(const AccessCounters& c) {
  return safe_ratio(static_cast<double>(c.sectors), static_cast<double>(c.requests));
}

/// The ideal sectors per request: the average distinct bytes of a request packed into 32-byte
/// sectors, rounded up (4 for 32 lanes x 4 contiguous bytes, 1 for a broadcast).
inline double ideal_sectors_per_request(const AccessCounters& c) {
  if (c.requests == 0) return 0.0;
  return std::ceil(static_cast<double>(c.bytes_distinct) / static_cast<double>(c.requests) / 32.0);
}

/// Bytes that crossed the DRAM interface (in cold mode: bytes fetched, every access missing).
inline std::uint64_t dram_bytes(const AccessCounters& c) {
  return c.dram_read_bytes + c.dram_write_bytes;
}

}  // namespace gms
