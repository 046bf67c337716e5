#include "sim/replay/onepass/stack_l2.h"

#include <algorithm>

#include "sim/core/error.h"

namespace gms {

namespace {

std::vector<std::uint32_t> ways_of(const std::vector<L2Config>& cfgs,
                                   const std::vector<std::size_t>& which) {
  std::vector<std::uint32_t> out;
  for (const std::size_t c : which) out.push_back(cfgs[c].ways);
  return out;
}

}  // namespace

StackL2::StackL2(const std::vector<L2Config>& cfgs)
    : configs_(cfgs.size()),
      slices_(l2_slices(cfgs.at(0))),
      fetch_sectors_(cfgs[0].dram_fetch_bytes / cfgs[0].sector_bytes),
      fetch_bytes_(cfgs[0].dram_fetch_bytes) {
  for (const L2Config& c : cfgs)
    if (c.line_bytes != kLineBytes || c.sector_bytes != kSectorBytes ||
        c.slices != cfgs[0].slices || c.policy != ReplacementKind::Lru)
      fail(
          "StackL2: configurations it cannot replay together (LRU, 128-byte lines of 32-byte "
          "sectors, the same slices)");
  // One level per distinct sets-per-slice value, in order of first appearance.
  std::vector<std::uint32_t> sets;
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t c = 0; c < cfgs.size(); ++c) {
    const std::uint32_t s = l2_sets_per_slice(cfgs[c]);
    std::size_t i = 0;
    while (i < sets.size() && sets[i] != s) ++i;
    if (i == sets.size()) {
      sets.push_back(s);
      members.emplace_back();
    }
    members[i].push_back(c);
  }
  // Levels whose set counts nest are one all-associativity level, at the smallest set count,
  // where that is expected to be faster (AllAssocLru::pays).
  std::vector<std::uint32_t> merged_sets;
  std::vector<std::vector<std::size_t>> merged;
  std::vector<bool> all;
  std::vector<AllAssocLru::Shape> shapes;
  for (const L2Config& c : cfgs) shapes.push_back({l2_sets_per_slice(c), c.ways});
  if (AllAssocLru::pays(shapes)) {
    merged_sets.push_back(*std::min_element(sets.begin(), sets.end()));
    merged.emplace_back();
    for (std::size_t c = 0; c < cfgs.size(); ++c) merged[0].push_back(c);
    all.push_back(true);
  } else {
    merged_sets = sets;
    merged = members;
    all.assign(sets.size(), false);
  }
  levels_.reserve(merged.size());
  for (std::size_t i = 0; i < merged.size(); ++i) {
    Level l{std::nullopt,   std::nullopt, std::nullopt,
            nullptr,        nullptr,      L2SetIndex(cfgs[0], merged_sets[i]),
            merged_sets[i], merged[i]};
    const std::uint32_t all_sets = cfgs[0].slices * merged_sets[i];
    const std::vector<std::uint32_t> ways = ways_of(cfgs, merged[i]);
    if (all[i]) {
      l.all.emplace(cfgs[0].slices, shapes, kSectorsPerLine, /*byte_masks=*/true);
    } else if (ways.size() == 1 && ways[0] < 0xffff) {  // PooledLru's limit
      l.single.emplace(all_sets, ways[0]);
      const std::size_t slots = std::size_t{all_sets} * ways[0];
      l.single_bytes = std::make_unique_for_overwrite<std::uint32_t[]>(slots * kSectorsPerLine);
      l.single_tag = std::make_unique_for_overwrite<std::uint64_t[]>(slots);
    } else {
      l.stack.emplace(all_sets, ways, kSectorsPerLine, /*byte_masks=*/true);
    }
    levels_.push_back(std::move(l));
  }
}

}  // namespace gms
