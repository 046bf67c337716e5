#pragma once
/// A kernel's records replayed in the order of its warps' progress (`--order timed` or
/// `lockstep`, RunOptions::order): the engines hand every record of the kernel here as they read
/// it (its row created then, so rows keep the file's order), and at the kernel's end the records
/// go back to the engine's replay one by one, in the order the warp scheduler
/// (sim/model/warp_scheduler.h) gives them, each record's use of the memory fed back to it.
///
/// It holds the kernel's records (their 296 bytes each, and 4 more for the order): an ordered
/// replay's memory grows with its largest kernel, not with the trace. A warp's records are
/// linked in file order as they come (a table lookup per record, none per lane).

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/huge_page_allocator.h"
#include "sim/core/records.h"
#include "sim/model/placement.h"
#include "sim/model/warp_scheduler.h"

namespace gms {

class OrderedKernel {
 public:
  /// Keeps record `w` (on SM `sm`) for the kernel's end, linked after its warp's earlier ones.
  void add(const WarpInstr& w, std::uint32_t sm) {
    const auto index = static_cast<std::uint32_t>(records_.size());
    keep(w);
    const WarpKey key{sm, w.cta, w.warp};
    if (!(warps_.size() > last_warp_ && key == last_key_)) {  // a warp's records often follow
      std::uint32_t& slot = slot_of(key);
      last_key_ = key;
      if (slot == kNone) {
        slot = last_warp_ = static_cast<std::uint32_t>(warps_.size());
        warps_.push_back({sm, w.cta, w.warp, index, index});
        return;
      }
      last_warp_ = slot;
    }
    Warp& warp = warps_[last_warp_];
    records_[warp.last].next = index;
    warp.last = index;
  }

  /// Replays the records added since the last call through `replay_one(WarpInstr&, sm)`, which
  /// returns the record's RecordUse, in the scheduler's order (`timed`, else lockstep) with
  /// `slots` resident CTAs per SM, and forgets them. Returns what the schedule measured.
  template <class ReplayOne>
  ScheduleTotals replay(const SimConfig& cfg, const KernelInfo& kernel, std::uint32_t slots,
                        bool timed, ReplayOne&& replay_one) {
    // The scheduler numbers the warps by SM, CTA and warp (its ties go to the lower number).
    std::sort(warps_.begin(), warps_.end(), [](const Warp& a, const Warp& b) {
      return std::tuple{a.sm, a.cta, a.warp} < std::tuple{b.sm, b.cta, b.warp};
    });
    WarpScheduler scheduler(cfg, loads_in_flight(cfg, kernel), timed);
    for (std::size_t i = 0; i < warps_.size();) {
      std::size_t end = i + 1;
      while (end < warps_.size() && warps_[end].sm == warps_[i].sm &&
             warps_[end].cta == warps_[i].cta)
        ++end;
      scheduler.add_cta(warps_[i].sm, static_cast<std::uint32_t>(end - i));
      i = end;
    }
    auto queue = [&](std::uint32_t warp) {
      const Op op = op_of(records_[warps_[warp].first]);
      scheduler.ready(warp, waits_for_data(op), is_store(op) && !is_bulk(op));
    };
    started_.clear();
    scheduler.start(std::max<std::uint32_t>(slots, 1), started_);
    for (std::uint32_t w : started_) queue(w);
    std::uint32_t warp = 0, sm = 0;
    while (scheduler.next(warp, sm)) {
      Warp& w = warps_[warp];
      WarpInstr& record = restore(records_[w.first]);
      w.first = records_[w.first].next;
      scheduler.issued(warp, replay_one(record, sm));
      if (w.first != kNone) {
        queue(warp);
        continue;
      }
      started_.clear();
      scheduler.finished(warp, started_);
      for (std::uint32_t s : started_) queue(s);
    }
    records_.clear();
    addrs_.clear();
    last_warp_ = kNone;
    warps_.clear();
    for (const std::uint32_t i : used_) slots_[i].warp = kNone;
    used_.clear();
    return scheduler.totals();
  }

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  /// N, the loads a warp keeps in flight: the kernel's loads_in_flight, else the preset's.
  static std::uint32_t loads_in_flight(const SimConfig& cfg, const KernelInfo& kernel) {
    std::uint32_t n = 0;
    if (kernel_param(kernel, "loads_in_flight", n) && n != 0) return n;
    return static_cast<std::uint32_t>(std::max(1.0, cfg.gpu.loads_in_flight_per_warp + 0.5));
  }

