#include "sim/replay/reference/plain_coalescer.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <utility>

namespace gms::ref {

std::uint32_t segment_bytes(const CoalescerConfig& cfg, Op op) {
  return is_global_load(op) ? cfg.load_segment_bytes : cfg.store_segment_bytes;
}

std::uint32_t line_transactions(std::uint32_t segment, std::uint8_t sectors) {
  std::uint32_t n = 0;
  for (std::uint32_t first = 0; first < kLine; first += segment) {
    bool touched = false;
    for (std::uint32_t off = first; off < first + segment; off += kSector)
      if (sectors >> (off / kSector) & 1) touched = true;
    if (touched) ++n;
  }
  return n;
}

PlainAccess coalesce(const CoalescerConfig& cfg, const WarpInstr& w) {
  PlainAccess out;
  out.segment_bytes = segment_bytes(cfg, w.op);
  // Each active lane's bytes as a closed range [first, last].
  std::vector<std::pair<Addr, Addr>> ranges;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!(w.mask >> lane & 1u)) continue;
    const Addr a = w.addr[static_cast<std::size_t>(lane)];
    const Addr room = std::numeric_limits<Addr>::max() - a;  // bytes after a
    const Addr last = room < Addr{w.size} - 1 ? std::numeric_limits<Addr>::max() : a + w.size - 1;
    ranges.emplace_back(a, last);
    ++out.active_threads;
  }
  out.bytes_requested = out.active_threads * w.size;
  // Merge overlapping or adjacent ranges, so that each byte is counted once.
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<Addr, Addr>> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && (merged.back().second == std::numeric_limits<Addr>::max() ||
                            r.first <= merged.back().second + 1))
      merged.back().second = std::max(merged.back().second, r.second);
    else
      merged.push_back(r);
  }
  // Walk every byte of every range, line by line.
  for (const auto& [first, last] : merged) {
    for (Addr b = first;; ++b) {
      const Addr line = b / kLine * kLine;
      if (out.line_list.empty() || out.line_list.back().addr != line)
        out.line_list.push_back({line, 0, {}});
      PlainLine& l = out.line_list.back();
      const auto sector = static_cast<unsigned>((b - line) / kSector);
      l.sectors = static_cast<std::uint8_t>(l.sectors | 1u << sector);
      l.bytes[sector] |= 1u << ((b - line) % kSector);
      ++out.bytes_distinct;
      if (b == last) break;
    }
  }
  for (const PlainLine& l : out.line_list) {
    out.sectors += static_cast<std::uint32_t>(std::popcount(l.sectors));
    out.transactions += line_transactions(out.segment_bytes, l.sectors);
  }
  out.lines = static_cast<std::uint32_t>(out.line_list.size());
  return out;
}

}  // namespace gms::ref
