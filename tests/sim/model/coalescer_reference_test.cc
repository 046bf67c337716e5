// The coalescer (sorting network, range merging, counts read off the line list) against a
// brute-force reference that enumerates every byte the active lanes touch, on random warps built
// to overlap, duplicate, cross sectors and lines, and sit at the top of the address space.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <random>
#include <set>

#include "sim/config/config.h"
#include "sim/lanes/sorting_network.h"
#include "sim/model/coalescer.h"

namespace gms {
namespace {

/// Random keys (many duplicates in every third round, the largest key in every fifth).
std::array<std::uint64_t, 32> random_keys(std::mt19937_64& rng, int round) {
  std::array<std::uint64_t, 32> v;
  const std::uint64_t range = round % 3 == 0 ? 8 : ~std::uint64_t{0};
  for (auto& x : v) x = rng() % range;
  if (round % 5 == 0) v[rng() % 32] = std::numeric_limits<std::uint64_t>::max();
  return v;
}

TEST(SortingNetworkTest, ScalarNetworkSortsLikeStdSort) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20000; ++round) {
    auto v = random_keys(rng, round);
    auto expect = v;
    std::sort(expect.begin(), expect.end());
    sort32_network(v);
    ASSERT_EQ(v, expect) << "round " << round;
  }
}

TEST(SortingNetworkTest, VectorNetworkSortsLikeStdSort) {
  if (!detail::avx512_available())
    GTEST_SKIP() << "AVX-512F paths off: the CPU has none, or GMS_PORTABLE is set";
  std::mt19937_64 rng(8);
  for (int round = 0; round < 20000; ++round) {
    auto v = random_keys(rng, round);
    auto expect = v;
    std::sort(expect.begin(), expect.end());
    detail::sort32_avx512(v);
    ASSERT_EQ(v, expect) << "round " << round;
  }
}

TEST(SortingNetworkTest, ActiveLanesSortedThenTheLargestKey) {
  std::mt19937_64 rng(9);
  for (int round = 0; round < 20000; ++round) {
    const auto addr = random_keys(rng, round);
    const auto mask = static_cast<LaneMask>(round % 7 == 0 ? 0xffffffffu : rng() | 1u);
    std::array<Addr, kWarpSize> expect;
    expect.fill(std::numeric_limits<Addr>::max());
    int n = 0;
    for (int lane = 0; lane < kWarpSize; ++lane)
      if (mask >> lane & 1) expect[n++] = addr[lane];
    std::sort(expect.begin(), expect.begin() + n);
    std::array<Addr, kWarpSize> out;
    ASSERT_EQ(detail::sort_active_lanes_network(addr, mask, out), n);
    ASSERT_EQ(out, expect) << "round " << round;
    if (!detail::avx512_available()) continue;
    out.fill(0);
    ASSERT_EQ(detail::sort_active_lanes_avx512(addr, mask, out), n);
    ASSERT_EQ(out, expect) << "round " << round;
  }
}

TEST(SortingNetworkTest, WarpsWithin4GiBSortAsOffsets) {
  // The vector sort narrows a warp whose active addresses lie within 4 GiB of the smallest to
  // 32-bit offsets. Spans at the edge: an offset of exactly 2^32 - 1 (equal to an inactive
  // lane's narrowed key), 2^32 (too wide), near the top of the address space, partial masks.
  if (!detail::avx512_available())
    GTEST_SKIP() << "AVX-512F paths off: the CPU has none, or GMS_PORTABLE is set";
  std::mt19937_64 rng(10);
  const std::uint64_t edges[] = {0, 1, 0xfffffffeull, 0xffffffffull, 0x100000000ull};
  for (int round = 0; round < 20000; ++round) {
    const std::uint64_t base =
        round % 4 == 0 ? std::numeric_limits<Addr>::max() - 0xffffffffull : rng() >> (round % 40);
    std::array<Addr, kWarpSize> addr;
    for (auto& a : addr)
      a = base + (rng() % 3 == 0 ? edges[rng() % 5] % (round % 4 == 0 ? 0x100000000ull : ~0ull)
                                 : rng() % 0x100000000ull);
    const auto mask = static_cast<LaneMask>(round % 3 == 0 ? 0xffffffffu : rng() | 1u);
    std::array<Addr, kWarpSize> expect, out;
    const int n = detail::sort_active_lanes_network(addr, mask, expect);
    out.fill(0);
    ASSERT_EQ(detail::sort_active_lanes_avx512(addr, mask, out), n);
    ASSERT_EQ(out, expect) << "round " << round;
  }
}

