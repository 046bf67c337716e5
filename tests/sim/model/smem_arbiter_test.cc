// Shared-memory wavefronts: the notes' section C and B6, and the H200's wide-access rows.
#include "sim/model/smem_arbiter.h"

#include <gtest/gtest.h>

#include <numeric>

#include "tests/sim/warp_builder.h"

namespace gms {
namespace {

using test::strided;

BankAccess arbitrate(const WarpInstr& w, std::uint32_t banks = 32, std::uint32_t width = 4) {
  return SmemArbiter(SharedMemConfig{banks, width}).arbitrate(w);
}

TEST(SmemArbiterTest, FourByteStridesGiveGcdWavefronts) {
  for (int s = 1; s <= 64; ++s) {
    const BankAccess b = arbitrate(strided(Op::LDS, 4, 0, 4 * s));
    EXPECT_EQ(b.wavefronts, static_cast<std::uint32_t>(std::gcd(s, 32))) << "stride " << s;
    EXPECT_EQ(b.ideal_wavefronts, 1u) << "stride " << s;
  }
}

TEST(SmemArbiterTest, NotesTableC) {
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0, 4)).wavefronts, 1u);
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0, 8)).wavefronts, 2u);
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0, 12)).wavefronts, 1u);
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0, 64)).wavefronts, 16u);
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0, 128)).wavefronts, 32u);
}

TEST(SmemArbiterTest, TileColumnReadPaddedAndUnpadded) {
  // B6: float tile[32][32], lane i reads tile[i][0] -> 32 wavefronts; [32][33] -> 1.
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0, 32 * 4)).wavefronts, 32u);
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0, 33 * 4)).wavefronts, 1u);
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0, 32 * 4)).conflicts(), 31u);
}

TEST(SmemArbiterTest, BroadcastIsFree) {
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0x40, 0)).wavefronts, 1u);  // B4s
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0x40, 0)).conflicts(), 0u);
}

TEST(SmemArbiterTest, HopperWideAccessRows) {
  // docs/groundtruth.md (the H200's rows; docs/examples.md C7-C10): 8-byte conflict-free 2, 8-byte
  // broadcast 1, 8-byte at a stride of 32 elements 32 (not 16), 16-byte conflict-free 4.
  const BankAccess free8 = arbitrate(strided(Op::LDS, 8, 0, 8));
  EXPECT_EQ(free8.wavefronts, 2u);
  EXPECT_EQ(free8.ideal_wavefronts, 2u);
  EXPECT_EQ(arbitrate(strided(Op::LDS, 8, 0, 0)).wavefronts, 1u);
  EXPECT_EQ(arbitrate(strided(Op::LDS, 8, 0, 8 * 32)).wavefronts, 32u);
  const BankAccess free16 = arbitrate(strided(Op::LDS, 16, 0, 16));
  EXPECT_EQ(free16.wavefronts, 4u);
  EXPECT_EQ(free16.ideal_wavefronts, 4u);
  EXPECT_EQ(free16.conflicts(), 0u);
}

TEST(SmemArbiterTest, KeplerEightByteBanks) {
  // 8-byte bank mode: 4-byte unit stride fits in 16 banks; 8-byte unit stride in 32 banks.
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0, 4), 32, 8).wavefronts, 1u);
  EXPECT_EQ(arbitrate(strided(Op::LDS, 8, 0, 8), 32, 8).wavefronts, 1u);
  EXPECT_EQ(arbitrate(strided(Op::LDS, 8, 0, 16), 32, 8).wavefronts, 2u);
}

TEST(SmemArbiterTest, PartialWarpAndSubWordAccesses) {
  EXPECT_EQ(arbitrate(strided(Op::LDS, 4, 0, 128, 0x3)).wavefronts, 2u);  // two lanes, same bank
  EXPECT_EQ(arbitrate(strided(Op::LDS, 1, 0, 1)).wavefronts, 1u);         // 32 bytes in 8 words
  EXPECT_EQ(arbitrate(strided(Op::LDS, 16, 2, 16, 0x1)).wavefronts, 1u);  // unaligned, 5 words
}

}  // namespace
}  // namespace gms
