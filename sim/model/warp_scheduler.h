#pragma once
/// The warp scheduler of an ordered replay (`--order timed` or `lockstep`, RunOptions::order):
/// which warp issues its next memory instruction, and at which SM cycle, so that each L1 and the
/// L2 see the accesses in the order the warps' progress gives them, and the kernel's time is
/// when its last warp ends.
///
/// The rules (docs/timing.md has them with their sources):
/// - CTAs: each SM holds at most `resident CTAs per SM` (the placement's); its CTAs start in CTA
///   order, the first ones at cycle 0, each later one when a CTA of the SM ends, after the
///   slot's hand-off (gpu.wave_overhead_ns).
/// - Issue: the warp whose next record can issue earliest goes next (ties: the lower SM, then
///   the lower warp number, CTA order then warp order). A warp issues one instruction a cycle at
///   most: a record, or one of the instructions before it that are not records, where the trace
///   carries them (WarpInstr::instrs_before; they wait for no load but waits_for_load's).
/// - Loads in flight: a warp keeps at most N loads (global, local, shared, atomics) in flight
///   (the kernel's loads_in_flight, else gpu.loads_in_flight_per_warp); a further load waits
///   for the oldest. A store waits for every load of its warp in flight (the data it writes
///   comes from them). A record that uses a load's data (WarpInstr::waits_for_load, from the
///   trace's registers) waits for it.
/// - A record's data: it passes the SM's L1TEX pipeline (a server: its data and tag cycles,
///   l1_pipe_cycles), then the L2 (one server for the whole L2: its sectors at
///   l2.sectors_per_cycle_per_slice x slices a cycle) and the DRAM (one server: its bytes at the
///   peak bandwidth times the read efficiency) where it used them; its data is back after the
///   latency of the deepest level that served one of its sectors (l1.hit_latency_cycles,
///   l2.hit_latency_cycles, l2.far_hit_latency_cycles, dram.latency_cycles) plus its waits at
///   those servers.
/// - Lockstep: every record takes one cycle and nothing waits, so each SM's resident warps take
///   turns, one record each (the order a captured trace is written in).
/// The kernel's cycles are when its last warp ends: its last issue, or its last load's data.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/core/traffic.h"
#include "sim/core/types.h"
#include "sim/model/l1_pipe.h"

namespace gms {

/// What one replayed record used and where its load sectors were served, as the replay counted
/// them (record_use).
struct RecordUse {
  bool waits = false;              ///< a load or atomic: the warp uses its data later
  bool store = false;              ///< a store: it writes data that the warp's loads brought
  double pipe_cycles = 0;          ///< its cycles in the SM's L1TEX pipeline (l1_pipe_cycles)
  std::uint64_t l2_sectors = 0;    ///< sectors it moved at the L2 (reads, writes, atomics)
  std::uint64_t dram_bytes = 0;    ///< DRAM bytes it moved: fetches and the write-backs of victims
  std::uint64_t l2_far_hits = 0;   ///< load sectors served by the far L2 partition
  std::uint64_t l2_hits = 0;       ///< load sectors served by the L2 (near and far)
  std::uint64_t dram_sectors = 0;  ///< load sectors (and atomics' sectors) served by DRAM
};

/// A record of operation `op` whose row's counters went from `before` to `after` in its replay,
/// with `far_hits` far-partition hits and `dram_bytes` DRAM bytes (reads and write-backs),
/// taking `pipe_cycles` in its SM's pipeline.
RecordUse record_use(Op op, const AccessCounters& before, const AccessCounters& after,
                     std::uint64_t far_hits, std::uint64_t dram_bytes, double pipe_cycles);

class WarpScheduler {
 public:
  /// `timed`: the rules above; else lockstep. `loads_in_flight`: N (at least 1).
  WarpScheduler(const SimConfig& cfg, std::uint32_t loads_in_flight, bool timed);

  /// A CTA of `warps` warps on SM `sm`, after those added before it (CTA order). Returns its
  /// first warp's number; its warps are numbered on from it.
  std::uint32_t add_cta(std::uint32_t sm, std::uint32_t warps);

