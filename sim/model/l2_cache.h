#pragma once
/// The device-wide L2: slices selected by an address hash, each a sectored, write-back,
/// write-allocate cache with per-sector dirty state and byte masks.
///
/// - A read miss fetches from DRAM at l2.dram_fetch_bytes granularity: on the H200 a 64-byte
///   sector pair, so DRAM read bytes = 64 x the distinct aligned pairs holding a missed sector,
///   and both sectors of the pair become valid (groundtruth: stream_stride stride 32 reads 64
///   bytes per sector requested, stride 8 reads 32).
/// - A write never fetches, even a partial one: written bytes are tracked per sector; a sector
///   whose 32 bytes are all written becomes valid, a partial one is dirty but not readable, and
///   a later read of it misses and fetches (merging). The H200's store kernels read nothing
///   from DRAM while they write whole sectors (store_s1).
/// - An evicted or flushed line writes its dirty sectors back, 32 bytes each, charged to the
///   instruction that dirtied the line last. A dirty sector still not valid (partly written,
///   never read) is handed to the sink as partial: where the memory reads such a sector before
///   writing it (dram.partial_write_reads, charging.h), that is a 32-byte DRAM read (the H200's
///   store_s2 and store_s32 read 97% of their partly written sectors, 32 bytes each).
///
/// Near/far partitions (l2.partitions > 1; L2Partitions in address_map.h says which slices and
/// SMs belong to which partition). As Jia and Van Sandt describe the A100's L2 (GTC'21 S33322,
/// [JiaGTC21] in docs/hardware.md): a line's home is the slice its address hashes to; an SM reads a
/// line homed in its own partition there. A line homed in the other partition is looked up first in
/// the reader's near partition (the home slice's mirror slice there): sectors found are near
/// hits; the others are read from the home slice: a far hit (l2.far_hit_latency_cycles) copies
/// the sector into the near partition, and a miss fetches from DRAM into the home slice and
/// copies the sector into the near partition too. A new copy enters its set's LRU order half way
/// (l2.copy_insert_pct: behind that share of the ways), so copies take part of a set and give
/// way to lines in reuse; fitted on the H200 capture's L2 windows, which the model refetched
/// 18-31% too much of when copies were made on the second read and entered at the front (the
/// capture's chase also reads near after one warm-up read). Copies are clean and take capacity
/// like any line (so a line read from both partitions may be held twice); a store or atomic goes
/// to the home slice and drops the written sectors from every copy. The state one access
/// touches: a near read, one slice; a far read, the mirror slice of the reader's partition
/// (lookup, and an allocation there, whose victim may be a dirty home line written back) and
/// the home slice;
/// a store or atomic, the home slice and the mirror slice of every other partition.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/state_array.h"
#include "sim/core/state_vector.h"
#include "sim/core/stats.h"
#include "sim/model/address_map.h"
#include "sim/model/coalescer.h"
#include "sim/model/sector_cache.h"

