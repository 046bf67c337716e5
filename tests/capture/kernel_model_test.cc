// The calibration kernels' documented index arithmetic (tools/groundtruth/kernel_addressing.h)
// and the host model that regenerates their traces (kernel_model.h, recipe.h): one test per
// kernel family, against the numbers of docs/examples.md and the kernels' comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "tools/capture/sha256.h"
#include "tools/groundtruth/kernel_model.h"
#include "tools/groundtruth/recipe.h"

namespace gt = gms::groundtruth;
namespace cap = gms::capture;

namespace {

std::vector<cap::CaptureRecord> records_of(int id, std::vector<std::uint64_t> bases,
                                           std::vector<std::uint32_t> sms = {}) {
  std::vector<cap::CaptureRecord> out;
  gt::generate_records(*gt::find_spec(id), bases, sms,
                       [&](const cap::CaptureRecord& r) { out.push_back(r); });
  return out;
}

/// Distinct 32-byte sectors touched by the active lanes of one record.
std::size_t sectors(const cap::CaptureRecord& r) {
  std::set<std::uint64_t> s;
  for (std::uint32_t m = r.mask; m; m &= m - 1) {
    const std::uint64_t a = r.addr[std::countr_zero(m)];
    for (std::uint64_t b = a; b < a + r.size; b += 32) s.insert(b / 32);
    s.insert((a + r.size - 1) / 32);
  }
  return s.size();
}

constexpr std::uint64_t kBase = 0x7f0000000000;

}  // namespace

TEST(KernelModelTest, TableHasEveryReadmeIdOnce) {
  std::set<int> ids;
  for (const auto& s : gt::kernel_specs()) EXPECT_TRUE(ids.insert(s.id).second) << s.id;
  for (int id : {1, 12, 20, 27, 30, 33, 40, 41, 50, 52, 60, 100, 106, 107, 109, 110})
    EXPECT_TRUE(ids.count(id)) << id;
  EXPECT_EQ(gt::find_spec(41)->name, "copy");
  EXPECT_EQ(gt::find_spec(110)->name, "ptrchase");
}

TEST(KernelModelTest, PatternsFollowTheNotes) {
  // Lane address formulas of docs/examples.md A and B.
  for (int t = 0; t < 32; ++t) {
    const std::uint64_t u = t;
    EXPECT_EQ(gt::pattern_offset(1, t), 4 * u);
    EXPECT_EQ(gt::pattern_offset(2, t), 8 + 4 * u);
    EXPECT_EQ(gt::pattern_offset(3, t), 64 + 4 * u);
    EXPECT_EQ(gt::pattern_offset(7, t), 4096 * u);
    EXPECT_EQ(gt::pattern_offset(8, t), 4 * (31 - u));
    EXPECT_EQ(gt::pattern_offset(11, t), t < 16 ? 4 * u : 4000 + 256 * (u - 16));
    EXPECT_EQ(gt::pattern_offset(12, t), 12 * u);
    EXPECT_EQ(gt::pattern_offset(13, t), 24 * u);
  }
  // 32-byte sectors per pattern: A1 4, A2 5, B9 (base 64) 4, A3 8, A4 32, B2b 32, A5 32, A6 4,
  // A7 1, B3 1, A8b 18, A9 12, B5 24.
  const std::size_t want[] = {4, 5, 4, 8, 32, 32, 32, 4, 1, 1, 18, 12, 24};
  for (int id = gt::kPatternFirstId; id <= gt::kPatternLastId; ++id) {
    SCOPED_TRACE(id);
    const auto recs = records_of(id, {kBase});
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].mask, id == 10 ? 1u : 0xffffffffu);
    EXPECT_EQ(recs[0].op, static_cast<std::uint8_t>(cap::CaptureOp::LDG));
    EXPECT_EQ(recs[0].addr[0] - kBase, gt::pattern_offset(id, 0));
    EXPECT_EQ(sectors(recs[0]), want[id - gt::kPatternFirstId]);
  }
  std::string line;
  cap::append_record_line(records_of(2, {kBase})[0], line);
  EXPECT_EQ(line, "0 LDG 4 - 0 0 ffffffff @0x7f0000000008:4\n");
}

