// The warp scheduler's rules (sim/model/warp_scheduler.h, docs/timing.md) on hand-worked cases:
// the order warps issue in, when each issues, and the kernel's cycles.
#include "sim/model/warp_scheduler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/config/config.h"

namespace gms {
namespace {

/// 1 GHz, 2 SMs; L1 hits 30 cycles, L2 hits 200 (far 300), DRAM 500; the L2 moves 2 sectors a
/// cycle (2 slices of 1), the DRAM 100 bytes a cycle (100 GB/s at 1 GHz, read efficiency 1).
SimConfig scheduler_config() {
  SimConfig c = default_config();
  c.gpu.sm_count = 2;
  c.gpu.clock_mhz = 1000;
  c.gpu.wave_overhead_ns = 0;
  c.l1.hit_latency_cycles = 30;
  c.l2.hit_latency_cycles = 200;
  c.l2.far_hit_latency_cycles = 300;
  c.dram.latency_cycles = 500;
  c.l2.slices = 2;
  c.l2.sectors_per_cycle_per_slice = 1;
  c.dram.peak_gbps = 100;
  c.dram.read_efficiency = 1;
  return c;
}

RecordUse l1_hit_load() {
  RecordUse u;
  u.waits = true;
  return u;
}
RecordUse dram_load() {
  RecordUse u;
  u.waits = true;
  u.dram_sectors = 1;
  return u;
}

/// Runs the scheduler over warps with the given records ("h": a load that hits in L1, "d": a
/// load from DRAM, "s": a store), one CTA per entry of `ctas` (its SM, its warps' records), and
/// returns the issue order as "warp@cycle" items.
std::string issue_order(WarpScheduler& s,
                        const std::vector<std::pair<std::uint32_t, std::vector<std::string>>>& ctas,
                        std::uint32_t slots) {
  std::vector<std::string> records;
  for (const auto& [sm, warps] : ctas) {
    s.add_cta(sm, static_cast<std::uint32_t>(warps.size()));
    for (const std::string& w : warps) records.push_back(w);
  }
  std::vector<std::size_t> next(records.size(), 0);
  auto queue = [&](std::uint32_t w) {
    const char kind = records[w][next[w]];
    s.ready(w, kind != 's', kind == 's');
  };
  std::vector<std::uint32_t> started;
  s.start(slots, started);
  for (std::uint32_t w : started) queue(w);
  std::string order;
  std::uint32_t warp = 0, sm = 0;
  while (s.next(warp, sm)) {
    const char kind = records[warp][next[warp]++];
    RecordUse use = kind == 'd' ? dram_load() : l1_hit_load();
    if (kind == 's') {
      use.waits = false;
      use.store = true;
    }
    order += std::to_string(warp) + " ";
    s.issued(warp, use);
    if (next[warp] < records[warp].size()) {
      queue(warp);
    } else {
      started.clear();
      s.finished(warp, started);
      for (std::uint32_t w : started) queue(w);
    }
  }
  return order;
}

TEST(WarpSchedulerTest, LockstepTakesTheResidentWarpsInTurn) {
  const SimConfig cfg = scheduler_config();
  WarpScheduler s(cfg, 4, /*timed=*/false);
  // SM 0: one CTA of two warps, two records each; SM 1: one warp of one record.
  EXPECT_EQ(issue_order(s, {{0, {"dd", "hh"}}, {1, {"h"}}}, 8), "0 1 2 0 1 ");
  EXPECT_DOUBLE_EQ(s.totals().cycles, 2);  // one record a cycle
}

TEST(WarpSchedulerTest, AWarpWhoseLoadsHitRunsAhead) {
  const SimConfig cfg = scheduler_config();
  WarpScheduler s(cfg, 1, /*timed=*/true);
  // One load in flight per warp. Warp 0 hits: issues at 0, 30, 60 (data at 90). Warp 1 misses
  // to DRAM: issues at 0, 500, 1000 (data at 1500).
  EXPECT_EQ(issue_order(s, {{0, {"hhh", "ddd"}}}, 8), "0 1 0 0 1 1 ");
  EXPECT_DOUBLE_EQ(s.totals().cycles, 1500);
}

TEST(WarpSchedulerTest, LoadsInFlightOverlap) {
  const SimConfig cfg = scheduler_config();
  WarpScheduler s(cfg, 4, /*timed=*/true);
  // Four loads in flight: issued at 0, 1, 2, 3; the last one's data at 503.
  issue_order(s, {{0, {"dddd"}}}, 8);
  EXPECT_DOUBLE_EQ(s.totals().cycles, 503);
  // A fifth waits for the first one's data (500): issued at 500, its data at 1000.
  WarpScheduler five(cfg, 4, /*timed=*/true);
  issue_order(five, {{0, {"ddddd"}}}, 8);
  EXPECT_DOUBLE_EQ(five.totals().cycles, 1000);
}

TEST(WarpSchedulerTest, AStoreWaitsForEveryLoadInFlight) {
  const SimConfig cfg = scheduler_config();
  WarpScheduler s(cfg, 4, /*timed=*/true);
  // Loads at 0 (DRAM, data at 500) and 1 (L1, data at 31); the store waits for both: 500.
  issue_order(s, {{0, {"dhs"}}}, 8);
  EXPECT_DOUBLE_EQ(s.totals().cycles, 501);  // its issue cycle, plus one
}

TEST(WarpSchedulerTest, ACtaStartsWhenASlotFrees) {
  SimConfig cfg = scheduler_config();
  cfg.gpu.wave_overhead_ns = 7;  // 7 cycles at 1 GHz
  WarpScheduler s(cfg, 1, /*timed=*/true);
  // One slot on SM 0: CTA 1 starts when CTA 0 ends (its load's data at 30), plus the hand-off.
  EXPECT_EQ(issue_order(s, {{0, {"h"}}, {0, {"h"}}}, 1), "0 1 ");
  EXPECT_DOUBLE_EQ(s.totals().cycles, 30 + 7 + 30);
  // Two slots: both CTAs at once, each warp issuing at 0 (a warp, not an SM, issues one record
  // a cycle), both loads' data at 30.
  WarpScheduler two(cfg, 1, /*timed=*/true);
  issue_order(two, {{0, {"h"}}, {0, {"h"}}}, 2);
  EXPECT_DOUBLE_EQ(two.totals().cycles, 30);
}

TEST(WarpSchedulerTest, TheServersQueueWhatReachesThemTogether) {
  const SimConfig cfg = scheduler_config();
  WarpScheduler s(cfg, 1, /*timed=*/true);
  s.add_cta(0, 1);
  s.add_cta(1, 1);
  std::vector<std::uint32_t> started;
  s.start(1, started);
  ASSERT_EQ(started.size(), 2u);
  RecordUse use = dram_load();
  use.pipe_cycles = 2;
  use.l2_sectors = 4;     // 2 cycles at the L2
  use.dram_bytes = 1000;  // 10 cycles at the DRAM
  std::uint32_t warp = 0, sm = 0;
  for (std::uint32_t w : started) s.ready(w, true, false);
  // SM 0's warp: pipe 0-2, L2 2-4, DRAM 2-12 (it reaches the DRAM as the L2 takes it): data at
  // 2 + 500. SM 1's: its own pipe 0-2, the L2 from 4, the DRAM from 12: data at 12 + 500.
  ASSERT_TRUE(s.next(warp, sm));
  EXPECT_EQ(sm, 0u);
  s.issued(warp, use);
  ASSERT_TRUE(s.next(warp, sm));
  EXPECT_EQ(sm, 1u);
  s.issued(warp, use);
  for (std::uint32_t w : {0u, 1u}) s.finished(w, started);
  const ScheduleTotals t = s.totals();
  EXPECT_DOUBLE_EQ(t.cycles, 512);
  EXPECT_DOUBLE_EQ(t.busiest_pipe_cycles, 2);
  EXPECT_DOUBLE_EQ(t.l2_busy_cycles, 4);
  EXPECT_DOUBLE_EQ(t.dram_busy_cycles, 20);
}

/// Issues one CTA of warps on SM 0, each warp's records L1-hitting loads after the given counts
/// of other instructions (WarpInstr::instrs_before); returns the order the warps issued in.
std::string issue_cycles(WarpScheduler& s, const std::vector<std::vector<std::uint32_t>>& warps) {
  s.add_cta(0, static_cast<std::uint32_t>(warps.size()));
  std::vector<std::size_t> next(warps.size(), 0);
  auto queue = [&](std::uint32_t w) { s.ready(w, true, false, warps[w][next[w]]); };
  std::vector<std::uint32_t> started;
  s.start(1, started);
  for (std::uint32_t w : started) queue(w);
  std::string order;
  std::uint32_t warp = 0, sm = 0;
  while (s.next(warp, sm)) {
    ++next[warp];
    s.issued(warp, l1_hit_load());
    order += std::to_string(warp) + " ";
    if (next[warp] < warps[warp].size()) {
      queue(warp);
    } else {
      started.clear();
      s.finished(warp, started);
    }
  }
  return order;
}

TEST(WarpSchedulerTest, InstructionsBeforeARecordTakeItsWarpACycleEach) {
  const SimConfig cfg = scheduler_config();
  // Warp 0: a load at 0 (data at 30), then 10 other instructions (cycles 1-10), its second load
  // at 11 (data at 41). Warp 1: 3 other instructions (0-2), its load at 3 (data at 33).
  WarpScheduler timed(cfg, 4, /*timed=*/true);
  EXPECT_EQ(issue_cycles(timed, {{0, 10}, {3}}), "0 1 0 ");
  EXPECT_DOUBLE_EQ(timed.totals().cycles, 41);
  // Without them, warp 0's second load would go at 1 and warp 1's at 0: the kernel ends at 31.
  WarpScheduler bare(cfg, 4, /*timed=*/true);
  EXPECT_EQ(issue_cycles(bare, {{0, 0}, {0}}), "0 1 0 ");
  EXPECT_DOUBLE_EQ(bare.totals().cycles, 31);
  // Lockstep takes turns, a record a cycle, whatever came before each.
  WarpScheduler lockstep(cfg, 4, /*timed=*/false);
  EXPECT_EQ(issue_cycles(lockstep, {{0, 10}, {3}}), "0 1 0 ");
  EXPECT_DOUBLE_EQ(lockstep.totals().cycles, 2);
}

TEST(WarpSchedulerTest, ARecordWaitsForTheLoadWhoseDataItUses) {
  const SimConfig cfg = scheduler_config();
  // One warp, 4 loads in flight: load A from DRAM at 0 (data at 500), load B hitting in L1 at 1
  // (data at 31), then load C hitting in L1, using the data of the load `k` back.
  auto end_with = [&](std::uint32_t k) {
    WarpScheduler s(cfg, 4, /*timed=*/true);
    s.add_cta(0, 1);
    std::vector<std::uint32_t> started;
    s.start(1, started);
    std::uint32_t warp = 0, sm = 0;
    const RecordUse uses[] = {dram_load(), l1_hit_load(), l1_hit_load()};
    for (int i = 0; i < 3; ++i) {
      s.ready(0, true, false, 0, i == 2 ? k : 0);
      EXPECT_TRUE(s.next(warp, sm));
      s.issued(warp, uses[i]);
    }
    s.finished(0, started);
    return s.totals().cycles;
  };
  EXPECT_DOUBLE_EQ(end_with(0), 500);  // C at 2, data at 32; A's data last, at 500
  EXPECT_DOUBLE_EQ(end_with(1), 500);  // C waits for B: at 31, data at 61
  EXPECT_DOUBLE_EQ(end_with(2), 530);  // C waits for A: at 500, data at 530
  EXPECT_DOUBLE_EQ(end_with(3), 500);  // no third load back: nothing to wait for
}

TEST(WarpSchedulerTest, ARecordsUseComesFromItsCounters) {
  AccessCounters before, after;
  after.l2_read_sectors = 4;
  after.l2_read_sector_hits = 3;
  after.l2_read_sector_misses = 1;
  after.dram_read_bytes = 32;
  const RecordUse load = record_use(Op::LDG, before, after, 2, 96, 1.5);
  EXPECT_TRUE(load.waits);
  EXPECT_FALSE(load.store);
  EXPECT_EQ(load.l2_sectors, 4u);
  EXPECT_EQ(load.l2_hits, 3u);
  EXPECT_EQ(load.l2_far_hits, 2u);
  EXPECT_EQ(load.dram_sectors, 1u);
  EXPECT_EQ(load.dram_bytes, 96u);  // the DRAM model's: its fetch and a victim's write-back
  EXPECT_DOUBLE_EQ(load.pipe_cycles, 1.5);
  AccessCounters atomic;
  atomic.l2_atomic_sectors = 2;
  const RecordUse hit = record_use(Op::ATOMG, before, atomic, 0, 0, 1);
  EXPECT_EQ(hit.l2_hits, 2u);  // performed at the L2, its line there
  EXPECT_EQ(hit.dram_sectors, 0u);
  atomic.dram_read_bytes = 64;
  EXPECT_EQ(record_use(Op::ATOMG, before, atomic, 0, 64, 1).dram_sectors, 2u);
  EXPECT_TRUE(record_use(Op::STG, before, before, 0, 0, 1).store);
  EXPECT_FALSE(record_use(Op::STG, before, before, 0, 0, 1).waits);
}

TEST(WarpSchedulerTest, PipeCyclesAreTheSlowerStage) {
  SimConfig cfg = scheduler_config();
  cfg.l1.sectors_per_cycle = 4;  // one data wavefront a cycle
  cfg.shared.wavefronts_per_cycle = 1;
  EXPECT_DOUBLE_EQ(l1_pipe_cycles(cfg, 3, 1, 4), 4);   // data 3 + 1 against tags 1
  EXPECT_DOUBLE_EQ(l1_pipe_cycles(cfg, 1, 0, 12), 3);  // tags 12 / 4
}

}  // namespace
}  // namespace gms
