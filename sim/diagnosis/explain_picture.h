#pragma once
/// The picture of one warp's accesses on explain's HTML page, before and after a layout change:
/// the 32 lanes on top, joined by a line each to what they reach below: the 32 banks (shared
/// memory) or the distinct 32-byte sectors in address order (global memory), with the count the
/// replay's own models give (wavefronts from the bank arbiter, sectors from the coalescer).

#include <string>

#include "sim/config/config.h"
#include "sim/core/records.h"

namespace gms {

/// One self-contained <svg>; `title` heads it.
std::string warp_picture(const WarpInstr& w, const SimConfig& cfg, const std::string& title);

}  // namespace gms
