#pragma once
/// Test helpers that build warp instructions from a lane-address function.

#include <functional>

#include "sim/core/records.h"

namespace gms::test {

/// A warp instruction whose active lane t accesses `addr(t)`.
inline WarpInstr warp(Op op, unsigned size, const std::function<Addr(int)>& addr,
                      LaneMask mask = 0xffffffffu) {
  WarpInstr w;
  w.op = op;
  w.size = static_cast<std::uint8_t>(size);
  w.mask = mask;
  for (int t = 0; t < kWarpSize; ++t)
    if (mask >> t & 1u) w.addr[t] = addr(t);
  return w;
}

/// A strided warp instruction (lane t at base + t * stride), flagged as the readers flag it.
inline WarpInstr strided(Op op, unsigned size, Addr base, std::int64_t stride,
                         LaneMask mask = 0xffffffffu) {
  WarpInstr w = warp(
      op, size, [&](int t) { return base + static_cast<Addr>(t * stride); }, mask);
  w.strided = true;
  w.stride = stride;
  return w;
}

}  // namespace gms::test
