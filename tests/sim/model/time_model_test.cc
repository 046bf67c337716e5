// The time model's terms on hand-computed cases, the DRAM channel and row models, and the
// notes' roofline example (docs/examples.md B8).
#include "sim/model/time_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/core/error.h"
#include "sim/core/stats.h"
#include "sim/model/dram_model.h"

namespace gms {
namespace {

/// A small machine whose numbers are easy to compute by hand: 1 GHz, 2 SMs, 2 slices, 2 DRAM
/// channels of 50 GB/s at 100% efficiency, no overhead.
SimConfig hand_config() {
  SimConfig c = default_config();
  c.gpu.sm_count = 2;
  c.gpu.clock_mhz = 1000;
  c.gpu.launch_overhead_ns = 0;
  c.gpu.wave_overhead_ns = 0;
  c.gpu.wave_dispatch_ns = 0;
  c.gpu.loads_in_flight_per_warp = 1;
  c.l1.store_path_bytes_per_cycle = 0;
  c.l2.slices = 2;
  c.l2.sectors_per_cycle_per_slice = 1;
  c.l1.sectors_per_cycle = 4;
  c.shared.wavefronts_per_cycle = 1;
  c.dram.channels = 2;
  c.dram.peak_gbps = 100;
  c.dram.read_efficiency = 1;
  c.dram.mixed_efficiency = 0.5;
  c.dram.hash = SliceHash::Linear;
  c.dram.interleave_bytes = 256;
  c.l1.hit_latency_cycles = 10;
  c.l2.hit_latency_cycles = 100;
  c.dram.latency_cycles = 1000;
  c.dram.queue_ns = 0;
  return c;
}

KernelStats kernel(std::uint32_t ctas, std::uint32_t threads) {
  KernelStats k;
  k.kernel.grid = {ctas, 1, 1};
  k.kernel.block = {threads, 1, 1};
  k.traffic.sm_l1_sectors = {0, 0};
  k.traffic.sm_shared_wavefronts = {0, 0};
  k.traffic.l2_slice_sectors = {0, 0};
  k.traffic.dram.channel_bytes = {0, 0};
  return k;
}

/// One warp of `loads` load requests whose sectors all miss to DRAM (one sector each).
KernelStats dram_loads_kernel(std::uint64_t loads) {
  KernelStats k = kernel(1, 32);
  k.traffic.load_requests = loads;
  AccessCounters& ld = k.totals[static_cast<int>(OpClass::GlobalLoad)];
  ld.l2_read_sector_misses = loads;
  ld.l2_read_sectors = loads;
  ld.l1_sector_misses = loads;
  return k;
}

TEST(TimeModelTest, BusiestChannelSetsTheDramTime) {
  const SimConfig cfg = hand_config();
  DramModel dram(cfg.dram);
  // A stride of channels x interleave (512 B) keeps hitting channel 0: hash-hostile.
  for (int i = 0; i < 100; ++i) dram.access(Addr(i) * 512, 64, false);
  KernelStats k = kernel(1, 32);
  k.traffic.dram = dram.finish();
  EXPECT_EQ(k.traffic.dram.channel_bytes[0], 6400u);
  EXPECT_EQ(k.traffic.dram.channel_bytes[1], 0u);
  const TimeEstimate t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.dram_ns, 6400.0 / 50.0);  // one channel at 50 GB/s = 50 B/ns
  EXPECT_EQ(t.bound, Bound::Dram);
  // The same bytes spread over both channels take half the time.
  DramModel spread(cfg.dram);
  for (int i = 0; i < 100; ++i) spread.access(Addr(i) * 256, 64, false);
  k.traffic.dram = spread.finish();
  EXPECT_DOUBLE_EQ(estimate_time(k, cfg).dram_ns, 3200.0 / 50.0);
}

TEST(TimeModelTest, WritesBlendTheEfficiencyAndTheFlushIsTimed) {
  const SimConfig cfg = hand_config();
  DramModel dram(cfg.dram);
  dram.access(0, 1000, false);
  dram.access(256, 1000, true);  // half writes: fully "mixed" efficiency 0.5
  KernelStats k = kernel(1, 32);
  k.traffic.dram = dram.finish();
  const TimeEstimate before = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(before.dram_efficiency, 0.5);
  EXPECT_DOUBLE_EQ(before.dram_ns, 1000.0 / 25.0);
  // The end-of-kernel flush costs DRAM time too, its share on every channel: in a stream of
  // kernels it is written while the next one runs (issue 20: a store stream above the peak).
  DramModel dram2(cfg.dram);
  dram2.access(0, 1000, false);
  dram2.access(256, 1000, true);
  dram2.flush_write(5000);
  k.traffic.dram = dram2.finish();
  EXPECT_EQ(k.traffic.dram.write_bytes, 6000u);
  EXPECT_EQ(k.traffic.dram.flush_write_bytes, 5000u);
  const TimeEstimate t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.dram_efficiency, 0.5);  // 6000 of 7000 bytes are writes: still "mixed"
  EXPECT_DOUBLE_EQ(t.dram_ns, (1000.0 + 5000.0 / cfg.dram.channels) / 25.0);
  EXPECT_DOUBLE_EQ(t.dram_gbps, 7000.0 / t.estimate_ns);
}

