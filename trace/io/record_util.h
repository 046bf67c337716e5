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

/// The strided rule on the active lanes of `mask`: true when every active lane i holds exactly
/// BASE + i * stride, with BASE in [0, 2^64); `base` is then set. `addr_of(k, lane)` is the
/// address of the k-th active lane, which is lane `lane` (lanes ascending).
template <class AddrOf>
bool strided_rule(LaneMask mask, std::int64_t stride, AddrOf addr_of, std::uint64_t& base) {
  if (mask == 0) return false;
  constexpr auto kMax = static_cast<__int128>(std::numeric_limits<std::uint64_t>::max());
  const int first = std::countr_zero(mask);
  const __int128 b =
      static_cast<__int128>(addr_of(0, first)) - static_cast<__int128>(first) * stride;
  if (b < 0 || b > kMax) return false;
  // The rule is linear in the lane: once the last active lane's BASE + i * stride lies in
  // [0, 2^64) too, so do all lanes between, and each compares in wrapping 64-bit arithmetic
  // exactly as in 128-bit (the writers' hot loop: 32 lanes a record, no 128-bit multiply).
  const int last = 31 - std::countl_zero(mask);
  const __int128 end = b + static_cast<__int128>(last) * stride;
  if (end < 0 || end > kMax) return false;
  const auto b64 = static_cast<std::uint64_t>(b);
  const auto s64 = static_cast<std::uint64_t>(stride);
  bool same = true;
  if (mask == ~LaneMask{0}) {
    for (int lane = 0; lane < kWarpSize; ++lane)  // no early exit: the compiler vectorises it
      same &= b64 + static_cast<std::uint64_t>(lane) * s64 == addr_of(lane, lane);
  } else {
    int k = 0;
    for (LaneMask m = mask; m != 0 && same; m &= m - 1, ++k) {
      const int lane = std::countr_zero(m);
      same = b64 + static_cast<std::uint64_t>(lane) * s64 == addr_of(k, lane);
    }
  }
  if (!same) return false;
  base = b64;
  return true;
}

/// For a record flagged `strided`, computes BASE (the address of lane 0) so that every active
/// lane i holds exactly BASE + i * stride, with BASE and all lane addresses in [0, 2^64). Returns
/// false when the record is not flagged or its addresses do not follow that rule; writers then
/// fall back to the explicit list form (which keeps the addresses, not the flag).
inline bool strided_base(const WarpInstr& r, std::uint64_t& base) {
  return r.strided && strided_rule(
                          r.mask, r.stride, [&](int, int lane) { return r.addr[lane]; }, base);
}

/// strided_base's rule on a compact address list (the importers' form, before a WarpInstr
/// exists): `addr[k]` is the address of the k-th active lane of `mask`.
inline bool strided_compact(const Addr* addr, LaneMask mask, std::int64_t stride,
                            std::uint64_t& base) {
  return strided_rule(
      mask, stride, [&](int k, int) { return addr[k]; }, base);
}

}  // namespace gms::trace::detail
