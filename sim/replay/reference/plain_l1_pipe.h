#pragma once
/// The reference's L1TEX pipeline cost of one global, local or atomic warp request (the rules
/// of sim/model/l1_pipe.h, written for reading): every byte of every active lane is walked.
/// - tag_lookups: the distinct 128-byte lines each quarter-warp (lanes 8q..8q+7) touches,
///   summed over the quarters, at least 4 (the stage resolves four a cycle, one cycle at least);
/// - data_wavefronts: the lanes in groups that ideally move 128 bytes (the whole warp for
///   accesses of up to 4 bytes, 128 / size lanes for wider ones); in a group, the most distinct
///   4-byte words any of the 32 banks (word mod 32) holds; summed over the groups.

#include <cstdint>

#include "sim/core/records.h"

namespace gms::ref {

struct PlainPipe {
  std::uint32_t tag_lookups = 0;
  std::uint32_t data_wavefronts = 0;
};

/// The cost of `w` (at least one active lane, its lanes complete).
PlainPipe l1_pipe(const WarpInstr& w);

}  // namespace gms::ref
