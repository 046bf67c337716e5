// The one-pass sweep against separate replays: for random traces (tests/e2e/random_trace.h) and
// generated ones, over random base configurations (small caches that evict and write back during
// kernels, a persisting L2, fetch sizes, hashes, L1s that do or do not cache global loads), every
// CSV of a capacity sweep (L2 ways at a fixed size, L2 sizes, L1 sizes, L1 sets, carve-outs,
// crosses of them, and an outer non-capacity key) is the separate runs' CSV byte for byte, per
// kernel and per instruction, in every mode; with near/far L2 partitions and 64-byte L2 lines too
// (each configuration's L2 is then its own model inside the pass), on the small machine and on
// the partitioned presets. The one pass must really be taken (its refusal is empty), and a sweep
// it cannot take falls back to the same bytes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/replay/onepass/engine.h"
#include "tests/e2e/random_trace.h"
#include "tests/e2e/report_text.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"
#include "tools/study/sweep.h"
#include "tools/study/sweep_onepass.h"

namespace gms {
namespace {

namespace fs = std::filesystem;

/// A trace file that lasts as long as the test process.
std::string write_temp(const std::string& name, const std::string& text) {
  static const test::TempDir dir;
  const std::string p = dir.file(name);
  std::ofstream(p) << text;
  return p;
}

/// A small machine: 2 L2 slices, 4 SMs, a separate L1 of 4 sets, plus random choices that the
/// one pass must keep exact; near/far L2 partitions always when `partitions`.
std::vector<std::string> base_overrides(test::TestRng& r, bool partitions = false) {
  // One partition unless drawn (the default preset has two).
  std::vector<std::string> o = {"gpu.sm_count=4", "l2.slices=2",     "l2.ways=4",
                                "l2.size_kb=8",   "l1.unified_kb=0", "l1.sets=4",
                                "l1.size_kb=2",   "l2.partitions=1"};
  if (r.chance(50)) o.push_back("l2.persist_across_kernels=true");
  if (r.chance(40)) o.push_back("l1.caches_global_loads=false");
  if (r.chance(50)) o.push_back("l2.dram_fetch_bytes=32");
  if (r.chance(40)) o.push_back("l2.hash=linear");
  if (r.chance(30)) o.push_back("l2.interleave_bytes=512");
  if (r.chance(30)) o.push_back("dram.row_model=true");
  if (r.chance(25)) o.push_back("coalescer.segment_bytes=64");
  // L2s that are no recency stack, replayed per configuration: near/far partitions (one slice
  // each, SMs 0-1 near the first), or 64-byte lines. Drawn last: the choices above stay each
  // seed's.
  if (partitions || r.chance(30))
    o.insert(o.end(), {"l2.partitions=2", "l2.far_hit_latency_cycles=300"});
  else if (r.chance(15))
    o.push_back("l2.line_bytes=64");
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

/// The L2 far-partition hits of each kernel, which the report shows only through the time
/// estimate.
std::string far_hits(const std::vector<KernelStats>& kernels) {
  std::string out;
  for (const KernelStats& k : kernels) out += fmt::format("{} ", k.traffic.l2_far_hit_sectors);
  return out;
}

/// Replays `trace` over the configurations of `spec` in one pass (L2 batches of the default
/// size, of one line: split inside kernels, and none: trace order) and holds each
/// configuration's whole report (per-slice and per-channel traffic included) and its far hits
/// to a separate replay of it.
void expect_same_reports(const SweepSpec& spec, const std::string& trace, SimMode mode,
                         const std::string& what) {
  std::vector<SimConfig> cfgs;
  for (std::size_t c = 0; c < sweep_configurations(spec); ++c)
    cfgs.push_back(sweep_config(spec, c));
  ASSERT_EQ(onepass_refusal(cfgs), "") << what;
  RunOptions opts;
  opts.mode = mode;
  opts.keep_unit_traffic = true;
  std::vector<std::string> separate, separate_far;
  for (const SimConfig& cfg : cfgs) {
    try {  // as test::replay_text, the far hits from the same replay
      auto reader = trace::open_trace_reader(trace);
      const std::vector<KernelStats> kernels = simulate(*reader, cfg, opts);
      separate.push_back(test::report_text(kernels, cfg));
      separate_far.push_back(far_hits(kernels));
    } catch (const SimError& e) {
      separate.push_back(std::string("error: ") + e.what() + "\n");
      separate_far.emplace_back();
    }
  }
  for (const std::size_t batch : {opts.cached_batch_lines, std::size_t{1}, std::size_t{0}}) {
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
      if (one.empty()) {
        EXPECT_TRUE(separate[c].starts_with("error: ")) << what;
        continue;
      }
      const std::string where = fmt::format("{}, configuration {}, batches of {}", what, c, batch);
      EXPECT_EQ(test::report_text(one[c], cfgs[c]), separate[c]) << where;
      EXPECT_EQ(far_hits(one[c]), separate_far[c]) << where;
    }
  }
}

TEST(OnepassSweepTest, L2BatchesOfAnySizeGiveEachConfigurationsWholeReport) {
  // The one pass queues its L2 accesses and replays them by slice (as the fast engine does; with
  // partitions by slice index inside a partition): every batch size gives each configuration's
  // whole report as a separate replay of it does. Seeds 4 and 5: near/far partitions.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    test::TestRng r(seed * 104729);
    SweepSpec spec;
    spec.base.overrides = base_overrides(r, /*partitions=*/seed > 3);
    spec.axes = axes(static_cast<int>(seed % 4));
    const std::string trace =
        write_temp(fmt::format("b{}.wtrace", seed), test::random_trace(seed + 40));
    std::string what = fmt::format("seed {}:", seed);
    for (const std::string& o : spec.base.overrides) what += " " + o;
    expect_same_reports(spec, trace, seed % 2 ? SimMode::Cached : SimMode::Both, what);
  }
}

TEST(OnepassSweepTest, ThePartitionedPresetsMatchSeparateRuns) {
  // The A100 and H100 presets, and the H200 with l2.partitions=2 (80 or 96 slices in two
  // partitions, 108 or 132 SMs), one pass per preset: L2 ways, L2 sizes and L1 carve-outs, at L2
  // sizes small enough to evict (960 KB: a whole number of sets on both slice counts). Whole
  // CSVs on a random trace; for the ways, whole reports and far hits on another.
  SweepSpec spec;
  spec.traces = {write_temp("partitioned.wtrace", test::random_trace(99))};
  spec.preset_dirs = {test::source_path("configs")};
  spec.mode = SimMode::Both;
  spec.per_instruction = true;
  const SweepAxis presets = parse_sweep_axis("preset=ampere-a100,hopper-h100,hopper-h200");
  spec.base.overrides = {"l2.partitions=2", "l2.size_kb=960"};
  const std::string other = write_temp("partitioned2.wtrace", test::random_trace(7));
  const SweepAxis capacities[] = {
      parse_sweep_axis("l2.ways=1,4,16"), parse_sweep_axis("l2.size_kb=960,1920,7680"),
      parse_sweep_axis("l1.carveouts_kb=0,8,16,32,64,100,132,164;0,132;0,32")};
  for (const SweepAxis& axis : capacities) {
    spec.axes = {presets, axis};
    const std::string what = "partitioned presets, " + axis.key;
    EXPECT_TRUE(expect_same_csv(spec, what));
    if (axis.key != "l2.ways") continue;
    for (const std::string& preset : presets.values) {
      SweepSpec one = spec;
      one.axes[0] = parse_sweep_axis("preset=" + preset);
      expect_same_reports(one, other, SimMode::Cached, what + ", " + preset);
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
