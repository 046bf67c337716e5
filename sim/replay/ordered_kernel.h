#pragma once
/// A kernel's records replayed in the order of its warps' progress (`--order timed` or
/// `lockstep`, RunOptions::order): the engines hand every record of the kernel here as they read
/// it (its row created then, so rows keep the file's order), and at the kernel's end the records
/// go back to the engine's replay one by one, in the order the warp scheduler
/// (sim/model/warp_scheduler.h) gives them, each record's use of the memory fed back to it.
///
/// It holds the kernel's records (40 bytes each and 8 a kept lane, Kept): an ordered
/// replay's memory grows with its largest kernel, not with the trace. A warp's records are
/// linked in file order as they come: its index found in a table by CTA and warp where the
/// kernel's grid and block say how many there are (begin()), else in a hash map; one lookup a
/// record, none a lane.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/huge_page_allocator.h"
#include "sim/core/records.h"
#include "sim/model/placement.h"
#include "sim/model/warp_scheduler.h"

namespace gms {

class OrderedKernel {
 public:
  /// A kernel starts: its warps are found by CTA and warp in a table of grid x warps-per-CTA
  /// slots where the grid and block give them and the table stays under kMaxTableSlots (a hash
  /// map lookup a record, its nodes allocated and rehashed as it grows, was a fifth of a timed
  /// replay of a stream of two-record warps, `perf`).
  void begin(const KernelInfo& kernel) {
    const std::uint64_t ctas = std::uint64_t{kernel.grid.x} * kernel.grid.y * kernel.grid.z;
    const std::uint64_t threads = std::uint64_t{kernel.block.x} * kernel.block.y * kernel.block.z;
    warps_per_cta_ = static_cast<std::uint32_t>((threads + kWarpSize - 1) / kWarpSize);
    table_ctas_ = ctas;
    const std::uint64_t slots = ctas * warps_per_cta_;
    if (warps_per_cta_ == 0 || ctas == 0 || slots > kMaxTableSlots) {
      table_ctas_ = 0;  // the hash map only
      return;
    }
    if (table_.size() < slots) table_.resize(slots, kNone);
  }

