#include "sim/diagnosis/explain.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <thread>
#include <tuple>

#include "sim/core/error.h"
#include "sim/diagnosis/layout_candidates.h"
#include "sim/host/thread_team.h"
#include "sim/layout/layout_reader.h"
#include "sim/layout/resolve.h"
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
  f.conflicts = s.shared.wavefronts - s.shared.ideal_wavefronts;
  f.l1_hits = s.memory.l1_sector_hits;
  f.l2_hits = s.memory.l2_read_sector_hits;
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

namespace {

/// The nth entry of each kernel in `after` pairs with the nth of that kernel in `base`.
std::vector<std::pair<const KernelStats*, const KernelStats*>> pair_kernels(
    const std::vector<KernelStats>& base, const std::vector<KernelStats>& after,
    std::uint32_t kernel_id) {
  std::vector<const KernelStats*> a;
  for (const KernelStats& k : after)
    if (k.kernel.id == kernel_id) a.push_back(&k);
  std::vector<std::pair<const KernelStats*, const KernelStats*>> out;
  std::size_t n = 0;
  for (const KernelStats& b : base) {
    if (b.kernel.id != kernel_id || n == a.size()) continue;
    const KernelStats* x = a[n++];
    if (x->mode == b.mode) out.emplace_back(&b, x);
  }
  return out;
}

std::string layout_reading(const LayoutChange& c, std::size_t touched) {
  const char* insts = touched == 1 ? "instruction" : "instructions";
  switch (c.kind) {
    case LayoutKind::Soa:
      return fmt::format(
          "the {}-byte structures at {:#x} ({} bytes) become {} arrays of {}-byte fields; "
          "moves the accesses of {} {}",
          c.struct_bytes, c.base, c.bytes, c.struct_bytes / c.unit, c.unit, touched, insts);
    case LayoutKind::Aos:
      return fmt::format(
          "{} arrays interleave into {}-byte structures at {:#x}; moves the "
          "accesses of {} {}",
          c.planes.size(), c.struct_bytes, c.base, touched, insts);
    case LayoutKind::Pad:
      return fmt::format(
          "the shared tile's {}-byte rows padded by {} bytes ({} more bytes per CTA per "
          "{}-byte row); moves the accesses of {} {}",
          c.pitch, c.pad, c.pad, c.pitch, touched, insts);
    case LayoutKind::Swizzle:
      return fmt::format(
          "the shared tile's {}-byte chunks XOR-swizzled by row ({}-byte rows); moves the "
          "accesses of {} {}",
          c.unit, c.pitch, touched, insts);
    case LayoutKind::Transpose:
      return fmt::format(
          "the array at {:#x} ({} rows of {} bytes) stored column by column; moves the "
          "accesses of {} {}",
          c.base, c.count, c.pitch, touched, insts);
    case LayoutKind::Vector:
      return fmt::format(
          "a warp's consecutive accesses by {} {} merged into vector accesses (2, 4, 8 or 16 "
          "bytes a lane, where the addresses are aligned)",
          touched, insts);
  }
  return "";
}

/// The instruction `c` moves that wastes the most (shared conflicts at 128 bytes a wavefront).
const InstrFootprint* most_wasteful(const LayoutChange& c,
                                    const std::vector<InstrFootprint>& footprints,
                                    const std::vector<KernelPatterns>& patterns) {
  const InstrFootprint* best = nullptr;
  std::uint64_t best_score = 0;
  for (const InstrFootprint* f : touched(c, footprints))
    for (const KernelPatterns& k : patterns)
      if (k.kernel.id == f->kernel_id)
        if (const PatternSummary* s = k.find(f->inst, f->op, f->size)) {
          const std::uint64_t score =
              is_shared(s->op) ? 128 * (s->cost - s->ideal) : s->wasted_bytes;
          if (best == nullptr || score > best_score) {
            best = f;
            best_score = score;
          }
        }
  return best;
}

}  // namespace

