#include "sim/replay/onepass/all_assoc_lru.h"

#include <algorithm>
#include <numeric>

namespace gms {

namespace {

/// The distinct set counts, in increasing order.
std::vector<std::uint32_t> distinct(std::vector<std::uint32_t> sets) {
  std::sort(sets.begin(), sets.end());
  sets.erase(std::unique(sets.begin(), sets.end()), sets.end());
  return sets;
}

}  // namespace

bool AllAssocLru::nests(const std::vector<std::uint32_t>& sets) {
  const std::vector<std::uint32_t> d = distinct(sets);
  if (d.empty() || d.size() > 8 || d[0] == 0) return false;
  return std::all_of(d.begin(), d.end(), [&](std::uint32_t s) {
    return s % d[0] == 0 && std::has_single_bit(s / d[0]) && s / d[0] < (1u << 30);
  });
}

bool AllAssocLru::pays(const std::vector<Shape>& shapes) {
  std::vector<std::uint32_t> sets;
  for (const Shape& s : shapes) sets.push_back(s.sets);
  const std::vector<std::uint32_t> d = distinct(sets);
  if (d.size() < 2 || !nests(d)) return false;
  std::uint64_t region = 0, separate = 0;
  for (const std::uint32_t level : d) {
    std::uint32_t ways = 0;
    for (const Shape& s : shapes)
      if (s.sets == level) ways = std::max(ways, s.ways);
    region += std::uint64_t{level / d[0]} * ways;
    separate += ways;
  }
  return region <= 8 * separate;
}

AllAssocLru::AllAssocLru(std::uint32_t groups, const std::vector<Shape>& shapes,
                         std::uint32_t sectors_per_line, bool byte_masks)
    : s0_div_(1), k_(shapes.size()) {
  GMS_ASSERT(groups > 0 && !shapes.empty(), "empty all-associativity stack");
  GMS_ASSERT(sectors_per_line >= 1 && sectors_per_line <= 8, "sectors per line");
  std::vector<std::uint32_t> all_sets;
  for (const Shape& s : shapes) {
    if (s.ways == 0 || s.ways >= 0xffff) fail("all-associativity LRU: {} ways", s.ways);
    all_sets.push_back(s.sets);
  }
  if (!nests(all_sets))
    fail("all-associativity LRU: set counts that are not the smallest times powers of two");
  const std::vector<std::uint32_t> sets = distinct(all_sets);
  s0_ = sets[0];
  s0_div_ = FastDiv32(s0_);
  levels_ = static_cast<std::uint32_t>(sets.size());
  std::vector<std::uint32_t> shift(levels_);
  for (std::uint32_t l = 0; l < levels_; ++l)
    shift[l] = static_cast<std::uint32_t>(std::countr_zero(sets[l] / s0_));
  max_shift_ = shift.back();
  q_mask_ = (1u << max_shift_) - 1;  // below kDirty: nests() keeps max_shift_ under 30
  for (std::uint32_t b = 0; b <= 32; ++b) {
    shared_[b] = Depths{};
    for (std::uint32_t l = 0; l < levels_; ++l)
      if (shift[l] <= b) shared_[b][l] = kDead;
  }
  fresh_ = Depths{} + kDead;
  for (std::uint32_t l = 0; l < levels_; ++l) fresh_[l] = 0;

  max_ways_.assign(levels_, 0);
  for (const Shape& s : shapes) {
    const auto l = static_cast<std::uint32_t>(std::lower_bound(sets.begin(), sets.end(), s.sets) -
                                              sets.begin());
    level_of_.push_back(l);
    ways_.push_back(s.ways);
    max_ways_[l] = std::max(max_ways_[l], s.ways);
  }
  min_ways_ = Depths{} + kDead;
  for (const Shape& s : shapes) {
    const std::uint32_t l = level_of_[static_cast<std::size_t>(&s - shapes.data())];
    min_ways_[l] = static_cast<std::uint16_t>(std::min<std::uint32_t>(min_ways_[l], s.ways));
  }
  by_level_.resize(k_);
  std::iota(by_level_.begin(), by_level_.end(), 0u);
  std::stable_sort(by_level_.begin(), by_level_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return level_of_[a] != level_of_[b] ? level_of_[a] < level_of_[b] : ways_[a] < ways_[b];
  });
  std::uint64_t cap = 0;
  std::uint32_t first = 0;  // by_level_'s first configuration of level l
  for (std::uint32_t l = 0; l < levels_; ++l) {
    cut_at_.push_back(static_cast<std::uint32_t>(cuts_.size()));
    std::uint32_t j = first;
    for (std::uint32_t w = 0; w <= max_ways_[l] + 1; ++w) {
      while (j < k_ && level_of_[by_level_[j]] == l && ways_[by_level_[j]] < w) ++j;
      cuts_.push_back(j);
    }
    while (first < k_ && level_of_[by_level_[first]] == l) ++first;
    cap += (std::uint64_t{1} << shift[l]) * max_ways_[l];
  }
  const std::uint64_t regions = std::uint64_t{groups} * s0_;
  if (cap * regions > 0xffffffffu)
    fail("all-associativity LRU: {} lines do not fit 32-bit slots", cap * regions);
  cap_ = static_cast<std::uint32_t>(cap);
  const std::size_t slots = static_cast<std::size_t>(cap * regions);
  fill_.assign(regions, 0);
  entries_ = std::make_unique_for_overwrite<Entry[]>(slots);
  next_free_ = std::make_unique_for_overwrite<std::uint32_t[]>(slots);
  static_cast<StackSlots&>(*this) = StackSlots(slots, k_, sectors_per_line, byte_masks);
}

void AllAssocLru::clear() {
  std::fill(fill_.begin(), fill_.end(), 0u);
  used_ = 0;
  free_ = kNone;
}

}  // namespace gms
