// What-if replays (sim/diagnosis/explain.h): a what-if equals a replay of a trace in which that
// instruction was fixed by hand, and the candidates rank by the kernel time they save, not by
// bytes: a wasteful load that hits in L1 ranks below an equally wasteful one that misses to DRAM.
// explain() replays the what-ifs side by side on threads (a threaded test).
#include "sim/diagnosis/explain.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "sim/replay/simulator.h"
#include "sim/report/report.h"
#include "trace/import/formats.h"

namespace gms {
namespace {

constexpr std::uint64_t kBase = 0x100000;     // inst 1's data (a multiple of 128)
constexpr std::uint64_t kOther = 0x10000000;  // inst 2's data

/// A trace named by process and test (ctest runs tests side by side); `body` writes its records.
std::string write_trace(const std::string& name, const std::function<void(std::ostream&)>& body) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto path = std::filesystem::temp_directory_path() /
                    fmt::format("{}_{}_{}", ::getpid(), test->name(), name);
  std::ofstream out(path);
  out << "#wtrace 1\n#kernel id=1 name=k grid=128,1,1 block=128,1,1 shmem=0\n";
  body(out);
  return path.string();
}

const WhatIf* find(const ExplainResult& r, std::uint32_t inst, KernelMode mode) {
  for (const WhatIf& w : r.rows)
    if (w.target.inst == inst && w.mode == mode) return &w;
  return nullptr;
}

const InstrStats* row(const KernelStats& k, std::uint32_t inst) {
  for (const InstrStats& i : k.instructions)
    if (i.inst == inst) return &i;
  return nullptr;
}

// Inst 1 reads every 8th float (lane t at kBase + 1024w + 32t), inst 2 consecutive floats. Fixed
// by hand, inst 1's execution w reads its 32 floats packed in the what-if's own region: the w-th
// distinct lowest address gets the w-th 128-byte block, IdealizingReader::kIdealRegion + 128w,
// lane t at + 4t. Inst 2 wastes nothing, so it is no candidate. The what-if must equal the
// replay of the hand-fixed trace in every mode, and leave inst 2's counts as they were.
TEST(ExplainTest, WhatIfEqualsAReplayOfTheHandFixedTrace) {
  constexpr int kWarps = 512;
  auto records = [&](bool fixed) {
    return [=](std::ostream& out) {
      for (int w = 0; w < kWarps; ++w) {
        const std::uint64_t base =
            fixed ? IdealizingReader::kIdealRegion + 128ull * w : kBase + 1024ull * w;
        out << fmt::format("1 LDG 4 - {} {} ffffffff @0x{:x}:{}\n", w % 128, w / 128 % 4, base,
                           fixed ? 4 : 32);
        out << fmt::format("2 LDG 4 - {} {} ffffffff @0x{:x}:4\n", w % 128, w / 128 % 4,
                           kOther + 128ull * w);
      }
    };
  };
  const std::string original = write_trace("whatif_original.wtrace", records(false));
  const std::string fixed = write_trace("whatif_fixed.wtrace", records(true));
  const SimConfig cfg = default_config();
  RunOptions opts;
  opts.mode = SimMode::Both;
  ExplainOptions eo;
  eo.top = 5;
  eo.jobs = 2;
  const ExplainResult r = explain({original}, cfg, opts, eo);
  const std::vector<KernelStats> want_before =
      simulate(std::vector<std::string>{original}, cfg, opts);
  const std::vector<KernelStats> want_after = simulate(std::vector<std::string>{fixed}, cfg, opts);
  ASSERT_EQ(r.candidates, 1u);  // inst 2 is ideal already
  ASSERT_EQ(want_after.size(), 2u);
  for (const KernelStats& after : want_after) {
    const WhatIf* w = find(r, 1, after.mode);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->rewritten, static_cast<std::uint64_t>(kWarps));  // one pass serves both modes
    EXPECT_EQ(w->after, row(after, 1)->c);
    EXPECT_EQ(w->kernel_after.time_ns, after.time.estimate_ns);
    EXPECT_EQ(w->kernel_after.dram_bytes, kernel_figures(after).dram_bytes);
    EXPECT_EQ(w->kernel_after.sectors, kernel_figures(after).sectors);
    // The rest of the kernel is untouched: inst 2's counters are the original's.
    for (const KernelStats& before : want_before)
      if (before.mode == after.mode) {
        EXPECT_EQ(w->before, row(before, 1)->c);
        EXPECT_EQ(w->kernel_before.time_ns, before.time.estimate_ns);
        EXPECT_EQ(row(after, 2)->c, row(before, 2)->c);
      }
    // 32 sectors per execution before, 4 after (hand count: 32 lanes 32 bytes apart; 128 bytes).
    EXPECT_EQ(w->before.sectors, 32u * kWarps);
    EXPECT_EQ(w->after.sectors, 4u * kWarps);
    EXPECT_EQ(w->pattern, "strided 8");
  }
  std::filesystem::remove(original);
  std::filesystem::remove(fixed);
}

