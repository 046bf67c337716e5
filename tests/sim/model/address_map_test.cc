// Address interleaving: the multiply-based modulo against the plain operator, and same_as(),
// which lets a cold replay hash a line once for its L2 slice and its DRAM channel.
#include "sim/model/address_map.h"

#include <gtest/gtest.h>

#include <random>

namespace gms {
namespace {

TEST(AddressMapTest, FastDivisionMatchesTheOperators) {
  std::mt19937 rng(7);
  for (std::uint32_t d : {1u, 3u, 12u, 96u, 320u, 0x7fffffffu, 0xffffffffu}) {
    const FastDiv32 f(d);
    for (int i = 0; i < 10000; ++i) {
      const std::uint32_t x = i < 4 ? std::uint32_t(0) - std::uint32_t(i) : rng();
      ASSERT_EQ(f.div(x), x / d) << x << " / " << d;
      ASSERT_EQ(f.mod(x), x % d) << x << " % " << d;
    }
  }
}

TEST(AddressMapTest, SameAsMeansTheSameUnitForEveryAddress) {
  const Interleave a(96, 256, SliceHash::Xor), b(96, 256, SliceHash::Xor);
  EXPECT_TRUE(a.same_as(b));
  std::mt19937_64 rng(3);
  for (int i = 0; i < 10000; ++i) {
    const Addr addr = rng() >> 16;
    ASSERT_EQ(a.unit_of(addr), b.unit_of(addr));
  }
  // Any differing parameter makes some address land elsewhere.
  for (const Interleave& other :
       {Interleave(64, 256, SliceHash::Xor), Interleave(96, 512, SliceHash::Xor),
        Interleave(96, 256, SliceHash::Linear)}) {
    EXPECT_FALSE(a.same_as(other));
    bool differs = false;
    for (Addr addr = 0; addr < (Addr{1} << 24) && !differs; addr += 256)
      differs = a.unit_of(addr) != other.unit_of(addr);
    EXPECT_TRUE(differs);
  }
}

}  // namespace
}  // namespace gms
