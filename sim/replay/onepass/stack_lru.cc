#include "sim/replay/onepass/stack_lru.h"

namespace gms {

StackSlots::StackSlots(std::size_t slots, std::size_t configs, std::uint32_t sectors_per_line,
                       bool byte_masks)
    : k_(configs), spl_(sectors_per_line) {
  state_ = std::make_unique_for_overwrite<StackSectors[]>(slots * k_);
  if (byte_masks) bytes_ = std::make_unique_for_overwrite<std::uint32_t[]>(slots * k_ * spl_);
  tag_ = std::make_unique_for_overwrite<std::uint64_t[]>(slots);
}

StackLru::StackLru(std::uint32_t sets, std::vector<std::uint32_t> ways,
                   std::uint32_t sectors_per_line, bool byte_masks)
    : sets_(sets), ways_(std::move(ways)), k_(ways_.size()) {
  GMS_ASSERT(sets > 0 && !ways_.empty(), "empty stack");
  GMS_ASSERT(sectors_per_line >= 1 && sectors_per_line <= 8, "sectors per line");
  for (const std::uint32_t w : ways_)
    if (w == 0) fail("stack LRU: a configuration of 0 ways");
  wmax_ = *std::max_element(ways_.begin(), ways_.end());
  by_ways_.resize(k_);
  std::iota(by_ways_.begin(), by_ways_.end(), 0u);
  std::stable_sort(by_ways_.begin(), by_ways_.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return ways_[a] < ways_[b]; });
  const std::size_t slots = std::size_t{sets} * wmax_;
  if (slots > 0xffffffffu) fail("stack LRU: {} lines do not fit 32-bit slots", slots);
  keys_ = std::make_unique_for_overwrite<std::uint64_t[]>(slots);
  slots_ = std::make_unique_for_overwrite<std::uint32_t[]>(slots);
  fill_.assign(sets, 0);
  static_cast<StackSlots&>(*this) = StackSlots(slots, k_, sectors_per_line, byte_masks);
}

}  // namespace gms
