#pragma once
/// How many distinct keys the active lanes of each quarter-warp (lanes 8q to 8q + 7) hold, summed
/// over the four quarters: the L1 tag stage's lookups (sim/model/l1_pipe.h) when every lane's
/// access lies in one line. The lines of a scattered warp's quarter come in no order, so a count
/// that branches on them mispredicts half the time: on a CPU with AVX-512CD (checked at run
/// time) one conflict-detection instruction counts a quarter, elsewhere a branch-free pairwise
/// count does.

#include <array>

#include "sim/core/types.h"

namespace gms {

/// The sum over the quarters of the distinct values of key >> `shift` among `keys`' lanes set in
/// `mask` (shift 7: the 128-byte lines of addresses).
unsigned distinct_per_quarter(const std::array<Addr, kWarpSize>& keys, LaneMask mask,
                              unsigned shift = 0);

namespace detail {
/// The two implementations, for tests: the vector one may only run when cpu_has_avx512cd().
unsigned distinct_per_quarter_portable(const std::array<Addr, kWarpSize>& keys, LaneMask mask,
                                       unsigned shift);
unsigned distinct_per_quarter_avx512(const std::array<Addr, kWarpSize>& keys, LaneMask mask,
                                     unsigned shift);
}  // namespace detail

}  // namespace gms