namespace gms {

/// Who last dirtied an L2 line: a kernel sequence number and the instruction row inside it. No
/// member initializers: the L2's table of a million of them is left as the memory's zeros, not
/// written when the cache is made (an owner is read only for a line its write made dirty).
struct LineOwner {
  std::uint32_t kernel;
  std::uint32_t row;
};

/// Receives the L2's DRAM traffic (one call per fetch unit or dirty line, not per lane); the L2
/// knows neither the statistics layout nor the DRAM model. A concept, not a virtual base: the
/// calls sit on the per-access path and inline into the L2's code.
template <class S>
concept DramSink = requires(S s, Addr addr, std::uint32_t bytes, const LineOwner& owner,
                            std::uint8_t dirty) {
  s.dram_read(addr, bytes);
  /// A write-back of the dirty 32-byte sectors `dirty` (bit s = sector s) of the line at `addr`
  /// that `owner` dirtied last; `partial` (the last argument) are those not wholly written.
  s.dram_write_back(owner, addr, dirty, dirty);
};

template <ReplacementPolicy Policy>
class L2Cache {
 public:
  /// `sm_count`: the SMs split among the partitions (needed when cfg.partitions > 1). `memory`
  /// holds the cache's state (an engine hands in sim/host's huge-page StateArena); without one,
  /// the heap does.
  L2Cache(const L2Config& cfg, const std::vector<Policy>& policies, std::uint32_t sm_count = 0,
          std::unique_ptr<StateMemory> memory = nullptr)
      : cfg_(cfg),
        slices_map_(l2_slices(cfg)),
        partitions_(cfg.partitions, cfg.slices, cfg.partitions > 1 ? sm_count : 0),
        sectors_per_line_(cfg.line_bytes / cfg.sector_bytes),
        line_shift_(static_cast<unsigned>(std::countr_zero(cfg.line_bytes))),
        fetch_sectors_(cfg.dram_fetch_bytes / cfg.sector_bytes),
        interleave_shift_(static_cast<unsigned>(std::countr_zero(cfg.interleave_bytes))),
        lines_per_chunk_(cfg.interleave_bytes / cfg.line_bytes),
        sets_(static_cast<std::uint32_t>(std::uint64_t{cfg.size_kb} * 1024 /
                                         (std::uint64_t{cfg.slices} * cfg.ways * cfg.line_bytes))),
        slices_div_(cfg.slices),
        sets_div_(sets_),
        memory_(std::move(memory)) {
    const StateMemoryScope in_memory(memory_.get());
    slices_.reserve(cfg.slices);
    for (std::uint32_t i = 0; i < cfg.slices; ++i)
      slices_.emplace_back(CacheGeometry{sets_, cfg.ways, sectors_per_line_}, policies[i]);
    const std::size_t slots = std::size_t{cfg.slices} * sets_ * cfg.ways;
    byte_mask_.resize(slots * sectors_per_line_);  // zeros, left untouched until written
    owner_.resize(slots);                          // likewise
    tally_.resize(cfg.slices);
    GMS_ASSERT(cfg.partitions <= 1 || (sm_count >= cfg.partitions && cfg.line_bytes == 128),
               "a partitioned L2 needs the SM count and 128-byte lines");
  }

  /// Sectors each slice served (reads, writes, atomics) since the last call; resets them.
  std::vector<std::uint64_t> take_slice_sectors() {
    std::vector<std::uint64_t> out(cfg_.slices, 0);
    for (std::size_t s = 0; s < out.size(); ++s) out[s] = std::exchange(tally_[s].sectors, 0);
    return out;
  }

  /// Read sectors that hit in a far partition since the last call (0 without partitions); resets.
  std::uint64_t take_far_hit_sectors() {
    std::uint64_t sum = 0;
    for (SliceTally& t : tally_) sum += std::exchange(t.far_hits, 0);
    return sum;
  }

  /// Read sectors that hit in a far partition since the last take_far_hit_sectors() (an ordered
  /// replay measures each record's from it).
  std::uint64_t far_hit_sectors() const {
    std::uint64_t sum = 0;
    for (const SliceTally& t : tally_) sum += t.far_hits;
    return sum;
  }

  /// True when all of the cache's state fits the memory it was given (a test holds every
  /// preset's to the huge-page arena).
  bool state_in_memory() const { return memory_ != nullptr && !memory_->overflowed(); }

  /// The slice of a byte address: consecutive interleave_bytes chunks go round the slices
  /// (linear), or the chunk number is XOR-folded first (hash), spreading strided streams.
  std::uint32_t slice_of(Addr addr) const { return slices_map_.unit_of(addr); }

  /// Reads 32-byte sectors `want` of the 128-byte line `line_addr` into counters `c`.
  template <DramSink Sink>
  void read(Addr line_addr, std::uint8_t want, AccessCounters& c, Sink& sink) {
    // Inlined by force: with two call sites in for_each_l2_line GCC may keep it out of line,
    // a call per L2 access (the cached matrix product's replay ran 5% slower so).
    for_each_l2_line(
        line_addr, want,
        [&](Line & l, std::uint8_t sectors) __attribute__((always_inline)) {
          std::uint8_t& valid = l.slice->valid(l.slot);
          const std::uint8_t miss = sectors & static_cast<std::uint8_t>(~valid);
          const auto n = static_cast<std::uint64_t>(std::popcount(sectors));
          const auto m = static_cast<std::uint64_t>(std::popcount(miss));
          c.l2_read_sectors += n;
          c.l2_read_sector_misses += m;
          c.l2_read_sector_hits += n - m;
          c.dram_read_bytes += fetch(l, valid, miss, sink);
        },
        sink);
  }

  /// The same, read by SM `sm`: with partitions, a line homed in a partition other than the
  /// SM's is read through the SM's near partition (see the file comment).
  template <DramSink Sink>
  void read(Addr line_addr, std::uint8_t want, std::uint32_t sm, AccessCounters& c, Sink& sink) {
    read_in(line_addr, want, near_partition_of(sm), c, sink);
  }