TEST(KernelModelTest, SharedBankStridesHaveTheNotesConflictDegrees) {
  // 4-byte cases: degree = the largest number of distinct words in one bank (docs/examples.md C).
  auto degree = [](int id) {
    std::vector<std::set<std::uint32_t>> words(32);
    for (int t = 0; t < 32; ++t) {
      const std::uint32_t w = gt::smem_offset(id, t) / 4;
      words[w % 32].insert(w);
    }
    std::size_t d = 0;
    for (const auto& b : words) d = std::max(d, b.size());
    return d;
  };
  EXPECT_EQ(degree(20), 1u);
  EXPECT_EQ(degree(21), 2u);
  EXPECT_EQ(degree(22), 1u);
  EXPECT_EQ(degree(23), 16u);
  EXPECT_EQ(degree(24), 32u);
  EXPECT_EQ(gt::smem_access_bytes(24), 4u);
  EXPECT_EQ(gt::smem_access_bytes(25), 8u);
  EXPECT_EQ(gt::smem_access_bytes(28), 16u);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(gt::smem_offset(25, t), 8u * t);
    EXPECT_EQ(gt::smem_offset(26, t), 0u);
    EXPECT_EQ(gt::smem_offset(27, t), 256u * t);
    EXPECT_EQ(gt::smem_offset(28, t), 16u * t);
    EXPECT_LE(gt::smem_offset(27, t) + 8, gt::kSmemArrayBytes);
  }
  const auto recs = records_of(27, {0x400});
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].op, static_cast<std::uint8_t>(cap::CaptureOp::LDS));
  EXPECT_EQ(recs[0].addr[31], 0x400u + 256 * 31);
}

TEST(KernelModelTest, StreamStrideCoversTheArrayOnceAtItsStride) {
  EXPECT_GE(gt::kStreamElems * 4, std::uint64_t{64} << 20);  // beyond the 60 MB L2
  for (std::uint32_t s : {1u, 2u, 8u, 32u}) {
    SCOPED_TRACE(s);
    std::vector<bool> seen(gt::kStreamElems / s, false);
    std::uint64_t n = 0;
    for (std::uint64_t g = 0; g < gt::kStreamThreads; ++g)
      for (std::uint64_t k = 0; k < gt::stream_iterations(s); ++k) {
        const std::uint64_t e = gt::stream_element(g, k, s);
        ASSERT_EQ(e % s, 0u);
        ASSERT_LT(e, gt::kStreamElems);
        ASSERT_FALSE(seen[e / s]);
        seen[e / s] = true;
        ++n;
      }
    EXPECT_EQ(n, gt::kStreamElems / s);
  }
  // One warp record per iteration, lanes at a 4*stride byte stride.
  const auto& spec = *gt::find_spec(32);
  EXPECT_EQ(gt::record_count(spec), gt::kStreamElems / 8 / 32);
  std::uint64_t count = 0;
  std::string first;
  gt::generate_records(spec, std::vector<std::uint64_t>{kBase}, {}, [&](const auto& r) {
    ++count;
    if (r.cta == 0 && r.warp == 0 && r.seq == 1) cap::append_record_line(r, first);
  });
  EXPECT_EQ(count, gt::record_count(spec));
  // warp 0, iteration 1: element (0 + kStreamThreads) * 8
  std::ostringstream want;
  want << "0 LDG 4 - 0 0 ffffffff @0x" << std::hex << kBase + gt::kStreamThreads * 8 * 4 << ":32\n";
  EXPECT_EQ(first, want.str());
}

