#pragma once
/// A kernel's records replayed in the order of its warps' progress (`--order timed` or
/// `lockstep`, RunOptions::order): the engines hand every record of the kernel here as they read
/// it (its row created then, so rows keep the file's order), and at the kernel's end the records
/// go back to the engine's replay one by one, in the order the warp scheduler
/// (sim/model/warp_scheduler.h) gives them, each record's use of the memory fed back to it.
///
/// It holds the kernel's records (their 296 bytes each, and 4 more for the order): an ordered
/// replay's memory grows with its largest kernel, not with the trace.

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/records.h"
#include "sim/model/placement.h"
#include "sim/model/warp_scheduler.h"

namespace gms {

class OrderedKernel {
 public:
  void add(const WarpInstr& w) { records_.push_back(w); }

  /// Replays the records added since the last call through `replay_one(WarpInstr&, sm)`, which
  /// returns the record's RecordUse, in the scheduler's order (`timed`, else lockstep) with
  /// `slots` resident CTAs per SM, and forgets them. Returns what the schedule measured.
  template <class ReplayOne>
  ScheduleTotals replay(const SimConfig& cfg, const KernelInfo& kernel, std::uint32_t slots,
                        bool timed, ReplayOne&& replay_one) {
    const FastDiv32 sms(cfg.gpu.sm_count);
    // Each warp's records, in file order, after one another; the warps by SM, CTA, warp.
    order_.resize(records_.size());
    for (std::uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
    auto key = [&](std::uint32_t i) {
      const WarpInstr& w = records_[i];
      return std::tuple{sm_of(w, sms), w.cta, w.warp};
    };
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
    WarpScheduler scheduler(cfg, loads_in_flight(cfg, kernel), timed);
    runs_.clear();
    for (std::size_t i = 0; i < order_.size();) {
      // One CTA: its warps' runs.
      const auto [sm, cta, warp] = key(order_[i]);
      std::size_t end = i;
      std::uint32_t warps = 0;
      while (end < order_.size() && std::get<0>(key(order_[end])) == sm &&
             records_[order_[end]].cta == cta) {
        const std::uint32_t w = records_[order_[end]].warp;
        std::size_t run_end = end;
        while (run_end < order_.size() && std::get<0>(key(order_[run_end])) == sm &&
               records_[order_[run_end]].cta == cta && records_[order_[run_end]].warp == w)
          ++run_end;
        runs_.push_back({static_cast<std::uint32_t>(end), static_cast<std::uint32_t>(run_end)});
        end = run_end;
        ++warps;
      }
      scheduler.add_cta(sm, warps);
      i = end;
    }
    auto queue = [&](std::uint32_t warp) {
      const Op op = records_[order_[runs_[warp].next]].op;
      scheduler.ready(warp, !is_store(op), is_store(op));
    };
    started_.clear();
    scheduler.start(std::max<std::uint32_t>(slots, 1), started_);
    for (std::uint32_t w : started_) queue(w);
    std::uint32_t warp = 0, sm = 0;
    while (scheduler.next(warp, sm)) {
      Run& run = runs_[warp];
      WarpInstr& record = records_[order_[run.next++]];
      scheduler.issued(warp, replay_one(record, sm));
      if (run.next != run.end) {
        queue(warp);
        continue;
      }
      started_.clear();
      scheduler.finished(warp, started_);
      for (std::uint32_t w : started_) queue(w);
    }
    records_.clear();
    return scheduler.totals();
  }

 private:
  /// N, the loads a warp keeps in flight: the kernel's loads_in_flight, else the preset's.
  static std::uint32_t loads_in_flight(const SimConfig& cfg, const KernelInfo& kernel) {
    std::uint32_t n = 0;
    if (kernel_param(kernel, "loads_in_flight", n) && n != 0) return n;
    return static_cast<std::uint32_t>(std::max(1.0, cfg.gpu.loads_in_flight_per_warp + 0.5));
  }

  struct Run {
    std::uint32_t next, end;  ///< the warp's next record and its end, in order_
  };
  std::vector<WarpInstr> records_;
  std::vector<std::uint32_t> order_;
  std::vector<Run> runs_;
  std::vector<std::uint32_t> started_;
};

}  // namespace gms