  /// The same, read by an SM near partition `near` (near_partition_of).
  template <DramSink Sink>
  void read_in(Addr line_addr, std::uint8_t want, std::uint32_t near, AccessCounters& c,
               Sink& sink) {
    if (partitions_.count() > 1) {
      const std::uint32_t home = slice_of(line_addr);
      if (partitions_.of_slice(home) != near) {
        read_far(line_addr, want, home, near, c, sink);
        return;
      }
    }
    read(line_addr, want, c, sink);
  }

  /// The partition SM `sm` is near (0 without partitions).
  std::uint32_t near_partition_of(std::uint32_t sm) const {
    return partitions_.count() > 1 ? partitions_.near_of(sm) : 0;
  }

  /// The batch group of byte address `addr` (line_batch.h): the index of its slice inside its
  /// partition (without partitions, its slice). Every slice an access touches, its home slice and
  /// that slice's mirrors, is in its group, so accesses grouped by it, in trace order within
  /// each group, give the results of trace order.
  std::uint32_t batch_group_of(Addr addr) const { return partitions_.local_of(slice_of(addr)); }
  std::uint32_t batch_groups() const { return cfg_.slices / partitions_.count(); }

  /// Writes the sectors `want` of the 128-byte line with per-sector byte masks; no DRAM read.
  template <DramSink Sink>
  void write(const LineAccess& la, const LineOwner& owner, AccessCounters& c, Sink& sink) {
    for_each_l2_line(
        la.line_addr, la.sector_mask,
        [&](Line& l, std::uint8_t sectors) {
          c.l2_write_sectors += static_cast<std::uint64_t>(std::popcount(sectors));
          mark_written(l, la, sectors);
          owner_[l.global_slot] = owner;
        },
        sink);
    if (partitions_.count() > 1) drop_copies(la.line_addr, la.sector_mask);
  }

  /// An atomic or reduction: read-modify-write at L2 (fetches a missing sector, dirties it).
  template <DramSink Sink>
  void atomic(const LineAccess& la, const LineOwner& owner, AccessCounters& c, Sink& sink) {
    for_each_l2_line(
        la.line_addr, la.sector_mask,
        [&](Line & l, std::uint8_t sectors) __attribute__((always_inline)) {
          c.l2_atomic_sectors += static_cast<std::uint64_t>(std::popcount(sectors));
          std::uint8_t& valid = l.slice->valid(l.slot);
          c.dram_read_bytes += fetch(l, valid, sectors & static_cast<std::uint8_t>(~valid), sink);
          l.slice->dirty(l.slot) |= sectors;
          owner_[l.global_slot] = owner;
        },
        sink);
    if (partitions_.count() > 1) drop_copies(la.line_addr, la.sector_mask);
  }

  /// Writes every dirty line back (charged to its owner) and, unless `keep`, empties the cache;
  /// or only slices [first, end).
  template <DramSink Sink>
  void flush(Sink& sink, bool keep, std::uint32_t first = 0, std::uint32_t end = ~0u) {
    for (std::uint32_t s = first; s < std::min<std::size_t>(end, slices_.size()); ++s) {
      slices_[s].for_each_line([&](std::size_t slot, std::uint64_t key, std::uint8_t dirty) {
        if (dirty == 0) return;
        const std::size_t global = std::size_t{s} * sets_ * cfg_.ways + slot;
        write_back(owner_[global], key, dirty,
                   static_cast<std::uint8_t>(dirty & ~slices_[s].valid(slot)), sink);
        if (keep) slices_[s].dirty(slot) = 0;
      });
      if (!keep) slices_[s].clear();
    }
  }

 private:
  struct Line {
    SectorCache<Policy>* slice;
    std::uint32_t slice_index;
    Addr addr;                ///< byte address of the L2 line
    std::size_t slot;         ///< index inside the slice
    std::size_t global_slot;  ///< index over all slices (side tables)
  };