// The what-if's blocks: executions of different data get different blocks even when their
// lowest addresses are 4 bytes apart (warps 0 and 1 of a transposed write: column 0 and column 1
// of a 64-float-wide matrix, lane t at 256t + 4y); an execution of the same data gets the same
// block again. Other instructions pass unchanged.
TEST(ExplainTest, IdealBlocksKeepDataApartAndReuseTogether) {
  const std::string trace = write_trace("whatif_blocks.wtrace", [](std::ostream& out) {
    out << "5 STG 4 - 0 0 ffffffff @0x0:256\n";  // column 0
    out << "5 STG 4 - 0 1 ffffffff @0x4:256\n";  // column 1
    out << "6 LDG 4 - 0 0 ffffffff @0x0:256\n";  // another instruction
    out << "5 STG 4 - 0 2 ffffffff @0x0:256\n";  // column 0 again
  });
  auto inner = trace::open_trace_reader(trace);
  IdealizingReader r(*inner, {1, 5, Op::STG, 4});
  KernelInfo k;
  ASSERT_TRUE(r.next_kernel(k));
  std::vector<WarpInstr> batch(8);
  ASSERT_EQ(r.read(batch), 4u);
  const Addr region = IdealizingReader::kIdealRegion;
  for (int t = 0; t < kWarpSize; ++t) {
    EXPECT_EQ(batch[0].addr[t], region + 4 * t);
    EXPECT_EQ(batch[1].addr[t], region + 128 + 4 * t);
    EXPECT_EQ(batch[2].addr[t], Addr(256 * t));
    EXPECT_EQ(batch[3].addr[t], region + 4 * t);
  }
  EXPECT_EQ(r.rewritten(), 3u);
  std::filesystem::remove(trace);
}

// The candidates come from the diagnosis pass, so its counts must be the run's: wasted bytes
// (fetched less distinct) and sectors per global instruction, wavefronts per shared one, on a
// trace of every kind (the worked examples' data files).
TEST(ExplainTest, DiagnosisCountsAreTheRunsCounts) {
  const SimConfig cfg = default_config();
  for (const char* name :
       {"a2_misaligned.wtrace", "a4_stride8.wtrace", "a8b_mixed.wtrace", "a9_aos12.wtrace",
        "b6_tile32.wtrace", "c_stride24.wtrace", "d_tiled_n8_t4.wtrace", "example_stream.wtrace"}) {
    const std::string path = std::string(GMS_TEST_DATA_DIR) + "/" + name;
    auto reader = trace::open_trace_reader(path);
    const std::vector<KernelPatterns> patterns = diagnose(*reader, cfg);
    const std::vector<KernelStats> run = simulate(std::vector<std::string>{path}, cfg);
    ASSERT_EQ(patterns.size(), run.size()) << name;
    for (std::size_t k = 0; k < run.size(); ++k) {
      ASSERT_EQ(patterns[k].instructions.size(), run[k].instructions.size()) << name;
      for (const InstrStats& i : run[k].instructions) {
        const PatternSummary* s = patterns[k].find(i.inst, i.op, i.size);
        ASSERT_NE(s, nullptr) << name;
        EXPECT_EQ(s->total(), i.c.instructions) << name;
        if (is_shared(i.op)) {
          EXPECT_EQ(s->cost, i.c.wavefronts) << name;
          EXPECT_EQ(s->ideal, i.c.ideal_wavefronts) << name;
        } else {
          EXPECT_EQ(s->cost, i.c.sectors) << name;
          EXPECT_EQ(s->wasted_bytes, i.c.bytes_fetched - i.c.bytes_distinct) << name;
        }
      }
    }
  }
}

// explain replays a what-if of kernel k with only kernel k selected, where the L2 does not
// persist from kernel to kernel: that must give kernel k's statistics of a replay of every
// kernel, for each kernel of a multi-kernel trace, in both modes.
TEST(ExplainTest, OneKernelAloneReplaysAsAmongTheOthers) {
  const std::string path = std::string(GMS_TEST_DATA_DIR) + "/example_stream.wtrace";
  const SimConfig cfg = default_config();
  ASSERT_FALSE(cfg.l2.persist_across_kernels);
  RunOptions opts;
  opts.mode = SimMode::Both;
  const std::vector<KernelStats> all = simulate(std::vector<std::string>{path}, cfg, opts);
  ASSERT_GT(all.size(), 2u);
  for (const KernelStats& k : all) {
    RunOptions only = opts;
    only.kernel_ids = {k.kernel.id};
    std::ostringstream want, got;
    for (const KernelStats& o : simulate(std::vector<std::string>{path}, cfg, only))
      if (o.mode == k.mode) {
        print_report(got, RunReport{cfg, {path}, {o}, {}}, ReportFormat::Json);
        print_report(want, RunReport{cfg, {path}, {k}, {}}, ReportFormat::Json);
      }
    EXPECT_EQ(got.str(), want.str()) << "kernel " << k.kernel.id;
    EXPECT_FALSE(got.str().empty());
  }
}

