#pragma once
/// Small helpers on WarpInstr shared by the trace writers.

#include <bit>
#include <cstdint>
#include <limits>

#include "sim/records.h"

namespace gms::trace::detail {

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
