// Resident CTAs and the carve-out choice.
#include "sim/model/placement.h"

#include <gtest/gtest.h>

#include "sim/core/error.h"
#include "tests/test_paths.h"

namespace gms {
namespace {

KernelInfo kernel_info(std::uint32_t threads, std::uint64_t shmem,
                       std::vector<std::pair<std::string, std::string>> params = {}) {
  KernelInfo k;
  k.id = 1;
  k.block = {threads, 1, 1};
  k.shmem_bytes = shmem;
  k.params = std::move(params);
  return k;
}

TEST(PlacementTest, NoSharedMemoryGetsTheDefaultCarveout) {
  SimConfig cfg = load_config({});
  // The H200 preset: the driver's 32 KiB for a launch with no preference (l1.default_carveout_kb).
  const KernelPlacement p = place_kernel(kernel_info(256, 0), cfg);
  EXPECT_EQ(p.resident_ctas_per_sm, 8u);  // 2048 threads / 256
  EXPECT_EQ(p.carveout_kb, 32u);
  EXPECT_EQ(p.l1_bytes, 224u * 1024);
  // A recorded preference below it still gets it: on the H200 a launch asking 0% got the 32 KiB
  // configuration (tests/groundtruth, kernels 103-106); with default 0 the whole array is L1.
  EXPECT_EQ(place_kernel(kernel_info(256, 0, {{"carveout_pct", "0"}}), cfg).l1_bytes, 224u * 1024);
  cfg = load_config({{}, {"l1.default_carveout_kb=0"}});
  EXPECT_EQ(place_kernel(kernel_info(256, 0), cfg).l1_bytes, 256u * 1024);
  // Rounded up to a supported size (the largest when none holds it), so a sweep of
  // l1.carveouts_kb needs no matching default.
  cfg = load_config({{}, {"l1.default_carveout_kb=20"}});
  EXPECT_EQ(place_kernel(kernel_info(256, 0), cfg).carveout_kb, 32u);
  cfg = load_config({{}, {"l1.carveouts_kb=0,8,16"}});
  EXPECT_EQ(place_kernel(kernel_info(256, 0), cfg).carveout_kb, 16u);
  cfg = load_config({{}, {"l1.default_carveout_kb=300"}});  // above every carve-out: the largest
  EXPECT_EQ(place_kernel(kernel_info(256, 0), cfg).carveout_kb, 228u);
}

TEST(PlacementTest, SmallestCarveoutHoldingTheResidentCtas) {
  const SimConfig cfg = load_config({});
  // 8 CTAs x (16 KiB + 1 KiB reserved) = 136 KiB -> 164 KiB carve-out, 92 KiB of L1.
  const KernelPlacement p = place_kernel(kernel_info(256, 16 * 1024), cfg);
  EXPECT_EQ(p.resident_ctas_per_sm, 8u);
  EXPECT_EQ(p.carveout_kb, 164u);
  EXPECT_EQ(p.l1_bytes, 92u * 1024);
}

TEST(PlacementTest, SharedMemoryLimitsResidency) {
  const SimConfig cfg = load_config({});
  // 100 KiB + 1 KiB per CTA: 2 fit in 228 KiB.
  const KernelPlacement p = place_kernel(kernel_info(128, 100 * 1024), cfg);
  EXPECT_EQ(p.resident_ctas_per_sm, 2u);
  EXPECT_EQ(p.carveout_kb, 228u);
  EXPECT_EQ(p.l1_bytes, 28u * 1024);
}

TEST(PlacementTest, TraceCarveoutPreferenceAndExactValue) {
  const SimConfig cfg = load_config({});
  // 50% of 228 KiB = 114 KiB -> 132 KiB carve-out.
  EXPECT_EQ(place_kernel(kernel_info(256, 0, {{"carveout_pct", "50"}}), cfg).carveout_kb, 132u);
  EXPECT_EQ(place_kernel(kernel_info(256, 0, {{"carveout_pct", "100"}}), cfg).carveout_kb, 228u);
  EXPECT_EQ(place_kernel(kernel_info(256, 0, {{"carveout_kb", "64"}}), cfg).l1_bytes, 192u * 1024);
  EXPECT_THROW(place_kernel(kernel_info(256, 0, {{"carveout_kb", "65"}}), cfg), SimError);
}

TEST(PlacementTest, RecordedCarveoutLimitsResidentCtas) {
  const SimConfig cfg = load_config({});
  // gpu-stream's launch: 6 KiB of shared memory (+1 KiB reserved) per CTA of 64 threads; the
  // thread limit alone would allow 32 CTAs. An 8 KiB carve-out holds one, 16 KiB two.
  const KernelPlacement one = place_kernel(kernel_info(64, 6 * 1024, {{"carveout_kb", "8"}}), cfg);
  EXPECT_EQ(one.resident_ctas_per_sm, 1u);
  EXPECT_EQ(one.carveout_kb, 8u);
  EXPECT_EQ(one.l1_bytes, 248u * 1024);
  EXPECT_EQ(
      place_kernel(kernel_info(64, 6 * 1024, {{"carveout_kb", "16"}}), cfg).resident_ctas_per_sm,
      2u);
  // A percentage: 4% of 228 KiB = 9.2 KiB, raised to the default's 32 KiB: four CTAs.
  const KernelPlacement pct = place_kernel(kernel_info(64, 6 * 1024, {{"carveout_pct", "4"}}), cfg);
  EXPECT_EQ(pct.carveout_kb, 32u);
  EXPECT_EQ(pct.resident_ctas_per_sm, 4u);
  // 0% as well; 50% of 228 KiB = 114 KiB -> 132 KiB, 18 CTAs of 7 KiB.
  EXPECT_EQ(
      place_kernel(kernel_info(64, 6 * 1024, {{"carveout_pct", "0"}}), cfg).resident_ctas_per_sm,
      4u);
  EXPECT_EQ(
      place_kernel(kernel_info(64, 6 * 1024, {{"carveout_pct", "50"}}), cfg).resident_ctas_per_sm,
      18u);
  // Without the floor (l1.default_carveout_kb=0), 4% is the 16 KiB carve-out: two CTAs.
  const SimConfig no_floor = load_config({{}, {"l1.default_carveout_kb=0"}});
  EXPECT_EQ(place_kernel(kernel_info(64, 6 * 1024, {{"carveout_pct", "4"}}), no_floor)
                .resident_ctas_per_sm,
            2u);
  // Without a recorded carve-out the driver makes room for all of them.
  const KernelPlacement free = place_kernel(kernel_info(64, 6 * 1024), cfg);
  EXPECT_EQ(free.resident_ctas_per_sm, 32u);
  EXPECT_EQ(free.carveout_kb, 228u);
  // A carve-out smaller than one CTA's shared memory cannot be launched.
  EXPECT_THROW(place_kernel(kernel_info(64, 8 * 1024, {{"carveout_kb", "8"}}), cfg), SimError);
}

TEST(PlacementTest, SeparateL1KeepsItsSize) {
  const SimConfig cfg = load_config({{test::source_path("configs/pascal-p100.ini")}, {}});
  EXPECT_EQ(place_kernel(kernel_info(256, 32 * 1024), cfg).l1_bytes,
            std::uint64_t{cfg.l1.size_kb} * 1024);
}

TEST(PlacementTest, OversizedCtaIsAnError) {
  const SimConfig cfg = load_config({});
  EXPECT_THROW(place_kernel(kernel_info(256, 300 * 1024), cfg), SimError);
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
