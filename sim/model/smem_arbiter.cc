#include "sim/model/smem_arbiter.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "sim/host/sorting_network.h"

namespace gms {

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
  // Lanes usually walk shared memory in order (unit stride, rows of a tile): the words are then
  // already sorted. Otherwise up to 32 words go through the branch-free network.
  if (!std::is_sorted(words.begin(), words.begin() + n)) {
    if (n <= kWarpSize) {
      std::array<std::uint64_t, kWarpSize> v;
      std::copy(words.begin(), words.begin() + n, v.begin());
      std::fill(v.begin() + n, v.end(), std::numeric_limits<std::uint64_t>::max());
      sort32(v);
      std::copy(v.begin(), v.begin() + n, words.begin());
    } else {
      std::sort(words.begin(), words.begin() + n);
    }
  }
  const int distinct =
      static_cast<int>(std::unique(words.begin(), words.begin() + n) - words.begin());

  std::array<std::uint32_t, kMaxBanks> per_bank{};
  std::uint32_t worst = 0;
  for (int i = 0; i < distinct; ++i) {
    worst = std::max(worst, ++per_bank[words[i] & bank_mask_]);
  }
  const std::uint32_t banks = bank_mask_ + 1;
  return {worst, (static_cast<std::uint32_t>(distinct) + banks - 1) / banks};
}

}  // namespace gms
