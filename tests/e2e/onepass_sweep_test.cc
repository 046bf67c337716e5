// The one-pass sweep against separate replays: for random traces (tests/e2e/random_trace.h) and
// generated ones, over random base configurations (small caches that evict and write back during
// kernels, a persisting L2, fetch sizes, hashes, L1s that do or do not cache global loads), every
// CSV of a capacity sweep (L2 ways at a fixed size, L2 sizes, L1 sizes, L1 sets, carve-outs,
// crosses of them, and an outer non-capacity key) is the separate runs' CSV byte for byte, per
// kernel and per instruction, in every mode. The one pass must really be taken (its refusal is
// empty), and a sweep it cannot take falls back to the same bytes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/replay/onepass_engine.h"
#include "tests/e2e/random_trace.h"
#include "tests/e2e/report_text.h"
#include "tests/test_paths.h"
#include "tools/study/sweep.h"
#include "tools/study/sweep_onepass.h"

namespace gms {
namespace {

namespace fs = std::filesystem;

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("gms_onepass_{}", ::getpid());
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

/// A small machine: 2 or 3 L2 slices, 4 SMs, a separate L1 of 4 sets, plus random choices that
/// the one pass must keep exact.
std::vector<std::string> base_overrides(test::TestRng& r) {
  std::vector<std::string> o = {"gpu.sm_count=4",  "l2.slices=2", "l2.ways=4",   "l2.size_kb=8",
                                "l1.unified_kb=0", "l1.sets=4",   "l1.size_kb=2"};
  if (r.chance(50)) o.push_back("l2.persist_across_kernels=true");
  if (r.chance(40)) o.push_back("l1.caches_global_loads=false");
  if (r.chance(50)) o.push_back("l2.dram_fetch_bytes=32");
  if (r.chance(40)) o.push_back("l2.hash=linear");
  if (r.chance(30)) o.push_back("l2.interleave_bytes=512");
  if (r.chance(30)) o.push_back("dram.row_model=true");
  if (r.chance(25)) o.push_back("coalescer.segment_bytes=64");
  return o;
}

/// The capacity axes of sweep `which`.
std::vector<SweepAxis> axes(int which) {
  switch (which) {
    case 0:  // L2 associativity at a fixed size: the set count changes with it
      return {parse_sweep_axis("l2.ways=1,2,4,8,16")};
    case 1:
      return {parse_sweep_axis("l2.size_kb=1,2,4,8,16,32")};
    case 2:  // L1 sizes, one off
      return {parse_sweep_axis("l1.size_kb=0,1,2,4,8")};
    case 3:
      return {parse_sweep_axis("l1.sets=1,2,4,8"), parse_sweep_axis("l2.ways=2,8")};
    case 4:  // an outer key: one pass per segment size
      return {parse_sweep_axis("coalescer.segment_bytes=32,128"),
              parse_sweep_axis("l2.size_kb=2,8"), parse_sweep_axis("l1.size_kb=1,4")};
    default:  // unified L1 with carve-outs
      return {parse_sweep_axis("l1.carveouts_kb=0,8,16;0,4"),
              parse_sweep_axis("l1.unified_kb=16,32,64")};
  }
}

/// Compares the sweep's CSV both ways; returns false when the configurations do not fit the
/// trace (a CTA larger than an SM's carve-out: both ways must then fail with the same message).
bool expect_same_csv(SweepSpec spec, const std::string& what) {
  std::vector<SimConfig> cfgs;
  for (std::size_t c = 0; c < sweep_configurations(spec); ++c)
    cfgs.push_back(sweep_config(spec, c));
  EXPECT_EQ(sweep_onepass_refusal(spec, cfgs), "") << what;
  spec.separate_runs = true;
  std::string separate;
  try {
    separate = run_sweep_csv(spec, {}, 1);
  } catch (const SimError& e) {
    spec.separate_runs = false;
    try {
      run_sweep_csv(spec, {}, 1);
      ADD_FAILURE() << what << ": the one pass did not fail as the separate runs did: " << e.what();
    } catch (const SimError& f) {
      EXPECT_EQ(std::string(f.what()), std::string(e.what())) << what;
    }
    return false;
  }
  spec.separate_runs = false;
  EXPECT_EQ(run_sweep_csv(spec, {}, 1), separate) << what;
  EXPECT_EQ(run_sweep_csv(spec, {}, 3), separate) << what << " (3 jobs: passes split)";
  return true;
}

TEST(OnepassSweepTest, RandomTracesAndConfigurationsMatchSeparateRuns) {
  const std::uint64_t seeds =
      std::getenv("GMS_ONEPASS_SEEDS") ? std::stoull(std::getenv("GMS_ONEPASS_SEEDS")) : 12;
  std::uint64_t compared = 0;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    test::TestRng r(seed * 7919);
    SweepSpec spec;
    spec.traces = {write_temp(fmt::format("r{}.wtrace", seed), test::random_trace(seed))};
    spec.base.overrides = base_overrides(r);
    const int which = static_cast<int>(seed % 6);
    spec.axes = axes(which);
    if (which == 5)
      spec.base.overrides.insert(spec.base.overrides.end(),
                                 {"l1.carveouts_kb=0,4", "l1.unified_kb=32"});
    static const SimMode kModes[] = {SimMode::Cached, SimMode::Both, SimMode::Cold};
    spec.mode = kModes[seed % 3];
    spec.per_instruction = seed % 2 == 0;
    std::string what = fmt::format("seed {}, sweep {}:", seed, which);
    for (const std::string& o : spec.base.overrides) what += " " + o;
    compared += expect_same_csv(spec, what) ? 1 : 0;
  }
  EXPECT_GE(compared, seeds * 2 / 3) << "too many random cases did not fit";
}

TEST(OnepassSweepTest, L2BatchesOfAnySizeGiveEachConfigurationsWholeReport) {
  // The one pass queues its L2 accesses and replays them by slice (as MemoryHierarchy does):
  // batches of a few lines (split inside kernels) and none (trace order) give each
  // configuration's whole report (per-slice and per-channel traffic included) as a separate
  // replay of it does (the default batches: the CSV tests here).
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    test::TestRng r(seed * 104729);
    SweepSpec spec;
    spec.base.overrides = base_overrides(r);
    spec.axes = axes(static_cast<int>(seed % 4));
    const std::string trace =
        write_temp(fmt::format("b{}.wtrace", seed), test::random_trace(seed + 40));
    std::vector<SimConfig> cfgs;
    for (std::size_t c = 0; c < sweep_configurations(spec); ++c)
      cfgs.push_back(sweep_config(spec, c));
    ASSERT_EQ(onepass_refusal(cfgs), "");
    RunOptions opts;
    opts.mode = seed % 2 ? SimMode::Cached : SimMode::Both;
    opts.keep_unit_traffic = true;
    std::vector<std::string> separate;
    for (const SimConfig& cfg : cfgs) separate.push_back(test::replay_text(trace, cfg, opts));
    for (const std::size_t batch : {1, 0}) {
      RunOptions o = opts;
      o.cached_batch_lines = batch;
      std::vector<std::vector<KernelStats>> one;
      try {
        auto reader = trace::open_trace_reader(trace);
        one = simulate_onepass(*reader, cfgs, o);
      } catch (const SimError&) {
        one.clear();  // a CTA larger than a carve-out: the separate runs must fail too
      }
      for (std::size_t c = 0; c < cfgs.size(); ++c) {
        if (one.empty())
          EXPECT_TRUE(separate[c].starts_with("error: ")) << "seed " << seed;
        else
          EXPECT_EQ(test::report_text(one[c], cfgs[c]), separate[c])
              << "seed " << seed << ", configuration " << c << ", batches of " << batch;
      }
    }
  }
}

