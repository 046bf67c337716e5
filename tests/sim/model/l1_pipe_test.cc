// The L1TEX pipeline cost (sim/model/l1_pipe.h) on cases worked out by hand, and against the
// reference's byte-walking version on random warps.
#include "sim/model/l1_pipe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "sim/replay/reference/plain_l1_pipe.h"
#include "tests/sim/warp_builder.h"

namespace gms {
namespace {

using test::strided;
using test::warp;

struct PipeCase {
  const char* name;
  WarpInstr w;
  std::uint32_t tag_lookups;
  std::uint32_t data_wavefronts;
};

TEST(L1PipeTest, HandWorkedCases) {
  const PipeCase cases[] = {
      // Each quarter-warp's 32 bytes lie in line 0; words 0-31, one a bank.
      {"4-byte unit stride", strided(Op::LDG, 4, 0, 4), 4, 1},
      // One word: a lookup per quarter (the floor of 4 besides), one wavefront.
      {"4-byte broadcast", strided(Op::LDG, 4, 0x1000, 0), 4, 1},
      // Half-warps go through the data stage apart: one wavefront each.
      {"8-byte broadcast", strided(Op::LDG, 8, 0x1000, 0), 4, 2},
      // Lanes 4 + 4t: quarter 3 (bytes 100-131) touches lines 0 and 1; words 1-32, one a bank.
      {"misaligned unit stride", strided(Op::LDG, 4, 4, 4), 5, 1},
      // Words 2t: quarters of 64 bytes, one line each; 16 banks with two words each.
      {"stride 2 words", strided(Op::LDG, 4, 0, 8), 4, 2},
      // Quarters at bytes 0-95 (line 0), 96-191 (lines 0, 1), 192-287 (1, 2), 288-383 (2): 6
      // lookups; words 3t fall in 32 different banks (3 and 32 share no factor).
      {"stride 3 words", strided(Op::LDG, 4, 0, 12), 6, 1},
      // Quarters of 256 bytes, two lines each; words 8t: banks 0, 8, 16, 24, eight words each.
      {"stride 8 words", strided(Op::LDG, 4, 0, 32), 8, 8},
      // A line per lane; every word in bank 0.
      {"stride 32 words", strided(Op::LDG, 4, 0, 128), 32, 32},
      // 8-byte lanes 32 bytes apart: half-warps of 512 bytes, words 8t and 8t + 1: per half,
      // banks 0, 1, 8, 9, ... with four words each: 4 + 4. Quarters of 256 bytes: 2 lines each.
      {"8-byte stride 4 elements", strided(Op::LDG, 8, 0, 32), 8, 8},
      // 16-byte unit stride: quarters of 128 bytes (a line each), quarter-warps through the data
      // stage, one wavefront each.
      {"16-byte unit stride", strided(Op::LDG, 16, 0, 16), 4, 4},
      // Lane t at 4t + 2 covers words t and t + 1: words 0-32, two of them (0, 32) in bank 0.
      // Lane 31 (bytes 126-129) crosses into line 1: quarter 3 looks up two lines.
      {"4-byte lanes across words", strided(Op::LDG, 4, 2, 4), 5, 2},
      // One lane: one lookup, raised to the floor of one cycle.
      {"one lane", strided(Op::STG, 4, 0x40, 4, 0x1u), 4, 1},
      // Lanes of one quarter in four lines, the other quarters inactive; words 0, 32, 64 and
      // 96, all in bank 0.
      {"one quarter, four lines",
       warp(
           Op::LDG, 4, [](int t) { return Addr(t % 4) * 128; }, 0xffu),
       4, 4},
  };
  for (const PipeCase& c : cases) {
    const L1PipeCost cost = l1_pipe_cost(c.w);
    EXPECT_EQ(cost.tag_lookups, c.tag_lookups) << c.name;
    EXPECT_EQ(cost.data_wavefronts, c.data_wavefronts) << c.name;
  }
}

TEST(L1PipeTest, StridedRecordWithOnlyItsEndLanesCostsTheSame) {
  for (const std::int64_t stride : {-12, 0, 4, 12, 200}) {
    WarpInstr full = strided(Op::LDG, 4, 0x10000, stride, 0x0ffffff0u);
    WarpInstr ends = full;
    for (unsigned i = 5; i < 27; ++i) ends.addr[i] = 0;
    ends.lanes_complete = false;
    EXPECT_EQ(l1_pipe_cost(ends), l1_pipe_cost(full)) << stride;
  }
}

TEST(L1PipeTest, AgreesWithTheReferenceOnRandomWarps) {
  std::mt19937_64 rng(34);
  const unsigned sizes[] = {1, 2, 4, 8, 16};
  for (int round = 0; round < 5000; ++round) {
    const unsigned size = sizes[rng() % 5];
    // Narrow ranges make shared words and lines; every seventh warp sits at the top of memory.
    const Addr range = Addr{64} << (rng() % 12);
    const Addr base = round % 7 == 0 ? ~Addr{0} - range : (rng() % 1000) * 4096;
    const bool aligned = rng() % 2 == 0;
    const LaneMask mask = rng() % 3 == 0 ? static_cast<LaneMask>(rng()) | 1u : 0xffffffffu;
    const WarpInstr w = warp(
        Op::LDG, size,
        [&](int) {
          const Addr a = base + rng() % range;
          return aligned ? a & ~Addr{size - 1} : a;
        },
        mask);
    const L1PipeCost fast = l1_pipe_cost(w);
    const ref::PlainPipe plain = ref::l1_pipe(w);
    ASSERT_EQ(fast.tag_lookups, plain.tag_lookups) << round;
    ASSERT_EQ(fast.data_wavefronts, plain.data_wavefronts) << round;
    // The same lanes handed over sorted, as the coalescer does.
    std::vector<Addr> sorted;
    for (unsigned i = 0; i < kWarpSize; ++i)
      if (mask >> i & 1u) sorted.push_back(w.addr[i]);
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(l1_pipe_cost(w, sorted), fast) << round;
  }
}

TEST(L1PipeTest, StridedRecordsAgreeWithTheReference) {
  // The closed forms of full strided warps (and the general path where they have none): aligned
  // and not, strides of a few bytes to several lines, both signs, near both ends of memory.
  std::mt19937_64 rng(35);
  const unsigned sizes[] = {1, 2, 4, 8, 16};
  for (int round = 0; round < 20000; ++round) {
    const unsigned size = sizes[rng() % 5];
    const std::int64_t unit = rng() % 2 == 0 ? size : 1 + rng() % 8;
    std::int64_t stride = unit * static_cast<std::int64_t>(rng() % 80);
    if (rng() % 3 == 0) stride = -stride;
    Addr base = (rng() % 100000) * (rng() % 2 == 0 ? size : 1);
    if (round % 11 == 0) base = ~Addr{0} - rng() % 4096;
    if (round % 13 == 0) base = rng() % 4096;
    const LaneMask mask = rng() % 4 == 0 ? static_cast<LaneMask>(rng()) | 1u : 0xffffffffu;
    const WarpInstr w = strided(Op::LDG, size, base, stride, mask);
    const L1PipeCost fast = l1_pipe_cost(w);
    const ref::PlainPipe plain = ref::l1_pipe(w);
    ASSERT_EQ(fast.tag_lookups, plain.tag_lookups)
        << "size " << size << " stride " << stride << " base " << base << " mask " << mask;
    ASSERT_EQ(fast.data_wavefronts, plain.data_wavefronts)
        << "size " << size << " stride " << stride << " base " << base << " mask " << mask;
  }
}

}  // namespace
}  // namespace gms