  /// Calls f(line, sectors) for each L2 line the 32-byte sectors `want` of a 128-byte coalescer
  /// line fall in, allocating it (and writing back its victim) when absent.
  template <class F, DramSink Sink>
  void for_each_l2_line(Addr line_addr, std::uint8_t want, F f, Sink& sink) {
    // Line sizes are powers of two (validated): shifts, not divisions, on this path.
    if (line_shift_ == 7) {  // the coalescer's own geometry: one L2 line, the same sectors
      Line l = locate(line_addr, line_addr >> line_shift_, sink);
      tally_[l.slice_index].sectors += static_cast<std::uint64_t>(std::popcount(want));
      f(l, want);
      return;
    }
    for (std::uint8_t rest = want; rest != 0;) {
      const Addr first =
          line_addr + Addr{static_cast<unsigned>(std::countr_zero(rest))} * kSectorBytes;
      const std::uint64_t key = first >> line_shift_;
      std::uint8_t group = 0;    // coalescer sectors in this L2 line
      std::uint8_t sectors = 0;  // the same, as L2 sector bits
      for (std::uint8_t r = rest; r != 0; r &= r - 1) {
        const unsigned t = static_cast<unsigned>(std::countr_zero(r));
        const Addr a = line_addr + Addr{t} * kSectorBytes;
        if (a >> line_shift_ != key) continue;
        group |= static_cast<std::uint8_t>(1u << t);
        sectors |= static_cast<std::uint8_t>(1u << ((a & (cfg_.line_bytes - 1)) / kSectorBytes));
      }
      rest &= static_cast<std::uint8_t>(~group);
      Line l = locate(first, key, sink);
      tally_[l.slice_index].sectors += static_cast<std::uint64_t>(std::popcount(sectors));
      f(l, sectors);
    }
  }

  /// The set, inside its slice, of line `key` (holding byte `addr`). The set comes from the
  /// line's index among the lines of its slice, so that every set of every slice is used
  /// whatever the interleave (a plain line number mod sets is not). Chunk and line numbers are
  /// folded to 32 bits (exact below 2^32) so that both the division and the modulo are
  /// multiplications on this per-access path.
  std::uint32_t set_of(Addr addr, std::uint64_t key) const {
    const std::uint32_t chunk = fold32(addr >> interleave_shift_);
    const std::uint32_t local = slices_div_.div(chunk) * lines_per_chunk_ +
                                static_cast<std::uint32_t>(key & (lines_per_chunk_ - 1));
    return sets_div_.mod(local);
  }

  template <DramSink Sink>
  Line locate(Addr addr, std::uint64_t key, Sink& sink) {
    const std::uint32_t s = slice_of(addr);
    SectorCache<Policy>& slice = slices_[s];
    const std::uint32_t set = set_of(addr, key);
    const std::size_t base = std::size_t{s} * sets_ * cfg_.ways;
    int& dirty_trend = tally_[s].dirty_trend;
    if (dirty_trend > 0) {
      // Victims have lately been dirty: their owner entries will be read right after the
      // victim is chosen, a miss to host memory that would follow the tag scan's. Request the
      // set's entries now so that the two overlap (a hint: it changes no result). Read-mostly
      // replays, whose victims are clean, skip it: the bandwidth would be wasted.
      const LineOwner* owners = owner_.data() + base + std::size_t{set} * cfg_.ways;
      for (std::uint32_t w = 0; w < cfg_.ways; w += 8) __builtin_prefetch(owners + w);
    }
    slice.prefetch_masks(set);
    std::int32_t way = slice.find(set, key);
    if (way == SectorCache<Policy>::kMiss) {
      Eviction ev;
      way = static_cast<std::int32_t>(slice.allocate(set, key, ev));
      if (ev.valid) {
        const bool dirty = ev.dirty_mask != 0;
        // A saturating trend: up 3 per dirty victim, down 1 per clean one.
        dirty_trend = dirty ? std::min(dirty_trend + 3, 64) : std::max(dirty_trend - 1, 0);
        if (dirty)
          write_back(owner_[base + slice.slot(set, static_cast<std::uint32_t>(way))], ev.key,
                     ev.dirty_mask, ev.partial_mask, sink);
      }
    } else {
      slice.touch(set, static_cast<std::uint32_t>(way));
    }
    const std::size_t slot = slice.slot(set, static_cast<std::uint32_t>(way));
    return {&slice, s, key << line_shift_, slot, base + slot};
  }

