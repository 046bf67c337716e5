// TMA copies replayed as traffic (issue 61, part 2): the Accel-Sim importer expands each executed
// copy into bulk records (sim/core/types.h: TMALD, TMAST, TMAPF, TMARED, TMAMC) that the engines
// route past the L1 to the L2 and DRAM. The two hand-written files' counts are worked out by
// hand below, on the H100 preset, in both modes (the engines agree on them:
// tests/e2e/engine_differential_test.cc, TmaTracesAgree...).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/replay/simulator.h"
#include "tests/e2e/report_text.h"
#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "tests/trace/trace_test_util.h"

namespace gms {
namespace {

const SimConfig& tma_h100() {
  static const SimConfig cfg = load_config({{test::source_path("configs/hopper-h100.ini")}, {}});
  return cfg;
}

/// The kernel of `file` (tests/data/accelsim) in `mode` (Cold or Cached) on the H100 preset.
KernelStats tma_kernel(const std::string& file, SimMode mode) {
  RunOptions opts;
  opts.mode = mode;
  opts.keep_unit_traffic = true;  // the per-SM L1 sectors
  const std::vector<KernelStats> ks =
      simulate({test::data_path("accelsim/" + file)}, tma_h100(), opts);
  EXPECT_EQ(ks.size(), 1u);
  return ks.empty() ? KernelStats{} : ks.front();
}

const InstrStats* tma_row(const KernelStats& k, std::uint32_t inst, Op op) {
  for (const InstrStats& i : k.instructions)
    if (i.inst == inst && i.op == op) return &i;
  ADD_FAILURE() << "no row " << inst << " " << op_name(op);
  static const InstrStats none;
  return &none;
}

// tma_reuse.traceg: one warp. Each copy is a tile of 4 rows of 128 bytes, 128 apart (512
// contiguous bytes: 32 lanes of 16 bytes, one record; 16 sectors in 4 lines):
//   0x10 UTMALDG tile A (0x7f8400000000)        0x40 UTMAPF tile B (0x7f8400010000)
//   0x20 UTMALDG tile A again                   0x50 UTMALDG.MULTICAST tile B, CTA mask 0x3
//   0x30 LDG.E.128 of tile A by the warp        0x60 UTMASTG tile C (0x7f8400020000)
//                                               0x70 UTMAREDG tile C
TEST(TmaReplayTest, ReuseThroughTheL2WorkedOutByHand) {
  const KernelStats cached = tma_kernel("tma_reuse.traceg", SimMode::Cached);
  ASSERT_EQ(cached.mode, KernelMode::Cached);
  // 0x10: tile A's 16 sectors miss in the L2: 512 DRAM bytes; 512 bytes into shared memory.
  const InstrStats* first = tma_row(cached, 0x10, Op::TMALD);
  EXPECT_EQ(first->c.requests, 1u);
  EXPECT_EQ(first->c.l2_read_sectors, 16u);
  EXPECT_EQ(first->c.l2_read_sector_hits, 0u);
  EXPECT_EQ(first->c.dram_read_bytes, 512u);
  EXPECT_EQ(first->c.shared_bytes_written, 512u);
  EXPECT_EQ(first->c.l1_sector_hits, 0u);  // no L1 lookup: the 16 sectors count as misses
  // 0x20: the second read of tile A hits the L2: no DRAM bytes.
  const InstrStats* again = tma_row(cached, 0x20, Op::TMALD);
  EXPECT_EQ(again->c.l2_read_sector_hits, 16u);
  EXPECT_EQ(again->c.dram_read_bytes, 0u);
  EXPECT_EQ(again->c.shared_bytes_written, 512u);
  // 0x30: the TMA did not fill the L1: the warp's LDG of tile A misses there (16 sectors) and
  // hits the L2.
  const InstrStats* ldg = tma_row(cached, 0x30, Op::LDG);
  EXPECT_EQ(ldg->c.l1_sector_hits, 0u);
  EXPECT_EQ(ldg->c.l1_sector_misses, 16u);
  EXPECT_EQ(ldg->c.l2_read_sector_hits, 16u);
  // 0x40: the prefetch fills the L2 (16 misses, 512 DRAM bytes), no shared memory.
  const InstrStats* pf = tma_row(cached, 0x40, Op::TMAPF);
  EXPECT_EQ(pf->c.l2_read_sector_misses, 16u);
  EXPECT_EQ(pf->c.dram_read_bytes, 512u);
  EXPECT_EQ(pf->c.shared_bytes_written, 0u);
  // 0x50: the multicast load of tile B hits the prefetched lines, is read once (16 sectors) and
  // written into both CTAs of the mask: 512 bytes by the TMALD record, 512 by its TMAMC.
  const InstrStats* mc = tma_row(cached, 0x50, Op::TMALD);
  EXPECT_EQ(mc->c.l2_read_sectors, 16u);
  EXPECT_EQ(mc->c.l2_read_sector_hits, 16u);
  EXPECT_EQ(mc->c.shared_bytes_written, 512u);
  const InstrStats* delivery = tma_row(cached, 0x50, Op::TMAMC);
  EXPECT_EQ(delivery->c.l2_read_sectors, 0u);
  EXPECT_EQ(delivery->c.requests, 0u);
  EXPECT_EQ(delivery->c.shared_bytes_written, 512u);
  // 0x60, 0x70: the store writes 16 sectors into the L2, the reduction updates them there (whole
  // sectors written: no DRAM fetch); the flush writes the 512 dirty bytes back, charged to the
  // reduction, which dirtied them last.
  const InstrStats* st = tma_row(cached, 0x60, Op::TMAST);
  EXPECT_EQ(st->c.l2_write_sectors, 16u);
  EXPECT_EQ(st->c.dram_write_bytes, 0u);
  const InstrStats* red = tma_row(cached, 0x70, Op::TMARED);
  EXPECT_EQ(red->c.l2_atomic_sectors, 16u);
  EXPECT_EQ(red->c.dram_read_bytes, 0u);
  EXPECT_EQ(red->c.dram_write_bytes, 512u);
  // The class: 6 requests (the TMAMC is a delivery, not a request) of 512 bytes; read sectors
  // 4 x 16 = 64, of which 0x20's and 0x50's 32 hit; DRAM: tiles A and B once; shared bytes
  // 512 + 512 + 2 x 512.
  const AccessCounters& t = cached.total(OpClass::Tma);
  EXPECT_EQ(t.requests, 6u);
  EXPECT_EQ(t.bytes_requested, 3072u);
  EXPECT_EQ(t.l2_read_sectors, 64u);
  EXPECT_EQ(t.l2_read_sector_hits, 32u);
  EXPECT_EQ(t.dram_read_bytes, 1024u);
  EXPECT_EQ(t.dram_write_bytes, 512u);
  EXPECT_EQ(t.shared_bytes_written, 2048u);
  // The L1TEX pipeline sees only the LDG: its 16 sectors on the warp's SM.
  std::uint64_t l1_sectors = 0;
  for (const std::uint64_t s : cached.traffic.sm_l1_sectors) l1_sectors += s;
  EXPECT_EQ(l1_sectors, 16u);

  // Cold: every access misses everywhere: 4 reads x 512 DRAM bytes, the reduction's 512 read
  // (an atomic's fetch), the store's 512 written; the same shared bytes.
  const KernelStats cold = tma_kernel("tma_reuse.traceg", SimMode::Cold);
  const AccessCounters& c = cold.total(OpClass::Tma);
  EXPECT_EQ(c.requests, 6u);
  EXPECT_EQ(c.l2_read_sectors, 64u);
  EXPECT_EQ(c.l2_read_sector_hits, 0u);
  EXPECT_EQ(c.l2_write_sectors, 16u);
  EXPECT_EQ(c.l2_atomic_sectors, 16u);
  EXPECT_EQ(c.dram_read_bytes, 2560u);
  EXPECT_EQ(c.dram_write_bytes, 512u);
  EXPECT_EQ(c.shared_bytes_written, 2048u);
}

// tma_tiles.traceg (its operands' counts: tests/trace/import/accelsim_tma_test.cc): 8 KiB tiles
// of 64 rows of 128 bytes. Each tile is 512 lanes of 16 bytes: 16 records.
TEST(TmaReplayTest, TiledCopiesWorkedOutByHand) {
  const KernelStats cached = tma_kernel("tma_tiles.traceg", SimMode::Cached);
  // 0x10 in both CTAs: 16 records each; CTA 0's tile 256 sectors, CTA 1's (16 bytes past a
  // sector boundary) 320: 576 sectors, all misses: 576 x 32 = 18432 DRAM bytes; 2 x 8192
  // shared bytes.
  const InstrStats* ld = tma_row(cached, 0x10, Op::TMALD);
  EXPECT_EQ(ld->c.requests, 32u);
  EXPECT_EQ(ld->c.l2_read_sectors, 576u);
  EXPECT_EQ(ld->c.dram_read_bytes, 18432u);
  EXPECT_EQ(ld->c.shared_bytes_written, 16384u);
  // 0x20, multicast to both CTAs: read once (256 sectors, 8192 DRAM bytes), 8192 shared bytes
  // by the TMALD records and 8192 by the TMAMC ones.
  const InstrStats* mc = tma_row(cached, 0x20, Op::TMALD);
  EXPECT_EQ(mc->c.l2_read_sectors, 256u);
  EXPECT_EQ(mc->c.dram_read_bytes, 8192u);
  EXPECT_EQ(mc->c.shared_bytes_written + tma_row(cached, 0x20, Op::TMAMC)->c.shared_bytes_written,
            16384u);
  // The class: 6 copies of 8192 bytes (the predicated-off one makes no record) in 6 x 16 = 96
  // requests; read sectors 576 + 256 + 256 (prefetch) = 1088; written 256, atomic 256; shared
  // bytes 16384 + 16384 = 32768, the import's count (accelsim_tma_test.cc).
  const AccessCounters& t = cached.total(OpClass::Tma);
  EXPECT_EQ(t.requests, 96u);
  EXPECT_EQ(t.bytes_requested, 49152u);
  EXPECT_EQ(t.l2_read_sectors, 1088u);
  EXPECT_EQ(t.l2_write_sectors, 256u);
  EXPECT_EQ(t.l2_atomic_sectors, 256u);
  EXPECT_EQ(t.shared_bytes_written, 32768u);
  EXPECT_EQ(cached.records, 114u);  // 112 bulk records and the two LDS.128
}

TEST(TmaReplayTest, ReportsShowTheClassOnlyWhereItIsNonzero) {
  const std::string tma = test::data_path("accelsim/tma_reuse.traceg");
  const auto json = test::run_cli("run " + tma + " --config hopper-h100 --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  GMS_EXPECT_CONTAINS(json.out, "\"tma\": {");
  GMS_EXPECT_CONTAINS(json.out, "\"shared_bytes_written\": 2048");
  const auto csv = test::run_cli("run " + tma + " --config hopper-h100 --format csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  GMS_EXPECT_CONTAINS(csv.out, ",line,shared_bytes_written\n");
  const auto table = test::run_cli("run " + tma + " --config hopper-h100");
  GMS_EXPECT_CONTAINS(table.out, "; 2048 shared-memory bytes written\n");
  // A trace without TMA: no class, no column, no line.
  const std::string plain = test::data_path("accelsim/lineinfo.traceg");
  for (const char* format : {"json", "csv", "table"}) {
    const auto r = test::run_cli("run " + plain + " --format " + format);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("\"tma\""), std::string::npos) << format;
    EXPECT_EQ(r.out.find("tma:"), std::string::npos) << format;
    EXPECT_EQ(r.out.find(",tma,"), std::string::npos) << format;
    EXPECT_EQ(r.out.find("shared_bytes_written"), std::string::npos) << format;
  }
}

}  // namespace
}  // namespace gms
