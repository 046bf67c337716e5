#pragma once
/// The layout what-ifs the diagnosis suggests (docs/explain.md, "Layout what-ifs"): one field of
/// an array of structures read at a time -> structure of arrays; a column walk of a row-major
/// array -> transposed; a bank-conflicted column of a shared tile -> padded rows or an XOR
/// swizzle, whichever leaves the column fewer wavefronts on the configured banks; instructions
/// that read a structure's consecutive fields one at a time -> one vector access.

#include <cstddef>
#include <vector>

#include "sim/config/config.h"
#include "sim/diagnosis/diagnose.h"
#include "sim/layout/arrays.h"
#include "sim/layout/layout_change.h"

namespace gms {

/// Every instruction's footprint, from the diagnosis pass.
std::vector<InstrFootprint> instruction_footprints(const std::vector<KernelPatterns>& patterns);

/// Up to `top` changes, those of the most wasteful instructions first, one per array (and per
/// kernel for shared memory).
std::vector<LayoutChange> layout_candidates(const std::vector<KernelPatterns>& patterns,
                                            const std::vector<InstrFootprint>& footprints,
                                            const std::vector<LayoutArray>& arrays,
                                            const SimConfig& cfg, std::size_t top);

}  // namespace gms
