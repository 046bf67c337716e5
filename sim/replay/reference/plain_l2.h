#pragma once
/// The reference's device-wide L2 (sim/replay/reference_engine.h): l2.slices slices, each a
/// sectored (32-byte), write-back, write-allocate cache of l2.line_bytes lines. The rules
/// ([AmpereWP] and [JiaGTC21] in docs/hardware.md):
/// - Slice: the interleave map of sim/model/address_map.h (l2.interleave_bytes chunks, linear or
///   XOR-hashed). Set: the line's index among its slice's lines (the chunk's index among the
///   slice's chunks, times the lines per chunk, plus the line's place in its chunk) mod the sets
///   of a slice. The chunk number is folded to 32 bits first (x ^ x >> 32) and the index kept to
///   32 bits, as the model defines it.
/// - A read miss fetches from DRAM in l2.dram_fetch_bytes units (aligned in the line): each unit
///   that holds a missing sector is read, and all its sectors become valid.
/// - A write never fetches: the bytes written to a sector without data are kept; a sector whose
///   32 bytes are all written becomes valid; a partly written one is dirty but unreadable until a
///   read fetches it (merging). Its write-back hands the memory the dirty sectors that hold no
///   data as partial (the engine reads those first where dram.partial_write_reads says so).
/// - An atomic is a read-modify-write at L2: missing sectors are fetched, and it dirties them.
/// - A line pushed out, or left at the end of a kernel, writes its dirty sectors back, charged
///   to the instruction that wrote the line last.
/// - Partitions (l2.partitions > 1): slices and SMs are split evenly into partitions (slice s in
///   partition s / (slices / partitions), SM i near partition i x partitions / SMs). A line is
///   homed in its slice. An SM reads a line homed in its own partition there; a line homed
///   elsewhere is first looked up in the same-index slice of the SM's partition (its mirror):
///   sectors held there are near hits; the others go to the home slice (a far hit, or a miss
///   fetched into the home slice), and the sectors it delivered are also copied into the mirror
///   (copies are clean; a new copy is allocated there and enters the set's LRU order behind
///   l2.copy_insert_pct of the ways). A write or atomic goes to the home slice and drops the
///   written sectors from every mirror's copy (the copy's tag stays).

#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/model/address_map.h"
#include "sim/replay/reference/plain_coalescer.h"
#include "sim/replay/reference/plain_sector_cache.h"

namespace gms::ref {

/// Where the L2's DRAM traffic goes (the engine charges it).
class L2Memory {
 public:
  virtual ~L2Memory() = default;
  /// A fetch of `bytes` at `addr`.
  virtual void read(Addr addr, std::uint32_t bytes) = 0;
  /// A write-back of the dirty sectors `dirty` (bit s = sector s) of the line at `line_addr`,
  /// which `owner` wrote last; `partial`: those of them that hold no data (partly written).
  virtual void write_back(const Owner& owner, Addr line_addr, std::uint8_t dirty,
                          std::uint8_t partial) = 0;
};

class PlainL2 {
 public:
  PlainL2(const L2Config& cfg, std::uint32_t sm_count);

  /// A load by SM `sm` of the 32-byte sectors `want` of the 128-byte line at `line_addr`.
  void read(Addr line_addr, std::uint8_t want, std::uint32_t sm, AccessCounters& c,
            L2Memory& memory);
  /// A store of the sectors of `line` (with their bytes) by `owner`.
  void write(const PlainLine& line, const Owner& owner, AccessCounters& c, L2Memory& memory);
  /// An atomic or reduction on the sectors of `line` by `owner`.
  void atomic(const PlainLine& line, const Owner& owner, AccessCounters& c, L2Memory& memory);

  /// Writes every dirty line back, then empties every slice.
  void flush(L2Memory& memory);

  /// Sectors each slice served since the last call (reads, writes, atomics); starts over.
  std::vector<std::uint64_t> take_slice_sectors();
  /// Read sectors that hit in a far (home) partition since the last call; starts over.
  std::uint64_t take_far_hit_sectors();
  /// ... without resetting.
  std::uint64_t far_hit_sectors() const { return far_hit_sectors_; }

 private:
  /// One L2 line that an access reaches: its slice, set and way.
  struct Place {
    std::uint32_t slice = 0, set = 0;
    int way = 0;
  };

  std::uint32_t slice_of(Addr addr) const { return slices_map_.unit_of(addr); }
  std::uint32_t set_of(Addr addr) const;
  std::uint32_t partition_of_slice(std::uint32_t slice) const;
  std::uint32_t mirror(std::uint32_t home, std::uint32_t partition) const;

  /// The line holding byte `addr` in its home slice, allocated (its victim written back) when
  /// absent.
  Place locate(Addr addr, L2Memory& memory);
  /// Fetches the units holding the sectors `missing` of the line at `place`; returns the bytes.
  std::uint64_t fetch(const Place& place, std::uint8_t missing, L2Memory& memory);
  /// Calls f(place, sectors) for each L2 line the sectors `want` (32-byte sectors of the
  /// 128-byte line at `line_addr`) fall in, in address order, `sectors` in the L2 line's terms.
  template <class F>
  void for_each_l2_line(Addr line_addr, std::uint8_t want, L2Memory& memory, F f);
  void read_far(Addr line_addr, std::uint8_t want, std::uint32_t home, std::uint32_t near,
                AccessCounters& c, L2Memory& memory);
  void drop_copies(Addr line_addr, std::uint8_t sectors);
  Way& way_at(const Place& p) { return slices_[p.slice].way(p.set, p.way); }

  L2Config cfg_;
  std::uint32_t sm_count_;
  Interleave slices_map_;
  std::uint32_t sets_;  ///< per slice
  std::vector<PlainSectorCache> slices_;
  std::vector<std::uint64_t> slice_sectors_;
  std::uint64_t far_hit_sectors_ = 0;
};

}  // namespace gms::ref