  /// Starts the kernel: each SM's first `slots` CTAs are resident at cycle 0. Returns, through
  /// `started`, the warps that can issue (their CTAs resident), in warp order.
  void start(std::uint32_t slots, std::vector<std::uint32_t>& started);

  /// Warp `warp`, resident, has a next record of use `waits`/`store` (RecordUse's), after
  /// `instrs_before` instructions that are not records, using the data of its warp's
  /// `waits_for_load`-th most recent load (0: none; WarpInstr's fields): it joins the queue at
  /// the cycle it can issue it.
  void ready(std::uint32_t warp, bool waits, bool store, std::uint32_t instrs_before = 0,
             std::uint32_t waits_for_load = 0);

  /// The warp that issues next and its SM; false when no warp is queued.
  bool next(std::uint32_t& warp, std::uint32_t& sm);

  /// The warp next() returned issued its record, which used `use`.
  void issued(std::uint32_t warp, const RecordUse& use);

  /// Warp `warp` has no more records: it ends once its loads' data is back. Where that ends its
  /// CTA, the SM's next CTA starts; its warps are appended to `started`.
  void finished(std::uint32_t warp, std::vector<std::uint32_t>& started);

  ScheduleTotals totals() const;

 private:
  struct Warp {
    std::uint32_t cta = 0;
    double ready = 0;  ///< the earliest cycle of its next issue
    double issue = 0;  ///< its queued record's issue cycle
    double end = 0;    ///< its last issue, or its last load's data
    /// Its loads in flight: their data cycles, oldest first, in a ring of N at rings_[ring].
    std::uint32_t ring = 0;
    std::uint32_t oldest = 0, count = 0;
  };
  struct Cta {
    std::uint32_t sm = 0, first_warp = 0, warps = 0, running = 0;
    double end = 0;
  };
  /// A queued warp: ordered by (at, sm, warp), the SM and warp in one word for the ties.
  struct Queued {
    double at;
    std::uint64_t sm_warp;  ///< sm << 32 | warp
    std::uint32_t sm() const { return static_cast<std::uint32_t>(sm_warp >> 32); }
    std::uint32_t warp() const { return static_cast<std::uint32_t>(sm_warp); }
    bool operator>(const Queued& o) const {
      return at > o.at || (at == o.at && sm_warp > o.sm_warp);
    }
  };

  void start_cta(std::uint32_t cta, double at, std::vector<std::uint32_t>& started);
  void drain(Warp& w, double until);  ///< drops loads whose data is back by `until`

  const SimConfig& cfg_;
  std::uint32_t n_;
  bool timed_;
  double l2_sectors_per_cycle_, dram_bytes_per_cycle_, hand_off_cycles_;
  double* in_flight(const Warp& w) { return rings_.data() + std::size_t{w.ring} * n_; }

  std::vector<Warp> warps_;
  /// The resident warps' rings of loads in flight: a ring is taken when a warp's CTA starts and
  /// given back when the warp ends, so there are as many as warps were resident at once.
  std::vector<double> rings_;
  std::vector<std::uint32_t> free_rings_;
  std::vector<Cta> ctas_;
  std::vector<std::vector<std::uint32_t>> sm_ctas_;  ///< per SM, its CTAs in order
  std::vector<std::uint32_t> sm_next_;               ///< per SM, its next CTA to start
  /// A resource that serves one request at a time, in the order they reach it.
  struct Server {
    double free = 0, busy = 0;
    /// A request that reaches it at `at` and holds it `cycles`: when it is served.
    double take(double at, double cycles) {
      const double start = std::max(at, free);
      free = start + cycles;
      busy += cycles;
      return start;
    }
  };
  std::vector<Server> pipes_;  ///< per SM, its L1TEX pipeline
  Server l2_, dram_;
  double end_ = 0;
  /// The queued warps, a binary min-heap on (at, sm, warp). next() leaves its warp on top
  /// (top_taken_), and the ready() that queues that warp again replaces it there: one sift
  /// instead of a pop and a push, for the common case of a warp that issues again at once.
  /// Each warp is queued at most once, so the order is that of any heap on the same keys.
  std::vector<Queued> heap_;
  bool top_taken_ = false;
  void take_top();                ///< removes the top the last next() returned, if still there
  void sift_down(std::size_t i);  ///< restores the heap below slot i
};

}  // namespace gms
