#pragma once
/// One kernel's statistics from its start to its results, in the modes a run replays: what both
/// replay engines (the fast one and the reference) do before a kernel's first record and after
/// its last.

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/replay/simulator.h"

namespace gms {

/// True when `opts` replays kernel `id` (an empty kernel_ids list replays every kernel).
bool replays_kernel(const RunOptions& opts, std::uint32_t id);

/// Starts `kernel`: `cold` and `cached` hold fresh statistics for the modes opts.mode replays and
/// are empty for the other (the kernel's FLOPs taken from opts.flops where given); `units`, the
/// unit traffic both modes share, is zero per SM; `cold_slices`, the cold model's L2 sectors, is
/// zero per slice.
void start_kernel(const KernelInfo& kernel, const SimConfig& cfg, const RunOptions& opts,
                  std::optional<KernelStats>& cold, std::optional<KernelStats>& cached,
                  TrafficProfile& units, std::vector<std::uint64_t>& cold_slices);

/// Ends the kernel: each mode's entry gets the unit traffic both share (`units`: per-SM L1 sectors
/// and shared wavefronts, load requests), the cold entry its L2 slice sectors (`cold_slices`) and
/// DRAM traffic (`cold_dram`); then its class totals, time estimate and roofline. The per-unit
/// vectors served the estimate and are dropped (results are kept for every kernel of a run, and
/// traces can hold thousands), unless opts.keep_unit_traffic. The entries go to `out`, cold first.
void finish_kernel(std::optional<KernelStats>& cold, std::optional<KernelStats>& cached,
                   const TrafficProfile& units, const std::vector<std::uint64_t>& cold_slices,
                   DramTraffic cold_dram, const SimConfig& cfg, const RunOptions& opts,
                   std::vector<KernelStats>& out);

}  // namespace gms
