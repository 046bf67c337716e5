#pragma once
/// Plain statistics counters: per instruction and per kernel.

#include <array>
#include <cstdint>
#include <vector>

#include "sim/records.h"
#include "sim/types.h"

namespace gms {

/// Cold-model counters for one class of accesses (see README "Definitions").
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

  AccessCounters& operator+=(const AccessCounters& o);
  friend AccessCounters operator-(AccessCounters a, const AccessCounters& b);
  friend bool operator==(const AccessCounters&, const AccessCounters&) = default;
};

/// One row of the per-instruction report: a static instruction (inst id, op, size).
struct InstrStats {
  std::uint32_t inst = 0;
  Op op = Op::LDG;
  std::uint8_t size = 4;
  std::uint32_t segment_bytes = 32;  ///< transaction size used for this instruction's class
  AccessCounters c;
};

/// Everything one kernel produced in one mode.
struct KernelStats {
  KernelInfo kernel;
  std::string mode = "cold";
  std::array<AccessCounters, kOpClassCount> totals{};
  std::vector<InstrStats> instructions;  ///< in order of first appearance
  std::uint64_t records = 0;             ///< warp instructions replayed

  const AccessCounters& total(OpClass c) const { return totals[static_cast<int>(c)]; }
};

}  // namespace gms
