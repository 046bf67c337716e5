// Loads in flight per warp from register operands (trace/import/load_concurrency.h), each case
// worked out by hand from the scoreboard rule; and the Accel-Sim importer's loads_in_flight
// param, read from a kernel's first thread block.
#include <gtest/gtest.h>

#include <fstream>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tests/trace/import/import_test_util.h"
#include "trace/import/accelsim_reader.h"
#include "trace/import/load_concurrency.h"

namespace gms::trace::test {
namespace {

/// One instruction of warp `warp`: `dests`, `srcs`, and a load of `bytes` per thread (0: none).
void issue(LoadConcurrency& lc, std::uint32_t warp, std::initializer_list<std::string_view> dests,
           std::initializer_list<std::string_view> srcs, std::uint32_t bytes = 0) {
  lc.instruction(warp, {dests.begin(), dests.size()}, {srcs.begin(), srcs.size()}, bytes);
}

TEST(LoadConcurrencyTest, RegisterNames) {
  EXPECT_EQ(LoadConcurrency::register_index("R0"), 0);
  EXPECT_EQ(LoadConcurrency::register_index("R254"), 254);
  EXPECT_EQ(LoadConcurrency::register_index("UR3"), 259);
  for (const char* none : {"R255", "RZ", "URZ", "UR63", "P0", "PT", "SR_TID.X", "R", "R1x", ""})
    EXPECT_EQ(LoadConcurrency::register_index(none), -1) << none;
}

TEST(LoadConcurrencyTest, APointerChaseKeepsOneLoadInFlight) {
  // Each load's address is the previous load's value: it waits for it before it issues.
  LoadConcurrency lc;
  for (int i = 0; i < 8; ++i) issue(lc, 0, {"R2"}, {"R2"}, 8);
  EXPECT_EQ(lc.loads_in_flight(), 1u);
}

TEST(LoadConcurrencyTest, IndependentLoadsBeforeTheirUsesAreAllInFlight) {
  // An unrolled loop: four loads from one address register, then the uses: 4 in flight; a
  // second round after the uses again reaches 4, not 8.
  LoadConcurrency lc;
  for (int round = 0; round < 2; ++round) {
    issue(lc, 0, {"R4"}, {"R2"}, 4);
    issue(lc, 0, {"R5"}, {"R2"}, 4);
    issue(lc, 0, {"R6"}, {"R2"}, 4);
    issue(lc, 0, {"R7"}, {"R2"}, 4);
    issue(lc, 0, {"R8"}, {"R4", "R5"});
    issue(lc, 0, {"R8"}, {"R8", "R6"});
    issue(lc, 0, {"R8"}, {"R8", "R7"});
  }
  EXPECT_EQ(lc.loads_in_flight(), 4u);
}

TEST(LoadConcurrencyTest, AUseWaitsForItsOwnLoadOnly) {
  // Loads 1, 2, 3 issue; a use of load 2's value waits for it; load 4 then issues beside 1 and 3.
  LoadConcurrency lc;
  issue(lc, 0, {"R4"}, {"R2"}, 4);
  issue(lc, 0, {"R5"}, {"R2"}, 4);
  issue(lc, 0, {"R6"}, {"R2"}, 4);
  issue(lc, 0, {"R9"}, {"R5"});
  issue(lc, 0, {"R7"}, {"R2"}, 4);
  EXPECT_EQ(lc.loads_in_flight(), 3u);
}

TEST(LoadConcurrencyTest, AWideLoadFillsTheRegistersAfterItsFirst) {
  // LDG.E.64 lists R2 and fills R2 and R3: a use of R3 waits for it, so the next load is alone.
  LoadConcurrency wide;
  issue(wide, 0, {"R2"}, {"R10"}, 8);
  issue(wide, 0, {"R12"}, {"R3"});
  issue(wide, 0, {"R4"}, {"R10"}, 4);
  EXPECT_EQ(wide.loads_in_flight(), 1u);
  // A 4-byte load fills R2 only: the use of R3 does not wait, both loads are in flight.
  LoadConcurrency narrow;
  issue(narrow, 0, {"R2"}, {"R10"}, 4);
  issue(narrow, 0, {"R12"}, {"R3"});
  issue(narrow, 0, {"R4"}, {"R10"}, 4);
  EXPECT_EQ(narrow.loads_in_flight(), 2u);
}

TEST(LoadConcurrencyTest, OverwritingAPendingRegisterWaitsForItsLoad) {
  LoadConcurrency lc;
  issue(lc, 0, {"R4"}, {"R2"}, 4);
  issue(lc, 0, {"R4"}, {"R1"});  // write after write
  issue(lc, 0, {"R5"}, {"R2"}, 4);
  EXPECT_EQ(lc.loads_in_flight(), 1u);
}

TEST(LoadConcurrencyTest, LoadsIntoNoRegisterAndStoresAreNotCounted) {
  LoadConcurrency lc;
  issue(lc, 0, {"RZ"}, {"R2"}, 4);  // a prefetch: never waited for
  issue(lc, 0, {}, {"R2", "R3"});   // a store (no load bytes)
  EXPECT_EQ(lc.loads_in_flight(), 0u);
  issue(lc, 0, {"R4"}, {"R2"}, 4);
  EXPECT_EQ(lc.loads_in_flight(), 1u);
}

TEST(LoadConcurrencyTest, TheKernelFigureIsTheMeanOfItsWarpsRounded) {
  // Warp 0 reaches 4, warp 1 reaches 1, warp 2 has no load: (4 + 1) / 2 = 2.5, rounded to 3.
  LoadConcurrency lc;
  for (const char* r : {"R4", "R5", "R6", "R7"}) issue(lc, 0, {r}, {"R2"}, 4);
  issue(lc, 1, {"R4"}, {"R2"}, 4);
  issue(lc, 2, {"R4"}, {"R2"});
  EXPECT_EQ(lc.loads_in_flight(), 3u);
  lc.reset();
  EXPECT_EQ(lc.loads_in_flight(), 0u);
}

/// A tracer-v4 kernel file (lineinfo off) with `blocks` blocks of one warp whose lines are
/// `insts`, at `path`.
void write_kernel(const std::string& path, const std::vector<std::string>& insts, int blocks) {
  std::ofstream f(path);
  f << "-kernel name = k\n-kernel id = 1\n-grid dim = (" << blocks
    << ",1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 16\n-binary version = 86\n"
       "-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
       "-local mem base_addr = 0x00007f0001000000\n-accelsim tracer version = 4\n"
       "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode "
       "src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n";
  for (int b = 0; b < blocks; ++b) {
    f << "#BEGIN_TB\nthread block = " << b << ",0,0\nwarp = 0\ninsts = " << insts.size() << "\n";
    for (const std::string& line : insts) f << line << "\n";
    f << "#END_TB\n";
  }
}

/// The loads_in_flight param of the only kernel at `path` ("" when absent), and its records.
std::string param_of(const std::string& path, std::size_t* records = nullptr) {
  AccelSimReader reader(std::make_unique<InputStream>(path), false);
  KernelInfo k;
  EXPECT_TRUE(reader.next_kernel(k));
  std::vector<WarpInstr> batch(16);
  std::size_t n = 0;
  while (std::size_t got = reader.read(batch)) n += got;
  if (records != nullptr) *records = n;
  for (const auto& [key, value] : k.params)
    if (key == "loads_in_flight") return value;
  return "";
}

TEST(LoadConcurrencyTest, TheImporterReadsItFromTheFirstBlock) {
  TempDir dir;
  const std::string path = dir.file("kernel-1.traceg");
  // Three independent 8-byte loads (base+stride addresses), then a use of each: 3 in flight;
  // the second block is replayed as well (6 records in all).
  write_kernel(path,
               {"0010 ffffffff 1 R4 LDG.E.64 1 R2 8 1 0x7f1000000000 8",
                "0020 ffffffff 1 R6 LDG.E.64 1 R2 8 1 0x7f1000001000 8",
                "0030 ffffffff 1 R8 LDG.E.64 1 R2 8 1 0x7f1000002000 8",
                "0040 ffffffff 1 R10 DADD 2 R5 R7 0", "0050 ffffffff 1 R10 DADD 2 R10 R9 0"},
               2);
  std::size_t records = 0;
  EXPECT_EQ(param_of(path, &records), "3");
  EXPECT_EQ(records, 6u);
  // A chase: each load's address register is the previous load's destination.
  write_kernel(path,
               {"0010 ffffffff 1 R2 LDG.E.64 1 R2 8 1 0x7f1000000000 8",
                "0020 ffffffff 1 R2 LDG.E.64 1 R2 8 1 0x7f1000001000 8"},
               1);
  EXPECT_EQ(param_of(path), "1");
  // No global load (a store and arithmetic): no param, the preset's figure stays.
  write_kernel(path, {"0010 ffffffff 0 STG.E 2 R2 R4 4 1 0x7f1000000000 4"}, 1);
  EXPECT_EQ(param_of(path), "");
}

}  // namespace
}  // namespace gms::trace::test