TEST(KernelModelTest, RecordsComeInLockstepOrder) {
  // The capture's order (capture::record_less): seq, then CTA, then warp.
  const auto& spec = *gt::find_spec(102);
  std::optional<cap::CaptureRecord> prev;
  std::uint64_t n = 0, out_of_order = 0;
  gt::generate_records(spec, std::vector<std::uint64_t>{kBase}, {}, [&](const auto& r) {
    if (prev && !cap::record_less(*prev, r)) ++out_of_order;
    prev = r;
    ++n;
  });
  EXPECT_EQ(n, gt::record_count(spec));
  EXPECT_EQ(out_of_order, 0u);
}

TEST(KernelModelTest, AddAndCopyReadAndWriteTheSameElement) {
  const std::vector<std::uint64_t> abc = {0x100000000, 0x200000000, 0x300000000};
  std::uint64_t n = 0;
  std::vector<cap::CaptureRecord> head;
  // Warp 0 of CTA 0's first six records (lockstep order puts every warp's first before them).
  gt::generate_records(*gt::find_spec(40), abc, {}, [&](const cap::CaptureRecord& r) {
    ++n;
    if (r.cta == 0 && r.warp == 0 && head.size() < 6) head.push_back(r);
  });
  EXPECT_EQ(n, gt::record_count(*gt::find_spec(40)));
  EXPECT_EQ(n, gt::kStreamElems / 32 * 3);
  ASSERT_EQ(head.size(), 6u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(head[i].inst, static_cast<std::uint32_t>(i));
    EXPECT_EQ(head[i].seq, static_cast<std::uint32_t>(i));
    EXPECT_EQ(head[i].addr[5], abc[i] + 20);
  }
  EXPECT_EQ(head[2].op, static_cast<std::uint8_t>(cap::CaptureOp::STG));
  EXPECT_EQ(head[3].addr[0], abc[0] + 4 * gt::kStreamThreads);
  const auto& copy = *gt::find_spec(41);
  EXPECT_EQ(gt::record_count(copy), gt::kStreamElems / 32 * 2);
}

TEST(KernelModelTest, PatternStoresWriteAtTheirStride) {
  for (int id : {50, 51, 52}) {
    SCOPED_TRACE(id);
    const std::uint32_t s = gt::stream_stride_elems(id);
    EXPECT_EQ(s, id == 50 ? 1u : id == 51 ? 2u : 32u);
    std::uint64_t n = 0;
    gt::generate_records(*gt::find_spec(id), std::vector<std::uint64_t>{kBase}, {},
                         [&](const cap::CaptureRecord& r) {
                           if (n++ == 0) {
                             EXPECT_EQ(r.op, static_cast<std::uint8_t>(cap::CaptureOp::STG));
                             EXPECT_EQ(r.addr[1] - r.addr[0], 4u * s);
                           }
                         });
    EXPECT_EQ(n, gt::kStreamElems / s / 32);
  }
}

TEST(KernelModelTest, ReuseWarpsReadTheirOwnBlockEightTimes) {
  const auto recs = records_of(60, {0});
  EXPECT_EQ(recs.size(), gt::record_count(*gt::find_spec(60)));
  const std::size_t warps = std::size_t{gt::kReuseGrid} * gt::kReuseBlock / 32;
  std::vector<std::uint8_t> reads(warps * gt::kReuseBlockBytes / 4, 0);  // per 4-byte word
  for (const auto& r : recs) {
    const std::uint32_t gw = r.cta * (gt::kReuseBlock / 32) + r.warp;
    for (int t = 0; t < 32; ++t) {
      ASSERT_EQ(r.addr[t] / gt::kReuseBlockBytes, gw);
      ++reads[r.addr[t] / 4];
    }
  }
  EXPECT_TRUE(std::all_of(reads.begin(), reads.end(), [](auto c) { return c == 8; }));
}

