#include "sim/model/coalescer.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "sim/core/error.h"
#include "sim/lanes/sorting_network.h"
#include "sim/model/l1_pipe.h"

namespace gms {

namespace detail {

int sorted_lane_starts(const WarpInstr& w, std::array<Addr, kWarpSize>& starts) {
  // A full warp of scattered addresses goes straight to the sort (no gather, and is_sorted
  // stops at the first descent).
  if (w.mask == 0xffffffffu && !w.strided && !std::is_sorted(w.addr.begin(), w.addr.end()))
    return sort_active_lanes(w.addr, w.mask, starts);
  int n = 0;
  for (LaneMask m = w.mask; m != 0; m &= m - 1) starts[n++] = w.addr[std::countr_zero(m)];
  // Strided records are already ordered (descending for a negative stride); list records are
  // usually ordered too, so check before sorting.
  if (w.strided) {
    if (w.stride < 0) std::reverse(starts.begin(), starts.begin() + n);
  } else if (!std::is_sorted(starts.begin(), starts.begin() + n)) {
    sort_active_lanes(w.addr, w.mask, starts);
  }
  return n;
}

}  // namespace detail

namespace {

/// Transactions of `segment_bytes` (32, 64 or 128: never more than a line) that a line's sector
/// mask touches, for every mask.
std::array<std::uint8_t, 16> transactions_per_mask(std::uint32_t segment_bytes) {
  if (segment_bytes < kSectorBytes || segment_bytes > kLineBytes ||
      !std::has_single_bit(segment_bytes))
    fail("coalescer: transaction size {} is not a power of two from 32 to 128", segment_bytes);
  const unsigned per = segment_bytes / kSectorBytes;
  const unsigned group = (1u << per) - 1;
  std::array<std::uint8_t, 16> t{};
  for (unsigned mask = 0; mask < 16; ++mask)
    for (unsigned s = 0; s < kSectorsPerLine; s += per)
      t[mask] = static_cast<std::uint8_t>(t[mask] + ((mask >> s & group) != 0));
  return t;
}

}  // namespace

Coalescer::Coalescer(const CoalescerConfig& cfg)
    : cfg_(cfg),
      load_transactions_(transactions_per_mask(cfg.load_segment_bytes)),
      store_transactions_(transactions_per_mask(cfg.store_segment_bytes)) {}

template <bool kWrites>
void Coalescer::coalesce_aligned(Op op, unsigned size, std::span<const Addr> starts,
                                 CoalescedAccess& out) const {
  // Every access is aligned to its size (1 to 16 bytes), so it lies in one sector, and two
  // accesses either start at the same address or share no byte: one pass over the sorted
  // starts counts distinct bytes and builds each line's masks, without merging ranges.
  const std::uint32_t lane_bytes = (std::uint32_t{1} << size) - 1;
  std::uint32_t line_count = 0, sectors = 0, segments = 0, distinct = 0;
  Addr line = starts[0] & ~Addr{kLineBytes - 1}, previous = ~starts[0];
  unsigned mask = 0;
  std::array<std::uint32_t, kSectorsPerLine> bytes{};
  const std::uint8_t* transactions =
      (is_global_load(op) ? load_transactions_ : store_transactions_).data();
  auto close_line = [&] {
    LineAccess& la = out.line_list[line_count++];
    la.line_addr = line;
    la.sector_mask = static_cast<std::uint8_t>(mask);
    if constexpr (kWrites) la.byte_mask = bytes;
    sectors += static_cast<std::uint32_t>(std::popcount(mask));
    segments += transactions[mask];
  };
  for (const Addr a : starts) {
    const Addr l = a & ~Addr{kLineBytes - 1};
    if (l != line) {
      close_line();
      line = l;
      mask = 0;
      if constexpr (kWrites) bytes = {};
    }
    const auto sector = static_cast<unsigned>(a >> 5) & (kSectorsPerLine - 1);
    mask |= 1u << sector;
    if constexpr (kWrites) bytes[sector] |= lane_bytes << (a & (kSectorBytes - 1));
    distinct += a != previous;
    previous = a;
  }
  close_line();
  out.bytes_distinct = distinct * size;
  out.sectors = sectors;
  out.transactions = segments;
  out.lines = line_count;
}

void Coalescer::coalesce(const WarpInstr& w, CoalescedAccess& out) const {
  const Addr size = w.size;
  const int n = std::popcount(w.mask);
  // A strided record whose active lanes are contiguous and whose accesses touch or overlap
  // (|stride| <= size: unit stride, broadcast, reversed) covers one byte range: no lane walk.
  const LaneMask m = w.mask >> std::countr_zero(w.mask);
  const std::uint64_t abs_stride = w.stride < 0 ? 0 - static_cast<std::uint64_t>(w.stride)
                                                : static_cast<std::uint64_t>(w.stride);
  const bool one_range = w.strided && (m & (m + 1)) == 0 && abs_stride <= size;
  std::array<Addr, kWarpSize> starts;
  if (one_range) {
    const Addr a = w.addr[std::countr_zero(w.mask)], b = w.addr[31 - std::countl_zero(w.mask)];
    starts[0] = std::min(a, b);
    starts[n - 1] = std::max(a, b);
  } else {
    detail::sorted_lane_starts(w, starts);
  }

  out.segment_bytes = segment_bytes(w.op);
  const L1PipeCost pipe =
      one_range ? l1_pipe_cost(w) : l1_pipe_cost(w, {starts.data(), static_cast<std::size_t>(n)});
  out.tag_lookups = pipe.tag_lookups;
  out.data_wavefronts = pipe.data_wavefronts;
  // Byte masks matter only where the L2 tells full from partial writes.
  const bool writes = !is_global_load(w.op);
  out.active_threads = static_cast<std::uint32_t>(n);
  out.bytes_requested = static_cast<std::uint32_t>(n * size);
  out.bytes_distinct = 0;

  if (!one_range) {
    Addr offsets = 0;
    for (int i = 0; i < n; ++i) offsets |= starts[i];
    if ((offsets & (size - 1)) == 0) {
      if (writes)
        coalesce_aligned<true>(w.op, static_cast<unsigned>(size), {starts.data(), std::size_t(n)},
                               out);
      else
        coalesce_aligned<false>(w.op, static_cast<unsigned>(size), {starts.data(), std::size_t(n)},
                                out);
      return;
    }
  }

  std::uint32_t line_count = 0;

  // Walk the lanes in address order, merging overlapping or adjacent byte ranges; each merged
  // range [lo, hi] is counted once, so broadcasts and duplicates cost nothing extra. Sectors,
  // transactions and lines are counted from the line list at the end (segments never span lines).
  // The entry of `line`: the last one, or a new one after it (ranges arrive in address order).
  auto entry = [&](Addr line) -> LineAccess& {
    if (line_count == 0 || out.line_list[line_count - 1].line_addr != line) {
      LineAccess& fresh = out.line_list[line_count++];
      fresh.line_addr = line;
      fresh.sector_mask = 0;
      if (writes) fresh.byte_mask = {};
    }
    return out.line_list[line_count - 1];
  };
  // Sectors s0..s1 of a line.
  auto sector_span = [](unsigned s0, unsigned s1) {
    return static_cast<std::uint8_t>(((2u << s1) - 1) & ~((1u << s0) - 1));
  };
  auto flush = [&](Addr lo, Addr hi) {
    out.bytes_distinct += static_cast<std::uint32_t>(hi - lo + 1);
    if (!writes && (lo ^ hi) < kLineBytes) {
      // A load range inside one line (every lane of a scattered warp): no byte masks, no walk.
      const Addr line = lo & ~Addr{kLineBytes - 1};
      entry(line).sector_mask |= sector_span(static_cast<unsigned>(lo - line) / kSectorBytes,
                                             static_cast<unsigned>(hi - line) / kSectorBytes);
      return;
    }
    for (Addr line = lo & ~Addr{kLineBytes - 1};; line += kLineBytes) {
      const Addr from = std::max(lo, line);
      const Addr to = std::min(hi, line + kLineBytes - 1);
      const unsigned s0 = static_cast<unsigned>((from - line) / kSectorBytes);
      const unsigned s1 = static_cast<unsigned>((to - line) / kSectorBytes);
      LineAccess& la = entry(line);
      la.sector_mask |= sector_span(s0, s1);
      for (unsigned s = s0; writes && s <= s1; ++s) {
        const Addr sector = line + Addr{s} * kSectorBytes;
        const unsigned b0 = static_cast<unsigned>(std::max(from, sector) - sector);
        const unsigned b1 = static_cast<unsigned>(std::min(to, sector + kSectorBytes - 1) - sector);
        la.byte_mask[s] |= static_cast<std::uint32_t>(((std::uint64_t{2} << b1) - 1) &
                                                      ~((std::uint64_t{1} << b0) - 1));
      }
      if (to == hi) break;
    }
  };

  // Inclusive ends (last_byte stops an access at the top of the address space).
  if (one_range) {
    flush(starts[0], last_byte(starts[n - 1], size));
  } else {
    Addr lo = starts[0], hi = last_byte(starts[0], size);
    for (int i = 1; i < n; ++i) {
      const Addr s = starts[i];
      if (hi != std::numeric_limits<Addr>::max() && s > hi + 1) {
        flush(lo, hi);
        lo = s;
      }
      hi = std::max(hi, last_byte(s, size));
    }
    flush(lo, hi);
  }

  std::uint32_t sectors = 0, segments = 0;
  for (std::uint32_t i = 0; i < line_count; ++i) {
    const std::uint8_t mask = out.line_list[i].sector_mask;
    sectors += static_cast<std::uint32_t>(std::popcount(mask));
    segments += line_transactions(w.op, mask);
  }
  out.sectors = sectors;
  out.transactions = segments;
  out.lines = line_count;
}

}  // namespace gms