TEST(TimeModelTest, KernelLineSetsTheLoadsInFlight) {
  // A chase: one warp, 100 dependent loads that all miss to DRAM. The preset lets a warp have
  // 4 loads in flight; the #kernel line's loads_in_flight=1 says each waits for the previous.
  SimConfig cfg = hand_config();
  cfg.gpu.loads_in_flight_per_warp = 4;
  KernelStats k = dram_loads_kernel(100);
  const double parallel = estimate_time(k, cfg).latency_ns;
  k.kernel.params.emplace_back("loads_in_flight", "1");
  EXPECT_DOUBLE_EQ(estimate_time(k, cfg).latency_ns, 4 * parallel);
  k.kernel.params.back().second = "0";
  EXPECT_THROW(estimate_time(k, cfg), SimError);
}

TEST(TimeModelTest, L2AndL1TermsFromTheBusiestUnit) {
  const SimConfig cfg = hand_config();
  KernelStats k = kernel(1, 32);
  k.traffic.l2_slice_sectors = {300, 100};  // 300 sectors at 1/clk, 1 GHz = 300 ns
  k.traffic.sm_l1_sectors = {400, 0};
  k.traffic.sm_l1_data_wavefronts = {100, 0};  // 128 bytes a cycle: 100 cycles
  k.traffic.sm_shared_wavefronts = {50, 120};  // SM0: 100 + 50 = 150; SM1: 120
  const TimeEstimate t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.l2_ns, 300);
  EXPECT_DOUBLE_EQ(t.l1_ns, 150);
  EXPECT_EQ(t.bound, Bound::L2);
}

TEST(TimeModelTest, L1TakesTheSlowerOfItsTagAndDataStages) {
  const SimConfig cfg = hand_config();
  KernelStats k = kernel(1, 32);
  // SM0: 300 broadcast loads (1 data wavefront, 4 tag lookups each): 300 cycles in either
  // stage. SM1: 100 loads of stride 3 words (1 wavefront, 6 lookups): the tag stage's 150.
  k.traffic.sm_l1_sectors = {300, 1200};
  k.traffic.sm_l1_data_wavefronts = {300, 100};
  k.traffic.sm_l1_tag_lookups = {1200, 600};
  EXPECT_DOUBLE_EQ(estimate_time(k, cfg).l1_ns, 300);
  // 16-byte unit-stride loads of 32 lanes (4 wavefronts, 4 lookups each): 4 cycles of data,
  // 1 of tags.
  k.traffic.sm_l1_data_wavefronts = {4 * 50, 0};
  k.traffic.sm_l1_tag_lookups = {4 * 50, 0};
  EXPECT_DOUBLE_EQ(estimate_time(k, cfg).l1_ns, 200);
  // Shared wavefronts share the data stage with the global ones, not the tag stage: 200 + 150.
  k.traffic.sm_shared_wavefronts = {150, 0};
  EXPECT_DOUBLE_EQ(estimate_time(k, cfg).l1_ns, 350);
}

