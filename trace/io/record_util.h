#pragma once
/// Small helpers on WarpInstr shared by the trace readers and writers.

#include <bit>
#include <cstdint>
#include <limits>

#include "sim/core/records.h"

namespace gms::trace::detail {

/// True when every lane up to the last active one of `mask`, at base + lane * stride, lies in
/// [0, 2^64): a strided record that wraps is not in address order, and readers reject it.
inline bool strided_lanes_fit(std::uint64_t base, std::int64_t stride, LaneMask mask) {
  const __int128 last =
      static_cast<__int128>(base) + static_cast<__int128>(31 - std::countl_zero(mask)) * stride;
  return last >= 0 && last <= static_cast<__int128>(std::numeric_limits<std::uint64_t>::max());
}

/// For a record flagged `strided`, computes BASE (the address of lane 0) so that every active
/// lane i holds exactly BASE + i * stride, with BASE and all lane addresses in [0, 2^64). Returns
/// false when the record is not flagged or its addresses do not follow that rule; writers then
/// fall back to the explicit list form (which keeps the addresses, not the flag).
inline bool strided_base(const WarpInstr& r, std::uint64_t& base) {
  if (!r.strided || r.mask == 0) return false;
  int first = std::countr_zero(r.mask);
  __int128 b = static_cast<__int128>(r.addr[first]) - static_cast<__int128>(first) * r.stride;
  if (b < 0 || b > static_cast<__int128>(std::numeric_limits<std::uint64_t>::max())) return false;
  for (LaneMask m = r.mask; m != 0; m &= m - 1) {
    int lane = std::countr_zero(m);
    if (b + static_cast<__int128>(lane) * r.stride != static_cast<__int128>(r.addr[lane]))
      return false;
  }
  base = static_cast<std::uint64_t>(b);
  return true;
}

}  // namespace gms::trace::detail
