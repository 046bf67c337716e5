#include "sim/model/warp_scheduler.h"

#include <algorithm>

namespace gms {

RecordUse record_use(Op op, const AccessCounters& before, const AccessCounters& after,
                     std::uint64_t far_hits, std::uint64_t dram_bytes, double pipe_cycles) {
  const AccessCounters d = after - before;
  RecordUse u;
  u.waits = waits_for_data(op);  // loads and atomics wait for their data, as the time model counts
  // A bulk store reads shared memory, not registers: it waits for no load of the warp.
  u.store = is_store(op) && !is_bulk(op);
  u.pipe_cycles = pipe_cycles;
  u.l2_sectors = d.l2_read_sectors + d.l2_write_sectors + d.l2_atomic_sectors;
  u.dram_bytes = dram_bytes;
  u.l2_hits = d.l2_read_sector_hits;
  u.l2_far_hits = far_hits;
  u.dram_sectors = d.l2_read_sector_misses;
  // An atomic is performed at the L2: served there, or by DRAM where its line was fetched.
  if (is_atomic(op)) (d.dram_read_bytes != 0 ? u.dram_sectors : u.l2_hits) += d.l2_atomic_sectors;
  return u;
}

WarpScheduler::WarpScheduler(const SimConfig& cfg, std::uint32_t loads_in_flight, bool timed)
    : cfg_(cfg),
      n_(std::max<std::uint32_t>(loads_in_flight, 1)),
      timed_(timed),
      sm_ctas_(cfg.gpu.sm_count),
      sm_next_(cfg.gpu.sm_count, 0),
      pipes_(cfg.gpu.sm_count) {
  const double ghz = cfg.gpu.clock_mhz / 1000.0;
  l2_sectors_per_cycle_ = cfg.l2.sectors_per_cycle_per_slice * cfg.l2.slices;
  dram_bytes_per_cycle_ = cfg.dram.peak_gbps * cfg.dram.read_efficiency / ghz;
  hand_off_cycles_ = timed ? cfg.gpu.wave_overhead_ns * ghz : 0;
}

std::uint32_t WarpScheduler::add_cta(std::uint32_t sm, std::uint32_t warps) {
  const auto first = static_cast<std::uint32_t>(warps_.size());
  const auto cta = static_cast<std::uint32_t>(ctas_.size());
  ctas_.push_back({sm, first, warps, 0, 0});
  sm_ctas_[sm].push_back(cta);
  for (std::uint32_t i = 0; i < warps; ++i) {
    warps_.emplace_back();
    warps_.back().cta = cta;
  }
  return first;
}

void WarpScheduler::start(std::uint32_t slots, std::vector<std::uint32_t>& started) {
  for (std::uint32_t sm = 0; sm < sm_ctas_.size(); ++sm)
    while (sm_next_[sm] < sm_ctas_[sm].size() && sm_next_[sm] < slots)
      start_cta(sm_ctas_[sm][sm_next_[sm]++], 0, started);
}

void WarpScheduler::start_cta(std::uint32_t cta, double at, std::vector<std::uint32_t>& started) {
  Cta& c = ctas_[cta];
  c.running = c.warps;
  c.end = at;
  for (std::uint32_t i = 0; i < c.warps; ++i) {
    Warp& w = warps_[c.first_warp + i];
    w.ready = w.end = at;
    if (timed_) {
      if (free_rings_.empty()) {
        free_rings_.push_back(static_cast<std::uint32_t>(rings_.size() / n_));
        rings_.resize(rings_.size() + n_);
      }
      w.ring = free_rings_.back();
      free_rings_.pop_back();
      w.oldest = w.count = 0;
    }
    started.push_back(c.first_warp + i);
  }
}

void WarpScheduler::drain(Warp& w, double until) {
  const double* ring = in_flight(w);
  while (w.count != 0 && ring[w.oldest] <= until) {
    w.oldest = (w.oldest + 1) % n_;
    --w.count;
  }
}

void WarpScheduler::ready(std::uint32_t warp, bool waits, bool store, std::uint32_t instrs_before,
                          std::uint32_t waits_for_load) {
  Warp& w = warps_[warp];
  // The instructions before the record issue first, one a cycle (lockstep: records only).
  double at = timed_ ? w.ready + instrs_before : w.ready;
  if (timed_ && w.count != 0) {
    if (store) {
      // Its data comes from the warp's loads: every one in flight.
      for (std::uint32_t i = 0; i < w.count; ++i)
        at = std::max(at, in_flight(w)[(w.oldest + i) % n_]);
    } else if (waits && w.count == n_) {
      at = std::max(at, in_flight(w)[w.oldest]);  // the oldest load's data frees a slot
    }
    // The load whose data it uses, where still in flight: its warp's newest loads are the ring's.
    if (waits_for_load != 0 && waits_for_load <= w.count)
      at = std::max(at, in_flight(w)[(w.oldest + w.count - waits_for_load) % n_]);
  }
  w.issue = at;
  const Queued q{at, std::uint64_t{ctas_[w.cta].sm} << 32 | warp};
  if (top_taken_ && heap_.front().warp() == warp) {  // the warp next() returned, again
    top_taken_ = false;
    heap_.front() = q;
    sift_down(0);
    return;
  }
  take_top();
  heap_.push_back(q);
  for (std::size_t i = heap_.size() - 1; i != 0;) {  // sift up
    const std::size_t parent = (i - 1) / 2;
    if (!(heap_[parent] > heap_[i])) break;
    std::swap(heap_[parent], heap_[i]);
    i = parent;
  }
}

bool WarpScheduler::next(std::uint32_t& warp, std::uint32_t& sm) {
  take_top();
  if (heap_.empty()) return false;
  warp = heap_.front().warp();
  sm = heap_.front().sm();
  top_taken_ = true;
  return true;
}

void WarpScheduler::take_top() {
  if (!top_taken_) return;
  top_taken_ = false;
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(0);
}

void WarpScheduler::sift_down(std::size_t i) {
  // Bottom-up: the hole goes down to a leaf by the earlier child (one comparison a level), then
  // the element comes back up the little way it belongs (a re-queued warp is usually among the
  // latest): fewer comparisons than comparing it at every level.
  const Queued x = heap_[i];
  const std::size_t n = heap_.size();
  std::size_t hole = i;
  for (std::size_t child = 2 * hole + 1; child < n; child = 2 * hole + 1) {
    if (child + 1 < n && heap_[child] > heap_[child + 1]) ++child;
    heap_[hole] = heap_[child];
    hole = child;
  }
  while (hole > i) {
    const std::size_t parent = (hole - 1) / 2;
    if (!(heap_[parent] > x)) break;
    heap_[hole] = heap_[parent];
    hole = parent;
  }
  heap_[hole] = x;
}

void WarpScheduler::issued(std::uint32_t warp, const RecordUse& use) {
  Warp& w = warps_[warp];
  const double t = w.issue;
  w.ready = t + 1;  // one instruction a cycle per warp
  w.end = std::max(w.end, t + 1);
  if (!timed_) return;
  drain(w, t);
  const std::uint32_t sm = ctas_[w.cta].sm;
  // The SM's L1TEX pipeline, then the L2 and DRAM servers, each in the order records reach it.
  double at = pipes_[sm].take(t, use.pipe_cycles) + use.pipe_cycles;
  if (use.l2_sectors != 0)
    at = l2_.take(at, static_cast<double>(use.l2_sectors) / l2_sectors_per_cycle_);
  if (use.dram_bytes != 0)
    at = dram_.take(at, static_cast<double>(use.dram_bytes) / dram_bytes_per_cycle_);
  if (!use.waits) {
    w.end = std::max(w.end, at);  // a store has left once the memory took it
    return;
  }
  const double latency = use.dram_sectors != 0  ? cfg_.dram.latency_cycles
                         : use.l2_far_hits != 0 ? cfg_.l2.far_hit_latency_cycles
                         : use.l2_hits != 0     ? cfg_.l2.hit_latency_cycles
                                                : cfg_.l1.hit_latency_cycles;
  const double data = at + latency;
  if (w.count == n_) {  // the oldest is back by t (ready() waited for it)
    w.oldest = (w.oldest + 1) % n_;
    --w.count;
  }
  in_flight(w)[(w.oldest + w.count) % n_] = data;
  ++w.count;
  w.end = std::max(w.end, data);
}

void WarpScheduler::finished(std::uint32_t warp, std::vector<std::uint32_t>& started) {
  const Warp& w = warps_[warp];
  if (timed_) free_rings_.push_back(w.ring);
  Cta& c = ctas_[w.cta];
  c.end = std::max(c.end, w.end);
  if (--c.running != 0) return;
  end_ = std::max(end_, c.end);
  const std::uint32_t sm = c.sm;
  if (sm_next_[sm] < sm_ctas_[sm].size())
    start_cta(sm_ctas_[sm][sm_next_[sm]++], c.end + hand_off_cycles_, started);
}

ScheduleTotals WarpScheduler::totals() const {
  ScheduleTotals t;
  t.cycles = end_;
  for (const Server& p : pipes_) t.busiest_pipe_cycles = std::max(t.busiest_pipe_cycles, p.busy);
  t.l2_busy_cycles = l2_.busy;
  t.dram_busy_cycles = dram_.busy;
  return t;
}

}  // namespace gms
