// NVBit mem_trace 1.5.x launch ids: a LAUNCH line printed after its counter was incremented, so
// every record carries the launch's id minus one (issue 61, part 4).
#include <gtest/gtest.h>

#include "tests/trace/import/import_test_util.h"
#include "trace/import/nvbit_reader.h"

namespace gms::trace::test {
namespace {

std::string v15_banner(const std::string& version) {
  return "------------- NVBit (NVidia Binary Instrumentation Tool v" + version +
         ") Loaded --------------\n";
}

std::string v15_launch(int id) {
  return fmt::format(
      "MEMTRACE: CTX 0x00005581c6a4e120 - LAUNCH - Kernel pc 0x00007f3a2c000100 - Kernel name "
      "k{}(float*) - grid launch id {} - grid size 2,1,1 - block size 64,1,1 - nregs 16 - shmem "
      "0 - cuda stream id 0\n",
      id, id);
}

/// A record of grid_launch_id `id`, CTA x,0,0, warp 0, lane i at base + 4 i.
std::string v15_record(int id, int cta, std::uint64_t base) {
  std::string s = fmt::format(
      "MEMTRACE: CTX 0x00005581c6a4e120 - grid_launch_id {} - CTA {},0,0 - warp 0 - LDG.E - ", id,
      cta);
  for (int i = 0; i < 32; ++i) s += fmt::format("0x{:016x} ", base + 4 * i);
  return s + "\n";
}

struct V15Kernel {
  std::uint32_t id;
  std::vector<WarpInstr> records;
};

struct V15Read {
  std::vector<V15Kernel> kernels;
  std::string format;
};

V15Read v15_read(const std::string& text) {
  TempPath p(".log");
  write_bytes(p.str(), text);
  NvbitReader r(std::make_unique<InputStream>(p.str()), /*quiet=*/true);
  V15Read out;
  KernelInfo k;
  std::vector<WarpInstr> batch(2);
  while (r.next_kernel(k)) {
    out.kernels.push_back({k.id, {}});
    while (std::size_t n = r.read(batch))
      out.kernels.back().records.insert(out.kernels.back().records.end(), batch.begin(),
                                        batch.begin() + n);
  }
  out.format = r.format_description();
  return out;
}

std::string v15_error(const std::string& text) {
  TempPath p(".log");
  write_bytes(p.str(), text);
  return error_of([&] { records_of(p.str(), TraceFormat::Nvbit); });
}

TEST(NvbitLaunchIdsTest, Banner15RecordsOneBelowBelongToTheirLaunch) {
  // As the v1.5.5 log of the issue: "grid launch id 1", then records of grid_launch_id 0.
  const V15Read got = v15_read(v15_banner("1.5.5") + v15_launch(1) + v15_record(0, 0, 0x1000) +
                               v15_record(0, 1, 0x2000) + v15_launch(2) + v15_record(1, 0, 0x3000));
  ASSERT_EQ(got.kernels.size(), 2u);
  EXPECT_EQ(got.kernels[0].id, 1u);
  ASSERT_EQ(got.kernels[0].records.size(), 2u);
  EXPECT_EQ(got.kernels[0].records[1].cta, 1u);
  EXPECT_EQ(got.kernels[0].records[1].addr[31], 0x2000u + 4 * 31);
  EXPECT_EQ(got.kernels[1].id, 2u);
  ASSERT_EQ(got.kernels[1].records.size(), 1u);
  EXPECT_EQ(got.kernels[1].records[0].addr[0], 0x3000u);
  GMS_EXPECT_CONTAINS(got.format, "records carry their launch's id minus one (NVBit 1.5)");
}

TEST(NvbitLaunchIdsTest, WithoutABannerEveryRecordOneBelowIsAccepted) {
  const V15Read got =
      v15_read(v15_launch(1) + v15_record(0, 0, 0x1000) + v15_launch(2) + v15_record(1, 1, 0x2000));
  ASSERT_EQ(got.kernels.size(), 2u);
  EXPECT_EQ(got.kernels[0].records.size(), 1u);
  EXPECT_EQ(got.kernels[1].records.size(), 1u);
  // A 1.7 banner changes nothing when every record is one below.
  EXPECT_EQ(v15_read(v15_banner("1.7.1") + v15_launch(1) + v15_record(0, 0, 0x1000))
                .kernels[0]
                .records.size(),
            1u);
}

TEST(NvbitLaunchIdsTest, EqualIdsStayAsTodayWithoutANote) {
  const V15Read got = v15_read(v15_banner("1.5.5") + v15_launch(3) + v15_record(3, 0, 0x1000));
  ASSERT_EQ(got.kernels.size(), 1u);
  EXPECT_EQ(got.kernels[0].records.size(), 1u);
  EXPECT_EQ(got.format.find("minus one"), std::string::npos);
}

TEST(NvbitLaunchIdsTest, OtherMismatchesStayErrors) {
  // Two below, with or without the 1.5 banner.
  GMS_EXPECT_CONTAINS(v15_error(v15_banner("1.5.5") + v15_launch(2) + v15_record(0, 0, 0x1000)),
                      ":3: record of grid_launch_id 0 inside launch 2");
  // One above.
  GMS_EXPECT_CONTAINS(v15_error(v15_launch(1) + v15_record(2, 0, 0x1000)),
                      ":2: record of grid_launch_id 2 inside launch 1");
  // Without a 1.5 banner, one below after equal ids (and equal after one below) is a mismatch.
  GMS_EXPECT_CONTAINS(v15_error(v15_banner("1.7.1") + v15_launch(1) + v15_record(1, 0, 0x1000) +
                                v15_launch(2) + v15_record(1, 0, 0x2000)),
                      ":5: record of grid_launch_id 1 inside launch 2 (launches must not "
                      "interleave; earlier records carried their launch's id)");
  GMS_EXPECT_CONTAINS(v15_error(v15_launch(1) + v15_record(0, 0, 0x1000) + v15_launch(2) +
                                v15_record(2, 0, 0x2000)),
                      ":4: record of grid_launch_id 2 inside launch 2 (launches must not "
                      "interleave; earlier records carried their launch's id minus one)");
  // A launch 0 has no id below it.
  GMS_EXPECT_CONTAINS(v15_error(v15_banner("1.5") + v15_launch(0) + v15_record(1, 0, 0x1000)),
                      ":3: record of grid_launch_id 1 inside launch 0");
}

}  // namespace
}  // namespace gms::trace::test
