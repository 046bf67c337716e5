#pragma once
/// The cold model's shortcut for a scattered warp: a full warp whose lanes hold unordered
/// addresses (a gather, a hash probe, a graph kernel's neighbours), each access aligned to its
/// size. For such a warp the cold replay needs only counts of distinct blocks and, for each
/// distinct sector and transaction segment, the L2 slice of its line: no line list. Computed
/// from the sorted addresses in vector registers (AVX-512F, checked at run time), it replaces
/// the coalescer's lane walk and the per-line charging loop, which were two thirds of a cold
/// replay of scattered warps.

#include <array>
#include <cstdint>

#include "sim/core/records.h"
#include "sim/model/address_map.h"
#include "sim/model/coalescer.h"

namespace gms {

/// The coalescing counts of one scattered warp and where its sectors and segments go.
struct ScatteredWarp : CoalesceCounts {
  /// Bit i: sorted lane i opens a sector (a 32-byte block no lower lane touched).
  std::uint32_t sector_starts = 0;
  /// Bit i: sorted lane i opens a transaction segment.
  std::uint32_t segment_starts = 0;
  /// Sorted lane i's unit (L2 slice) under the map passed in, from its line's address.
  std::array<std::uint32_t, kWarpSize> unit;  // (not zeroed: analyze_scattered_warp fills it)
};

/// Fills `out` for `w` under transactions of `segment_bytes` (32, 64 or 128) and the slice map
/// `map`, and returns true, when `w` is a full-warp list record whose accesses are all aligned
/// to their size and this CPU has AVX-512F; else returns false (the coalescer handles it). The
/// counts are exactly the coalescer's for such a warp (a test holds them to it).
bool analyze_scattered_warp(const WarpInstr& w, std::uint32_t segment_bytes, const Interleave& map,
                            ScatteredWarp& out);

}  // namespace gms
