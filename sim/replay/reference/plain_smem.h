#pragma once
/// The reference's shared-memory bank arbiter (sim/replay/reference_engine.h). The rule (fits
/// the H200 observations in docs/groundtruth.md): every active lane's bytes are split into
/// words of shared.bank_width_bytes; word w is in bank w mod shared.banks; a bank serves one
/// distinct word per wavefront, and lanes reading the same word share it (broadcast). So
/// wavefronts = the most distinct words any one bank holds, over the whole warp; the ideal is
/// ceil(distinct words / banks), the passes the data volume alone needs.

#include <cstdint>

#include "sim/config/config.h"
#include "sim/core/records.h"

namespace gms::ref {

struct Wavefronts {
  std::uint32_t actual = 0;
  std::uint32_t ideal = 0;
};

/// The wavefronts of shared-memory record `w` (at least one active lane).
Wavefronts arbitrate(const SharedMemConfig& cfg, const WarpInstr& w);

}  // namespace gms::ref
