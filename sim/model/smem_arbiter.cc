#include "sim/model/smem_arbiter.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "sim/lanes/sorting_network.h"

namespace gms {

BankAccess busiest_bank_sorted(std::span<const Addr> keys, unsigned shift,
                               std::uint32_t bank_mask) {
  // A word unlike the one before is a distinct one and adds to its bank's count; a repeat (a
  // broadcast, a row's halves) touches no count, so runs of repeats are a predicted branch each.
  std::array<std::uint8_t, SmemArbiter::kMaxBanks> per_bank{};
  std::uint32_t worst = 0, distinct = 0;
  Addr previous = ~(keys.front() >> shift);
  for (const Addr key : keys) {
    const Addr word = key >> shift;
    if (word == previous) continue;
    previous = word;
    ++distinct;
    worst = std::max<std::uint32_t>(worst, ++per_bank[word & bank_mask]);
  }
  const std::uint32_t banks = bank_mask + 1;
  return {worst, (distinct + banks - 1) / banks};
}

BankAccess busiest_bank(std::span<Addr> words, std::uint32_t bank_mask) {
  // Lanes usually walk memory in order (unit stride, rows of a tile): the words are then
  // already sorted. Otherwise up to 32 words go through the branch-free network.
  if (!std::is_sorted(words.begin(), words.end())) {
    if (words.size() <= kWarpSize) {
      std::array<std::uint64_t, kWarpSize> v;
      std::copy(words.begin(), words.end(), v.begin());
      std::fill(v.begin() + static_cast<std::ptrdiff_t>(words.size()), v.end(),
                std::numeric_limits<std::uint64_t>::max());
      sort32(v);
      std::copy(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(words.size()), words.begin());
    } else {
      std::sort(words.begin(), words.end());
    }
  }
  return busiest_bank_sorted(words, 0, bank_mask);
}

SmemArbiter::SmemArbiter(const SharedMemConfig& cfg)
    : bank_mask_(cfg.banks - 1),
      word_shift_(static_cast<unsigned>(std::countr_zero(cfg.bank_width_bytes))) {}

BankAccess SmemArbiter::arbitrate(const WarpInstr& w) const {
  // At most 32 lanes x (16-byte access over 4-byte words, plus one when unaligned) words.
  std::array<Addr, kWarpSize * 5> words;
  int n = 0;
  const Addr size = w.size;
  for (LaneMask m = w.mask; m != 0; m &= m - 1) {
    const Addr a = w.addr[std::countr_zero(m)];
    const Addr first = a >> word_shift_;
    const Addr last = (a + size - 1) >> word_shift_;
    for (Addr word = first; word <= last; ++word) words[n++] = word;
  }
  return busiest_bank({words.data(), static_cast<std::size_t>(n)}, bank_mask_);
}

}  // namespace gms