  /// A read of sectors `want` of line `line_addr` (128-byte L2 lines), homed in slice `home`, by
  /// an SM of partition `near` (not the home's): the near copy first, then the home slice.
  template <DramSink Sink>
  void read_far(Addr line_addr, std::uint8_t want, std::uint32_t home, std::uint32_t near,
                AccessCounters& c, Sink& sink) {
    const std::uint64_t key = line_addr >> line_shift_;
    const std::uint32_t set = set_of(line_addr, key);
    const std::uint32_t m = partitions_.mirror(home, near);
    SectorCache<Policy>& copies = slices_[m];
    std::int32_t way = copies.find(set, key);
    const std::uint8_t held = way == SectorCache<Policy>::kMiss
                                  ? 0
                                  : copies.valid(copies.slot(set, static_cast<std::uint32_t>(way)));
    const auto near_hit = static_cast<std::uint8_t>(want & held);
    const auto rest = static_cast<std::uint8_t>(want & ~held);
    c.l2_read_sectors += static_cast<std::uint64_t>(std::popcount(want));
    if (near_hit != 0) {
      const auto n = static_cast<std::uint64_t>(std::popcount(near_hit));
      c.l2_read_sector_hits += n;
      tally_[m].sectors += n;
      copies.touch(set, static_cast<std::uint32_t>(way));
    }
    if (rest == 0) return;
    Line l = locate(line_addr, key, sink);  // the home slice
    tally_[home].sectors += static_cast<std::uint64_t>(std::popcount(rest));
    std::uint8_t& valid = l.slice->valid(l.slot);
    const auto far_hit = static_cast<std::uint8_t>(rest & valid);
    const auto miss = static_cast<std::uint8_t>(rest & ~valid);
    const auto far = static_cast<std::uint64_t>(std::popcount(far_hit));
    c.l2_read_sector_hits += far;
    c.l2_read_sector_misses += static_cast<std::uint64_t>(std::popcount(miss));
    tally_[home].far_hits += far;
    c.dram_read_bytes += fetch(l, valid, miss, sink);
    // What the home slice delivered, a far hit or a DRAM fill, is copied into the near
    // partition; a new copy enters its set copy_rank_ ways behind the front.
    if (way == SectorCache<Policy>::kMiss) {
      Eviction ev;
      way = static_cast<std::int32_t>(copies.allocate(set, key, ev, copy_rank_));
      if (ev.valid && ev.dirty_mask != 0) {  // a home line of the near partition
        const std::size_t base = std::size_t{m} * sets_ * cfg_.ways;
        write_back(owner_[base + copies.slot(set, static_cast<std::uint32_t>(way))], ev.key,
                   ev.dirty_mask, ev.partial_mask, sink);
      }
    } else if (near_hit == 0) {
      copies.touch(set, static_cast<std::uint32_t>(way));
    }
    copies.valid(copies.slot(set, static_cast<std::uint32_t>(way))) |= rest;
  }

  /// Drops sectors `sectors` of line `line_addr` from its copies in the partitions other than its
  /// home (a store or atomic made them stale). Their tags stay until replaced: the tag store
  /// never frees single ways.
  void drop_copies(Addr line_addr, std::uint8_t sectors) {
    const std::uint64_t key = line_addr >> line_shift_;
    const std::uint32_t home = slice_of(line_addr);
    const std::uint32_t home_p = partitions_.of_slice(home);
    const std::uint32_t set = set_of(line_addr, key);
    for (std::uint32_t p = 0; p < partitions_.count(); ++p) {
      if (p == home_p) continue;
      SectorCache<Policy>& copies = slices_[partitions_.mirror(home, p)];
      const std::int32_t way = copies.find(set, key);
      if (way != SectorCache<Policy>::kMiss)
        copies.valid(copies.slot(set, static_cast<std::uint32_t>(way))) &=
            static_cast<std::uint8_t>(~sectors);
    }
  }

  /// Fills the DRAM fetch units holding the `miss` sectors; returns the DRAM bytes read. It
  /// loops over the units that hold a missing sector, not over every unit with a test each:
  /// which unit of a line a random sector falls in is a coin toss, and that test mispredicted
  /// half the time.
  template <DramSink Sink>
  std::uint64_t fetch(const Line& l, std::uint8_t& valid, std::uint8_t miss, Sink& sink) const {
    std::uint64_t bytes = 0;
    const std::uint8_t unit = static_cast<std::uint8_t>((1u << fetch_sectors_) - 1);
    // Fold each unit's sectors onto its first (units are a power of two of sectors, aligned).
    std::uint32_t folded = miss;
    for (std::uint32_t k = 1; k < fetch_sectors_; k <<= 1) folded |= folded >> k;
    for (std::uint32_t firsts = folded & unit_firsts_; firsts != 0; firsts &= firsts - 1) {
      const unsigned first = static_cast<unsigned>(std::countr_zero(firsts));
      bytes += cfg_.dram_fetch_bytes;
      valid |= static_cast<std::uint8_t>(unit << first);
      sink.dram_read(l.addr + Addr{first} * kSectorBytes, cfg_.dram_fetch_bytes);
    }
    return bytes;
  }

