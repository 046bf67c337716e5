// The bank arbiter against a brute-force reference (sets of distinct bank words per bank) on
// random warps: in order, shuffled, duplicated, 1- to 16-byte accesses, partial masks.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "sim/config/config.h"
#include "sim/model/smem_arbiter.h"

namespace gms {
namespace {

TEST(SmemReferenceTest, RandomWarpsMatchDistinctWordsPerBank) {
  std::mt19937_64 rng(5);
  const unsigned sizes[] = {1, 2, 4, 8, 16};
  for (std::uint32_t banks : {16u, 32u}) {
    for (std::uint32_t width : {4u, 8u}) {
      SharedMemConfig cfg = default_config().shared;
      cfg.banks = banks;
      cfg.bank_width_bytes = width;
      const SmemArbiter arbiter(cfg);
      for (int round = 0; round < 4000; ++round) {
        WarpInstr w;
        w.op = Op::LDS;
        w.size = static_cast<std::uint8_t>(sizes[rng() % 5]);
        w.mask = round % 3 == 0 ? 0xffffffffu : static_cast<LaneMask>(rng() | 1);
        const Addr stride = (rng() % 5) * w.size;
        for (int t = 0; t < kWarpSize; ++t)
          w.addr[t] = round % 2 ? t * stride : (rng() % 2048) / w.size * w.size;
        std::set<Addr> words;
        for (int t = 0; t < kWarpSize; ++t)
          if (w.mask >> t & 1)
            for (Addr b = w.addr[t]; b < w.addr[t] + w.size; ++b) words.insert(b / width);
        std::map<Addr, std::uint32_t> per_bank;
        std::uint32_t worst = 0;
        for (Addr word : words) worst = std::max(worst, ++per_bank[word % banks]);
        const BankAccess got = arbiter.arbitrate(w);
        ASSERT_EQ(got.wavefronts, worst) << "round " << round;
        ASSERT_EQ(got.ideal_wavefronts, (words.size() + banks - 1) / banks) << "round " << round;
      }
    }
  }
}

}  // namespace
}  // namespace gms
