#include "trace/import/tma_operands.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "sim/core/records.h"

namespace gms::trace::detail {

BulkDirection bulk_direction(std::string_view opcode) {
  const std::size_t dot = opcode.find('.');
  const std::string_view base = opcode.substr(0, dot);
  const std::string_view mods = dot == std::string_view::npos ? "" : opcode.substr(dot);
  if (base == "UTMALDG") return BulkDirection::Load;
  if (base == "UTMASTG") return BulkDirection::Store;
  if (base == "UTMAPF" || base == "UBLKPF") return BulkDirection::Prefetch;
  if (base == "UTMAREDG" || base == "UBLKRED") return BulkDirection::Reduction;
  if (base == "UBLKCP") {
    // The destination's space, then the source's (cp.async.bulk.dst.src): G global, S shared.
    if (mods.starts_with(".G.S")) return BulkDirection::Store;
    if (mods.starts_with(".S.S")) return BulkDirection::SharedCopy;
    return BulkDirection::Load;
  }
  return BulkDirection::Unknown;
}

TmaOperandReader::Result TmaOperandReader::fail(std::string message) {
  error_ = std::move(message);
  return Result::Error;
}

TmaOperandReader::Result TmaOperandReader::read(Tokens& t, std::uint32_t width, TmaOperands& out) {
  // The fields before the address mode decide whether the line is in the 2.0 grammar at all:
  // files written before it was known put an ordinary record's mode and list after mem_width.
  Tokens look = t;
  TmaOperands o;
  unsigned multicast = 0, mode = 0;
  if (!parse_hex_token(look.next(), o.mbarrier)) return Result::Older;
  if (!parse_dec_token(look.next(), multicast) || multicast > 1) return Result::Older;
  o.multicast = multicast == 1;
  if (o.multicast && !parse_hex_token(look.next(), o.cta_mask)) return Result::Older;
  if (!parse_dec_token(look.next(), o.bytes) || !parse_dec_token(look.next(), o.oob_bytes))
    return Result::Older;
  std::string_view tok = look.next();
  if (!parse_dec_token(tok, mode) || mode <= 2) return Result::Older;
  if (mode > 4)
    return fail(fmt::format("TMA operands: unknown address mode '{}' (3 list, 4 base+deltas)",
                            shown_token(tok)));
  // A TMA element is one transfer of the unit; far past any tile row, a damaged width.
  constexpr std::uint32_t kMaxElementBytes = 1u << 16;
  if (width > kMaxElementBytes)
    return fail(fmt::format("TMA operands: mem_width {} is more than the {} bytes of an element",
                            width, kMaxElementBytes));
  std::uint64_t count = 0;
  std::uint64_t base = 0;
  if (mode == 4 && !parse_hex_token(tok = look.next(), base))
    return fail(
        fmt::format("TMA operands: bad base address '{}' (expected hex)", shown_token(tok)));
  if (!parse_dec_token(tok = look.next(), count))
    return fail(
        fmt::format("TMA operands: bad element count '{}' (expected a decimal)", shown_token(tok)));
  chunks_.clear();
  // The 16-byte units (kBulkLaneBytes) the element covers: the replay's lanes, and by pairs the
  // 32-byte sectors.
  auto add = [&](std::uint64_t a) {
    for (std::uint64_t c = a >> 4, last = last_byte(a, width) >> 4; c <= last; ++c) {
      chunks_.push_back(c);
      if (c == last) break;  // the top unit of the address space
    }
  };
  if (mode == 4 && count > 0) add(base);
  __int128 a = base;
  for (std::uint64_t k = mode == 4 ? 1 : 0; k < count; ++k) {
    tok = look.next();
    if (tok.empty())
      return fail(fmt::format("TMA operands: the {} list has {} of its {} element{}",
                              mode == 3 ? "address" : "base+delta", k, count,
                              count == 1 ? "" : "s"));
    if (mode == 3) {
      std::uint64_t v = 0;
      if (!parse_hex_token(tok, v))
        return fail(fmt::format("TMA operands: bad address '{}' (expected hex)", shown_token(tok)));
      add(v);
      continue;
    }
    std::int64_t d = 0;
    if (!parse_dec_token(tok, d))
      return fail(fmt::format("TMA operands: bad delta '{}' (expected a signed decimal)",
                              shown_token(tok)));
    a += d;
    if (a < 0 || a > static_cast<__int128>(~std::uint64_t{0}))
      return fail(fmt::format("TMA operands: element {} overflows 64 bits", k));
    add(static_cast<std::uint64_t>(a));
  }
  std::sort(chunks_.begin(), chunks_.end());
  chunks_.erase(std::unique(chunks_.begin(), chunks_.end()), chunks_.end());
  o.elements = count;
  // Sorted units: those of one sector are adjacent.
  o.sectors = 0;
  for (std::size_t i = 0; i < chunks_.size(); ++i)
    o.sectors += i == 0 || (chunks_[i] >> 1) != (chunks_[i - 1] >> 1);
  out = o;
  t = look;
  return Result::Read;
}

void count_bulk_traffic(ImportCounts& counts, BulkDirection dir, const TmaOperands& op) {
  BulkTraffic& b = counts.bulk_traffic[static_cast<int>(dir)];
  // A multicast copy reads its bytes once and writes them into every CTA of the mask.
  const std::uint64_t receivers =
      op.multicast ? static_cast<std::uint64_t>(std::popcount(op.cta_mask)) : 1;
  ++b.requests;
  b.multicast += op.multicast;
  b.bytes += op.bytes;
  b.oob_bytes += op.oob_bytes;
  b.elements += op.elements;
  switch (dir) {
    case BulkDirection::Load:
      b.sectors += op.sectors;
      b.shared_written += op.bytes * receivers;
      break;
    case BulkDirection::Store:
    case BulkDirection::Reduction:
      b.sectors += op.sectors;
      b.shared_read += op.bytes;
      break;
    case BulkDirection::Prefetch:  // into the L2 only
      b.sectors += op.sectors;
      break;
    case BulkDirection::SharedCopy:  // its addresses are shared ones: no global sectors
      b.shared_read += op.bytes;
      b.shared_written += op.bytes * receivers;
      break;
    case BulkDirection::Unknown:
      break;
  }
}

}  // namespace gms::trace::detail