  /// A record as kept: its fields before the addresses, then where its addresses start in
  /// addrs_: a strided record's first active lane's only (it comes back with partial strided
  /// lanes, TraceReader::set_partial_strided_lanes, which every engine completes where needed),
  /// another's active lanes in lane order. 40 bytes and 8 a lane kept, against a WarpInstr's 296.
  static constexpr std::size_t kHead = offsetof(WarpInstr, addr);
  struct Kept {
    std::array<std::byte, kHead> head;
    std::uint32_t addrs;
    std::uint32_t next;  ///< its warp's next record, kNone for none yet
  };

  void keep(const WarpInstr& w) {
    Kept k;
    std::memcpy(k.head.data(), &w, kHead);
    k.addrs = static_cast<std::uint32_t>(addrs_.size());
    k.next = kNone;
    if (w.strided) {
      addrs_.push_back(w.addr[first_lane(w.mask)]);
    } else {
      for (LaneMask m = w.mask; m != 0; m &= m - 1) addrs_.push_back(w.addr[std::countr_zero(m)]);
    }
    records_.push_back(k);
  }

  static Op op_of(const Kept& k) {
    Op op;
    std::memcpy(&op, k.head.data() + offsetof(WarpInstr, op), sizeof op);
    return op;
  }

  WarpInstr& restore(const Kept& k) {
    WarpInstr& w = record_;
    std::memcpy(static_cast<void*>(&w), k.head.data(), kHead);
    const Addr* a = addrs_.data() + k.addrs;
    if (w.strided) {
      const unsigned first = first_lane(w.mask), last = last_lane(w.mask);
      w.addr[first] = a[0];
      w.addr[last] = a[0] + (last - first) * static_cast<std::uint64_t>(w.stride);
      w.lanes_complete = false;
    } else {
      w.addr.fill(0);
      for (LaneMask m = w.mask; m != 0; m &= m - 1) w.addr[std::countr_zero(m)] = *a++;
    }
    return w;
  }

  struct Warp {
    std::uint32_t sm, cta, warp;
    std::uint32_t first, last;  ///< its next record not replayed, and its last one
  };
  /// The kernel's records in file order, on whole huge pages (a kernel can hold millions).
  std::vector<Kept, HugePageAllocator<Kept>> records_;
  std::vector<Addr, HugePageAllocator<Addr>> addrs_;  ///< their addresses (Kept::addrs)
  WarpInstr record_;                                  ///< the one being replayed
  std::vector<Warp> warps_;
  struct WarpKey {
    std::uint32_t sm, cta, warp;
    bool operator==(const WarpKey&) const = default;
  };
  /// Warp key to warps_ index: open addressing (linear probing) over a power-of-two table at
  /// most half full, kept from kernel to kernel and emptied slot by slot (used_). A
  /// std::unordered_map allocated a node for each warp and freed them all at each kernel's
  /// end: a tenth of an ordered replay's time.
  struct Slot {
    WarpKey key;
    std::uint32_t warp = kNone;  ///< warps_ index; kNone: empty
  };
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> used_;  ///< the filled slots' positions

  static std::size_t hash(const WarpKey& k) {
    const std::uint64_t h =
        ((std::uint64_t{k.cta} << 32 | k.warp) ^ (std::uint64_t{k.sm} * 0x9e3779b97f4a7c15u)) *
        0xbf58476d1ce4e5b9u;
    return static_cast<std::size_t>(h ^ (h >> 31));
  }

  /// The slot of `key`: its warps_ index, or kNone in the slot it is to fill.
  std::uint32_t& slot_of(const WarpKey& key) {
    if (2 * (used_.size() + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.warp == kNone) {
        s.key = key;
        used_.push_back(static_cast<std::uint32_t>(i));
        return s.warp;
      }
      if (s.key == key) return s.warp;
    }
  }

  /// Doubles the table (at least 64 slots) and places the filled slots again.
  void grow() {
    std::vector<Slot> old(std::max<std::size_t>(64, 2 * slots_.size()));
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    std::vector<std::uint32_t> used;
    used.reserve(used_.size());
    for (const std::uint32_t u : used_) {
      std::size_t i = hash(old[u].key) & mask;
      while (slots_[i].warp != kNone) i = (i + 1) & mask;
      slots_[i] = old[u];
      used.push_back(static_cast<std::uint32_t>(i));
    }
    used_.swap(used);
  }
  WarpKey last_key_{};               ///< the last record's warp
  std::uint32_t last_warp_ = kNone;  ///< ... its warps_ index
  std::vector<std::uint32_t> started_;
};

}  // namespace gms
