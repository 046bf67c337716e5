// The cold model's shortcut for scattered warps against the coalescer: the same counts, and the
// same sectors and transaction bytes per unit as charging the coalescer's lines one by one.
#include "sim/replay/fast/scattered_warp.h"

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <random>

#include "sim/config/config.h"
#include "sim/lanes/cpu_features.h"
#include "sim/model/coalescer.h"
#include "tests/sim/same_counts.h"
#include "tests/sim/warp_builder.h"

namespace gms {
namespace {

/// A full warp of list addresses aligned to `size`: random lanes over `span` bytes from `base`,
/// some lanes repeating another's address, line or sector.
WarpInstr scattered(std::mt19937_64& rng, Op op, unsigned size, Addr base, Addr span) {
  std::array<Addr, kWarpSize> a;
  for (unsigned t = 0; t < kWarpSize; ++t) {
    Addr x = base + rng() % span;
    const unsigned kind = static_cast<unsigned>(rng() % 8);
    if (t > 0 && kind == 0) x = a[rng() % t];                               // same address
    if (t > 0 && kind == 1) x = (a[rng() % t] & ~Addr{127}) + rng() % 128;  // same line
    if (t > 0 && kind == 2) x = (a[rng() % t] & ~Addr{31}) + rng() % 32;    // same sector
    a[t] = x & ~Addr{size - 1};
  }
  return test::warp(op, size, [&](int t) { return a[static_cast<unsigned>(t)]; });
}

struct PerUnit {
  std::map<std::uint32_t, std::uint64_t> sectors, segment_bytes;
};

TEST(ScatteredWarpTest, CountsAndUnitsMatchTheCoalescersLines) {
  if (!cpu_has_avx512f())
    GTEST_SKIP() << "AVX-512F paths off: the CPU has none, or GMS_PORTABLE is set";
  std::mt19937_64 rng(21);
  const Interleave maps[] = {
      Interleave(96, 256, SliceHash::Xor), Interleave(24, 128, SliceHash::Linear),
      Interleave(7, 4096, SliceHash::Xor), Interleave(1, 256, SliceHash::Xor)};
  const Op ops[] = {Op::LDG, Op::STG, Op::ATOMG, Op::LDL, Op::RED, Op::STL};
  // Spans inside and past the 32-bit offsets of the vector analysis (2^32 - 128 and up: the
  // 64-bit path), at their edge.
  const Addr spans[] = {256,           4096,          Addr{1} << 30, (Addr{1} << 32) - 200,
                        Addr{1} << 32, Addr{1} << 36, ~Addr{0}};
  for (std::uint32_t segment : {32u, 64u, 128u}) {
    SimConfig cfg = default_config();
    cfg.coalescer.segment_bytes = segment;
    validate(cfg);
    const Coalescer coalescer(cfg.coalescer);
    for (int round = 0; round < 3000; ++round) {
      const Op op = ops[round % 6];
      const unsigned size = 1u << (round % 5);
      const Addr span = spans[round % 7];
      // Some warps at the top of the address space.
      const Addr base = round % 11 == 0 ? ~Addr{0} - span + 1 : rng() >> 20;
      const WarpInstr w = scattered(rng, op, size, base, span);
      const Interleave& map = maps[round % 4];
      ScatteredWarp s;
      ASSERT_TRUE(analyze_scattered_warp(w, coalescer.segment_bytes(op), map, s)) << round;
      CoalescedAccess a;
      coalescer.coalesce(w, a);
      EXPECT_TRUE(test::same_counts(s, a)) << round;
      PerUnit want, got;
      for (std::uint32_t i = 0; i < a.lines; ++i) {
        const LineAccess& la = a.line_list[i];
        const std::uint32_t u = map.unit_of(la.line_addr);
        want.sectors[u] += static_cast<std::uint64_t>(std::popcount(la.sector_mask));
        want.segment_bytes[u] += coalescer.line_transactions(op, la.sector_mask) * a.segment_bytes;
      }
      for (unsigned i = 0; i < kWarpSize; ++i) {
        if (s.sector_starts >> i & 1) got.sectors[s.unit[i]] += 1;
        if (s.segment_starts >> i & 1) got.segment_bytes[s.unit[i]] += s.segment_bytes;
      }
      EXPECT_EQ(got.sectors, want.sectors) << round;
      EXPECT_EQ(got.segment_bytes, want.segment_bytes) << round;
    }
  }
}

TEST(ScatteredWarpTest, OffsetsAtTheEdgeOfThirtyTwoBits) {
  // Offsets are taken from the smallest address's line start: a warp whose smallest address is
  // 64 bytes into its line and whose largest lies 2^32 - 64 above it would overflow 32 bits.
  if (!cpu_has_avx512f())
    GTEST_SKIP() << "AVX-512F paths off: the CPU has none, or GMS_PORTABLE is set";
  SimConfig cfg = default_config();
  validate(cfg);
  const Coalescer coalescer(cfg.coalescer);
  const Interleave map(96, 256, SliceHash::Xor);
  for (const Addr top : {(Addr{1} << 32) - 64, (Addr{1} << 32) - 132, (Addr{1} << 32) - 128}) {
    const Addr least = 0x123456789040ull;  // its line and the top one hash to different slices
    // Lane 0 holds the largest address, lane 31 the smallest: unsorted.
    const WarpInstr w = test::warp(Op::LDG, 4, [&](int t) {
      const Addr lane = t == 0 ? 31 : t == 31 ? 0 : static_cast<Addr>(t);
      return least + (lane == 31 ? top : top / 31 * lane & ~Addr{3});
    });
    ScatteredWarp s;
    ASSERT_TRUE(analyze_scattered_warp(w, 32, map, s));
    CoalescedAccess a;
    coalescer.coalesce(w, a);
    EXPECT_EQ(s.lines, a.lines) << top;
    EXPECT_EQ(s.sectors, a.sectors) << top;
    std::map<std::uint32_t, int> want, got;
    for (std::uint32_t i = 0; i < a.lines; ++i) ++want[map.unit_of(a.line_list[i].line_addr)];
    for (unsigned i = 0; i < kWarpSize; ++i)
      if (s.sector_starts >> i & 1) ++got[s.unit[i]];
    EXPECT_EQ(got, want) << top;
  }
}

TEST(ScatteredWarpTest, DeclinesWhatTheCoalescerMustWalk) {
  std::mt19937_64 rng(22);
  const Interleave map(96, 256, SliceHash::Xor);
  ScatteredWarp s;
  WarpInstr w = scattered(rng, Op::LDG, 4, 0x10000000, 1 << 20);
  if (cpu_has_avx512f()) {
    EXPECT_TRUE(analyze_scattered_warp(w, 32, map, s));
  }
  WarpInstr unaligned = w;
  unaligned.addr[17] += 2;  // a 4-byte access at an odd half: may straddle a sector
  EXPECT_FALSE(analyze_scattered_warp(unaligned, 32, map, s));
  WarpInstr partial = w;
  partial.mask = 0xfffffffeu;
  EXPECT_FALSE(analyze_scattered_warp(partial, 32, map, s));
  WarpInstr strided = w;
  strided.strided = true;
  strided.stride = 4;
  EXPECT_FALSE(analyze_scattered_warp(strided, 32, map, s));
}

}  // namespace
}  // namespace gms
