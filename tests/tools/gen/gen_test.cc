// The generator's index arithmetic, record forms and errors, through a collecting writer (no
// trace reader needed).
#include <gtest/gtest.h>

#include <bit>
#include <set>
#include <string>

#include "sim/core/error.h"
#include "tests/tools/gen/gen_test_util.h"
#include "tools/gen/emit.h"
#include "tools/gen/patterns.h"

namespace gms::gen {
namespace {

using test::CollectingWriter;
using test::CountingWriter;
using test::run;

/// The `nth` (0-based) record of (cta, warp, inst) among `recs`.
const WarpInstr& find(const std::vector<WarpInstr>& recs, std::uint32_t cta, std::uint32_t warp,
                      std::uint32_t inst, int nth) {
  for (const WarpInstr& r : recs)
    if (r.cta == cta && r.warp == warp && r.inst == inst && nth-- == 0) return r;
  throw SimError("record not found");
}

// ---- matrix products (docs/examples.md D) -------------------------------------------------------

TEST(GenTest, MatmulNaiveReadsTwoNCubedThreadValues) {
  GenParams p;
  p.n = 64;
  p.tile = 16;
  CountingWriter w;
  generate("matmul_naive", p, w);
  EXPECT_EQ(w.lanes[static_cast<int>(Op::LDG)], 2u * 64 * 64 * 64);  // 524,288
  EXPECT_EQ(w.lanes[static_cast<int>(Op::STG)], 64u * 64);
  EXPECT_EQ(w.kernels, 1u);
}

TEST(GenTest, MatmulTiledReadsTwoNCubedOverTThreadValues) {
  GenParams p;
  p.n = 64;
  p.tile = 16;
  CountingWriter w;
  generate("matmul_tiled", p, w);
  EXPECT_EQ(w.lanes[static_cast<int>(Op::LDG)], 2u * 64 * 64 * 64 / 16);  // 32,768
  EXPECT_EQ(w.lanes[static_cast<int>(Op::STS)], 2u * 64 * 64 * 64 / 16);
  EXPECT_EQ(w.lanes[static_cast<int>(Op::LDS)], 2u * 64 * 64 * 64);  // every product from tiles
  EXPECT_EQ(w.lanes[static_cast<int>(Op::STG)], 64u * 64);
}

TEST(GenTest, MatmulTileOneGivesNoReduction) {
  GenParams p;
  p.n = 8;
  p.tile = 1;
  CountingWriter naive, tiled;
  generate("matmul_naive", p, naive);
  generate("matmul_tiled", p, tiled);
  EXPECT_EQ(tiled.lanes[static_cast<int>(Op::LDG)], naive.lanes[static_cast<int>(Op::LDG)]);
  EXPECT_EQ(naive.lanes[static_cast<int>(Op::LDG)], 2u * 8 * 8 * 8);
}

TEST(GenTest, MatmulKernelLine) {
  GenParams p;
  p.n = 64;
  p.tile = 16;
  const CollectingWriter w = run("matmul_tiled", p);
  ASSERT_EQ(w.kernels.size(), 1u);
  const KernelInfo& k = w.kernels[0];
  EXPECT_EQ(k.id, 1u);
  EXPECT_EQ(k.name, "matmul_tiled");
  EXPECT_EQ(k.grid, (Dim3{4, 4, 1}));
  EXPECT_EQ(k.block, (Dim3{16, 16, 1}));
  EXPECT_EQ(k.shmem_bytes, 2u * 16 * 16 * 4);
  EXPECT_EQ(k.flops, 2u * 64 * 64 * 64);
  ASSERT_EQ(k.params.size(), 6u);
  EXPECT_EQ(k.params[2], (std::pair<std::string, std::string>{"grid", "4,4,1"}));
}

TEST(GenTest, MatmulNaiveLaneAddressesFollowTheIndexArithmetic) {
  // CTA (bx=1, by=2) is linear id 2*4+1 = 9; warp 3 lane 17 is tid 113: ty 7, tx 1, so
  // row = 2*16+7 = 39 and col = 1*16+1 = 17. A at 0, B at 64*64*4 = 16384, C at 32768.
  GenParams p;
  p.n = 64;
  p.tile = 16;
  const auto recs = run("matmul_naive", p).all();
  const WarpInstr& a = find(recs, 9, 3, 0, 5);  // k = 5
  EXPECT_EQ(a.op, Op::LDG);
  EXPECT_EQ(a.addr[17], (39u * 64 + 5) * 4);
  const WarpInstr& b = find(recs, 9, 3, 1, 5);
  EXPECT_EQ(b.addr[17], 16384u + (5u * 64 + 17) * 4);
  const WarpInstr& c = find(recs, 9, 3, 2, 0);
  EXPECT_EQ(c.op, Op::STG);
  EXPECT_EQ(c.addr[17], 32768u + (39u * 64 + 17) * 4);
}

TEST(GenTest, MatmulTiledLaneAddressesFollowTheIndexArithmetic) {
  GenParams p;
  p.n = 64;
  p.tile = 16;
  const auto recs = run("matmul_tiled", p).all();
  // Tile step s = 2: As[7][1] = A[39*64 + 2*16 + 1], Bs[7][1] = B[(2*16 + 7)*64 + 17].
  EXPECT_EQ(find(recs, 9, 3, 0, 2).addr[17], (39u * 64 + 32 + 1) * 4);
  EXPECT_EQ(find(recs, 9, 3, 1, 2).addr[17], (7u * 16 + 1) * 4);
  EXPECT_EQ(find(recs, 9, 3, 2, 2).addr[17], 16384u + ((32u + 7) * 64 + 17) * 4);
  EXPECT_EQ(find(recs, 9, 3, 3, 2).addr[17], 1024u + (7u * 16 + 1) * 4);
  // Inner k = 5 of step 0: As[7][5] and Bs[5][1].
  EXPECT_EQ(find(recs, 9, 3, 4, 5).addr[17], (7u * 16 + 5) * 4);
  EXPECT_EQ(find(recs, 9, 3, 5, 5).addr[17], 1024u + (5u * 16 + 1) * 4);
}

TEST(GenTest, MatmulWarpsOfOneRowUseTheStridedForm) {
  GenParams p;
  p.n = 64;
  p.tile = 32;  // a warp is one row of the CTA: A is a broadcast, B unit stride
  const auto recs = run("matmul_naive", p).all();
  const WarpInstr& a = find(recs, 0, 1, 0, 0);
  EXPECT_TRUE(a.strided);
  EXPECT_EQ(a.stride, 0);
  const WarpInstr& b = find(recs, 0, 1, 1, 0);
  EXPECT_TRUE(b.strided);
  EXPECT_EQ(b.stride, 4);
  p.tile = 16;  // two rows per warp: list form
  EXPECT_FALSE(find(run("matmul_naive", p).all(), 0, 0, 0, 0).strided);
}

TEST(GenTest, SmallTilesLeaveLanesInactive) {
  GenParams p;
  p.n = 8;
  p.tile = 4;  // 16 threads per CTA
  const auto recs = run("matmul_naive", p).all();
  ASSERT_FALSE(recs.empty());
  for (const WarpInstr& r : recs) {
    EXPECT_EQ(r.mask, 0x0000ffffu);
    EXPECT_EQ(r.addr[20], 0u);
  }
}

TEST(GenTest, VectorAddReadsEachValueOnce) {
  GenParams p;
  p.n = 1000;
  CountingWriter w;
  generate("vector_add", p, w);
  EXPECT_EQ(w.lanes[static_cast<int>(Op::LDG)], 2000u);
  EXPECT_EQ(w.lanes[static_cast<int>(Op::STG)], 1000u);
  EXPECT_EQ(w.records, 3u * 32);  // 32 warps, the last one 8 lanes
}

// ---- lane-address patterns (docs/examples.md A, B, C) -------------------------------------------

TEST(GenTest, MisalignedSequentialIsUnitStrideFromEight) {
  GenParams p;
  p.offset_bytes = 8;
  const auto recs = run("sequential", p).all();
  ASSERT_EQ(recs.size(), 1u);
  const WarpInstr& r = recs[0];
  EXPECT_EQ(r.op, Op::LDG);
  EXPECT_EQ(r.size, 4);
  EXPECT_EQ(r.mask, 0xffffffffu);
  EXPECT_TRUE(r.strided);
  EXPECT_EQ(r.stride, 4);
  EXPECT_EQ(r.addr[0], 8u);
  EXPECT_EQ(r.addr[31], 8u + 124);
}

TEST(GenTest, ReversedWalksDownward) {
  const auto r = run("reversed", GenParams{}).all().at(0);
  EXPECT_EQ(r.addr[0], 124u);
  EXPECT_EQ(r.addr[31], 0u);
  EXPECT_TRUE(r.strided);
  EXPECT_EQ(r.stride, -4);
}

TEST(GenTest, MixedWarpUsesTheListForm) {
  const auto r = run("mixed_warp", GenParams{}).all().at(0);
  EXPECT_FALSE(r.strided);
  EXPECT_EQ(r.addr[15], 60u);
  EXPECT_EQ(r.addr[16], 4000u);
  EXPECT_EQ(r.addr[20], 4000u + 256 * 4);
}

TEST(GenTest, OneLaneActivatesOnlyThatLane) {
  GenParams p;
  p.lane = 5;
  const auto r = run("one_lane", p).all().at(0);
  EXPECT_EQ(r.mask, 1u << 5);
  EXPECT_EQ(r.addr[5], 20u);
  EXPECT_EQ(r.addr[0], 0u);
  EXPECT_TRUE(r.strided);
}

TEST(GenTest, ManyWarpsFillCtasOfEightWarps) {
  GenParams p;
  p.warps = 16;
  p.stride_elems = 2;
  const CollectingWriter w = run("strided", p);
  EXPECT_EQ(w.kernels[0].grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(w.kernels[0].block, (Dim3{256, 1, 1}));
  const auto recs = w.all();
  ASSERT_EQ(recs.size(), 16u);
  EXPECT_EQ(recs[9].cta, 1u);
  EXPECT_EQ(recs[9].warp, 1u);
  EXPECT_EQ(recs[9].addr[0], 9u * 32 * 8);
}

TEST(GenTest, AosAndSoaEmitOneInstructionPerField) {
  GenParams p;
  p.struct_bytes = 24;
  const auto aos = run("aos_all", p).all();
  const auto soa = run("soa_all", p).all();
  ASSERT_EQ(aos.size(), 6u);
  ASSERT_EQ(soa.size(), 6u);
  EXPECT_EQ(aos[3].inst, 3u);
  EXPECT_EQ(aos[3].addr[2], 48u + 12);
  EXPECT_EQ(aos[3].stride, 24);
  EXPECT_EQ(soa[3].addr[2], 3u * 128 + 8);
  EXPECT_EQ(soa[3].stride, 4);
}

TEST(GenTest, MatrixColumnStridesByOneRow) {
  const auto r = run("matrix_column", GenParams{}).all().at(0);
  EXPECT_EQ(r.stride, 4096);
  EXPECT_EQ(r.addr[3], 3u * 4096);
}

TEST(GenTest, SharedPatternsDefaultToLdsAndSizeTheWindow) {
  GenParams p;
  p.stride_elems = 3;
  const CollectingWriter w = run("smem_stride", p);
  const WarpInstr& r = w.records[0].at(0);
  EXPECT_EQ(r.op, Op::LDS);
  EXPECT_EQ(r.addr[5], 60u);
  EXPECT_EQ(w.kernels[0].shmem_bytes, (31u * 3 + 1) * 4);
  p = GenParams{};
  p.n = 33;
  const CollectingWriter t = run("smem_tile_column", p);
  EXPECT_EQ(t.records[0].at(0).addr[2], 2u * 132);
  EXPECT_EQ(t.kernels[0].shmem_bytes, 32u * 33 * 4);
}

TEST(GenTest, EightByteSharedAccessesUseElemSize) {
  GenParams p;
  p.elem_bytes = 8;
  p.stride_elems = 32;
  const auto r = run("smem_stride", p).all().at(0);
  EXPECT_EQ(r.size, 8);
  EXPECT_EQ(r.addr[1], 256u);
}

TEST(GenTest, OpOverridesTheDefault) {
  GenParams p;
  p.op = Op::STG;
  EXPECT_EQ(run("strided", p).all().at(0).op, Op::STG);
  p.op = Op::STS;
  EXPECT_EQ(run("smem_stride", p).all().at(0).op, Op::STS);
}

TEST(GenTest, ChooseFormKeepsTheListWhenBaseWouldBeNegative) {
  WarpInstr r;
  r.mask = 0xfffffffeu;  // lane 1 at 0, lane 2 at 4: base would be -4
  for (int l = 1; l < 32; ++l) r.addr[l] = 4u * (l - 1);
  detail::choose_form(r);
  EXPECT_FALSE(r.strided);
  r.addr[1] = 100;  // lane 1 at 100, lanes 2.. at 4(l-1): not a progression
  detail::choose_form(r);
  EXPECT_FALSE(r.strided);
}

// ---- bulk patterns ----------------------------------------------------------------------------

TEST(GenTest, StreamAlternatesLoadsAndStoresAndWraps) {
  GenParams p;
  p.records = 10001;
  p.footprint = 1024;  // 8 warps of 128 bytes, then wrap
  const CollectingWriter w = run("stream", p);
  const auto& recs = w.records.at(0);
  ASSERT_EQ(recs.size(), 10001u);
  EXPECT_GE(w.write_calls, 3);  // batched, not one call per record
  EXPECT_EQ(recs[0].op, Op::LDG);
  EXPECT_EQ(recs[1].op, Op::STG);
  EXPECT_EQ(recs[1].addr[0], 1024u);
  EXPECT_EQ(recs[2].addr[0], 128u);
  EXPECT_EQ(recs[16].addr[0], 0u);  // warp 8 wraps
  EXPECT_EQ(recs[16].cta, 1u);
  EXPECT_EQ(recs.back().op, Op::LDG);
}

TEST(GenTest, StreamListsIsTheStreamWrittenAsLists) {
  GenParams p;
  p.records = 101;
  p.footprint = 1024;
  const auto strided = run("stream", p).all();
  const auto lists = run("stream_lists", p).all();
  ASSERT_EQ(lists.size(), strided.size());
  for (std::size_t i = 0; i < lists.size(); ++i) {
    EXPECT_FALSE(lists[i].strided);
    EXPECT_EQ(lists[i].addr, strided[i].addr);
    EXPECT_EQ(lists[i].op, strided[i].op);
  }
}

TEST(GenTest, RandomHasThirtyTwoDistinctSectorsAndIsReproducible) {
  GenParams p;
  p.records = 2000;
  const auto a = run("random", p).all();
  const auto b = run("random", p).all();
  EXPECT_EQ(a, b);
  for (const WarpInstr& r : a) {
    std::set<Addr> sectors;
    for (Addr x : r.addr) {
      EXPECT_EQ(x % 32, 0u);
      EXPECT_LT(x, Addr{1} << 30);
      sectors.insert(x / 32);
    }
    EXPECT_EQ(sectors.size(), 32u);
  }
  p.seed = 2;
  EXPECT_NE(run("random", p).all(), a);
}

// ---- microbenchmarks (tests/fidelity) ---------------------------------------------------------

std::string param(const KernelInfo& k, std::string_view key) {
  for (const auto& [name, value] : k.params)
    if (name == key) return value;
  return "";
}

TEST(GenTest, PointerChaseIsOneRandomCycleThroughEveryElement) {
  GenParams p;
  p.elem_bytes = 8;
  p.stride_elems = 8;  // gpu-latency: 8-byte pointers 64 bytes apart
  p.footprint = 1000 * 64;
  p.base = 4096;
  p.n = 2500;
  const CollectingWriter w = run("pointer_chase", p);
  ASSERT_EQ(w.kernels.size(), 2u);
  EXPECT_EQ(w.kernels[0].name, "pointer_chase_warmup");
  EXPECT_EQ(w.kernels[1].name, "pointer_chase");
  EXPECT_EQ(w.kernels[1].id, 2u);
  for (const KernelInfo& k : w.kernels) EXPECT_EQ(param(k, "loads_in_flight"), "1");
  const auto& warm = w.records[0];
  const auto& chase = w.records[1];
  ASSERT_EQ(warm.size(), 1000u);  // one lap
  ASSERT_EQ(chase.size(), 2500u);
  std::set<Addr> seen;
  for (const WarpInstr& r : warm) {
    EXPECT_EQ(r.op, Op::LDG);
    EXPECT_EQ(r.size, 8u);
    EXPECT_TRUE(r.strided);
    EXPECT_EQ(r.stride, 0);  // every lane at the same address
    EXPECT_EQ(r.addr[0], r.addr[31]);
    EXPECT_EQ((r.addr[0] - p.base) % 64, 0u);
    EXPECT_LT(r.addr[0], p.base + p.footprint);
    seen.insert(r.addr[0]);
  }
  EXPECT_EQ(seen.size(), 1000u);  // a single cycle: every element once per lap
  EXPECT_EQ(warm[0].addr[0], p.base);
  // The measured kernel walks the same cycle again, lap after lap.
  for (std::size_t i = 0; i < chase.size(); ++i)
    EXPECT_EQ(chase[i].addr[0], warm[i % 1000].addr[0]) << i;
  // Random, not sequential, and reproducible per seed.
  std::size_t sequential = 0;
  for (std::size_t i = 1; i < warm.size(); ++i)
    sequential += warm[i].addr[0] == warm[i - 1].addr[0] + 64;
  EXPECT_LT(sequential, 10u);
  EXPECT_EQ(run("pointer_chase", p).all(), w.all());
  p.seed = 7;
  EXPECT_NE(run("pointer_chase", p).all(), w.all());
}

TEST(GenTest, PointerChaseWarpsFollowTheSameChain) {
  GenParams p;
  p.footprint = 64 * 4;
  p.warps = 2;
  p.mask = 0x1;
  const CollectingWriter w = run("pointer_chase", p);
  EXPECT_EQ(w.kernels[1].block.x, 64u);
  ASSERT_EQ(w.records[1].size(), 2u * 64);
  for (std::size_t i = 0; i < w.records[1].size(); i += 2) {
    EXPECT_EQ(w.records[1][i].warp, 0u);
    EXPECT_EQ(w.records[1][i + 1].warp, 1u);
    EXPECT_EQ(w.records[1][i].addr[0], w.records[1][i + 1].addr[0]);
    EXPECT_EQ(w.records[1][i].mask, 0x1u);
  }
}

TEST(GenTest, PointerChaseRewarmIsTheTwoTracesInOne) {
  // --rewarm R: the trace of --n R, then the trace of --n N, in one (ids 5 to 8 from --id 5).
  GenParams p;
  p.elem_bytes = 8;
  p.stride_elems = 8;
  p.footprint = 300 * 64;
  p.kernel_id = 5;
  p.n = 700;
  const CollectingWriter alone = run("pointer_chase", p);
  GenParams first = p;
  first.n = 2;
  const CollectingWriter before = run("pointer_chase", first);
  p.rewarm = 2;
  const CollectingWriter w = run("pointer_chase", p);
  ASSERT_EQ(w.kernels.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(w.kernels[k].id, 5u + k);
    EXPECT_EQ(w.kernels[k].name, (k < 2 ? before : alone).kernels[k % 2].name);
    EXPECT_EQ(w.records[k], (k < 2 ? before : alone).records[k % 2]) << k;
  }
  EXPECT_EQ(w.records[1].size(), 2u);
  EXPECT_EQ(w.records[3].size(), 700u);
  p.kernel_id = 0xffffffffu - 2;  // no room for four ids
  EXPECT_NE(test::error_of("pointer_chase", p).find("--id"), std::string::npos);
}

TEST(GenTest, PointerChaseRejectsBadShapes) {
  GenParams p;
  p.footprint = 102;  // not a multiple of the 4-byte spacing
  EXPECT_NE(test::error_of("pointer_chase", p).find("--footprint 102"), std::string::npos);
  p.footprint = 4;  // one element is no chain
  EXPECT_NE(test::error_of("pointer_chase", p).find("at least two"), std::string::npos);
  p.footprint = 0;
  p.warps = 33;
  EXPECT_NE(test::error_of("pointer_chase", p).find("--warps"), std::string::npos);
  p.warps = 1;
  p.stride_elems = 0;
  EXPECT_NE(test::error_of("pointer_chase", p).find("--stride"), std::string::npos);
}

TEST(GenTest, StreamOccupancyKernelsAndLaunch) {
  GenParams p;
  p.elem_bytes = 8;
  p.footprint = 8 * 1000;  // 1000 elements: 4 CTAs of 256, the last one partly idle
  p.block = 256;
  p.shmem = 6144;
  p.carveout_kb = 8;
  struct Case {
    StreamKind kind;
    std::vector<Op> ops;
    std::vector<Addr> arrays;  // a = 0, b = footprint, c = 2 x footprint
  };
  const Addr f = p.footprint;
  for (const Case& c :
       {Case{StreamKind::Read, {Op::LDG}, {f}}, Case{StreamKind::Write, {Op::STG}, {0}},
        Case{StreamKind::Copy, {Op::LDG, Op::STG}, {f, 0}},
        Case{StreamKind::Triad, {Op::LDG, Op::LDG, Op::STG}, {f, 2 * f, 0}}}) {
    p.kind = c.kind;
    const CollectingWriter w = run("stream_occupancy", p);
    ASSERT_EQ(w.kernels.size(), 1u);
    const KernelInfo& k = w.kernels[0];
    EXPECT_EQ(k.grid.x, 4u);
    EXPECT_EQ(k.block.x, 256u);
    EXPECT_EQ(k.shmem_bytes, 6144u);
    EXPECT_EQ(param(k, "carveout_kb"), "8");
    const auto& recs = w.records[0];
    // 1000 elements = 31 full warps and one of 8 lanes
    ASSERT_EQ(recs.size(), 32 * c.ops.size());
    std::uint64_t lanes = 0;
    for (std::size_t i = 0; i < recs.size(); ++i) {
      const WarpInstr& r = recs[i];
      const std::size_t warp = i / c.ops.size(), j = i % c.ops.size();
      EXPECT_EQ(r.op, c.ops[j]);
      EXPECT_EQ(r.inst, j);
      EXPECT_EQ(r.cta, warp / 8);
      EXPECT_EQ(r.warp, warp % 8);
      EXPECT_TRUE(r.strided);
      EXPECT_EQ(r.addr[0], c.arrays[j] + warp * 32 * 8);
      lanes += static_cast<std::uint64_t>(std::popcount(r.mask));
    }
    EXPECT_EQ(recs.back().mask, 0xffu);
    EXPECT_EQ(lanes, 1000 * c.ops.size());
  }
  p.carveout_kb.reset();
  EXPECT_EQ(param(run("stream_occupancy", p).kernels[0], "carveout_kb"), "");
  p.block = 48;
  EXPECT_NE(test::error_of("stream_occupancy", p).find("--block"), std::string::npos);
}

TEST(GenTest, CtaReuseRereadsItsDataSetsAfterAWarmUp) {
  GenParams p;
  p.block = 64;  // two warps
  p.n = 4;       // four loads per thread: two loop trips of two
  p.elem_bytes = 8;
  p.footprint = 3 * 64 * 4 * 8;  // three data sets of block x n x elem = 2048 bytes
  p.ctas = 4;
  p.base = 1 << 20;
  const CollectingWriter w = run("cta_reuse", p);
  ASSERT_EQ(w.kernels.size(), 2u);
  EXPECT_EQ(w.kernels[0].name, "cta_reuse_warmup");
  EXPECT_EQ(w.kernels[0].grid.x, 3u);  // one CTA per data set
  EXPECT_EQ(w.kernels[1].name, "cta_reuse");
  EXPECT_EQ(w.kernels[1].grid.x, 4u);
  EXPECT_EQ(w.kernels[1].block.x, 64u);
  ASSERT_EQ(w.records[0].size(), 3u * 4 * 2);  // CTAs x loads x warps
  ASSERT_EQ(w.records[1].size(), 4u * 4 * 2);
  // Thread t of CTA b, trip i, half h: element 2 x 64 x (3i + b mod 3) + 64h + t, 8 bytes each.
  auto at = [&](std::size_t kernel, std::uint32_t cta, std::uint32_t load, std::uint32_t warp) {
    const WarpInstr& r = w.records[kernel][(cta * 4 + load) * 2 + warp];
    EXPECT_EQ(r.cta, cta);
    EXPECT_EQ(r.inst, load);
    EXPECT_EQ(r.warp, warp);
    EXPECT_EQ(r.op, Op::LDG);
    EXPECT_EQ(r.mask, 0xffffffffu);
    return r;
  };
  EXPECT_EQ(at(1, 1, 0, 0).addr[5], p.base + 133 * 8);   // 128 x 1 + 5
  EXPECT_EQ(at(1, 3, 3, 1).addr[0], p.base + 480 * 8);   // 128 x (3 + 0: set 0 again) + 64 + 32
  EXPECT_EQ(at(1, 3, 3, 1).addr[31], p.base + 511 * 8);  // + 31 lanes
  EXPECT_EQ(at(0, 2, 2, 0).addr[0], p.base + 640 * 8);   // 128 x (3 + 2)
  EXPECT_EQ(at(1, 3, 3, 1).addr[0], at(0, 0, 3, 1).addr[0]);  // CTA 3 rereads CTA 0's set
  // No loads_in_flight unless asked (the replay then uses the preset's); asked, on both kernels.
  EXPECT_EQ(param(w.kernels[1], "loads_in_flight"), "");
  p.loads_in_flight = 32;
  const CollectingWriter unrolled = run("cta_reuse", p);
  EXPECT_EQ(param(unrolled.kernels[0], "loads_in_flight"), "32");
  EXPECT_EQ(param(unrolled.kernels[1], "loads_in_flight"), "32");
  EXPECT_EQ(unrolled.records, w.records);
  p.loads_in_flight = 0;
  // --passes 3: each CTA of the measured kernel reads its set three times in a row (the warm-up
  // once), the same instructions and addresses each time.
  p.passes = 3;
  const CollectingWriter swept = run("cta_reuse", p);
  EXPECT_EQ(swept.records[0], w.records[0]);
  ASSERT_EQ(swept.records[1].size(), 3 * w.records[1].size());
  for (std::uint32_t cta = 0; cta < 4; ++cta)
    for (std::size_t i = 0; i < 4 * 2; ++i)
      for (std::size_t sweep = 0; sweep < 3; ++sweep)
        EXPECT_EQ(swept.records[1][(cta * 3 + sweep) * 8 + i], w.records[1][cta * 8 + i]);
  p.passes = 0;
  EXPECT_NE(test::error_of("cta_reuse", p).find("--passes"), std::string::npos);
  p.passes = 1;
  p.footprint = 1000;
  EXPECT_NE(test::error_of("cta_reuse", p).find("whole number of data sets"), std::string::npos);
  p.footprint = 0;
  p.n = 3;
  EXPECT_NE(test::error_of("cta_reuse", p).find("even number"), std::string::npos);
}

TEST(GenTest, EveryPatternEmitsWithItsDefaults) {
  for (const PatternInfo& info : patterns()) {
    SCOPED_TRACE(std::string(info.name));
    GenParams p;
    p.records = 100;
    p.n = info.name == "vector_add" ? 4096 : 0;
    CountingWriter w;
    generate(info.name, p, w);
    const bool warmed = info.name == "pointer_chase" || info.name == "cta_reuse";
    EXPECT_EQ(w.kernels, warmed ? 2u : 1u);  // a warm-up kernel, then the measured one
    EXPECT_GT(w.records, 0u);
    EXPECT_FALSE(info.summary.empty());
  }
}

}  // namespace
}  // namespace gms::gen