TEST(KernelModelTest, WindowsAreSweptFourTimesUnderTheirCarveouts) {
  EXPECT_EQ(gt::window_bytes(100), 16u * 1024);
  EXPECT_EQ(gt::window_bytes(106), 512u * 1024);
  for (int id = gt::kWindowFirstId; id <= gt::kWindowLastId; ++id) {
    SCOPED_TRACE(id);
    EXPECT_GE(gt::window_carveout_pct(id), 0);
    EXPECT_LE(gt::window_carveout_pct(id), 100);
    const std::uint64_t w = gt::window_bytes(id);
    std::vector<std::uint8_t> reads(gt::kWindowGrid * w / 4, 0);
    std::uint64_t n = 0;
    gt::generate_records(*gt::find_spec(id), std::vector<std::uint64_t>{0}, {},
                         [&](const cap::CaptureRecord& r) {
                           ++n;
                           for (int t = 0; t < 32; ++t) {
                             ASSERT_EQ(r.addr[t] / w, r.cta);  // private window
                             ++reads[r.addr[t] / 4];
                           }
                         });
    EXPECT_EQ(n, gt::record_count(*gt::find_spec(id)));
    EXPECT_TRUE(std::all_of(reads.begin(), reads.end(), [](auto c) { return c == 4; }));
  }
}

TEST(KernelModelTest, OneWarpWindowsRepeatTheirEightWarpTwins) {
  // 107-109 ask the hardware the question of 102, 104 and 105 with one warp per CTA: the same
  // window, carve-out and shared memory, the same sweeps, a warp of 32 threads.
  const std::pair<int, int> twins[] = {{107, 102}, {108, 104}, {109, 105}};
  for (const auto& [one, eight] : twins) {
    SCOPED_TRACE(one);
    const gt::KernelSpec& s = *gt::find_spec(one);
    const gt::KernelSpec& t = *gt::find_spec(eight);
    EXPECT_EQ(s.name, std::string(t.name) + "_w1");
    EXPECT_EQ(s.family, gt::Family::Window);
    EXPECT_EQ(s.block, 32u);
    EXPECT_EQ(t.block, 256u);
    EXPECT_EQ(s.grid, t.grid);
    EXPECT_EQ(gt::window_bytes(one), gt::window_bytes(eight));
    EXPECT_EQ(gt::window_carveout_pct(one), gt::window_carveout_pct(eight));
    EXPECT_EQ(gt::window_dynamic_smem(one), gt::window_dynamic_smem(eight));
    EXPECT_EQ(gt::window_iterations(one), 8 * gt::window_iterations(eight));
    EXPECT_EQ(gt::record_count(s), gt::record_count(t));  // the same loads, by one warp
    // The one warp reads its window in order: iteration i covers the i-th 128 bytes.
    std::uint64_t k = 0;
    gt::generate_records(s, std::vector<std::uint64_t>{0}, {}, [&](const cap::CaptureRecord& r) {
      ASSERT_EQ(r.warp, 0u);
      const std::uint64_t i = (k++ / s.grid) % gt::window_iterations(one);
      for (int lane = 0; lane < 32; ++lane)
        ASSERT_EQ(r.addr[lane],
                  std::uint64_t{r.cta} * gt::window_bytes(one) + i * 128 + 4 * std::uint64_t(lane));
    });
    EXPECT_EQ(k, gt::record_count(s));
  }
}

