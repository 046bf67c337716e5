#pragma once
/// A kernel's frame: what every replay engine (the fast one, the reference, the one-pass one)
/// does around its memory side, written once. The kernels a run selects, in trace order; at a
/// kernel's start, the statistics of the modes replayed, the unit traffic, and the placement of
/// its CTAs; the rows of its static instructions, numbered by first appearance; whether its
/// cached replay follows the warps' progress; at its end, the L2's and the DRAM's traffic, then
/// the classes' totals, the time estimate and the roofline. An engine supplies its memory side:
/// what a record does to its caches, and their flush.

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/model/placement.h"
#include "sim/replay/instr_table.h"
#include "sim/replay/simulator.h"
#include "trace/io/reader.h"

namespace gms {

/// True when `opts` replays kernel `id` (an empty kernel_ids list replays every kernel).
bool replays_kernel(const RunOptions& opts, std::uint32_t id);

/// The next kernel of `source` (a trace reader, or an engine's batches of one) that `opts`
/// replays, into `kernel`; false at the end of the trace.
template <class Source>
bool next_replayed_kernel(Source& source, const RunOptions& opts, KernelInfo& kernel) {
  while (source.next_kernel(kernel))
    if (replays_kernel(opts, kernel.id)) return true;
  return false;
}

/// The engines' outer loop over a trace reader: for each kernel that `opts` replays, in order,
/// begin(kernel), then record(w) for each of its records (read `batch` at a time), then end().
template <class Begin, class Record, class End>
void replay_selected_kernels(trace::TraceReader& reader, const RunOptions& opts, std::size_t batch,
                             Begin&& begin, Record&& record, End&& end) {
  KernelInfo kernel;
  std::vector<WarpInstr> records(batch);
  while (next_replayed_kernel(reader, opts, kernel)) {
    begin(kernel);
    while (const std::size_t n = reader.read(records))
      for (std::size_t i = 0; i < n; ++i) record(records[i]);
    end();
  }
}

/// Unit traffic with every per-SM count zero for `sms` SMs.
TrafficProfile zero_units(std::uint32_t sms);

/// A cached kernel's L2 traffic, at its end: the sectors `l2` served per slice and from its far
/// partition, taken from it into `k`.
template <class L2>
void take_l2_traffic(L2& l2, KernelStats& k) {
  k.traffic.l2_slice_sectors = l2.take_slice_sectors();
  k.traffic.l2_far_hit_sectors = l2.take_far_hit_sectors();
}

class KernelFrame {
 public:
  KernelFrame(const SimConfig& cfg, const RunOptions& opts) : cfg_(cfg), opts_(opts) {}

  /// Starts `kernel`: `cold` and `cached` hold fresh statistics for the modes opts.mode replays
  /// and are empty for the other (the kernel's FLOPs taken from opts.flops where given); `units`,
  /// the unit traffic both modes share, is zero per SM; no rows. A cached kernel's CTAs are
  /// placed (place_kernel): its statistics get the resident CTAs per SM, the carve-out and the
  /// L1 bytes left, which placement() holds until the next kernel.
  void begin(const KernelInfo& kernel);

  /// The row of record `w`'s static instruction (inst id, operation, access size). A new one is
  /// numbered next and added to each mode's statistics, with `segment_bytes(op)` (the engine's
  /// coalescer's transaction size) and no counts; `created` says so.
  template <class SegmentBytes>
  [[gnu::always_inline]] std::uint32_t row(const WarpInstr& w, SegmentBytes&& segment_bytes,
                                           bool& created) {
    created = false;
    const std::uint32_t r = rows_.row(w, created);
    if (created) [[unlikely]]
      add_row({w.inst, w.op, w.size, segment_bytes(w.op), {}});
    return r;
  }

  /// Whether this kernel's cached replay takes its records in the order of the warps' progress
  /// (RunOptions::order) rather than the file's.
  bool ordered() const { return cached && opts_.order != ReplayOrder::File; }

  /// Where the kernel's CTAs run (cached mode; the defaults in a cold-only run).
  const KernelPlacement& placement() const { return placement_; }

  /// Ends the kernel (finish_kernel) into `out`, cold first.
  void finish(std::vector<KernelStats>& out) {
    finish_kernel(cold, cached, units, cfg_, opts_, out);
  }

  std::optional<KernelStats> cold, cached;  ///< the kernel's statistics, per mode replayed
  TrafficProfile units;                     ///< the unit traffic both modes share

  /// Ends a kernel whose entries hold their mode's L2 slice sectors and DRAM traffic: each gets
  /// the unit traffic both modes share (`units`: per-SM L1 sectors and shared wavefronts, load
  /// requests), then its class totals, time estimate and roofline. The per-unit vectors served
  /// the estimate and are dropped (results are kept for every kernel of a run, and traces can
  /// hold thousands), unless opts.keep_unit_traffic. The entries go to `out`, cold first.
  static void finish_kernel(std::optional<KernelStats>& cold, std::optional<KernelStats>& cached,
                            const TrafficProfile& units, const SimConfig& cfg,
                            const RunOptions& opts, std::vector<KernelStats>& out);

 private:
  void add_row(const InstrStats& row);

  const SimConfig& cfg_;
  const RunOptions& opts_;
  KernelPlacement placement_;
  InstrTable rows_;
};

}  // namespace gms