  /// The first sector of every fetch unit of a line, as bits.
  static std::uint32_t fetch_unit_firsts(std::uint32_t fetch_sectors) {
    std::uint32_t firsts = 0;
    for (std::uint32_t first = 0; first < 8; first += fetch_sectors) firsts |= 1u << first;
    return firsts;
  }

  /// Records a write of `sectors`. The bytes written into a sector matter only while it is
  /// invalid (a valid sector stays valid until its line leaves), and they are kept lazily: an
  /// invalid sector's entry holds the bytes written since its line was filled or flushed exactly
  /// when the sector is dirty (a read or an atomic would have made it valid, so would a whole-
  /// sector write); a clean sector's entry is stale and is overwritten, never merged. So nothing
  /// is cleared on eviction or flush, and whole-sector writes never touch the entries.
  void mark_written(const Line& l, const LineAccess& la, std::uint8_t sectors) {
    std::uint8_t& valid = l.slice->valid(l.slot);
    std::uint8_t& dirty = l.slice->dirty(l.slot);
    const std::uint8_t was_dirty = dirty;
    dirty |= sectors;
    for (auto r = static_cast<std::uint8_t>(sectors & ~valid); r != 0; r &= r - 1) {
      const unsigned s = static_cast<unsigned>(std::countr_zero(r));
      const auto bit = static_cast<std::uint8_t>(1u << s);
      // The coalescer's byte mask of the 32-byte piece that lands in L2 sector s.
      const Addr sector_addr = l.addr + Addr{s} * kSectorBytes;
      const std::uint32_t written =
          la.byte_mask[static_cast<unsigned>((sector_addr - la.line_addr) / kSectorBytes)];
      if (written == 0xffffffffu) {
        valid |= bit;
        continue;
      }
      std::uint32_t& bytes = byte_mask_[l.global_slot * sectors_per_line_ + s];
      bytes = (was_dirty & bit) ? bytes | written : written;
      if (bytes == 0xffffffffu) valid |= bit;
    }
  }

  /// Writes the dirty sectors of line `key` back to DRAM (`partial`: those not wholly written).
  template <DramSink Sink>
  void write_back(const LineOwner& owner, std::uint64_t key, std::uint8_t dirty,
                  std::uint8_t partial, Sink& sink) const {
    sink.dram_write_back(owner, key << line_shift_, dirty, partial);
  }

  L2Config cfg_;
  Interleave slices_map_;
  L2Partitions partitions_;
  std::uint32_t sectors_per_line_;
  unsigned line_shift_;  ///< log2 of the line size (a power of two)
  std::uint32_t fetch_sectors_;
  unsigned interleave_shift_;
  std::uint32_t lines_per_chunk_;  ///< a power of two (interleave and line sizes are)
  std::uint32_t sets_;
  /// Ways ahead of a far line's copy when it enters its set (l2.copy_insert_pct of the ways
  /// behind the front; 0: the front).
  std::uint32_t copy_rank_ = cfg_.copy_insert_pct * (cfg_.ways - 1) / 100;
  FastDiv32 slices_div_, sets_div_;
  std::unique_ptr<StateMemory> memory_;  ///< holds the state below (declared first: it goes last)
  StateVector<SectorCache<Policy>> slices_;
  StateArray<std::uint32_t> byte_mask_;  ///< per sector of every line: bytes written (lazy)
  StateArray<LineOwner> owner_;          ///< per line: last writer
  std::uint32_t unit_firsts_ = fetch_unit_firsts(fetch_sectors_);  ///< see fetch()
  /// What each slice's replay writes on every access, a host cache line per slice. A fast
  /// engine's workers replay different slices at the same time (sim/replay/fast_engine.cc);
  /// written into shared host lines, these bounced between the cores: one trend of dirty victims
  /// for the whole L2 cost a two-worker cached replay of random warps 1.6x the CPU time of one
  /// worker (bench/RESULTS.md, "One host line per L2 slice").
  struct alignas(64) SliceTally {
    std::uint64_t sectors = 0;   ///< sectors served since take_slice_sectors()
    std::uint64_t far_hits = 0;  ///< far hits homed here since take_far_hit_sectors()
    /// > 0 while over a quarter of the slice's recent victims were dirty (a hint: it changes
    /// no result).
    int dirty_trend = 0;
  };
  std::vector<SliceTally> tally_;
};

}  // namespace gms
