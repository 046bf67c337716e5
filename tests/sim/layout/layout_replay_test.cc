// A layout what-if is the replay of the other layout's trace, byte for byte (issue 63): small
// kernels written in both layouts, with reuse between instructions (fields of one structure read
// by three instructions, a neighbour's field, a store back; a shared tile written by rows and
// read by columns; a matrix read by rows and by columns). The change applied to the first trace
// (sim/layout/layout_reader.h) must print the same report as the second trace, in both modes,
// and a report of the first trace unchanged must not.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "sim/diagnosis/diagnose.h"
#include "sim/diagnosis/layout_candidates.h"
#include "sim/layout/layout_reader.h"
#include "sim/layout/resolve.h"
#include "sim/replay/simulator.h"
#include "sim/report/report.h"

namespace gms {
namespace {

/// A trace named by process and test; `body` writes its records after the kernel line.
std::string layout_trace(const std::string& name, const std::string& kernel_line,
                         const std::function<void(std::ostream&)>& body) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto path = std::filesystem::temp_directory_path() /
                    fmt::format("{}_{}_{}.wtrace", ::getpid(), test->name(), name);
  std::ofstream out(path);
  out << "#wtrace 1\n" << kernel_line << '\n';
  body(out);
  return path.string();
}

std::string report_of(std::vector<KernelStats> kernels) {
  RunReport r;
  r.config = default_config();
  r.traces = {"trace"};  // the same name for both sides
  r.kernels = std::move(kernels);
  std::ostringstream out;
  print_report(out, r, ReportFormat::Json);
  print_report(out, r, ReportFormat::Table);
  return out.str();
}

RunOptions replay_both() {
  RunOptions opts;
  opts.mode = SimMode::Both;
  return opts;
}

/// The report of `trace` with `spec` applied (arrays and numbers from its diagnosis).
std::string moved_report(const std::string& trace, const std::string& spec,
                         const std::string& want_label) {
  const RunOptions opts = replay_both();
  std::vector<InstrFootprint> footprints;
  std::vector<LayoutArray> arrays;
  {
    auto chain = open_run_chain({trace}, opts);
    footprints = instruction_footprints(diagnose(*chain, default_config(), opts));
    arrays = find_arrays(chain->allocations(), footprints);
  }
  const LayoutChange c = resolve_layout(parse_layout_spec(spec), arrays, footprints);
  EXPECT_EQ(c.label, want_label);
  auto chain = open_run_chain({trace}, opts);
  LayoutReader moved(*chain, c);
  return report_of(simulate(moved, default_config(), opts));
}

std::string plain_report(const std::string& trace) {
  return report_of(simulate(std::vector<std::string>{trace}, default_config(), replay_both()));
}

// 2048 structures {x, y, z} of 12 bytes at kAos; warp w's lane t works on structure 32w + t:
// reads x, y and z, reads its neighbour's x (the next lane's, across warps at the ends), stores
// z, and writes an output array that no change may move. The structure of arrays puts plane f
// at kAos + f x 2048 x 4.
TEST(LayoutReplayTest, StructureOfArraysEqualsTheOtherTraceByteForByte) {
  constexpr std::uint64_t kAos = 0x100000, kOut = 0x200000, kN = 2048;
  auto body = [&](bool soa) {
    return [=](std::ostream& out) {
      auto at = [&](std::uint64_t i, int f) {
        return soa ? kAos + f * kN * 4 + 4 * i : kAos + 12 * i + 4 * f;
      };
      for (std::uint64_t w = 0; w < kN / 32; ++w) {
        const std::string head = fmt::format("{} {} ffffffff", w / 4, w % 4);
        auto list = [&](int f, std::uint64_t shift) {
          std::string s;
          for (std::uint64_t t = 0; t < 32; ++t)
            s += fmt::format("{}0x{:x}", t ? "," : "", at((32 * w + t + shift) % kN, f));
          return s;
        };
        for (int f = 0; f < 3; ++f) out << fmt::format("{} LDG 4 - {} {}\n", f, head, list(f, 0));
        out << fmt::format("3 LDG 4 - {} {}\n", head, list(0, 1));
        out << fmt::format("4 STG 4 - {} {}\n", head, list(2, 0));
        out << fmt::format("5 STG 4 - {} @0x{:x}:4\n", head, kOut + 128 * w);
      }
    };
  };
  const std::string kernel = "#kernel id=1 name=k grid=16,1,1 block=128,1,1 shmem=0";
  const std::string aos = layout_trace("aos", kernel, body(false));
  const std::string soa = layout_trace("soa", kernel, body(true));
  const std::string want = plain_report(soa);
  EXPECT_NE(plain_report(aos), want);
  EXPECT_EQ(moved_report(aos, "soa:0x100000", "soa:g0:12"), want);
  // And back: the three planes interleave into the structures again.
  EXPECT_EQ(moved_report(soa, "aos:g0,g1,g2", "aos:g0,g1,g2"), plain_report(aos));
}

// A float tile[32][32] in each of 16 CTAs: warp w stores rows 4w..4w+3 (conflict-free), then
// reads columns 4w..4w+3 (32-way conflicts). Padded: rows 132 bytes apart, 4224 bytes a CTA.
TEST(LayoutReplayTest, PaddedTileEqualsTheOtherTraceByteForByte) {
  auto body = [](std::uint64_t pitch) {
    return [=](std::ostream& out) {
      for (int cta = 0; cta < 16; ++cta)
        for (int w = 0; w < 8; ++w)
          for (int k = 0; k < 4; ++k) {
            const int rc = 4 * w + k;
            out << fmt::format("0 STS 4 - {} {} ffffffff @0x{:x}:4\n", cta, w, pitch * rc);
            out << fmt::format("1 LDS 4 - {} {} ffffffff @0x{:x}:{}\n", cta, w, 4 * rc, pitch);
            out << fmt::format("2 STG 4 - {} {} ffffffff @0x{:x}:4\n", cta, w,
                               0x100000 + 4096 * cta + 128 * rc);
          }
    };
  };
  const std::string t32 =
      layout_trace("tile32", "#kernel id=1 name=t grid=16,1,1 block=256,1,1 shmem=4096", body(128));
  const std::string t33 =
      layout_trace("tile33", "#kernel id=1 name=t grid=16,1,1 block=256,1,1 shmem=4224", body(132));
  const std::string want = plain_report(t33);
  EXPECT_NE(plain_report(t32), want);
  EXPECT_EQ(moved_report(t32, "pad:smem:1", "pad:smem:1:128"), want);
}

// A 32 x 64 float matrix: warp w reads column w (rows 0-31) and row w % 32. Transposed, column
// c is 32 floats at 128c and row r the floats 128 bytes apart from 4r.
TEST(LayoutReplayTest, TransposeEqualsTheOtherTraceByteForByte) {
  constexpr std::uint64_t kBase = 0x400000;
  auto body = [&](bool transposed) {
    return [=](std::ostream& out) {
      for (std::uint64_t w = 0; w < 64; ++w) {
        const std::string head = fmt::format("{} {} ffffffff", w / 4, w % 4);
        const std::uint64_t r = w % 32;
        if (transposed) {
          out << fmt::format("0 LDG 4 - {} @0x{:x}:4\n", head, kBase + 128 * w);
          out << fmt::format("1 LDG 4 - {} @0x{:x}:128\n", head, kBase + 4 * r);
        } else {
          out << fmt::format("0 LDG 4 - {} @0x{:x}:256\n", head, kBase + 4 * w);
          out << fmt::format("1 LDG 4 - {} @0x{:x}:4\n", head, kBase + 256 * r);
        }
      }
    };
  };
  const std::string kernel = "#kernel id=1 name=m grid=16,1,1 block=128,1,1 shmem=0";
  const std::string rows = layout_trace("rowmajor", kernel, body(false));
  const std::string cols = layout_trace("colmajor", kernel, body(true));
  const std::string want = plain_report(cols);
  EXPECT_NE(plain_report(rows), want);
  EXPECT_EQ(moved_report(rows, "transpose:g0", "transpose:g0:256"), want);
}

// float4 {x, y, z, w} per thread at kBase + 16i: four 4-byte loads of one warp, one after
// another (other warps' records between them), merge into one 16-byte load; a fifth load of
// another array stays. The other trace has the one LDG.16 as instruction 0.
TEST(LayoutReplayTest, VectorLoadEqualsTheOtherTraceByteForByte) {
  constexpr std::uint64_t kBase = 0x100000, kOut = 0x800000;
  auto body = [&](bool vector) {
    return [=](std::ostream& out) {
      for (std::uint64_t pair = 0; pair < 64; pair += 2) {
        // Two warps interleaved, as a capture of two warps in flight writes them.
        for (int f = 0; f < (vector ? 1 : 4); ++f)
          for (std::uint64_t w = pair; w < pair + 2; ++w)
            out << fmt::format("{} LDG {} - {} {} ffffffff @0x{:x}:16\n", f, vector ? 16 : 4, w / 4,
                               w % 4, kBase + 512 * w + 4 * f);
        for (std::uint64_t w = pair; w < pair + 2; ++w)
          out << fmt::format("4 STG 4 - {} {} ffffffff @0x{:x}:4\n", w / 4, w % 4, kOut + 128 * w);
      }
    };
  };
  const std::string kernel = "#kernel id=1 name=v grid=16,1,1 block=128,1,1 shmem=0";
  const std::string narrow = layout_trace("narrow", kernel, body(false));
  const std::string wide = layout_trace("wide", kernel, body(true));
  const std::string want = plain_report(wide);
  EXPECT_NE(plain_report(narrow), want);
  EXPECT_EQ(moved_report(narrow, "vector:0,1,2,3", "vector:0,1,2,3"), want);
  // Two at a time: float2 loads, not the float4's.
  EXPECT_NE(moved_report(narrow, "vector:0,1", "vector:0,1"), want);
}

}  // namespace
}  // namespace gms
