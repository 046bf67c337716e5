#pragma once
/// Reuses the coalescer's result for strided warp instructions of a shape seen before (and for
/// full-warp address lists that step by one amount from lane to lane, which are the same thing
/// written out, as NVBit captures are). A strided record's lines, sectors and byte masks depend
/// only on its operation, access size, active lanes, stride and where its first active lane falls
/// inside a 128-byte line: two records that agree on those and whose bases differ by a multiple of
/// 128 bytes coalesce to the same result, every line shifted by that difference (sectors, segments
/// and lines are all aligned inside 128 bytes). A regular kernel repeats a few shapes millions of
/// times; the memo turns each repeat into a compare and a copy of a few lines instead of a walk
/// over its byte ranges.
///
/// One entry per slot, direct-mapped on the caller's key (the instruction's row), holding up to
/// kMaxLines lines; records whose addresses could wrap past the top of the address space (where
/// the coalescer clips ranges, so results do not shift) are never memoized.

#include <array>
#include <bit>
#include <cstdint>

#include "sim/core/records.h"
#include "sim/model/coalescer.h"

namespace gms {

class CoalesceMemo {
 public:
  static constexpr std::uint32_t kSlots = 64;
  static constexpr std::uint32_t kMaxLines = 8;

  /// One remembered shape and its result, lines relative to the line of the first active lane.
  struct Entry {
    bool valid = false;
    Op op{};
    std::uint8_t size = 0;
    LaneMask mask = 0;
    std::int64_t stride = 0;
    Addr offset = 0;  ///< the first active lane's address mod 128
    CoalesceCounts counts{};
    std::array<LineAccess, kMaxLines> lines{};
  };

  /// The slot that caller key `key` maps to.
  static std::uint32_t slot_of(std::uint32_t key) { return key % kSlots; }
  const Entry& entry(std::uint32_t slot) const { return slots_[slot]; }

  /// The entry of slot `key` when it holds `w`'s shape, else nullptr; `base_line` is then the
  /// line of `w`'s first active lane, to add to the entry's line addresses.
  const Entry* find(std::uint32_t key, const WarpInstr& w, Addr& base_line) const {
    Addr first;
    std::int64_t stride;
    if (!memoizable(w, first, stride)) return nullptr;
    const Entry& e = slots_[slot_of(key)];
    if (!e.valid || !same_shape(e, w, first, stride)) return nullptr;
    base_line = first & ~Addr{kLineBytes - 1};
    return &e;
  }

  /// True when `w` is of a shape the memo keeps (strided, or a full warp's list stepping by one
  /// amount; see memoizable): a caller with a shortcut for other records leaves these to it.
  static bool takes(const WarpInstr& w) {
    Addr first;
    std::int64_t stride;
    return memoizable(w, first, stride);
  }

  /// Fills `out` from the memo and returns true when slot `key` holds `w`'s shape.
  bool lookup(std::uint32_t key, const WarpInstr& w, CoalescedAccess& out) const {
    Addr base_line;
    const Entry* e = find(key, w, base_line);
    if (e == nullptr) return false;
    static_cast<CoalesceCounts&>(out) = e->counts;
    for (std::uint32_t i = 0; i < e->counts.lines; ++i) {
      out.line_list[i] = e->lines[i];
      out.line_list[i].line_addr += base_line;  // stored relative to the base's line
    }
    return true;
  }

  /// `w` coalesced into `out`: from slot `key` when it holds w's shape, else by `coalescer`
  /// (w's strided lanes completed first where the reader left them partial) and remembered there.
  [[gnu::always_inline]] void coalesce(const Coalescer& coalescer, std::uint32_t key, WarpInstr& w,
                                       CoalescedAccess& out) {
    if (lookup(key, w, out)) return;
    if (!w.lanes_complete) complete_strided_lanes(w);
    coalescer.coalesce(w, out);
    store(key, w, out);
  }

  /// Remembers `a`, the coalescer's result for `w`, in slot `key` (when `w` qualifies).
  void store(std::uint32_t key, const WarpInstr& w, const CoalescedAccess& a) {
    Addr first;
    std::int64_t stride;
    if (!memoizable(w, first, stride) || a.lines > kMaxLines) return;
    const Addr base_line = first & ~Addr{kLineBytes - 1};
    Entry& e = slots_[slot_of(key)];
    e.valid = true;
    e.op = w.op;
    e.size = w.size;
    e.mask = w.mask;
    e.stride = stride;
    e.offset = first & (kLineBytes - 1);
    e.counts = a;
    for (std::uint32_t i = 0; i < a.lines; ++i) {
      e.lines[i] = a.line_list[i];
      e.lines[i].line_addr -= base_line;
    }
  }

 private:
  /// The lane-to-lane step of a record whose active lanes follow one: a strided record's
  /// stride, or for a list record of a full warp whose addresses step by one amount (a regular
  /// kernel captured as address lists, as NVBit writes them), that amount.
  static bool lane_step(const WarpInstr& w, std::int64_t& stride) {
    if (w.strided) {
      stride = w.stride;
      return true;
    }
    if (w.mask != 0xffffffffu) return false;
    const Addr d = w.addr[1] - w.addr[0];
    if (w.addr[2] - w.addr[1] != d) return false;  // a scattered list stops here
    Addr off_step = 0;  // no early exit: the compiler checks two or more lanes per instruction
    for (unsigned i = 3; i < kWarpSize; ++i) off_step |= (w.addr[i] - w.addr[i - 1]) ^ d;
    stride = static_cast<std::int64_t>(d);
    return off_step == 0;
  }

  /// A record with a lane step under 2^32 in magnitude whose first and last active lanes lie
  /// below 2^63: no lane's access can wrap past 2^64, so its result shifts with its base.
  /// `first` is the first active lane's address.
  static bool memoizable(const WarpInstr& w, Addr& first, std::int64_t& stride) {
    if (!lane_step(w, stride) || stride >= (std::int64_t{1} << 32) ||
        stride <= -(std::int64_t{1} << 32))
      return false;
    first = w.addr[first_lane(w.mask)];
    const Addr last = w.addr[last_lane(w.mask)];
    return ((first | last) >> 63) == 0;
  }

  static bool same_shape(const Entry& e, const WarpInstr& w, Addr first, std::int64_t stride) {
    return e.mask == w.mask && e.stride == stride && e.op == w.op && e.size == w.size &&
           e.offset == (first & (kLineBytes - 1));
  }

  std::array<Entry, kSlots> slots_{};
};

}  // namespace gms
