#include "sim/model/l1_pipe.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

#include "sim/lanes/quarter_distinct.h"
#include "sim/model/smem_arbiter.h"

namespace gms {

namespace {

constexpr std::uint32_t kBankMask = 31;  // 32 banks of 4-byte words: 128 bytes a wavefront
constexpr unsigned kQuarter = 8;         // lanes whose lines one set of tag lookups covers
constexpr unsigned kLineShift = 7;       // 128-byte lines
constexpr unsigned kWordShift = 2;       // 4-byte words
constexpr Addr kTop = std::numeric_limits<Addr>::max();

/// Lanes that pass through the data array together: those that ideally move 128 bytes.
unsigned data_group(unsigned size) {
  return size <= 4 ? kWarpSize : std::bit_floor(128u / size);
}

/// Distinct values among `v` (n of them, at most 16), without a data-dependent branch (the
/// lines of a scattered warp's quarter are in no order).
unsigned distinct(const Addr* v, unsigned n) {
  unsigned d = 0;
  for (unsigned i = 0; i < n; ++i) {
    bool fresh = true;
    for (unsigned j = 0; j < i; ++j) fresh &= v[j] != v[i];
    d += fresh;
  }
  return d;
}

/// A full warp of a strided record whose lanes cannot wrap past the top of the address space:
/// both stages in closed form where they have one (false where they do not).
bool strided_cost(const WarpInstr& w, L1PipeCost& cost) {
  const Addr size = w.size;
  const std::int64_t s = w.stride;
  const Addr step = s < 0 ? Addr{0} - static_cast<Addr>(s) : static_cast<Addr>(s);
  const Addr a0 = w.addr[0];
  // Lane 31 below the top (a positive stride) or above zero (a negative one), with its bytes.
  if (step > (kTop - size) / 31) return false;
  if (s >= 0 ? a0 > kTop - 31 * step - (size - 1) : a0 < 31 * step || a0 > kTop - (size - 1))
    return false;
  const bool aligned = a0 % size == 0 && step % size == 0;
  if (step > 128 && !aligned) return false;  // lanes may share a line they straddle into
  // Tag stage: lanes at most a line apart touch every line between a quarter's ends; further
  // apart (and aligned: no access crosses a line) a line each.
  cost.tag_lookups = 0;
  for (unsigned q = 0; q < kWarpSize; q += kQuarter) {
    const Addr first = a0 + q * static_cast<Addr>(s), last = first + 7 * static_cast<Addr>(s);
    const Addr lo = std::min(first, last), hi = last_byte(std::max(first, last), size);
    cost.tag_lookups +=
        step > 128 ? kQuarter
                   : static_cast<std::uint32_t>((hi >> kLineShift) - (lo >> kLineShift) + 1);
  }
  // Data stage, for accesses aligned to their size at a stride of whole accesses (each lane's
  // bytes in whole words of its own, or one word shared by lanes of one address): in a group of
  // G lanes at a stride of k words, lane i's first word falls in bank (w0 + i k) mod 32, so the
  // lanes fill 32 / gcd(k, 32) banks (apart by at least a lane's words), G gcd(k, 32) / 32 lanes
  // each; a broadcast (k = 0) takes one wavefront a group.
  if (!aligned || (size < 4 && step % 4 != 0)) return false;
  const unsigned width = std::max<unsigned>(w.size, 4);
  const unsigned groups = width / 4, lanes = data_group(w.size);
  const Addr k = step >> kWordShift;
  const unsigned g = k == 0 ? 0 : 1u << std::min(std::countr_zero(k), 5);
  cost.data_wavefronts = groups * (k == 0 ? 1 : std::max(1u, lanes * g / kWarpSize));
  cost.tag_lookups = std::max(cost.tag_lookups, 4u);
  return true;
}

}  // namespace

L1PipeCost l1_pipe_cost(const WarpInstr& w, std::span<const Addr> sorted_starts) {
  if (L1PipeCost closed; w.strided && w.mask == 0xffffffffu && strided_cost(w, closed))
    return closed;

  // Every active lane's address (a strided record may hold only its first and last).
  std::array<Addr, kWarpSize> filled;
  const std::array<Addr, kWarpSize>* lanes = &w.addr;
  if (w.strided && !w.lanes_complete) {
    const unsigned first = first_lane(w.mask);
    const auto stride = static_cast<std::uint64_t>(w.stride);
    const Addr base = w.addr[first] - first * stride;
    for (unsigned i = 0; i < kWarpSize; ++i) filled[i] = base + i * stride;
    lanes = &filled;
  }
  const std::array<Addr, kWarpSize>& addr = *lanes;
  const Addr size = w.size;

  // Tag stage: the lines of each quarter-warp, counted once per quarter. Where no access crosses
  // a line (the rule) each lane has one line; else up to 16 a quarter.
  L1PipeCost cost;
  Addr crossing = 0;  // bits above bit 1: an access crosses a word; above bit 6, a line
  for (unsigned i = 0; i < kWarpSize; ++i)  // (inactive lanes hold address 0)
    crossing |= addr[i] ^ (addr[i] + (size - 1));
  crossing >>= kWordShift;
  if (crossing >> (kLineShift - kWordShift) == 0) {
    cost.tag_lookups = distinct_per_quarter(addr, w.mask, kLineShift);
  } else {
    for (unsigned q = 0; q < kWarpSize; q += kQuarter) {
      std::array<Addr, 2 * kQuarter> lines;
      unsigned n = 0;
      for (LaneMask m = (w.mask >> q) & 0xffu; m != 0; m &= m - 1) {
        const Addr a = addr[q + static_cast<unsigned>(std::countr_zero(m))];
        const Addr first = a >> kLineShift, last = last_byte(a, size) >> kLineShift;
        lines[n++] = first;
        if (last != first) lines[n++] = last;
      }
      cost.tag_lookups += distinct(lines.data(), n);
    }
  }
  cost.tag_lookups = std::max(cost.tag_lookups, 4u);

  // Data stage: each group of lanes as many wavefronts as its fullest bank's distinct words (at
  // most 32 lanes x 2 words, 16 x 3 or 8 x 5 a group).
  const unsigned group = data_group(w.size);
  std::array<Addr, 2 * kWarpSize> words;
  auto add_words = [&](Addr a, unsigned& n) {
    for (Addr word = a >> kWordShift, last = last_byte(a, size) >> kWordShift;; ++word) {
      words[n++] = word;
      if (word == last) break;
    }
  };
  if (group == kWarpSize && !sorted_starts.empty()) {  // words in order: no sort
    if (crossing == 0) {                               // a word a lane, in order
      cost.data_wavefronts = busiest_bank_sorted(sorted_starts, kWordShift, kBankMask).wavefronts;
      return cost;
    }
    unsigned n = 0;
    for (const Addr a : sorted_starts) add_words(a, n);  // overlapping lanes' words interleave
    cost.data_wavefronts = busiest_bank({words.data(), n}, kBankMask).wavefronts;
    return cost;
  }
  const LaneMask group_mask = group == kWarpSize ? ~LaneMask{0} : (LaneMask{1} << group) - 1;
  for (unsigned g = 0; g < kWarpSize; g += group) {
    unsigned n = 0;
    for (LaneMask m = (w.mask >> g) & group_mask; m != 0; m &= m - 1)
      add_words(addr[g + static_cast<unsigned>(std::countr_zero(m))], n);
    if (n > 0) cost.data_wavefronts += busiest_bank({words.data(), n}, kBankMask).wavefronts;
  }
  return cost;
}

double l1_pipe_cycles(const SimConfig& cfg, std::uint64_t data_wavefronts,
                      std::uint64_t shared_wavefronts, std::uint64_t tag_lookups) {
  const double data = static_cast<double>(data_wavefronts) / (cfg.l1.sectors_per_cycle / 4.0) +
                      static_cast<double>(shared_wavefronts) / cfg.shared.wavefronts_per_cycle;
  const double tag = static_cast<double>(tag_lookups) / 4.0;
  return std::max(data, tag);
}

}  // namespace gms
