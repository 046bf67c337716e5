// Generator parameters: number parsing, validation messages, and the `gen` command line.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "tests/test_paths.h"
#include "tests/tools/gen/gen_test_util.h"
#include "tools/gen/patterns.h"

namespace gms::gen {
namespace {

using test::error_of;

// ---- parameters and errors --------------------------------------------------------------------

TEST(GenTest, ParsesNumbersWithHexAndSuffixes) {
  EXPECT_EQ(parse_u64("0x40", "base"), 64u);
  EXPECT_EQ(parse_u64("1G", "footprint"), std::uint64_t{1} << 30);
  EXPECT_EQ(parse_u64("256M", "footprint"), std::uint64_t{256} << 20);
  EXPECT_EQ(error_of([] { parse_u64("12x", "stride"); }),
            "--stride: '12x' is not an unsigned integer");
  EXPECT_EQ(error_of([] { parse_u64("-1", "stride"); }),
            "--stride: '-1' is not an unsigned integer");
  GenParams p;
  set_param(p, kParamOp, "STG");
  EXPECT_EQ(p.op, Op::STG);
  EXPECT_EQ(error_of([&] { set_param(p, kParamOp, "LDX"); }),
            "--op: unknown operation 'LDX' (LDG STG LDS STS LDL STL ATOMG RED)");
  EXPECT_EQ(error_of([&] { set_param(p, kParamMask, "0x1ffffffff"); }),
            "--mask: 8589934591 is too large");
  set_param(p, kParamKind, "triad");
  EXPECT_EQ(p.kind, StreamKind::Triad);
  EXPECT_EQ(error_of([&] { set_param(p, kParamKind, "scale"); }),
            "--kind: unknown kernel 'scale' (read, write, copy, triad)");
  set_param(p, kParamCarveout, "16");
  EXPECT_EQ(p.carveout_kb, 16u);
  set_param(p, kParamShmem, "6K");
  EXPECT_EQ(p.shmem, 6144u);
}

TEST(GenTest, RejectsBadParameters) {
  GenParams p;
  EXPECT_EQ(error_of("nosuch", p), "unknown pattern 'nosuch' (see 'gpumemsim gen --list')");
  p.elem_bytes = 3;
  EXPECT_EQ(error_of("sequential", p), "--elem must be 1, 2, 4, 8 or 16, not 3");
  p = GenParams{};
  p.stride_elems = 0;
  EXPECT_EQ(error_of("strided", p), "--stride must be at least 1 (use the broadcast pattern)");
  p = GenParams{};
  p.mask = 0;
  EXPECT_EQ(error_of("sequential", p), "--mask must have at least one lane");
  p = GenParams{};
  p.lane = 32;
  EXPECT_EQ(error_of("one_lane", p), "--lane must be 0..31, not 32");
  p = GenParams{};
  p.op = Op::LDS;
  EXPECT_EQ(error_of("sequential", p), "--op LDS is not a global operation");
  p.op = Op::LDG;
  EXPECT_EQ(error_of("smem_stride", p), "--op LDG is not a shared (LDS, STS) operation");
  p = GenParams{};
  p.n = 60;
  EXPECT_EQ(error_of("matmul_tiled", p), "--n 60 must be a multiple of --tile 16");
  p.n = 64;
  p.tile = 64;
  EXPECT_EQ(error_of("matmul_naive", p), "--tile must be 1..32 (T x T threads per CTA), not 64");
  p = GenParams{};
  p.field = 3;
  EXPECT_EQ(error_of("aos_field", p), "--field 3 lies outside a 12-byte struct of 4-byte fields");
  p = GenParams{};
  p.warps = 3;
  p.block = 64;
  EXPECT_EQ(error_of("sequential", p), "--warps 3 is not a whole number of CTAs of 64 threads");
  p.block = 48;
  EXPECT_EQ(error_of("sequential", p), "--block must be a multiple of 32 up to 1024, not 48");
  p = GenParams{};
  p.warps = 33;
  p.n = 1024;
  EXPECT_EQ(error_of("matrix_column", p),
            "--warps 33 walk 1056 elements, more than the matrix dimension --n 1024");
  p = GenParams{};
  p.records = 0;
  EXPECT_EQ(error_of("random", p), "--records must be at least 1");
}

TEST(GenTest, CliRejectsUnknownPatternsAndForeignOptions) {
  auto run_cli = [](const std::string& args, int& rc) {
    const std::string cmd = test::cli_path() + " gen " + args + " 2>&1";
    FILE* f = popen(cmd.c_str(), "r");
    std::string out;
    char buf[256];
    while (std::fgets(buf, sizeof buf, f)) out += buf;
    rc = WEXITSTATUS(pclose(f));
    return out;
  };
  int rc = 0;
  EXPECT_NE(run_cli("nosuch", rc).find("unknown pattern 'nosuch'"), std::string::npos);
  EXPECT_EQ(rc, 1);
  EXPECT_NE(run_cli("strided --tile 4", rc).find("pattern 'strided' does not take --tile"),
            std::string::npos);
  EXPECT_EQ(rc, 1);
  EXPECT_NE(run_cli("strided --stride 0", rc).find("--stride must be at least 1"),
            std::string::npos);
  EXPECT_EQ(rc, 1);
  const std::string list = run_cli("--list", rc);
  EXPECT_EQ(rc, 0);
  for (const PatternInfo& info : patterns())
    EXPECT_NE(list.find(std::string(info.name)), std::string::npos) << info.name;
}

}  // namespace
}  // namespace gms::gen
