// The L2: sector-pair DRAM fetch, write-allocate without fetch, byte masks, dirty write-back,
// slice hashing.
#include "sim/model/l2_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace gms {
namespace {

/// Records the L2's DRAM traffic, write-backs one 32-byte sector at a time.
struct RecordingSink {
  std::uint64_t bytes = 0, read_bytes = 0;
  std::vector<LineOwner> owners;
  std::vector<Addr> write_addrs, read_addrs;
  void dram_read(Addr a, std::uint32_t b) {
    read_bytes += b;
    read_addrs.push_back(a);
  }
  std::vector<std::uint8_t> partials;  ///< per write-back: its sectors not wholly written
  void dram_write_back(const LineOwner& o, Addr line, std::uint8_t dirty, std::uint8_t partial) {
    partials.push_back(partial);
    if (owners.empty() || owners.back().row != o.row || owners.back().kernel != o.kernel)
      owners.push_back(o);
    for (unsigned s = 0; s < 8; ++s)
      if (dirty >> s & 1) {
        bytes += kSectorBytes;
        write_addrs.push_back(line + Addr{s} * kSectorBytes);
      }
  }
};
static_assert(DramSink<RecordingSink>);

L2Config small_l2(std::uint32_t fetch_bytes = 64, std::uint32_t ways = 2) {
  L2Config c = default_config().l2;
  c.size_kb = 1;  // 1 KiB: 1 slice x 4 sets x 2 ways x 128 B
  c.slices = 1;
  c.partitions = 1;  // the tests with partitions set them (partitioned_l2)
  c.ways = ways;
  c.dram_fetch_bytes = fetch_bytes;
  c.hash = SliceHash::Linear;
  c.interleave_bytes = 128;
  return c;
}

L2Cache<LruPolicy> make(const L2Config& c) {
  return L2Cache<LruPolicy>(c, std::vector<LruPolicy>(c.slices));
}

LineAccess full_write(Addr line, std::uint8_t sectors) {
  LineAccess la{line, sectors, {}};
  for (unsigned s = 0; s < 4; ++s)
    if (sectors >> s & 1u) la.byte_mask[s] = 0xffffffffu;
  return la;
}

TEST(L2CacheTest, MissReadsSectorPairsFromDram) {
  auto l2 = make(small_l2(64));
  RecordingSink sink;
  AccessCounters c;
  l2.read(0x0, 0b0001, c, sink);  // one sector: a 64-byte pair
  EXPECT_EQ(c.dram_read_bytes, 64u);
  EXPECT_EQ(c.l2_read_sector_misses, 1u);
  l2.read(0x0, 0b0010, c, sink);  // its pair partner came with it
  EXPECT_EQ(c.l2_read_sector_hits, 1u);
  EXPECT_EQ(c.dram_read_bytes, 64u);
  l2.read(0x0, 0b1100, c, sink);  // both sectors of the other pair: one fetch
  EXPECT_EQ(c.dram_read_bytes, 128u);
  EXPECT_EQ(c.l2_read_sectors, 4u);
  EXPECT_EQ(sink.read_bytes, 128u);
  EXPECT_EQ(sink.read_addrs, (std::vector<Addr>{0x0, 0x40}));
}

TEST(L2CacheTest, ThirtyTwoByteFetchReadsOnlyTheSector) {
  auto l2 = make(small_l2(32));
  RecordingSink sink;
  AccessCounters c;
  l2.read(0x0, 0b0101, c, sink);
  EXPECT_EQ(c.dram_read_bytes, 64u);
  l2.read(0x0, 0b0010, c, sink);
  EXPECT_EQ(c.l2_read_sector_misses, 3u);
}

TEST(L2CacheTest, WriteMissAllocatesWithoutFetching) {
  auto l2 = make(small_l2());
  RecordingSink sink;
  AccessCounters c;
  l2.write(full_write(0x0, 0b1111), {1, 0}, c, sink);
  EXPECT_EQ(c.l2_write_sectors, 4u);
  EXPECT_EQ(c.dram_read_bytes, 0u);
  l2.read(0x0, 0b1111, c, sink);  // fully written sectors are readable
  EXPECT_EQ(c.l2_read_sector_hits, 4u);
  EXPECT_EQ(c.dram_read_bytes, 0u);
}

TEST(L2CacheTest, PartialWriteIsNotReadableUntilFetched) {
  auto l2 = make(small_l2());
  RecordingSink sink;
  AccessCounters c;
  LineAccess half{0x0, 0b0001, {0x0000ffffu, 0, 0, 0}};
  l2.write(half, {1, 0}, c, sink);
  EXPECT_EQ(c.dram_read_bytes, 0u);
  l2.read(0x0, 0b0001, c, sink);
  EXPECT_EQ(c.l2_read_sector_misses, 1u);
  EXPECT_EQ(c.dram_read_bytes, 64u);
  // Two partial writes that together cover a sector make it readable without DRAM.
  LineAccess lo{0x80, 0b0001, {0x0000ffffu, 0, 0, 0}}, hi{0x80, 0b0001, {0xffff0000u, 0, 0, 0}};
  l2.write(lo, {1, 0}, c, sink);
  l2.write(hi, {1, 0}, c, sink);
  AccessCounters r;
  l2.read(0x80, 0b0001, r, sink);
  EXPECT_EQ(r.l2_read_sector_hits, 1u);
}

TEST(L2CacheTest, AWriteBackSaysWhichOfItsSectorsWereOnlyPartlyWritten) {
  // Line 0: sector 0 half written, sector 1 whole. Line 1: sector 0 half written, then read
  // (the fetch merges it: it holds data). Line 2: sector 0 written in two halves. Only line 0's
  // sector 0 is handed over as partial (what dram.partial_write_reads reads before writing).
  auto l2 = make(small_l2());
  RecordingSink sink;
  AccessCounters c;
  l2.write({0x0, 0b0011, {0x0000ffffu, 0xffffffffu, 0, 0}}, {1, 0}, c, sink);
  l2.write({0x80, 0b0001, {0x0000ffffu, 0, 0, 0}}, {1, 0}, c, sink);
  l2.read(0x80, 0b0001, c, sink);
  l2.write({0x100, 0b0001, {0x0000ffffu, 0, 0, 0}}, {1, 0}, c, sink);
  l2.write({0x100, 0b0001, {0xffff0000u, 0, 0, 0}}, {1, 0}, c, sink);
  l2.flush(sink, /*keep=*/false);
  ASSERT_EQ(sink.write_addrs.size(), 4u);  // 2 + 1 + 1 dirty sectors
  std::vector<std::uint8_t> partials = sink.partials;
  std::sort(partials.begin(), partials.end());
  EXPECT_EQ(partials, (std::vector<std::uint8_t>{0, 0, 0b0001}));
}

TEST(L2CacheTest, BytesWrittenBeforeAnEvictionOrFlushDoNotCompleteALaterSector) {
  // The first half of a sector, written into a line that then leaves (eviction, flush with or
  // without keeping the line): the second half written later must not make the sector readable.
  const LineAccess lo{0x0, 0b0001, {0x0000ffffu, 0, 0, 0}};
  const LineAccess hi{0x0, 0b0001, {0xffff0000u, 0, 0, 0}};
  for (int leave = 0; leave < 3; ++leave) {
    auto l2 = make(small_l2(64, 1));  // direct-mapped, 8 sets
    RecordingSink sink;
    AccessCounters c;
    l2.write(lo, {1, 0}, c, sink);
    if (leave == 0) {
      l2.read(0x0 + 8 * 128, 0b0001, c, sink);  // evicts the partly written line
    } else {
      l2.flush(sink, /*keep=*/leave == 2);
    }
    EXPECT_EQ(sink.bytes, 32u) << leave;  // the partial sector was written back
    l2.write(hi, {1, 0}, c, sink);
    AccessCounters r;
    l2.read(0x0, 0b0001, r, sink);
    EXPECT_EQ(r.l2_read_sector_misses, 1u) << leave;
    EXPECT_EQ(r.dram_read_bytes, 64u) << leave;
    // Now valid (fetched): more partial writes keep it readable.
    l2.write(lo, {1, 0}, c, sink);
    AccessCounters again;
    l2.read(0x0, 0b0001, again, sink);
    EXPECT_EQ(again.l2_read_sector_hits, 1u) << leave;
  }
}

TEST(L2CacheTest, DirtyEvictionAndFlushWriteBackToTheirOwner) {
  L2Config cfg = small_l2(64, 1);  // direct-mapped: 8 sets... 1 KiB / 128 B / 1 way = 8 sets
  auto l2 = make(cfg);
  RecordingSink sink;
  AccessCounters c;
  l2.write(full_write(0x0, 0b0011), {1, 7}, c, sink);
  l2.read(0x0 + 8 * 128, 0b0001, c, sink);  // same set, evicts the dirty line
  EXPECT_EQ(sink.bytes, 64u);
  ASSERT_EQ(sink.owners.size(), 1u);
  EXPECT_EQ(sink.owners[0].row, 7u);
  EXPECT_EQ(sink.write_addrs, (std::vector<Addr>{0x0, 0x20}));
  l2.write(full_write(0x80, 0b1000), {1, 3}, c, sink);
  l2.flush(sink, /*keep=*/false);
  EXPECT_EQ(sink.bytes, 96u);
  AccessCounters after;
  l2.read(0x80, 0b1000, after, sink);  // the flush emptied the cache
  EXPECT_EQ(after.l2_read_sector_misses, 1u);
}

TEST(L2CacheTest, AtomicsFetchAndDirty) {
  auto l2 = make(small_l2());
  RecordingSink sink;
  AccessCounters c;
  l2.atomic(full_write(0x0, 0b0001), {1, 2}, c, sink);
  EXPECT_EQ(c.l2_atomic_sectors, 1u);
  EXPECT_EQ(c.dram_read_bytes, 64u);
  l2.flush(sink, false);
  EXPECT_EQ(sink.bytes, 32u);
}

TEST(L2CacheTest, SliceHashSpreadsStridedStreams) {
  L2Config cfg = default_config().l2;
  cfg.slices = 96;
  cfg.size_kb = 61440;
  cfg.partitions = 1;  // the slice hash alone
  cfg.hash = SliceHash::Linear;
  auto linear = L2Cache<LruPolicy>(cfg, std::vector<LruPolicy>(96));
  cfg.hash = SliceHash::Xor;
  auto hashed = L2Cache<LruPolicy>(cfg, std::vector<LruPolicy>(96));
  // A stride of 96 x 256 bytes lands on one slice when interleaved, on many when hashed.
  std::set<std::uint32_t> a, b;
  for (Addr i = 0; i < 64; ++i) {
    a.insert(linear.slice_of(i * 96 * 256));
    b.insert(hashed.slice_of(i * 96 * 256));
  }
  EXPECT_EQ(a.size(), 1u);
  EXPECT_GT(b.size(), 16u);
  // Consecutive 256-byte chunks go round the slices when interleaved.
  EXPECT_EQ(linear.slice_of(0), 0u);
  EXPECT_EQ(linear.slice_of(256), 1u);
  EXPECT_EQ(linear.slice_of(255), 0u);
}

// Near/far partitions, by hand: 2 slices of 2 sets x 2 ways (1 KiB), linear at 128 bytes, so
// line n homes in slice n % 2 (partition n % 2) at set (n / 2) % 2; SM 0 is near partition 0
// (slice 0), SM 1 near partition 1 (slice 1). One sector per read.
L2Config partitioned_l2() {
  L2Config c = small_l2(32);
  c.slices = 2;
  c.partitions = 2;
  return c;
}

L2Cache<LruPolicy> make_partitioned(const L2Config& c) {
  return L2Cache<LruPolicy>(c, std::vector<LruPolicy>(c.slices), /*sm_count=*/2);
}

/// Hits, far hits and misses of one lap of SM `sm` over lines 0..lines-1.
struct Lap {
  std::uint64_t hits = 0, far = 0, misses = 0;
  bool operator==(const Lap&) const = default;
};
Lap lap(L2Cache<LruPolicy>& l2, std::uint32_t sm, Addr lines, RecordingSink& sink) {
  AccessCounters c;
  for (Addr n = 0; n < lines; ++n) l2.read(n * 128, 0b0001, sm, c, sink);
  EXPECT_EQ(c.l2_read_sectors, lines);
  return {c.l2_read_sector_hits, l2.take_far_hit_sectors(), c.l2_read_sector_misses};
}

std::ostream& operator<<(std::ostream& o, const Lap& l) {
  return o << "{hits " << l.hits << ", far " << l.far << ", misses " << l.misses << "}";
}

TEST(L2PartitionTest, ChaseWithinHalfTheL2EndsInTheNearPartition) {
  // Lines 0-3, half the L2: lap 1 misses all, and the DRAM fills of lines 1 and 3 (homed in
  // slice 1) are copied into slice 0 as well; lap 2 is all near, as is lap 3.
  auto l2 = make_partitioned(partitioned_l2());
  RecordingSink sink;
  EXPECT_EQ(lap(l2, 0, 4, sink), (Lap{0, 0, 4}));
  EXPECT_EQ(lap(l2, 0, 4, sink), (Lap{4, 0, 0}));
  EXPECT_EQ(lap(l2, 0, 4, sink), (Lap{4, 0, 0}));
  EXPECT_EQ(sink.read_bytes, 4u * 32);
}

TEST(L2PartitionTest, ChaseBeyondHalfTheL2HitsFar) {
  // Lines 0-5, three quarters of the L2. Slice 0's set 0 holds home lines 0 and 4 and would
  // need the copies of 1 and 5 too: 4 lines in 2 ways (2 ways: a copy enters at the front, 50%
  // of one way behind it rounding to none). Lap 1 leaves set 0 as [5's copy, 4]. Lap 2
  // (hand-traced LRU): 0 misses (evicts 4), 1 far (its copy evicts 5's), 2 and 3 near (set 1
  // holds 2 and 3's copy), 4 misses (evicts 0), 5 far (its copy evicts 1's): set 0 is
  // [5's copy, 4] again, so lap 3 repeats lap 2.
  auto l2 = make_partitioned(partitioned_l2());
  RecordingSink sink;
  EXPECT_EQ(lap(l2, 0, 6, sink), (Lap{0, 0, 6}));
  EXPECT_EQ(lap(l2, 0, 6, sink), (Lap{4, 2, 2}));
  EXPECT_EQ(lap(l2, 0, 6, sink), (Lap{4, 2, 2}));
  // Without partitions the same 6 lines fit the 8-line L2: lap 2 is all hits.
  L2Config one = partitioned_l2();
  one.partitions = 1;
  auto uniform = make(one);
  EXPECT_EQ(lap(uniform, 0, 6, sink), (Lap{0, 0, 6}));
  EXPECT_EQ(lap(uniform, 0, 6, sink), (Lap{6, 0, 0}));
}

TEST(L2PartitionTest, ACopyEntersItsSetHalfWay) {
  // 2 slices of 1 set x 4 ways; even lines home in slice 0 (SM 0's partition), odd ones in
  // slice 1. SM 0 reads home lines 0, 2, 4, then far line 1 (a DRAM fill, copied into slice 0),
  // then home lines 6, 8, 10. At 50% the copy enters behind one way (50% of 3): [4, 1', 2, 0];
  // 6 evicts 0, 8 evicts 2, 10 evicts the copy: [10, 8, 6, 4], and SM 0's next read of line 1
  // is far. At 0% it enters at the front ([1', 4, 2, 0]), 10 evicts 4 instead ([10, 8, 6, 1']),
  // and the next read of line 1 is near.
  for (const std::uint32_t pct : {50u, 0u}) {
    L2Config cfg = small_l2(32, 4);
    cfg.slices = 2;
    cfg.partitions = 2;
    cfg.copy_insert_pct = pct;
    auto l2 = make_partitioned(cfg);
    RecordingSink sink;
    AccessCounters c;
    for (const Addr line : {0, 2, 4, 1, 6, 8, 10}) l2.read(line * 128, 0b0001, 0, c, sink);
    EXPECT_EQ(c.l2_read_sector_misses, 7u);
    EXPECT_EQ(l2.take_far_hit_sectors(), 0u);
    AccessCounters again;
    l2.read(1 * 128, 0b0001, 0, again, sink);
    EXPECT_EQ(again.l2_read_sector_hits, 1u);
    EXPECT_EQ(l2.take_far_hit_sectors(), pct == 50 ? 1u : 0u);
  }
}

TEST(L2PartitionTest, TwoSmsInDifferentPartitionsShareALine) {
  auto l2 = make_partitioned(partitioned_l2());
  RecordingSink sink;
  AccessCounters c;
  // Line 1 homes in partition 1: SM 1 reads it near (a miss, then a hit); SM 0 hits it far once,
  // then near (its copy in slice 0).
  l2.read(128, 0b0001, 1, c, sink);
  l2.read(128, 0b0001, 0, c, sink);
  EXPECT_EQ(l2.take_far_hit_sectors(), 1u);
  l2.read(128, 0b0001, 0, c, sink);
  l2.read(128, 0b0001, 1, c, sink);
  EXPECT_EQ(l2.take_far_hit_sectors(), 0u);
  EXPECT_EQ(c.l2_read_sector_hits, 3u);
  EXPECT_EQ(c.l2_read_sector_misses, 1u);
  // The copy takes capacity: slice 0's set 0 holds it and home line 0; home line 4 evicts it
  // (LRU), so SM 0's next read of line 1 is far again, and so is one after a store by SM 1
  // (the store goes home and drops the written sector from the copy).
  l2.read(0, 0b0001, 0, c, sink);
  l2.read(4 * 128, 0b0001, 0, c, sink);
  l2.read(128, 0b0001, 0, c, sink);
  EXPECT_EQ(l2.take_far_hit_sectors(), 1u);
  l2.read(128, 0b0001, 0, c, sink);
  EXPECT_EQ(l2.take_far_hit_sectors(), 0u);
  AccessCounters w;
  l2.write(full_write(128, 0b0001), {1, 1}, w, sink);
  l2.read(128, 0b0001, 0, c, sink);
  EXPECT_EQ(l2.take_far_hit_sectors(), 1u);
  // Copies are clean: the flush writes back the one dirty home line, once.
  l2.flush(sink, false);
  EXPECT_EQ(sink.bytes, 32u);
}

}  // namespace
}  // namespace gms
