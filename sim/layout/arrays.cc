#include "sim/layout/arrays.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "sim/core/error.h"

namespace gms {

std::vector<LayoutArray> find_arrays(std::span<const Allocation> allocations,
                                     const std::vector<InstrFootprint>& footprints) {
  std::vector<LayoutArray> out;
  for (std::size_t i = 0; i < allocations.size(); ++i) {
    const Allocation& a = allocations[i];
    out.push_back({a.name.empty() ? fmt::format("a{}", i) : a.name, a.base, a.bytes, true});
  }
  const std::size_t named = out.size();
  struct Range {
    Addr lo, hi;
  };
  std::vector<Range> ranges;
  for (const InstrFootprint& f : footprints) {
    if (!in_space(f.op, LayoutSpace::Global)) continue;
    const bool held = std::any_of(out.begin(), out.begin() + named, [&](const LayoutArray& a) {
      return a.holds(f.lowest) && a.holds(f.highest);
    });
    if (!held) ranges.push_back({f.lowest, f.highest});
  }
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
    return a.lo < b.lo || (a.lo == b.lo && a.hi < b.hi);
  });
  std::vector<Range> merged;
  for (const Range& r : ranges) {
    if (!merged.empty() && r.lo <= merged.back().hi)
      merged.back().hi = std::max(merged.back().hi, r.hi);
    else
      merged.push_back(r);
  }
  for (std::size_t i = 0; i < merged.size(); ++i)
    out.push_back({fmt::format("g{}", i), merged[i].lo, merged[i].hi - merged[i].lo + 1, false});
  return out;
}

const LayoutArray& find_array(const std::vector<LayoutArray>& arrays,
                              const std::vector<InstrFootprint>& footprints,
                              const std::string& name, const std::string& spec) {
  for (const LayoutArray& a : arrays)
    if (a.name == name) return a;
  auto holding = [&](Addr at) -> const LayoutArray* {
    for (const LayoutArray& a : arrays)
      if (a.holds(at)) return &a;
    return nullptr;
  };
  std::uint64_t v = 0;
  const char* end = name.data() + name.size();
  if (name.size() > 2 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) {
    const auto [ptr, ec] = std::from_chars(name.data() + 2, end, v, 16);
    if (ec == std::errc() && ptr == end) {
      if (const LayoutArray* a = holding(v)) return *a;
      fail("--layout {}: no array holds address {}", spec, name);
    }
  } else if (name.size() > 1 && name[0] == 'i') {
    const auto [ptr, ec] = std::from_chars(name.data() + 1, end, v);
    if (ec == std::errc() && ptr == end) {
      for (const InstrFootprint& f : footprints)
        if (f.inst == v && in_space(f.op, LayoutSpace::Global))
          if (const LayoutArray* a = holding(f.lowest)) return *a;
      fail("--layout {}: instruction {} reads or writes no global array", spec, v);
    }
  }
  std::string known;
  for (const LayoutArray& a : arrays)
    known +=
        fmt::format("{}{} ({:#x}, {} bytes)", known.empty() ? "" : ", ", a.name, a.base, a.bytes);
  fail("--layout {}: no array named '{}' (the trace's arrays: {})", spec, name,
       known.empty() ? "none" : known);
}

std::vector<const InstrFootprint*> touched(const LayoutChange& c,
                                           const std::vector<InstrFootprint>& footprints) {
  std::vector<const InstrFootprint*> out;
  for (const InstrFootprint& f : footprints) {
    if (c.kernel_id && *c.kernel_id != f.kernel_id) continue;
    if (c.kind == LayoutKind::Vector) {
      if (std::find(c.insts.begin(), c.insts.end(), f.inst) != c.insts.end()) out.push_back(&f);
      continue;
    }
    if (!in_space(f.op, c.space)) continue;
    bool reaches = false;
    if (c.kind == LayoutKind::Aos) {
      for (const LayoutPlane& p : c.planes)
        reaches = reaches || (f.lowest < p.base + p.bytes && f.highest >= p.base);
    } else {
      reaches = f.lowest < c.base + c.bytes && f.highest >= c.base;
    }
    if (reaches) out.push_back(&f);
  }
  return out;
}

}  // namespace gms