struct Reference {
  std::set<Addr> bytes;
  std::map<Addr, std::uint8_t> line_masks;
  std::map<Addr, std::array<std::uint32_t, kSectorsPerLine>> byte_masks;
};

Reference reference(const WarpInstr& w) {
  Reference r;
  for (int t = 0; t < kWarpSize; ++t) {
    if (!(w.mask >> t & 1)) continue;
    for (Addr i = 0; i < w.size; ++i) {
      if (w.addr[t] > std::numeric_limits<Addr>::max() - i) break;  // clipped at the top
      const Addr b = w.addr[t] + i;
      r.bytes.insert(b);
      const Addr line = b & ~Addr{kLineBytes - 1};
      const unsigned sector = static_cast<unsigned>((b - line) / kSectorBytes);
      r.line_masks[line] |= static_cast<std::uint8_t>(1u << sector);
      r.byte_masks[line][sector] |= 1u << (b % kSectorBytes);
    }
  }
  return r;
}

std::uint32_t blocks(const std::set<Addr>& bytes, Addr block_bytes) {
  std::set<Addr> b;
  for (Addr x : bytes) b.insert(x / block_bytes);
  return static_cast<std::uint32_t>(b.size());
}

TEST(CoalescerReferenceTest, RandomWarpsMatchByteEnumeration) {
  std::mt19937_64 rng(11);
  const Op ops[] = {Op::LDG, Op::STG, Op::ATOMG, Op::LDL};
  const unsigned sizes[] = {1, 2, 4, 8, 16};
  for (std::uint32_t segment : {32u, 64u, 128u}) {
    CoalescerConfig cfg = default_config().coalescer;
    cfg.load_segment_bytes = cfg.store_segment_bytes = segment;
    const Coalescer coalescer(cfg);
    for (int round = 0; round < 3000; ++round) {
      WarpInstr w;
      w.op = ops[rng() % 4];
      w.size = static_cast<std::uint8_t>(sizes[rng() % 5]);
      w.mask = round % 4 == 0 ? 0xffffffffu : static_cast<LaneMask>(rng() | 1);
      const Addr base = round % 7 == 0 ? std::numeric_limits<Addr>::max() - 300 : rng() >> 8;
      const Addr spread = Addr{1} << (rng() % 12);  // from all-duplicates to scattered
      for (auto& a : w.addr) a = base + (rng() % spread) / w.size * w.size;
      CoalescedAccess out;
      coalescer.coalesce(w, out);
      const Reference r = reference(w);
      ASSERT_EQ(out.bytes_distinct, r.bytes.size()) << "round " << round;
      ASSERT_EQ(out.sectors, blocks(r.bytes, kSectorBytes)) << "round " << round;
      ASSERT_EQ(out.transactions, blocks(r.bytes, segment)) << "round " << round;
      ASSERT_EQ(out.lines, r.line_masks.size()) << "round " << round;
      ASSERT_EQ(out.active_threads, static_cast<std::uint32_t>(std::popcount(w.mask)));
      std::uint32_t i = 0;
      for (const auto& [line, mask] : r.line_masks) {  // increasing address order
        const LineAccess& la = out.line_list[i++];
        ASSERT_EQ(la.line_addr, line) << "round " << round;
        ASSERT_EQ(la.sector_mask, mask) << "round " << round;
        if (w.op == Op::LDG || w.op == Op::LDL) continue;  // byte masks are for writes only
        for (unsigned s = 0; s < kSectorsPerLine; ++s)
          if (mask >> s & 1) {
            ASSERT_EQ(la.byte_mask[s], r.byte_masks.at(line)[s]);
          }
      }
    }
  }
}

}  // namespace
}  // namespace gms