const char* what_if_kind_name(WhatIfKind k) {
  return k == WhatIfKind::Layout ? "layout" : "instruction";
}

ExplainResult explain(const std::vector<std::string>& traces, const SimConfig& cfg,
                      const RunOptions& opts, const ExplainOptions& eo) {
  ExplainResult r;
  r.config = cfg;
  r.traces = traces;
  std::vector<Allocation> allocations;
  {
    // The one read that logs what the importer found; the replays below read quietly.
    auto chain = open_run_chain(traces, opts);
    r.patterns = diagnose(*chain, cfg, opts);
    const auto named = chain->allocations();
    allocations.assign(named.begin(), named.end());
  }
  for (const KernelPatterns& k : r.patterns)
    if (k.highest_address >= IdealizingReader::kIdealRegion)
      fail(
          "explain: kernel {} of {} reaches address {:#x}, inside the region the what-ifs place "
          "fixed data in (from {:#x})",
          k.kernel.id, traces.front(), k.highest_address, IdealizingReader::kIdealRegion);
  const std::vector<InstrTarget> targets = explain_candidates(r.patterns, eo.top);
  r.candidates = targets.size();

  const std::vector<InstrFootprint> footprints = instruction_footprints(r.patterns);
  r.arrays = find_arrays(allocations, footprints);
  for (const std::string& spec : eo.layouts)
    r.layouts.push_back(resolve_layout(parse_layout_spec(spec), r.arrays, footprints));
  if (eo.suggest_layouts)
    for (LayoutChange& c : layout_candidates(r.patterns, footprints, r.arrays, cfg, eo.top))
      if (std::none_of(r.layouts.begin(), r.layouts.end(), [&](const LayoutChange& o) {
            return o.label == c.label && (!o.kernel_id || o.kernel_id == c.kernel_id);
          }))
        r.layouts.push_back(std::move(c));

  std::vector<std::vector<std::uint32_t>> layout_kernels;
  for (const LayoutChange& c : r.layouts) {
    std::vector<std::uint32_t> ids;
    for (const InstrFootprint* f : touched(c, footprints))
      if (std::find(ids.begin(), ids.end(), f->kernel_id) == ids.end()) ids.push_back(f->kernel_id);
    layout_kernels.push_back(std::move(ids));
  }

  // The replay as it is (job 0), the instruction what-ifs (jobs 1 to T) and the layout
  // what-ifs (after them) side by side, each replay on one thread (the results do not depend
  // on it).
  const std::size_t replays = 1 + targets.size() + r.layouts.size();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs =
      static_cast<unsigned>(std::min<std::size_t>(eo.jobs == 0 ? cores : eo.jobs, replays));
  RunOptions one = opts;
  one.import.quiet = true;
  if (jobs > 1) {
    one.threads = 1;
    one.read_ahead = false;
  }
  std::vector<std::vector<KernelStats>> fixed(replays - 1);
  std::vector<std::uint64_t> rewritten(replays - 1);
  r.samples.resize(r.layouts.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&](unsigned) {
    for (std::size_t j = next.fetch_add(1); j < replays; j = next.fetch_add(1)) {
      auto chain = open_run_chain(traces, one);
      if (j == 0) {
        r.base = simulate(*chain, cfg, one);
        continue;
      }
      // Without an L2 that persists from kernel to kernel, every kernel starts from empty
      // caches, so the fixed kernel alone replays to the same statistics (a test checks): the
      // other kernels are skipped, not replayed.
      RunOptions only = one;
      if (j <= targets.size()) {
        IdealizingReader ideal(*chain, targets[j - 1]);
        if (!cfg.l2.persist_across_kernels) only.kernel_ids = {targets[j - 1].kernel_id};
        fixed[j - 1] = simulate(ideal, cfg, only);
        rewritten[j - 1] = ideal.rewritten();
      } else {
        const LayoutChange& c = r.layouts[j - 1 - targets.size()];
        if (layout_kernels[j - 1 - targets.size()].empty()) continue;  // moves no access
        LayoutReader moved(*chain, c);
        if (const InstrFootprint* f = most_wasteful(c, footprints, r.patterns))
          moved.sample_instruction(f->inst, f->op, f->size);
        // As above: only the kernels the change touches (a kernel it leaves alone replays as in
        // the base), unless the L2 carries one kernel's data into the next.
        if (!cfg.l2.persist_across_kernels)
          only.kernel_ids = layout_kernels[j - 1 - targets.size()];
        fixed[j - 1] = simulate(moved, cfg, only);
        rewritten[j - 1] = moved.rewritten();
        LayoutSample& sample = r.samples[j - 1 - targets.size()];
        sample.found = moved.sample(sample.before, sample.after);
      }
    }
  };
  ThreadTeam team(jobs);
  team.run(worker);

  for (std::size_t c = 0; c < targets.size(); ++c) {
    const InstrTarget& t = targets[c];
    for (const auto& [bp, ap] : pair_kernels(r.base, fixed[c], t.kernel_id)) {
      const KernelStats& b = *bp;
      const KernelStats& a = *ap;
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
  for (std::size_t c = 0; c < r.layouts.size(); ++c) {
    const LayoutChange& change = r.layouts[c];
    const std::size_t j = targets.size() + c;
    // A suggestion whose replay moved no access (a run of loads that never lines up) says
    // nothing; a --layout spec keeps its rows.
    if (change.suggested && rewritten[j] == 0) continue;
    const std::vector<const InstrFootprint*> moved = touched(change, footprints);
    // One row per kernel the change touches, in the order the kernels come.
    std::vector<std::uint32_t> kernels;
    for (const InstrFootprint* f : moved)
      if (std::find(kernels.begin(), kernels.end(), f->kernel_id) == kernels.end())
        kernels.push_back(f->kernel_id);
    for (std::uint32_t id : kernels) {
      std::vector<InstrTarget> insts;
      for (const InstrFootprint* f : moved)
        if (f->kernel_id == id) insts.push_back({id, f->inst, f->op, f->size});
      for (const auto& [bp, ap] : pair_kernels(r.base, fixed[j], id)) {
        WhatIf w;
        w.kind = WhatIfKind::Layout;
        w.target = insts.front();
        w.kernel_name = bp->kernel.name;
        w.mode = bp->mode;
        w.layout = change.label;
        w.touched = insts.size();
        w.pattern = change.label;
        w.reading = layout_reading(change, insts.size());
        // By instruction and op, whatever the size: a vector change widens the accesses.
        auto moved_row = [&](const InstrStats& i) {
          return std::any_of(insts.begin(), insts.end(), [&](const InstrTarget& t) {
            return t.inst == i.inst && t.op == i.op;
          });
        };
        for (const InstrStats& i : bp->instructions)
          if (moved_row(i)) w.before += i.c;
        for (const InstrStats& i : ap->instructions)
          if (moved_row(i)) w.after += i.c;
        w.kernel_before = kernel_figures(*bp);
        w.kernel_after = kernel_figures(*ap);
        w.rewritten = rewritten[j];
        r.rows.push_back(std::move(w));
      }
    }
  }
  // The suggestions that moved nothing leave the list too (the report counts the changes).
  std::size_t kept = 0;
  for (std::size_t c = 0; c < r.layouts.size(); ++c) {
    if (r.layouts[c].suggested && rewritten[targets.size() + c] == 0) continue;
    if (kept != c) {  // not onto itself: a self-move would empty the label
      r.layouts[kept] = std::move(r.layouts[c]);
      r.samples[kept] = r.samples[c];
    }
    ++kept;
  }
  r.layouts.resize(kept);
  r.samples.resize(kept);
  std::stable_sort(r.rows.begin(), r.rows.end(), [](const WhatIf& a, const WhatIf& b) {
    if (a.mode != b.mode) return a.mode < b.mode;
    return a.saved_ns() > b.saved_ns();
  });
  return r;
}

}  // namespace gms
