#include "sim/diagnosis/layout_candidates.h"

#include <fmt/format.h>

#include <algorithm>

#include "sim/core/error.h"
#include "sim/layout/resolve.h"
#include "sim/model/smem_arbiter.h"

namespace gms {

namespace {

std::uint64_t magnitude(std::int64_t v) {
  return v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

/// The wavefronts of a full warp reading a tile column (lane t at t x pitch) after `c`.
std::uint32_t column_wavefronts(const LayoutChange& c, std::uint8_t size, const SmemArbiter& arb) {
  WarpInstr w;
  w.op = Op::LDS;
  w.size = size;
  w.mask = 0xffffffffu;
  for (unsigned t = 0; t < kWarpSize; ++t) w.addr[t] = c.map(t * c.pitch);
  return arb.arbitrate(w).wavefronts;
}

/// Pad or swizzle for a conflicted column of `pitch` bytes: fewer wavefronts wins; on a tie the
/// padding (the simpler change to the code). The swizzle only where the pitch fits its rows.
LayoutChange shared_fix(const InstrFootprint& f, const std::vector<LayoutArray>& arrays,
                        const std::vector<InstrFootprint>& footprints, const SmemArbiter& arb) {
  const std::uint64_t pitch = magnitude(f.stride);
  LayoutSpec pad = parse_layout_spec(fmt::format("pad:smem:1:{}", pitch));
  LayoutChange best = resolve_layout(pad, arrays, footprints);
  const bool fits = pitch >= 128 ? pitch % 128 == 0 : 128 % pitch == 0;
  if (fits) {
    const LayoutChange swz = resolve_layout(
        parse_layout_spec(fmt::format("swizzle:smem:{}", pitch)), arrays, footprints);
    if (column_wavefronts(swz, f.size, arb) < column_wavefronts(best, f.size, arb)) best = swz;
  }
  return best;
}

}  // namespace

std::vector<InstrFootprint> instruction_footprints(const std::vector<KernelPatterns>& patterns) {
  std::vector<InstrFootprint> out;
  for (const KernelPatterns& k : patterns)
    for (const PatternSummary& s : k.instructions) {
      if (s.total() == 0) continue;
      InstrFootprint f;
      f.kernel_id = k.kernel.id;
      f.inst = s.inst;
      f.op = s.op;
      f.size = s.size;
      f.lowest = s.lowest;
      f.highest = s.highest;
      const PatternKind kind = s.dominant();
      if (kind == PatternKind::Strided || kind == PatternKind::StructField)
        f.stride = s.first[static_cast<int>(kind)].stride;
      f.struct_field = kind == PatternKind::StructField;
      f.conflicted = is_shared(s.op) && s.cost > s.ideal;
      out.push_back(f);
    }
  return out;
}

std::vector<LayoutChange> layout_candidates(const std::vector<KernelPatterns>& patterns,
                                            const std::vector<InstrFootprint>& footprints,
                                            const std::vector<LayoutArray>& arrays,
                                            const SimConfig& cfg, std::size_t top) {
  const SmemArbiter arb(cfg.shared);
  // The footprints in the order explain ranks instructions: most waste first.
  struct Scored {
    const InstrFootprint* f;
    std::uint64_t score;
  };
  std::vector<Scored> order;
  std::size_t i = 0;
  for (const KernelPatterns& k : patterns)
    for (const PatternSummary& s : k.instructions) {
      if (s.total() == 0) continue;
      const std::uint64_t score = is_shared(s.op) ? 128 * (s.cost - s.ideal) : s.wasted_bytes;
      if (score > 0) order.push_back({&footprints[i], score});
      ++i;
    }
  std::stable_sort(order.begin(), order.end(),
                   [](const Scored& a, const Scored& b) { return a.score > b.score; });
  std::vector<LayoutChange> out;
  auto add = [&](LayoutChange c) {
    c.suggested = true;
    for (const LayoutChange& o : out)
      if (o.label == c.label && o.kernel_id == c.kernel_id) return;
    out.push_back(std::move(c));
  };
  for (const Scored& s : order) {
    if (out.size() == top) break;
    const InstrFootprint& f = *s.f;
    const std::uint64_t stride = magnitude(f.stride);
    // A suggestion whose numbers do not fit (a structure that is not a whole number of the
    // array's smallest access) is left out, not an error: only --layout specs are the user's.
    try {
      if (is_shared(f.op)) {
        if (!f.conflicted || stride < 32) continue;
        LayoutChange c = shared_fix(f, arrays, footprints, arb);
        c.kernel_id = f.kernel_id;
        add(std::move(c));
        continue;
      }
      if (!in_space(f.op, LayoutSpace::Global)) continue;
      const auto a = std::find_if(arrays.begin(), arrays.end(),
                                  [&](const LayoutArray& x) { return x.holds(f.lowest); });
      if (a == arrays.end()) continue;
      if (f.struct_field)
        add(resolve_layout(parse_layout_spec(fmt::format("soa:{:#x}:{}", a->base, stride)), arrays,
                           footprints));
      else if (stride >= 128 && a->bytes > stride)
        add(resolve_layout(parse_layout_spec(fmt::format("transpose:{:#x}:{}", a->base, stride)),
                           arrays, footprints));
    } catch (const SimError&) {
      continue;
    }
  }
  // Runs of narrow accesses: instructions of one kernel with the same op, size and stride whose
  // footprints start `size` bytes apart (x, y, z of a structure read one by one).
  for (const KernelPatterns& k : patterns) {
    std::vector<const InstrFootprint*> fs;
    for (const InstrFootprint& f : footprints)
      if (f.kernel_id == k.kernel.id && f.size < 16 && magnitude(f.stride) > f.size &&
          (in_space(f.op, LayoutSpace::Global) || in_space(f.op, LayoutSpace::Shared)))
        fs.push_back(&f);
    std::stable_sort(fs.begin(), fs.end(), [](const InstrFootprint* a, const InstrFootprint* b) {
      return a->lowest < b->lowest;
    });
    for (std::size_t i = 0; i < fs.size() && out.size() < top;) {
      std::size_t j = i + 1;
      while (j < fs.size() && fs[j]->op == fs[i]->op && fs[j]->size == fs[i]->size &&
             fs[j]->stride == fs[i]->stride && fs[j]->lowest == fs[j - 1]->lowest + fs[i]->size)
        ++j;
      // A pair must be able to merge: the first lane's address and the stride aligned to twice
      // the size (a float2 needs 8-byte alignment).
      const std::uint64_t pair = 2u * fs[i]->size;
      if (j - i >= 2 && fs[i]->lowest % pair == 0 && magnitude(fs[i]->stride) % pair == 0) {
        std::string ids;
        for (std::size_t x = i; x < j; ++x)
          ids += fmt::format("{}{}", x == i ? "" : ",", fs[x]->inst);
        LayoutChange c = resolve_layout(parse_layout_spec("vector:" + ids), arrays, footprints);
        c.kernel_id = k.kernel.id;
        add(std::move(c));
      }
      i = j;
    }
  }
  return out;
}

}  // namespace gms
