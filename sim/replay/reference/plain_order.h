#pragma once
/// The reference's warp scheduler, in its own plain code (the fast engine's is
/// sim/model/warp_scheduler.h with sim/replay/ordered_kernel.h; the differential tests compare
/// the two): a kernel's records replayed in the order of its warps' progress, `--order timed`
/// or `lockstep`. Each step looks at every resident warp and issues the record of the one that
/// can issue first (ties: lower SM, CTA, warp). The rules are docs/timing.md's.

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/records.h"
#include "sim/core/stats.h"
#include "sim/core/traffic.h"

namespace gms::ref {

/// What one replayed record used, and where its load sectors were served.
struct PlainUse {
  bool waits = false;  ///< a load or atomic
  bool store = false;
  double pipe_cycles = 0;  ///< in its SM's L1TEX pipeline
  std::uint64_t l2_sectors = 0, dram_bytes = 0;
  std::uint64_t far_hits = 0, l2_hits = 0, dram_sectors = 0;
};

/// The use of a record of operation `op` whose row's counters went from `before` to `after`,
/// with `far_hits` far hits and `dram_bytes` DRAM bytes (reads and write-backs), that moved
/// `data_wavefronts`, `shared_wavefronts` and `tag_lookups` through its SM's pipeline.
PlainUse plain_use(const SimConfig& cfg, Op op, const AccessCounters& before,
                   const AccessCounters& after, std::uint64_t far_hits, std::uint64_t dram_bytes,
                   std::uint64_t data_wavefronts, std::uint64_t shared_wavefronts,
                   std::uint64_t tag_lookups);

/// Replays a kernel's `records` (file order) through `replay(record, sm)` in the order of the
/// warps' progress (`timed`, else lockstep), `slots` CTAs resident per SM; what the schedule
/// measured.
ScheduleTotals replay_in_progress_order(
    std::vector<WarpInstr>& records, const SimConfig& cfg, const KernelInfo& kernel,
    std::uint32_t slots, bool timed,
    const std::function<PlainUse(WarpInstr&, std::uint32_t)>& replay);

}  // namespace gms::ref