TEST(TimeModelTest, SingleWarpStreamIsLatencyBound) {
  // One warp, 100 dependent loads that all miss to DRAM: Little's law with one request in
  // flight gives 100 x 1000 cycles = 100 us at 1 GHz.
  const SimConfig cfg = hand_config();
  KernelStats k = dram_loads_kernel(100);
  k.traffic.dram.channel_bytes = {3200, 3200};
  k.traffic.dram.read_bytes = 6400;
  const TimeEstimate t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.avg_load_latency_ns, 1000);
  EXPECT_DOUBLE_EQ(t.latency_ns, 100 * 1000.0);
  EXPECT_EQ(t.bound, Bound::Latency);
  // Eight warps of one load each overlap: 8 requests in flight.
  KernelStats wide = k;
  wide.kernel.block = {256, 1, 1};
  wide.traffic.load_requests = 8;
  EXPECT_DOUBLE_EQ(estimate_time(wide, cfg).latency_ns, 1000);
}

TEST(TimeModelTest, DramQueueingLengthensTheChainWhereItMeetsTheDramRate) {
  // One warp, 100 dependent loads from DRAM at 1000 cycles: a 100 us chain; and 10 MB over two
  // 50 GB/s channels: 100 us of DRAM. With dram.queue_ns = 10 each load waits 10 x u / (1 - u)
  // more: T = 100 us + 100 x 10 x u / (1 - u) with u = 100 us / T, whose root is T = 110 us
  // (u = 10/11, each load waits 100 ns more).
  SimConfig cfg = hand_config();
  KernelStats k = dram_loads_kernel(100);
  k.traffic.dram.channel_bytes = {5'000'000, 5'000'000};
  k.traffic.dram.read_bytes = 10'000'000;
  TimeEstimate t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.latency_ns, 100'000);
  EXPECT_DOUBLE_EQ(t.queue_ns, 0);  // queue_ns 0: the latency does not grow
  EXPECT_DOUBLE_EQ(t.estimate_ns, 100'000);
  cfg.dram.queue_ns = 10;
  t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.latency_ns, 100'000);  // the unloaded chain
  EXPECT_NEAR(t.queue_ns, 10'000, 1e-6);
  EXPECT_NEAR(t.estimate_ns, 110'000, 1e-6);
  // The chain at unloaded latency (100 us) is no longer than the DRAM's 100 us: the 10 us it
  // outlasts the DRAM by is queueing at the DRAM (u = 10/11), so the DRAM is what saturates.
  EXPECT_EQ(t.bound, Bound::Dram);
  // Half the load sectors hit in L1: 50 loads wait in the queue, and the chain is 50.5 us
  // (100 loads at (10 + 1000) / 2 cycles). (T - 50.5 us)(T - 100 us) = 50 x 10 x 100 us: the root
  // is 100.99 us, past the DRAM's 100 us: a DRAM-bound kernel waits a little for its loads.
  k.totals[static_cast<int>(OpClass::GlobalLoad)].l1_sector_hits = 100;  // beside DRAM's 100
  t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.latency_ns, 50'500);
  const double gap = 50'500.0 - 100'000.0;
  const double root = (50'500.0 + 100'000.0 + std::sqrt(gap * gap + 4 * 50 * 10 * 100'000.0)) / 2;
  EXPECT_NEAR(t.estimate_ns, root, 1e-6);
  EXPECT_NEAR(t.queue_ns, root - 50'500, 1e-6);
  EXPECT_GT(t.estimate_ns, 100'000);
  EXPECT_LT(t.estimate_ns, 101'000);
  EXPECT_EQ(t.bound, Bound::Dram);  // the loaded chain is the largest term, by its queue only
  // Twice the loads and no L1 hits: a 200 us chain at unloaded latency, past the DRAM's 100 us,
  // so latency-bound (more loads in flight would help) though it queues as well: (T - 200 us)
  // (T - 100 us) = 200 x 10 x 100 us.
  KernelStats longer = dram_loads_kernel(200);
  longer.traffic.dram.channel_bytes = {5'000'000, 5'000'000};
  longer.traffic.dram.read_bytes = 10'000'000;
  t = estimate_time(longer, cfg);
  EXPECT_DOUBLE_EQ(t.latency_ns, 200'000);
  const double gap2 = 200'000.0 - 100'000.0;
  EXPECT_NEAR(t.estimate_ns, (300'000.0 + std::sqrt(gap2 * gap2 + 4 * 200 * 10 * 100'000.0)) / 2,
              1e-6);
  EXPECT_GT(t.queue_ns, 0);
  EXPECT_EQ(t.bound, Bound::Latency);
}

TEST(TimeModelTest, FarPartitionHitsCostTheFarLatency) {
  // 100 dependent loads, all L2 hits, 40 of them in the far partition: (60 x 100 + 40 x 250) /
  // 100 = 160 cycles each; with no far hits, the near latency.
  SimConfig cfg = hand_config();
  cfg.l2.partitions = 2;
  cfg.l2.far_hit_latency_cycles = 250;
  KernelStats k = kernel(1, 32);
  k.traffic.load_requests = 100;
  AccessCounters& ld = k.totals[static_cast<int>(OpClass::GlobalLoad)];
  ld.l2_read_sectors = 100;
  ld.l2_read_sector_hits = 100;
  ld.l1_sector_misses = 100;
  k.traffic.l2_far_hit_sectors = 40;
  EXPECT_DOUBLE_EQ(estimate_time(k, cfg).avg_load_latency_ns, 160);
  k.traffic.l2_far_hit_sectors = 0;
  EXPECT_DOUBLE_EQ(estimate_time(k, cfg).avg_load_latency_ns, 100);
}

TEST(TimeModelTest, WavesAndOverhead) {
  SimConfig cfg = hand_config();
  cfg.gpu.launch_overhead_ns = 2000;
  cfg.gpu.wave_overhead_ns = 100;
  // 1024-thread CTAs: 2 resident per SM (2048 threads), 4 per wave on 2 SMs; 10 CTAs = 3 waves.
  const TimeEstimate t = estimate_time(kernel(10, 1024), cfg);
  EXPECT_DOUBLE_EQ(t.waves, 3);
  EXPECT_DOUBLE_EQ(t.overhead_ns, 2200);
  EXPECT_EQ(t.bound, Bound::Overhead);
  EXPECT_DOUBLE_EQ(t.estimate_ns, 2200);
}

TEST(TimeModelTest, BandwidthOverlapsTheWavesButLatencyAddsToThem) {
  SimConfig cfg = hand_config();
  cfg.gpu.launch_overhead_ns = 500;
  cfg.gpu.wave_overhead_ns = 100;
  // 3 waves (as above) moving 100 KB through both channels: 50 KB / 50 GB/s = 1000 ns of DRAM
  // time, which overlaps with the 2 x 100 ns of wave hand-offs: launch + 1000.
  KernelStats k = kernel(10, 1024);
  k.traffic.dram.channel_bytes = {50000, 50000};
  k.traffic.dram.read_bytes = 100000;
  TimeEstimate t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.dram_ns, 1000);
  EXPECT_EQ(t.bound, Bound::Dram);
  EXPECT_DOUBLE_EQ(t.estimate_ns, 1500);
  // A latency chain waits for each wave's hand-off: 320 warps, one DRAM load each, 128 warps
  // (4 resident CTAs) in flight: 320 x 1000 / 128 = 2500 ns, + 200 ns of hand-offs.
  k.traffic.load_requests = 320;
  k.totals[static_cast<int>(OpClass::GlobalLoad)].l2_read_sector_misses = 320;
  t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.latency_ns, 2500);
  EXPECT_EQ(t.bound, Bound::Latency);
  EXPECT_DOUBLE_EQ(t.estimate_ns, 500 + 2500 + 200);
}

TEST(TimeModelTest, StoresAfterLoadsTakeTheStorePath) {
  SimConfig cfg = hand_config();
  cfg.l1.store_path_bytes_per_cycle = 4;
  // 8 warps (one CTA) each load one sector from DRAM and store one: 8 loads in flight, so the
  // latency term is 1000 ns. The busiest SM has 12 of the 16 L1 sectors, half of them stores:
  // 12 x 0.5 x 32 B = 192 B at 4 B/clk and 1 GHz = 48 ns, after the loads.
  KernelStats k = kernel(1, 256);
  k.traffic.load_requests = 8;
  k.traffic.sm_l1_sectors = {12, 4};
  k.totals[static_cast<int>(OpClass::GlobalLoad)].l2_read_sector_misses = 8;
  k.totals[static_cast<int>(OpClass::GlobalLoad)].sectors = 8;
  k.totals[static_cast<int>(OpClass::GlobalStore)].sectors = 8;
  TimeEstimate t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.latency_ns, 1000);
  EXPECT_DOUBLE_EQ(t.store_path_ns, 48);
  EXPECT_DOUBLE_EQ(t.estimate_ns, 1048);
  EXPECT_EQ(t.bound, Bound::Latency);
  // Stores alone (a fill) do not wait for loads: no store path term.
  k.traffic.load_requests = 0;
  k.totals[static_cast<int>(OpClass::GlobalLoad)] = {};
  EXPECT_DOUBLE_EQ(estimate_time(k, cfg).store_path_ns, 0);
  // And a rate of 0 turns the term off (the presets without a calibration).
  k.traffic.load_requests = 8;
  cfg.l1.store_path_bytes_per_cycle = 0;
  EXPECT_DOUBLE_EQ(estimate_time(k, cfg).store_path_ns, 0);
}

TEST(TimeModelTest, WaveDispatchIsAFloor) {
  SimConfig cfg = hand_config();
  cfg.gpu.launch_overhead_ns = 2000;
  cfg.gpu.wave_overhead_ns = 100;
  cfg.gpu.wave_dispatch_ns = 500;
  // 3 waves of a kernel with little traffic: each further wave takes 500 ns at least, more than
  // its 100 ns hand-off: launch + 2 x 500.
  KernelStats k = kernel(10, 1024);
  TimeEstimate t = estimate_time(k, cfg);
  EXPECT_DOUBLE_EQ(t.dispatch_ns, 1000);
  EXPECT_EQ(t.bound, Bound::Overhead);
  EXPECT_DOUBLE_EQ(t.estimate_ns, 3000);
  // More DRAM time than the floor: DRAM-bound again (250 KB / 50 GB/s = 2500 ns).
  k.traffic.dram.channel_bytes = {125000, 125000};
  k.traffic.dram.read_bytes = 250000;
  t = estimate_time(k, cfg);
  EXPECT_EQ(t.bound, Bound::Dram);
  EXPECT_DOUBLE_EQ(t.estimate_ns, 2000 + 2500);
  // One wave: the launch overhead covers its dispatch.
  EXPECT_DOUBLE_EQ(estimate_time(kernel(4, 1024), cfg).dispatch_ns, 0);
}

/// The traffic of write-backs of `mask` sectors of each line, through write_sectors or one
/// 32-byte access per sector.
DramTraffic write_backs(const DramConfig& c, const std::vector<Addr>& lines, std::uint8_t mask,
                        bool merged) {
  DramModel d(c);
  for (Addr line : lines) {
    if (merged) {
      d.write_sectors(line, mask);
      continue;
    }
    for (unsigned s = 0; s < 4; ++s)
      if (mask >> s & 1) d.access(line + s * 32, 32, true);
  }
  return d.finish();
}

TEST(TimeModelTest, MergedWriteBacksCountLikeOneAccessPerSector) {
  std::vector<Addr> lines;
  for (Addr i = 0; i < 200; ++i) lines.push_back(i * 384);  // lines straddle chunks and rows
  for (std::uint32_t interleave : {64u, 128u, 256u})
    for (bool rows : {false, true}) {
      DramConfig c = hand_config().dram;
      c.interleave_bytes = interleave;  // 64: a line's sectors lie in two channels
      c.row_model = rows;
      c.banks_per_channel = 2;
      c.row_bytes = 512;
      c.row_window = 3;
      for (std::uint8_t mask : {0x1, 0x9, 0xf, 0x6}) {
        const DramTraffic m = write_backs(c, lines, mask, true);
        const DramTraffic s = write_backs(c, lines, mask, false);
        EXPECT_EQ(m.channel_bytes, s.channel_bytes) << interleave << " " << int(mask);
        EXPECT_EQ(m.write_bytes, s.write_bytes);
        EXPECT_EQ(m.row_hits, s.row_hits) << interleave << " " << int(mask);
        EXPECT_EQ(m.row_misses, s.row_misses);
      }
    }
}

TEST(TimeModelTest, RowBufferFriendlyVersusHostile) {
  DramConfig c = hand_config().dram;
  c.channels = 1;
  c.row_model = true;
  c.banks_per_channel = 4;
  c.row_bytes = 1024;
  c.row_window = 4;
  DramModel friendly(c), hostile(c);
  for (int i = 0; i < 64; ++i) friendly.access(Addr(i) * 64, 64, false);  // walks each row in turn
  for (int i = 0; i < 64; ++i)
    hostile.access(Addr(i) * 4096 * 4, 64, false);  // a new row every time
  const DramTraffic f = friendly.finish(), h = hostile.finish();
  EXPECT_EQ(f.row_hits + f.row_misses, 64u);
  EXPECT_EQ(f.row_misses, 4u);  // one per 1 KiB row
  EXPECT_EQ(h.row_hits, 0u);
  EXPECT_EQ(h.row_misses, 64u);
  // The row model never changes the bytes.
  EXPECT_EQ(f.read_bytes, h.read_bytes);
  SimConfig cfg = hand_config();
  cfg.dram = c;
  KernelStats kf = kernel(1, 32), kh = kernel(1, 32);
  kf.traffic.dram = f;
  kh.traffic.dram = h;
  EXPECT_LT(estimate_time(kf, cfg).dram_ns, estimate_time(kh, cfg).dram_ns);
  EXPECT_DOUBLE_EQ(estimate_time(kh, cfg).dram_efficiency, 1.0 / 1.5);
}

TEST(TimeModelTest, RowModelReordersWithinTheWindow) {
  DramConfig c = hand_config().dram;
  c.channels = 1;
  c.row_model = true;
  c.banks_per_channel = 1;
  c.row_bytes = 1024;
  c.row_window = 4;
  // Rows A B A B ...: in order every access misses; FR-FCFS within 4 serves the A's together.
  DramModel m(c);
  for (int i = 0; i < 16; ++i) m.access(Addr(i % 2) * 1024 * 1, 64, false);
  const DramTraffic t = m.finish();
  EXPECT_GT(t.row_hits, t.row_misses);
}

TEST(TimeModelTest, NotesRooflineExample) {
  // docs/examples.md B8: 20 TFLOP/s and 1 TB/s give balance 20; intensity T_tile / 4.
  for (const auto& [tile, bound] :
       {std::pair{1, "memory-bound"}, std::pair{32, "memory-bound"}, std::pair{79, "memory-bound"},
        std::pair{80, "compute-bound"}}) {
    const Roofline r = roofline_point(1000, tile / 4.0, 20000, 1000);
    EXPECT_DOUBLE_EQ(r.balance, 20);
    EXPECT_EQ(roofline_bound_name(r.bound), bound) << "T_tile " << tile;
    EXPECT_DOUBLE_EQ(r.attainable_flops_per_s, std::min(20000.0, tile / 4.0 * 1000) * 1e9);
  }
  EXPECT_DOUBLE_EQ(roofline_point(1, 0.25, 20000, 1000).attainable_flops_per_s, 250e9);  // naive
}

}  // namespace
}  // namespace gms
