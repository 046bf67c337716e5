#include "sim/diagnosis/explain.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <thread>
#include <tuple>

#include "sim/core/error.h"
#include "sim/host/thread_team.h"
#include "sim/replay/simulator.h"
#include "sim/report/report_stats.h"

namespace gms {

namespace {

const InstrStats* find_row(const KernelStats& k, const InstrTarget& t) {
  for (const InstrStats& i : k.instructions)
    if (i.inst == t.inst && i.op == t.op && i.size == t.size) return &i;
  return nullptr;
}

}  // namespace

KernelFigures kernel_figures(const KernelStats& k) {
  KernelFigures f;
  const KernelSums s = kernel_sums(k);
  f.sectors = s.memory.sectors;
  f.wavefronts = s.shared.wavefronts;
  f.dram_bytes = s.memory.dram_read_bytes + s.memory.dram_write_bytes;
  const AccessCounters& ld = k.total(OpClass::GlobalLoad);
  f.l1_hit_rate = detail::ratio(ld.l1_sector_hits, ld.l1_sector_hits + ld.l1_sector_misses);
  f.l2_hit_rate = detail::ratio(s.memory.l2_read_sector_hits, s.memory.l2_read_sectors);
  f.time_ns = k.time.estimate_ns;
  return f;
}

std::vector<InstrTarget> explain_candidates(const std::vector<KernelPatterns>& patterns,
                                            std::size_t top) {
  struct Scored {
    InstrTarget t;
    std::uint64_t score;
  };
  std::vector<Scored> all;
  for (const KernelPatterns& k : patterns)
    for (const PatternSummary& i : k.instructions) {
      const std::uint64_t score = is_shared(i.op) ? 128 * (i.cost - i.ideal) : i.wasted_bytes;
      if (score > 0) all.push_back({{k.kernel.id, i.inst, i.op, i.size}, score});
    }
  std::stable_sort(all.begin(), all.end(),
                   [](const Scored& a, const Scored& b) { return a.score > b.score; });
  std::vector<InstrTarget> out;
  for (std::size_t i = 0; i < all.size() && i < top; ++i) out.push_back(all[i].t);
  return out;
}

ExplainResult explain(const std::vector<std::string>& traces, const SimConfig& cfg,
                      const RunOptions& opts, const ExplainOptions& eo) {
  ExplainResult r;
  r.config = cfg;
  r.traces = traces;
  {
    auto chain = open_run_chain(traces, opts);
    r.patterns = diagnose(*chain, cfg, opts);
  }
  for (const KernelPatterns& k : r.patterns)
    if (k.highest_address >= IdealizingReader::kIdealRegion)
      fail(
          "explain: kernel {} of {} reaches address {:#x}, inside the region the what-ifs place "
          "fixed data in (from {:#x})",
          k.kernel.id, traces.front(), k.highest_address, IdealizingReader::kIdealRegion);
  const std::vector<InstrTarget> targets = explain_candidates(r.patterns, eo.top);
  r.candidates = targets.size();

  // The replay as it is (job 0) and the what-ifs (job c + 1) side by side, each replay on one
  // thread (the results do not depend on it).
  const std::size_t replays = targets.size() + 1;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs =
      static_cast<unsigned>(std::min<std::size_t>(eo.jobs == 0 ? cores : eo.jobs, replays));
  RunOptions one = opts;
  if (jobs > 1) {
    one.threads = 1;
    one.read_ahead = false;
  }
  std::vector<std::vector<KernelStats>> fixed(targets.size());
  std::vector<std::uint64_t> rewritten(targets.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&](unsigned) {
    for (std::size_t j = next.fetch_add(1); j < replays; j = next.fetch_add(1)) {
      auto chain = open_run_chain(traces, opts);
      if (j == 0) {
        r.base = simulate(*chain, cfg, one);
        continue;
      }
      IdealizingReader ideal(*chain, targets[j - 1]);
      // Without an L2 that persists from kernel to kernel, every kernel starts from empty
      // caches, so the fixed kernel alone replays to the same statistics (a test checks): the
      // other kernels are skipped, not replayed.
      RunOptions only = one;
      if (!cfg.l2.persist_across_kernels) only.kernel_ids = {targets[j - 1].kernel_id};
      fixed[j - 1] = simulate(ideal, cfg, only);
      rewritten[j - 1] = ideal.rewritten();
    }
  };
  ThreadTeam team(jobs);
  team.run(worker);

  for (std::size_t c = 0; c < targets.size(); ++c) {
    const InstrTarget& t = targets[c];
    // The fixed replay's entries of the target kernel, in order, pair with the base's.
    std::vector<const KernelStats*> after;
    for (const KernelStats& a : fixed[c])
      if (a.kernel.id == t.kernel_id) after.push_back(&a);
    std::size_t n = 0;
    for (const KernelStats& b : r.base) {
      if (b.kernel.id != t.kernel_id || n == after.size()) continue;
      const KernelStats& a = *after[n++];
      if (a.mode != b.mode) continue;
      const InstrStats* rb = find_row(b, t);
      const InstrStats* ra = find_row(a, t);
      if (rb == nullptr || ra == nullptr) continue;
      WhatIf w;
      w.target = t;
      w.kernel_name = b.kernel.name;
      w.mode = b.mode;
      const auto lines = detail::line_map(b.kernel);
      if (const auto l = lines.find(t.inst); l != lines.end()) w.line = l->second;
      for (const KernelPatterns& kp : r.patterns)
        if (kp.kernel.id == t.kernel_id)
          if (const PatternSummary* s = kp.find(t.inst, t.op, t.size)) {
            w.pattern = summary_label(*s);
            w.reading = summary_reading(*s);
            break;
          }
      w.before = rb->c;
      w.after = ra->c;
      w.kernel_before = kernel_figures(b);
      w.kernel_after = kernel_figures(a);
      w.rewritten = rewritten[c];
      r.rows.push_back(std::move(w));
    }
  }
  std::stable_sort(r.rows.begin(), r.rows.end(), [](const WhatIf& a, const WhatIf& b) {
    if (a.mode != b.mode) return a.mode < b.mode;
    return a.saved_ns() > b.saved_ns();
  });
  return r;
}

}  // namespace gms
