#include "sim/replay/reference/plain_order.h"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>

#include "sim/model/placement.h"

namespace gms::ref {

namespace {

struct Warp {
  std::uint32_t sm = 0, cta = 0, warp = 0;
  std::deque<std::size_t> records;  ///< its records not yet issued, in file order
  double ready = 0, end = 0;
  std::deque<double> loads;  ///< its loads in flight: when each one's data is back, oldest first
};

}  // namespace

PlainUse plain_use(const SimConfig& cfg, Op op, const AccessCounters& before,
                   const AccessCounters& after, std::uint64_t far_hits, std::uint64_t dram_bytes,
                   std::uint64_t data_wavefronts, std::uint64_t shared_wavefronts,
                   std::uint64_t tag_lookups) {
  PlainUse u;
  u.store = op == Op::STG || op == Op::STS || op == Op::STL;
  // A bulk copy (TMA) completes on an mbarrier: the warp waits neither for its data nor, for a
  // bulk store, for its own loads.
  u.waits = !u.store && !is_bulk(op);
  const double data = static_cast<double>(data_wavefronts) / (cfg.l1.sectors_per_cycle / 4.0) +
                      static_cast<double>(shared_wavefronts) / cfg.shared.wavefronts_per_cycle;
  const double tag = static_cast<double>(tag_lookups) / 4.0;
  u.pipe_cycles = data > tag ? data : tag;
  u.l2_sectors = (after.l2_read_sectors - before.l2_read_sectors) +
                 (after.l2_write_sectors - before.l2_write_sectors) +
                 (after.l2_atomic_sectors - before.l2_atomic_sectors);
  u.dram_bytes = dram_bytes;
  u.far_hits = far_hits;
  u.l2_hits = after.l2_read_sector_hits - before.l2_read_sector_hits;
  u.dram_sectors = after.l2_read_sector_misses - before.l2_read_sector_misses;
  if (op == Op::ATOMG || op == Op::RED || op == Op::TMARED) {
    const std::uint64_t atomics = after.l2_atomic_sectors - before.l2_atomic_sectors;
    if (after.dram_read_bytes > before.dram_read_bytes)
      u.dram_sectors += atomics;
    else
      u.l2_hits += atomics;
  }
  return u;
}

ScheduleTotals replay_in_progress_order(
    std::vector<WarpInstr>& records, const SimConfig& cfg, const KernelInfo& kernel,
    std::uint32_t slots, bool timed,
    const std::function<PlainUse(WarpInstr&, std::uint32_t)>& replay) {
  const std::uint32_t sms = cfg.gpu.sm_count;
  std::uint32_t n = 0;
  if (!kernel_param(kernel, "loads_in_flight", n) || n == 0)
    n = static_cast<std::uint32_t>(std::max(1.0, cfg.gpu.loads_in_flight_per_warp + 0.5));
  if (slots == 0) slots = 1;
  const double ghz = cfg.gpu.clock_mhz / 1000.0;
  const double l2_rate = cfg.l2.sectors_per_cycle_per_slice * cfg.l2.slices;
  const double dram_rate = cfg.dram.peak_gbps * cfg.dram.read_efficiency / ghz;
  const double hand_off = timed ? cfg.gpu.wave_overhead_ns * ghz : 0;

  // The warps, by (SM, CTA, warp); each SM's CTAs in CTA order.
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, Warp> warps;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const WarpInstr& r = records[i];
    const std::uint32_t sm = (r.sm != kUnknownSm ? r.sm : r.cta) % sms;
    Warp& w = warps[{sm, r.cta, r.warp}];
    w.sm = sm;
    w.cta = r.cta;
    w.warp = r.warp;
    w.records.push_back(i);
  }
  std::map<std::uint32_t, std::vector<std::uint32_t>> sm_ctas;  // per SM, its CTAs in order
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<Warp*>> cta_warps;  // (SM, CTA)
  for (auto& [key, w] : warps) {
    std::vector<std::uint32_t>& ctas = sm_ctas[w.sm];
    if (ctas.empty() || ctas.back() != w.cta) ctas.push_back(w.cta);
    cta_warps[{w.sm, w.cta}].push_back(&w);
  }
  // The resident warps with records left, in the map's order (SM, CTA, warp): the candidates
  // for the next record, so that a choice looks at those alone, not at every warp of the kernel.
  std::vector<Warp*> candidates;
  auto before = [](const Warp* a, const Warp* b) {
    return std::tie(a->sm, a->cta, a->warp) < std::tie(b->sm, b->cta, b->warp);
  };
  std::map<std::uint32_t, std::size_t> started;  // per SM, its CTAs started so far
  auto start_cta = [&](std::uint32_t sm, std::uint32_t cta, double at) {
    for (Warp* w : cta_warps[{sm, cta}]) {
      w->ready = w->end = at;
      candidates.insert(std::lower_bound(candidates.begin(), candidates.end(), w, before), w);
    }
  };
  for (auto& [sm, ctas] : sm_ctas)
    for (; started[sm] < ctas.size() && started[sm] < slots; ++started[sm])
      start_cta(sm, ctas[started[sm]], 0);

