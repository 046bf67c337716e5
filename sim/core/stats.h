#pragma once
/// Plain statistics counters: per instruction and per kernel.

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/core/records.h"
#include "sim/core/traffic.h"
#include "sim/core/types.h"

namespace gms {

/// Cold-model counters for one class of accesses (see docs/statistics.md).
struct AccessCounters {
  std::uint64_t instructions = 0;      ///< warp-level executions with >= 1 active lane
  std::uint64_t active_threads = 0;    ///< sum of active lanes
  std::uint64_t requests = 0;          ///< 1 per execution
  std::uint64_t sectors = 0;           ///< distinct 32-byte blocks touched, per execution
  std::uint64_t transactions = 0;      ///< distinct segment-size blocks touched, per execution
  std::uint64_t lines = 0;             ///< distinct 128-byte blocks touched, per execution
  std::uint64_t bytes_requested = 0;   ///< active lanes x access size
  std::uint64_t bytes_distinct = 0;    ///< distinct bytes touched, per execution
  std::uint64_t bytes_fetched = 0;     ///< transactions x segment size
  std::uint64_t wavefronts = 0;        ///< shared memory only
  std::uint64_t ideal_wavefronts = 0;  ///< shared memory only
  // The hierarchy (cached mode; in cold mode every access misses everywhere):
  std::uint64_t l1_sector_hits = 0;    ///< requested 32-byte sectors found in L1 (loads)
  std::uint64_t l1_sector_misses = 0;  ///< requested 32-byte sectors not found (or L1 bypassed)
  std::uint64_t l2_read_sectors = 0;   ///< 32-byte sectors read from L2 (loads)
  std::uint64_t l2_read_sector_hits = 0;
  std::uint64_t l2_read_sector_misses = 0;
  std::uint64_t l2_write_sectors = 0;   ///< 32-byte sectors written to L2 (stores)
  std::uint64_t l2_atomic_sectors = 0;  ///< 32-byte sectors updated by atomics at L2
  std::uint64_t dram_read_bytes = 0;    ///< DRAM reads caused by this instruction's L2 misses
  std::uint64_t dram_write_bytes = 0;   ///< write-backs of lines this instruction dirtied last
  /// Bulk ops only (TMALD, TMAMC): bytes written into shared memory (per receiving CTA).
  std::uint64_t shared_bytes_written = 0;

  /// Field-wise sum and difference (region-of-interest deltas). Every field is a uint64_t
  /// counter, so they run over the struct as an array; inline, since the replay adds one record's
  /// counters per warp instruction.
  AccessCounters& operator+=(const AccessCounters& o) {
    auto a = std::bit_cast<Fields>(*this);
    const auto b = std::bit_cast<Fields>(o);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
    return *this = std::bit_cast<AccessCounters>(a);
  }
  /// Adds `n` times `o` (n executions with the same counts at once).
  void add_scaled(const AccessCounters& o, std::uint64_t n) {
    auto a = std::bit_cast<Fields>(*this);
    const auto b = std::bit_cast<Fields>(o);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i] * n;
    *this = std::bit_cast<AccessCounters>(a);
  }
  friend AccessCounters operator-(AccessCounters a, const AccessCounters& b) {
    auto x = std::bit_cast<Fields>(a);
    const auto y = std::bit_cast<Fields>(b);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] -= y[i];
    return std::bit_cast<AccessCounters>(x);
  }
  friend bool operator==(const AccessCounters&, const AccessCounters&) = default;

 private:
  using Fields = std::array<std::uint64_t, 21>;
};
static_assert(sizeof(AccessCounters) == 21 * sizeof(std::uint64_t),
              "AccessCounters holds only uint64_t counters (operator+= relies on it)");

/// One row of the per-instruction report: a static instruction (inst id, op, size).
struct InstrStats {
  std::uint32_t inst = 0;
  Op op = Op::LDG;
  std::uint8_t size = 4;
  std::uint32_t segment_bytes = 32;  ///< transaction size used for this instruction's class
  AccessCounters c;
};

/// Which model produced a kernel's statistics: the cold one (every access misses) or the cached
/// hierarchy.
enum class KernelMode : std::uint8_t { Cold, Cached };

constexpr std::string_view kernel_mode_name(KernelMode m) {
  return m == KernelMode::Cold ? "cold" : "cached";
}

/// Everything one kernel produced in one mode.
struct KernelStats {
  KernelInfo kernel;
  KernelMode mode = KernelMode::Cold;
  std::array<AccessCounters, kOpClassCount> totals{};
  std::vector<InstrStats> instructions;  ///< in order of first appearance
  std::uint64_t records = 0;             ///< warp instructions replayed
  /// DRAM write-backs of lines that earlier kernels dirtied (only with persistent L2 contents);
  /// part of the kernel's DRAM write bytes, charged to no instruction.
  std::uint64_t earlier_kernels_write_bytes = 0;
  /// DRAM reads of partly written sectors of those lines, read before their write-back
  /// (dram.partial_write_reads); part of the kernel's DRAM read bytes, charged to no instruction.
  std::uint64_t earlier_kernels_read_bytes = 0;
  // Cached mode: where the kernel ran.
  std::uint32_t resident_ctas_per_sm = 0;
  std::uint32_t carveout_kb = 0;
  std::uint64_t l1_bytes = 0;
  // The time model's inputs and results.
  TrafficProfile traffic;
  ScheduleTotals schedule;  ///< an ordered replay's (timed: the estimate's source)
  TimeEstimate time;
  Roofline roofline;

  const AccessCounters& total(OpClass c) const { return totals[static_cast<int>(c)]; }
};

}  // namespace gms