// A what-if of the second of two kernels: the first is skipped, and the result equals that
// kernel's entry in a replay of the whole hand-fixed trace.
TEST(ExplainTest, WhatIfOfALaterKernel) {
  auto body = [](bool fixed) {
    return [=](std::ostream& out) {
      for (int w = 0; w < 256; ++w)
        out << fmt::format("0 LDG 4 - {} 0 ffffffff @0x{:x}:4\n", w, kOther + 128ull * w);
      out << "#kernel id=2 name=k2 grid=128,1,1 block=128,1,1 shmem=0\n";
      for (int w = 0; w < 256; ++w)
        out << fmt::format(
            "1 LDG 4 - {} 0 ffffffff @0x{:x}:{}\n", w % 128,
            fixed ? IdealizingReader::kIdealRegion + 128ull * w : kBase + 1024ull * w,
            fixed ? 4 : 32);
    };
  };
  const std::string original = write_trace("later_original.wtrace", body(false));
  const std::string fixed = write_trace("later_fixed.wtrace", body(true));
  const SimConfig cfg = default_config();
  RunOptions opts;
  opts.mode = SimMode::Cached;
  const ExplainResult r = explain({original}, cfg, opts, ExplainOptions{});
  const std::vector<KernelStats> want = simulate(std::vector<std::string>{fixed}, cfg, opts);
  ASSERT_EQ(r.rows.size(), 1u);
  ASSERT_EQ(want.size(), 2u);
  EXPECT_EQ(r.rows[0].target.kernel_id, 2u);
  EXPECT_EQ(r.rows[0].after, row(want[1], 1)->c);
  EXPECT_EQ(r.rows[0].kernel_after.time_ns, want[1].time.estimate_ns);
  std::filesystem::remove(original);
  std::filesystem::remove(fixed);
}

// Two loads with the same waste (every 8th float: 32 sectors where 4 would do, 896 wasted bytes
// an execution), so by bytes they tie (inst 1 first, by first appearance). Inst 1 re-reads one
// 1 KiB block in every execution: after each SM's first miss it hits in L1. Inst 2 reads a fresh
// 1 KiB every execution: every sector misses to DRAM. Fixing inst 2 must save more kernel time
// than fixing inst 1 in cached mode, and rank first.
TEST(ExplainTest, ALoadThatMissesToDramRanksAboveOneThatHitsInL1) {
  constexpr int kWarps = 4096;
  const std::string trace = write_trace("whatif_rank.wtrace", [](std::ostream& out) {
    for (int w = 0; w < kWarps; ++w) {
      out << fmt::format("1 LDG 4 - {} {} ffffffff @0x{:x}:32\n", w % 128, w / 128 % 4, kBase);
      out << fmt::format("2 LDG 4 - {} {} ffffffff @0x{:x}:32\n", w % 128, w / 128 % 4,
                         kOther + 1024ull * w);
    }
  });
  RunOptions opts;
  opts.mode = SimMode::Cached;
  ExplainOptions eo;
  eo.jobs = 2;
  const ExplainResult r = explain({trace}, default_config(), opts, eo);
  ASSERT_EQ(r.rows.size(), 2u);
  const WhatIf* hits = find(r, 1, KernelMode::Cached);
  const WhatIf* misses = find(r, 2, KernelMode::Cached);
  ASSERT_NE(hits, nullptr);
  ASSERT_NE(misses, nullptr);
  EXPECT_EQ((hits->before.bytes_fetched - hits->before.bytes_distinct),
            (misses->before.bytes_fetched - misses->before.bytes_distinct));
  EXPECT_GT(hits->before.l1_sector_hits, 0u);
  EXPECT_EQ(misses->before.l1_sector_hits, 0u);
  EXPECT_GT(misses->saved_ns(), hits->saved_ns());
  EXPECT_EQ(r.rows[0].target.inst, 2u);
  EXPECT_EQ(r.rows[1].target.inst, 1u);
  std::filesystem::remove(trace);
}

}  // namespace
}  // namespace gms