  // When warp w can issue its next record.
  auto issue_at = [&](const Warp& w) {
    const WarpInstr& next = records[w.records.front()];
    if (!timed) return w.ready;
    // The instructions before the record that are not records: one issue cycle each.
    double at = w.ready + next.instrs_before;
    if (w.loads.empty()) return at;
    // The load whose data it uses, if still in flight (the deque holds the newest ones).
    const std::size_t k = next.waits_for_load;
    if (k != 0 && k <= w.loads.size()) at = std::max(at, w.loads[w.loads.size() - k]);
    const Op op = next.op;
    if (op == Op::STG || op == Op::STS || op == Op::STL) {
      for (double l : w.loads) at = std::max(at, l);
    } else if (w.loads.size() == n && !is_bulk(op)) {  // a bulk copy takes no load slot
      at = std::max(at, w.loads.front());
    }
    return at;
  };

  std::vector<double> pipe_free(sms, 0), pipe_busy(sms, 0);
  double l2_free = 0, l2_busy = 0, dram_free = 0, dram_busy = 0, kernel_end = 0;
  for (;;) {
    Warp* best = nullptr;
    double best_at = 0;
    for (Warp* w : candidates) {
      const double at = issue_at(*w);
      if (best == nullptr || at < best_at) {  // the map's order breaks ties: SM, CTA, warp
        best = w;
        best_at = at;
      }
    }
    if (best == nullptr) break;
    Warp& w = *best;
    const double t = best_at;
    const std::size_t index = w.records.front();
    w.records.pop_front();
    const PlainUse use = replay(records[index], w.sm);
    w.ready = t + 1;
    w.end = std::max(w.end, t + 1);
    if (timed) {
      while (!w.loads.empty() && w.loads.front() <= t) w.loads.pop_front();
      // A server takes what reaches it in turn: a request arriving at `at` for `cycles` starts
      // once the server is free.
      auto serve = [](double& free, double& busy, double at, double cycles) {
        const double start = std::max(at, free);
        free = start + cycles;
        busy += cycles;
        return start;
      };
      double at = serve(pipe_free[w.sm], pipe_busy[w.sm], t, use.pipe_cycles) + use.pipe_cycles;
      if (use.l2_sectors > 0)
        at = serve(l2_free, l2_busy, at, static_cast<double>(use.l2_sectors) / l2_rate);
      if (use.dram_bytes > 0)
        at = serve(dram_free, dram_busy, at, static_cast<double>(use.dram_bytes) / dram_rate);
      if (use.waits) {
        double latency = cfg.l1.hit_latency_cycles;
        if (use.dram_sectors > 0)
          latency = cfg.dram.latency_cycles;
        else if (use.far_hits > 0)
          latency = cfg.l2.far_hit_latency_cycles;
        else if (use.l2_hits > 0)
          latency = cfg.l2.hit_latency_cycles;
        if (w.loads.size() == n) w.loads.pop_front();
        w.loads.push_back(at + latency);
        w.end = std::max(w.end, at + latency);
      } else {
        w.end = std::max(w.end, at);
      }
    }
    if (!w.records.empty()) continue;
    // The warp's last record: where its CTA has no other warp left, the SM's next CTA starts.
    candidates.erase(std::find(candidates.begin(), candidates.end(), &w));
    bool cta_done = true;
    double cta_end = 0;
    for (const Warp* other : cta_warps[{w.sm, w.cta}]) {
      if (!other->records.empty()) cta_done = false;
      cta_end = std::max(cta_end, other->end);
    }
    if (!cta_done) continue;
    kernel_end = std::max(kernel_end, cta_end);
    std::vector<std::uint32_t>& ctas = sm_ctas[w.sm];
    if (started[w.sm] < ctas.size()) start_cta(w.sm, ctas[started[w.sm]++], cta_end + hand_off);
  }
  ScheduleTotals totals;
  totals.timed = timed;
  totals.cycles = kernel_end;
  totals.busiest_pipe_cycles = *std::max_element(pipe_busy.begin(), pipe_busy.end());
  totals.l2_busy_cycles = l2_busy;
  totals.dram_busy_cycles = dram_busy;
  return totals;
}

}  // namespace gms::ref