TEST(OnepassSweepTest, ThePresetMachineMatchesSeparateRuns) {
  // The H200 preset as it is (132 SMs, 96 slices of 320 sets, unified L1 by carve-out) on the
  // bundled trace and a random one, L2 ways and L1 carve-outs.
  SweepSpec spec;
  spec.traces = {test::data_path("example_stream.wtrace"),
                 write_temp("preset.wtrace", test::random_trace(99))};
  spec.mode = SimMode::Both;
  spec.per_instruction = true;
  spec.axes = {parse_sweep_axis("l2.ways=4,16"),
               parse_sweep_axis("l1.carveouts_kb=0,8,16,32,64,100,132,164,196,228;0,132,228")};
  EXPECT_TRUE(expect_same_csv(spec, "preset"));
}

TEST(OnepassSweepTest, ASweepTheOnePassCannotTakeFallsBackToTheSameRows) {
  SweepSpec spec;
  spec.traces = {write_temp("fifo.wtrace", test::random_trace(5))};
  spec.base.overrides = {"gpu.sm_count=4", "l2.slices=2", "l2.ways=4", "l2.size_kb=8",
                         "l2.policy=fifo"};
  spec.mode = SimMode::Cached;
  spec.axes = {parse_sweep_axis("l2.ways=2,4")};
  std::vector<SimConfig> cfgs;
  for (std::size_t c = 0; c < 2; ++c) cfgs.push_back(sweep_config(spec, c));
  EXPECT_EQ(sweep_onepass_refusal(spec, cfgs), "configurations: l2.policy is not lru");
  EXPECT_TRUE(run_onepass_points(spec, cfgs, {0, 1}, 1, nullptr).empty());
  const std::string default_path = run_sweep_csv(spec, {}, 1);
  spec.separate_runs = true;
  EXPECT_EQ(default_path, run_sweep_csv(spec, {}, 1));
}

TEST(OnepassSweepTest, RefusesKeysOtherThanCapacities) {
  std::vector<SimConfig> cfgs = {default_config(), default_config()};
  cfgs[1].l2.hash = SliceHash::Linear;
  EXPECT_NE(onepass_refusal(cfgs).find("l2.hash differs"), std::string::npos)
      << onepass_refusal(cfgs);
  cfgs[1] = default_config();
  cfgs[1].l2.ways = 8;
  EXPECT_EQ(onepass_refusal(cfgs), "");
  cfgs[0].l1.policy = cfgs[1].l1.policy = ReplacementKind::Srrip;
  EXPECT_EQ(onepass_refusal(cfgs), "");  // a fixed L1 is the model's own, any policy
  cfgs[1].l1.sets = 16;
  EXPECT_EQ(onepass_refusal(cfgs), "l1.policy is not lru");
}

}  // namespace
}  // namespace gms
