#include "sim/model/l1_pipe.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

namespace gms {

namespace {

constexpr unsigned kBanks = 32;     // 4-byte banks of the L1 data array: 128 bytes a wavefront
constexpr unsigned kQuarter = 8;    // lanes a tag lookup serves
constexpr unsigned kLineShift = 7;  // 128-byte lines
constexpr unsigned kWordShift = 2;  // 4-byte words

/// The last byte of an access at `a`, clipped at the top of the address space (as the
/// coalescer clips it).
Addr last_byte(Addr a, Addr size) {
  return a > std::numeric_limits<Addr>::max() - (size - 1) ? std::numeric_limits<Addr>::max()
                                                           : a + size - 1;
}

/// Distinct values added, with how many of them fall in each bank (value mod 32); sized for
/// a group's words (at most 32 lanes x 2 words, or 16 x 3, or 8 x 5).
class BankSets {
 public:
  BankSets() { head_.fill(kNone); }
  /// Adds `v` unless present; returns the count of its bank after the call.
  std::uint32_t add(Addr v) {
    const unsigned bank = static_cast<unsigned>(v) & (kBanks - 1);
    for (std::uint8_t i = head_[bank]; i != kNone; i = next_[i])
      if (values_[i] == v) return count_[bank];
    values_[size_] = v;
    next_[size_] = head_[bank];
    head_[bank] = static_cast<std::uint8_t>(size_++);
    return ++count_[bank];
  }

 private:
  static constexpr std::uint8_t kNone = 0xff;
  std::array<Addr, 64> values_;
  std::array<std::uint8_t, 64> next_;
  std::array<std::uint8_t, kBanks> head_;
  std::array<std::uint32_t, kBanks> count_{};
  unsigned size_ = 0;
};

}  // namespace

L1PipeCost l1_pipe_cost(const WarpInstr& w) {
  // Every active lane's address (a strided record may hold only its first and last).
  std::array<Addr, kWarpSize> addr;
  if (w.strided && !w.lanes_complete) {
    const unsigned first = first_lane(w.mask);
    const Addr base = w.addr[first] - first * static_cast<std::uint64_t>(w.stride);
    for (unsigned i = 0; i < kWarpSize; ++i)
      addr[i] = base + i * static_cast<std::uint64_t>(w.stride);
  } else {
    addr = w.addr;
  }
  const Addr size = w.size;

  L1PipeCost cost;
  // Tag stage: the lines of each quarter-warp, counted once per quarter (at most 16: a lane's
  // access crosses at most one line boundary).
  for (unsigned q = 0; q < kWarpSize; q += kQuarter) {
    std::array<Addr, 2 * kQuarter> lines;
    unsigned n = 0;
    for (LaneMask m = (w.mask >> q) & 0xffu; m != 0; m &= m - 1) {
      const Addr a = addr[q + static_cast<unsigned>(std::countr_zero(m))];
      const Addr last = last_byte(a, size) >> kLineShift;
      for (Addr line = a >> kLineShift;; ++line) {
        // Lanes usually walk in order: the line is then the last one listed, or a new one.
        if (n == 0 || (lines[n - 1] != line &&
                       std::find(lines.begin(), lines.begin() + n, line) == lines.begin() + n))
          lines[n++] = line;
        if (line == last) break;
      }
    }
    cost.tag_lookups += n;
  }
  cost.tag_lookups = std::max(cost.tag_lookups, 4u);

  // Data stage: groups of lanes that ideally move 128 bytes, each as many wavefronts as the
  // fullest bank's distinct words.
  const unsigned group = size <= 4 ? kWarpSize : std::bit_floor(128u / static_cast<unsigned>(size));
  const LaneMask group_mask = group == kWarpSize ? ~LaneMask{0} : (LaneMask{1} << group) - 1;
  for (unsigned g = 0; g < kWarpSize; g += group) {
    const LaneMask m0 = (w.mask >> g) & group_mask;
    if (m0 == 0) continue;
    BankSets banks;
    std::uint32_t worst = 0;
    for (LaneMask m = m0; m != 0; m &= m - 1) {
      const Addr a = addr[g + static_cast<unsigned>(std::countr_zero(m))];
      const Addr last = last_byte(a, size) >> kWordShift;
      for (Addr word = a >> kWordShift;; ++word) {
        worst = std::max(worst, banks.add(word));
        if (word == last) break;
      }
    }
    cost.data_wavefronts += worst;
  }
  return cost;
}

}  // namespace gms
