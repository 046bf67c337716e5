#pragma once
/// The plain structs that flow from trace readers into the simulator.

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/types.h"

namespace gms {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t{x} * y * z; }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

/// One kernel launch of a trace (`#kernel` line). `params` keeps every key=value of the line in
/// its original order (known keys included), so writers reproduce the line losslessly; the typed
/// fields are parsed from it by the reader.
struct KernelInfo {
  std::uint32_t id = 0;
  std::string name;               ///< "" when absent
  Dim3 grid, block;               ///< 1,1,1 when absent
  std::uint64_t shmem_bytes = 0;  ///< shared memory per CTA, static + dynamic
  std::uint32_t regs = 0;         ///< registers per thread; 0 when unknown
  std::uint64_t flops = 0;        ///< floating-point operations of the whole kernel; 0 when unknown
  std::string arch;               ///< e.g. "sm_90"; "" when unknown
  std::vector<std::pair<std::string, std::string>> params;  ///< all keys, in line order

  friend bool operator==(const KernelInfo&, const KernelInfo&) = default;
};

/// A block of device memory the trace names (a wtrace `#alloc` line, an Accel-Sim
/// `MemcpyHtoD` line, an NVBit `alloc address` line): what layout what-ifs group accesses by.
struct Allocation {
  Addr base = 0;
  std::uint64_t bytes = 0;
  std::string name;  ///< "" when the trace gives none

  friend bool operator==(const Allocation&, const Allocation&) = default;
};

/// One execution of a memory instruction by one warp. Trivially copyable; readers fill arrays of
/// them. `addr[i]` is meaningful only for active lanes (inactive lanes hold 0).
struct WarpInstr {
  std::uint32_t inst = 0;  ///< static instruction id (PC or capture index)
  Op op = Op::LDG;
  std::uint8_t size = 4;  ///< bytes per active lane: 1, 2, 4, 8 or 16
  bool strided = false;   ///< the trace gave addresses as base + lane * stride
  /// False when a reader wrote only the first and last active lanes of a strided record
  /// (TraceReader::set_partial_strided_lanes): complete_strided_lanes() writes the others.
  bool lanes_complete = true;
  std::uint32_t sm = kUnknownSm;  ///< SM that ran the warp, kUnknownSm when unknown
  std::uint32_t cta = 0;          ///< linear CTA id
  std::uint32_t warp = 0;         ///< warp index inside the CTA
  LaneMask mask = 0;              ///< active lanes, never 0 after a successful read
  /// Instructions the warp issued between its previous record and this one that are not
  /// records (arithmetic, branches, memory operations the model does not replay), where the
  /// trace carries them (an Accel-Sim trace lists every instruction; wtrace's `+N` field); 0
  /// where it does not. Only the timed order uses it: each takes its warp an issue cycle.
  std::uint32_t instrs_before = 0;
  /// The earlier load of its warp whose data this record, or an instruction in instrs_before,
  /// uses: the K-th most recent of the warp's loads before it (1: the last one), where the trace
  /// carries register operands (Accel-Sim; wtrace's `^K` field); 0: none, or not known. Only
  /// the timed order uses it: the record issues once that load's data is back.
  std::uint32_t waits_for_load = 0;
  std::int64_t stride = 0;  ///< when `strided`: byte stride between lanes
  std::array<Addr, kWarpSize> addr{};

  friend bool operator==(const WarpInstr&, const WarpInstr&) = default;
};

/// The first and last active lanes of `mask` (masked to 0-31, so a mask of 0, which readers
/// reject, still indexes inside a warp).
inline unsigned first_lane(LaneMask mask) {
  return static_cast<unsigned>(std::countr_zero(mask)) & 31u;
}
inline unsigned last_lane(LaneMask mask) {
  return (31u - static_cast<unsigned>(std::countl_zero(mask))) & 31u;
}

/// The last byte of an access of `size` bytes at `a`, clipped at the top of the address space
/// (an access that would run past it stops there).
inline Addr last_byte(Addr a, Addr size) {
  return a > ~Addr{0} - (size - 1) ? ~Addr{0} : a + size - 1;
}

/// Writes every lane of a strided record from `base`, lane 0's address: active lane i holds
/// base + i * stride, inactive lanes 0 (all arithmetic wraps).
inline void fill_strided_lanes(WarpInstr& w, Addr base) {
  const auto stride = static_cast<std::uint64_t>(w.stride);
  if (w.mask == 0xffffffffu) {
    for (unsigned i = 0; i < kWarpSize; ++i, base += stride) w.addr[i] = base;
  } else {
    for (unsigned i = 0; i < kWarpSize; ++i) w.addr[i] = (w.mask >> i & 1) ? base + i * stride : 0;
  }
}

/// Completes a strided record whose reader wrote only its first and last active lanes
/// (lanes_complete false).
inline void complete_strided_lanes(WarpInstr& w) {
  const unsigned first = first_lane(w.mask);
  fill_strided_lanes(w, w.addr[first] - first * static_cast<std::uint64_t>(w.stride));
  w.lanes_complete = true;
}

}  // namespace gms
