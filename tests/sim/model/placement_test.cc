// Resident CTAs and the carve-out choice.
#include "sim/model/placement.h"

#include <gtest/gtest.h>

#include "sim/core/error.h"
#include "tests/test_paths.h"

namespace gms {
namespace {

KernelInfo kernel(std::uint32_t threads, std::uint64_t shmem,
                  std::vector<std::pair<std::string, std::string>> params = {}) {
  KernelInfo k;
  k.id = 1;
  k.block = {threads, 1, 1};
  k.shmem_bytes = shmem;
  k.params = std::move(params);
  return k;
}

TEST(PlacementTest, NoSharedMemoryGivesTheWholeArrayToL1) {
  const SimConfig cfg = load_config({});
  const KernelPlacement p = place_kernel(kernel(256, 0), cfg);
  EXPECT_EQ(p.resident_ctas_per_sm, 8u);  // 2048 threads / 256
  EXPECT_EQ(p.carveout_kb, 0u);
  EXPECT_EQ(p.l1_bytes, 256u * 1024);
}

TEST(PlacementTest, SmallestCarveoutHoldingTheResidentCtas) {
  const SimConfig cfg = load_config({});
  // 8 CTAs x (16 KiB + 1 KiB reserved) = 136 KiB -> 164 KiB carve-out, 92 KiB of L1.
  const KernelPlacement p = place_kernel(kernel(256, 16 * 1024), cfg);
  EXPECT_EQ(p.resident_ctas_per_sm, 8u);
  EXPECT_EQ(p.carveout_kb, 164u);
  EXPECT_EQ(p.l1_bytes, 92u * 1024);
}

TEST(PlacementTest, SharedMemoryLimitsResidency) {
  const SimConfig cfg = load_config({});
  // 100 KiB + 1 KiB per CTA: 2 fit in 228 KiB.
  const KernelPlacement p = place_kernel(kernel(128, 100 * 1024), cfg);
  EXPECT_EQ(p.resident_ctas_per_sm, 2u);
  EXPECT_EQ(p.carveout_kb, 228u);
  EXPECT_EQ(p.l1_bytes, 28u * 1024);
}

TEST(PlacementTest, TraceCarveoutPreferenceAndExactValue) {
  const SimConfig cfg = load_config({});
  // 50% of 228 KiB = 114 KiB -> 132 KiB carve-out.
  EXPECT_EQ(place_kernel(kernel(256, 0, {{"carveout_pct", "50"}}), cfg).carveout_kb, 132u);
  EXPECT_EQ(place_kernel(kernel(256, 0, {{"carveout_pct", "100"}}), cfg).carveout_kb, 228u);
  EXPECT_EQ(place_kernel(kernel(256, 0, {{"carveout_kb", "64"}}), cfg).l1_bytes, 192u * 1024);
  EXPECT_THROW(place_kernel(kernel(256, 0, {{"carveout_kb", "65"}}), cfg), SimError);
}

TEST(PlacementTest, SeparateL1KeepsItsSize) {
  const SimConfig cfg = load_config({{test::source_path("configs/pascal-p100.ini")}, {}});
  EXPECT_EQ(place_kernel(kernel(256, 32 * 1024), cfg).l1_bytes,
            std::uint64_t{cfg.l1.size_kb} * 1024);
}

TEST(PlacementTest, OversizedCtaIsAnError) {
  const SimConfig cfg = load_config({});
  EXPECT_THROW(place_kernel(kernel(256, 300 * 1024), cfg), SimError);
}

TEST(PlacementTest, CtasGoRoundRobinWhenTheTraceHasNoSm) {
  WarpInstr w;
  w.cta = 135;
  EXPECT_EQ(sm_of(w, FastDiv32(132)), 3u);
  w.sm = 7;
  EXPECT_EQ(sm_of(w, FastDiv32(132)), 7u);
}

}  // namespace
}  // namespace gms