TEST(KernelModelTest, ChaseRingIsOneCycleAndTheWarmupTouchesEveryLine) {
  const auto ring = gt::chase_ring(8192);
  std::vector<bool> seen(ring.size(), false);
  std::uint32_t node = 0;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    ASSERT_FALSE(seen[node]);
    seen[node] = true;
    node = ring[node];
  }
  EXPECT_EQ(node, 0u);                    // back at the start after visiting every line
  EXPECT_EQ(gt::chase_ring(8192), ring);  // deterministic
  EXPECT_EQ(gt::kChaseBufferBytes, std::uint64_t{871} << 20);
  EXPECT_EQ(gt::chase_footprint_bytes(0), std::uint64_t{1} << 20);
  EXPECT_EQ(gt::chase_footprint_bytes(12), std::uint64_t{256} << 20);

  // Footprint 0 (1 MiB): 256 warm-up loads, then 2048 single-lane chase loads along the ring,
  // then the 16-byte result store.
  std::vector<cap::CaptureRecord> recs;
  gt::generate_records(*gt::find_spec(110), std::vector<std::uint64_t>{kBase, 0x5000}, {},
                       [&](const cap::CaptureRecord& r) {
                         if (recs.size() < 256 + gt::kChaseSteps + 1) recs.push_back(r);
                       });
  ASSERT_EQ(recs.size(), 256 + gt::kChaseSteps + 1);
  EXPECT_EQ(recs[255].addr[31], kBase + (255 * 32 + 31) * 128);
  std::uint32_t expect = 0;
  for (std::uint32_t k = 0; k < gt::kChaseSteps; ++k) {
    const auto& r = recs[256 + k];
    ASSERT_EQ(r.mask, 1u);
    ASSERT_EQ(r.addr[0], kBase + std::uint64_t{expect} * 128);
    expect = ring[expect];
  }
  EXPECT_EQ(recs.back().op, static_cast<std::uint8_t>(cap::CaptureOp::STG));
  EXPECT_EQ(recs.back().size, 16);
  EXPECT_EQ(recs.back().addr[0], 0x5000u);
}

TEST(KernelModelTest, RecipeRegeneratesTheTextItHashes) {
  // A recipe for the smallest stream kernel, as the capture would write it.
  std::vector<std::uint32_t> sms(gt::kStreamGrid);
  for (std::uint32_t c = 0; c < sms.size(); ++c) sms[c] = c % 132;
  const auto& spec = *gt::find_spec(33);
  const std::vector<std::uint64_t> bases = {kBase};
  auto header = gt::kernel_header(spec, bases);
  header.shmem_bytes = 0;
  header.arch = "sm_90";
  std::string kline = cap::kernel_line(header);
  cap::Sha256 sha;
  std::string text = cap::wtrace_magic() + kline;
  gt::generate_records(spec, bases, sms, [&](const auto& r) { cap::append_record_line(r, text); });
  sha.update(text);
  const std::string digest = sha.hex_digest();

  std::ostringstream file;
  file << "# test\nkernel_line=" << kline.substr(0, kline.size() - 1) << "\nsm_of_cta=";
  for (std::size_t i = 0; i < sms.size(); ++i) file << (i ? "," : "") << sms[i];
  file << "\nrecords=" << gt::record_count(spec) << "\ntext_bytes=" << text.size()
       << "\nsha256=" << digest << "\n";
  std::istringstream in(file.str());
  const gt::Recipe recipe = gt::parse_recipe(in, "test.recipe");
  EXPECT_EQ(recipe.sm_of_cta, sms);
  std::string again;
  EXPECT_EQ(gt::regenerate(recipe, [&](std::string_view s) { again += s; }), digest);
  EXPECT_EQ(again, text);
  EXPECT_NE(again.find("\n0 LDG 4 0 0 0 ffffffff @0x7f0000000000:128\n"), std::string::npos);
}

TEST(KernelModelTest, RecordCountMatchesTheGeneratorForSmallFamilies) {
  for (const auto& s : gt::kernel_specs()) {
    if (s.family != gt::Family::Pattern && s.family != gt::Family::SharedBank &&
        s.family != gt::Family::Chase)
      continue;  // the stream, reuse and window tests above count theirs
    SCOPED_TRACE(s.id);
    std::uint64_t n = 0;
    gt::generate_records(s, std::vector<std::uint64_t>{kBase, kBase + (1ull << 32)}, {},
                         [&](const cap::CaptureRecord&) { ++n; });
    EXPECT_EQ(n, gt::record_count(s));
  }
}