  /// Keeps record `w` (on SM `sm`) for the kernel's end, linked after its warp's earlier ones.
  void add(const WarpInstr& w, std::uint32_t sm) {
    const auto index = static_cast<std::uint32_t>(records_.size());
    keep(w);
    const WarpKey key{sm, w.cta, w.warp};
    if (!(warps_.size() > last_warp_ && key == last_key_)) {  // a warp's records often follow
      last_key_ = key;
      bool created = false;
      last_warp_ = warp_index(key, created);
      if (created) {
        warps_.push_back({sm, w.cta, w.warp, index, index});
        return;
      }
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
    // The table's slots go back to kNone first (those of this kernel's warps only).
    for (const Warp& w : warps_)
      if (std::uint32_t* slot = table_slot(w.cta, w.warp)) *slot = kNone;
    const auto by_number = [](const Warp& a, const Warp& b) {
      return std::tuple{a.sm, a.cta, a.warp} < std::tuple{b.sm, b.cta, b.warp};
    };
    if (!std::is_sorted(warps_.begin(), warps_.end(), by_number)) sort_warps(by_number);
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
      const Kept& next = records_[warps_[warp].first];
      scheduler.ready(warp, waits_for_data(next.op), is_store(next.op) && !is_bulk(next.op),
                      next.instrs_before, next.waits_for_load);
    };
    started_.clear();
    scheduler.start(std::max<std::uint32_t>(slots, 1), started_);
    for (std::uint32_t w : started_) queue(w);
    std::uint32_t warp = 0, sm = 0;
    while (scheduler.next(warp, sm)) {
      Warp& w = warps_[warp];
      WarpInstr& record = restore(records_[w.first], w);
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
    warp_of_.clear();
    return scheduler.totals();
  }

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  /// The largest warp table (64 MiB): a kernel with more warps in its grid uses the hash map.
  static constexpr std::uint64_t kMaxTableSlots = std::uint64_t{1} << 24;

  /// Puts warps_ in (SM, CTA, warp) order. A trace usually lists each SM's warps in CTA and warp
  /// order already, interleaved with the other SMs' (CTA c on SM c mod SMs): a stable pass by
  /// SM (counting) then leaves them sorted, and a comparison sort runs only where it does not.
  template <class Less>
  void sort_warps(const Less& less) {
    std::uint32_t sms = 0;
    for (const Warp& w : warps_) sms = std::max(sms, w.sm + 1);
    if (sms <= warps_.size()) {
      sm_start_.assign(std::size_t{sms} + 1, 0);
      for (const Warp& w : warps_) ++sm_start_[w.sm + 1];
      for (std::uint32_t i = 0; i < sms; ++i) sm_start_[i + 1] += sm_start_[i];
      sorted_.resize(warps_.size());
      for (const Warp& w : warps_) sorted_[sm_start_[w.sm]++] = w;
      warps_.swap(sorted_);
      if (std::is_sorted(warps_.begin(), warps_.end(), less)) return;
    }
    std::sort(warps_.begin(), warps_.end(), less);
  }

  struct WarpKey {
    std::uint32_t sm, cta, warp;
    bool operator==(const WarpKey&) const = default;
  };
  /// The warps_ index of warp `key`: its table slot's, or the hash map's where the table has no
  /// slot for it or the slot's warp ran on another SM. A warp not seen yet gets the next index
  /// (`created`), which the caller appends.
  std::uint32_t warp_index(const WarpKey& key, bool& created) {
    const auto next = static_cast<std::uint32_t>(warps_.size());
    std::uint32_t* slot = table_slot(key.cta, key.warp);
    if (slot != nullptr && *slot == kNone) {
      created = true;
      return *slot = next;
    }
    if (slot != nullptr && warps_[*slot].sm == key.sm) return *slot;
    const auto [it, inserted] = warp_of_.try_emplace(key, next);
    created = inserted;
    return it->second;
  }

  /// The table slot of CTA `cta`'s warp `warp`, nullptr where the table has none.
  std::uint32_t* table_slot(std::uint32_t cta, std::uint32_t warp) {
    if (cta >= table_ctas_ || warp >= warps_per_cta_) return nullptr;
    return &table_[std::uint64_t{cta} * warps_per_cta_ + warp];
  }

  /// N, the loads a warp keeps in flight: the kernel's loads_in_flight, else the preset's.
  static std::uint32_t loads_in_flight(const SimConfig& cfg, const KernelInfo& kernel) {
    std::uint32_t n = 0;
    if (kernel_param(kernel, "loads_in_flight", n) && n != 0) return n;
    return static_cast<std::uint32_t>(std::max(1.0, cfg.gpu.loads_in_flight_per_warp + 0.5));
  }

  struct Warp {
    std::uint32_t sm, cta, warp;
    std::uint32_t first, last;  ///< its next record not replayed, and its last one
  };

  /// A record as kept: its fields but its warp's CTA and warp (its Warp's), and where its
  /// addresses start in addrs_: a strided record's first active lane's only (it comes back with
  /// partial strided lanes, TraceReader::set_partial_strided_lanes, which every engine completes
  /// where needed), another's active lanes in lane order. 40 bytes and 8 a lane kept, against a
  /// WarpInstr's 296.
  struct Kept {
    std::int64_t stride;
    std::uint32_t inst, sm, mask, instrs_before;
    std::uint32_t addrs;
    std::uint32_t next;  ///< its warp's next record, kNone for none yet
    Op op;
    std::uint8_t size;
    bool strided;
    std::uint32_t waits_for_load;
  };
  static_assert(sizeof(Kept) == 40);

  void keep(const WarpInstr& w) {
    Kept k;
    k.stride = w.stride;
    k.inst = w.inst;
    k.sm = w.sm;
    k.mask = w.mask;
    k.instrs_before = w.instrs_before;
    k.addrs = static_cast<std::uint32_t>(addrs_.size());
    k.next = kNone;
    k.op = w.op;
    k.size = w.size;
    k.strided = w.strided;
    k.waits_for_load = w.waits_for_load;
    if (w.strided) {
      addrs_.push_back(w.addr[first_lane(w.mask)]);
    } else {
      for (LaneMask m = w.mask; m != 0; m &= m - 1) addrs_.push_back(w.addr[std::countr_zero(m)]);
    }
    records_.push_back(k);
  }

  /// Kept record `k` of warp `warp` as a WarpInstr (record_, until the next call).
  WarpInstr& restore(const Kept& k, const Warp& warp) {
    WarpInstr& w = record_;
    w.inst = k.inst;
    w.op = k.op;
    w.size = k.size;
    w.strided = k.strided;
    w.lanes_complete = !k.strided;
    w.sm = k.sm;
    w.cta = warp.cta;
    w.warp = warp.warp;
    w.mask = k.mask;
    w.instrs_before = k.instrs_before;
    w.waits_for_load = k.waits_for_load;
    w.stride = k.stride;
    const Addr* a = addrs_.data() + k.addrs;
    if (w.strided) {
      const unsigned first = first_lane(w.mask), last = last_lane(w.mask);
      w.addr[first] = a[0];
      w.addr[last] = a[0] + (last - first) * static_cast<std::uint64_t>(w.stride);
    } else {
      w.addr.fill(0);
      for (LaneMask m = w.mask; m != 0; m &= m - 1) w.addr[std::countr_zero(m)] = *a++;
    }
    return w;
  }

  /// The kernel's records in file order, on whole huge pages (a kernel can hold millions).
  std::vector<Kept, HugePageAllocator<Kept>> records_;
  std::vector<Addr, HugePageAllocator<Addr>> addrs_;  ///< their addresses (Kept::addrs)
  WarpInstr record_;                                  ///< the one being replayed
  std::vector<Warp> warps_;
  std::vector<Warp> sorted_;             ///< sort_warps()'s scratch
  std::vector<std::uint32_t> sm_start_;  ///< sort_warps()'s scratch: each SM's next slot
  struct WarpKeyHash {
    std::size_t operator()(const WarpKey& k) const {
      return std::hash<std::uint64_t>{}((std::uint64_t{k.cta} << 32 | k.warp) ^
                                        (std::uint64_t{k.sm} * 0x9e3779b97f4a7c15u));
    }
  };
  std::unordered_map<WarpKey, std::uint32_t, WarpKeyHash> warp_of_;  ///< to warps_ index
  std::vector<std::uint32_t> table_;  ///< warps_ index by cta * warps_per_cta_ + warp, or kNone
  std::uint64_t table_ctas_ = 0;      ///< CTAs the table covers this kernel (0: none)
  std::uint32_t warps_per_cta_ = 0;
  WarpKey last_key_{};               ///< the last record's warp
  std::uint32_t last_warp_ = kNone;  ///< ... its warps_ index
  std::vector<std::uint32_t> started_;
};

}  // namespace gms
