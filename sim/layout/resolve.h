#pragma once
/// From a --layout spec to the change it makes: the array's bounds, and the numbers a spec
/// leaves out (structure bytes, row pitch, element bytes) from the footprints of the
/// instructions that touch the array (sim/layout/arrays.h).

#include <vector>

#include "sim/layout/arrays.h"
#include "sim/layout/layout_change.h"
#include "sim/layout/layout_spec.h"

namespace gms {

/// Shared-memory changes cover the whole window of each CTA: offsets [0, kSharedWindow).
inline constexpr Addr kSharedWindow = Addr{1} << 40;

/// Throws SimError naming the spec where the array or a number cannot be found, or where the
/// numbers do not fit (a structure not a whole number of elements).
LayoutChange resolve_layout(const LayoutSpec& spec, const std::vector<LayoutArray>& arrays,
                            const std::vector<InstrFootprint>& footprints);

}  // namespace gms
