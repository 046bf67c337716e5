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
#include "trace/io/reader.h"

namespace gms {

/// True when `opts` replays kernel `id` (an empty kernel_ids list replays every kernel).
bool replays_kernel(const RunOptions& opts, std::uint32_t id);

/// The replay engines' outer loop: for each kernel of `reader` that `opts` replays, in order,
/// begin(kernel), then record(w) for each of its records (read `batch` at a time), then end().
template <class Begin, class Record, class End>
void replay_selected_kernels(trace::TraceReader& reader, const RunOptions& opts, std::size_t batch,
                             Begin&& begin, Record&& record, End&& end) {
  KernelInfo kernel;
  std::vector<WarpInstr> records(batch);
  while (reader.next_kernel(kernel)) {
    if (!replays_kernel(opts, kernel.id)) continue;
    begin(kernel);
    while (const std::size_t n = reader.read(records))
      for (std::size_t i = 0; i < n; ++i) record(records[i]);
    end();
  }
}

/// Starts `kernel`: `cold` and `cached` hold fresh statistics for the modes opts.mode replays and
/// are empty for the other (the kernel's FLOPs taken from opts.flops where given); `units`, the
/// unit traffic both modes share, is zero per SM.
void start_kernel(const KernelInfo& kernel, const SimConfig& cfg, const RunOptions& opts,
                  std::optional<KernelStats>& cold, std::optional<KernelStats>& cached,
                  TrafficProfile& units);

/// Ends the kernel, whose entries hold their mode's L2 slice sectors and DRAM traffic: each gets
/// the unit traffic both modes share (`units`: per-SM L1 sectors and shared wavefronts, load
/// requests), then its class totals, time estimate and roofline. The per-unit vectors served the
/// estimate and are dropped (results are kept for every kernel of a run, and traces can hold
/// thousands), unless opts.keep_unit_traffic. The entries go to `out`, cold first.
void finish_kernel(std::optional<KernelStats>& cold, std::optional<KernelStats>& cached,
                   const TrafficProfile& units, const SimConfig& cfg, const RunOptions& opts,
                   std::vector<KernelStats>& out);

}  // namespace gms
