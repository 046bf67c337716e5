// Format detection over every readable format, --trace-format, and the CLI on imported traces.
#include <gtest/gtest.h>

#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace::test {
namespace {

using gms::test::data_path;

TEST(ImportFormatsTest, DetectsEveryFormatFromContent) {
  TempDir dir;
  // Each file under a misleading name: detection reads the content.
  const std::string traceg = read_bytes(data_path("accelsim/lineinfo.traceg"));
  write_bytes(dir.file("a.txt"), traceg);
  write_bytes(dir.file("b.txt"), xz_compress(traceg));
  write_bytes(dir.file("c.txt"), zstd_frames({traceg}));
  write_bytes(dir.file("d.txt"), read_bytes(data_path("nvbit/mem_trace_old.log")));
  write_bytes(dir.file("e.txt"), xz_compress(read_bytes(data_path("nvbit/mem_trace.log"))));
  const Trace direct = read_trace(data_path("accelsim/lineinfo.traceg"));
  EXPECT_EQ(read_trace(dir.file("a.txt")).records, direct.records);
  EXPECT_EQ(read_trace(dir.file("b.txt")).records, direct.records);
  EXPECT_EQ(read_trace(dir.file("c.txt")).records, direct.records);
  EXPECT_EQ(read_trace(dir.file("d.txt")), read_trace(data_path("nvbit/mem_trace_old.log")));
  EXPECT_EQ(read_trace(dir.file("e.txt")), read_trace(data_path("nvbit/mem_trace.log")));
  // A .gmt and a wtrace written from the import, renamed, read back the same.
  write_trace(dir.file("f.gmt"), direct);
  write_trace(dir.file("g.wtrace"), direct);
  std::filesystem::rename(dir.file("f.gmt"), dir.file("f.txt"));
  std::filesystem::rename(dir.file("g.wtrace"), dir.file("g.txt"));
  EXPECT_EQ(read_trace(dir.file("f.txt")), direct);
  EXPECT_EQ(read_trace(dir.file("g.txt")), direct);
}

TEST(ImportFormatsTest, TraceFormatOverridesDetection) {
  EXPECT_EQ(parse_trace_format("accelsim"), TraceFormat::AccelSim);
  EXPECT_EQ(parse_trace_format("nvbit"), TraceFormat::Nvbit);
  GMS_EXPECT_CONTAINS(error_of([] { parse_trace_format("csv"); }),
                      "unknown trace format 'csv' (auto, wtrace, gmt, accelsim, nvbit)");
  // Forced to wtrace, an Accel-Sim file is a wtrace file without its magic line.
  const std::string path = data_path("accelsim/lineinfo.traceg");
  GMS_EXPECT_CONTAINS(error_of([&] { open_trace_reader(path, TraceFormat::Wtrace); }),
                      path + ":1: missing '#wtrace 1' magic line");
  // An NVBit log that starts with a long application output is still read when forced.
  TempPath p(".log");
  write_bytes(p.str(),
              std::string(100000, 'x') + "\n" + read_bytes(data_path("nvbit/mem_trace_old.log")));
  EXPECT_EQ(records_of(p.str(), TraceFormat::Nvbit).size(), 4u);
}

TEST(ImportFormatsTest, UnrecognisedContentListsTheFormatsTried) {
  TempPath p(".bin");
  write_bytes(p.str(), "hello, world\n");
  const std::string msg = error_of([&] { open_trace_reader(p.str()); });
  GMS_EXPECT_CONTAINS(msg, p.str() + ":1: ");
  GMS_EXPECT_CONTAINS(msg,
                      "wtrace text, .gmt binary, Accel-Sim kernelslist.g, Accel-Sim .traceg, "
                      "NVBit mem_trace log");
}

TEST(ImportFormatsTest, CliRunsInfoAndConvertsImportedTraces) {
  using gms::test::run_cli;
  const std::string list = data_path("accelsim/tiled_matmul/kernelslist.g");
  const auto info = run_cli("info " + list);
  ASSERT_EQ(info.status, 0) << info.err;
  GMS_EXPECT_CONTAINS(info.out, "4 warps, footprint 6 lines of 128 B (768 B)");
  GMS_EXPECT_CONTAINS(info.out, "shared offsets 0x0-0x7f");
  const auto run = run_cli("run " + list + " --trace-format accelsim --format json");
  ASSERT_EQ(run.status, 0) << run.err;
  GMS_EXPECT_CONTAINS(run.out, "\"name\": \"_Z12matmul_tiledPKfS0_Pf\"");
  TempDir dir;
  const auto conv = run_cli("convert " + data_path("nvbit/mem_trace.log") + " " +
                            dir.file("t.gmt") + " --trace-format nvbit");
  ASSERT_EQ(conv.status, 0) << conv.err;
  EXPECT_EQ(read_trace(dir.file("t.gmt")), read_trace(data_path("nvbit/mem_trace.log")));
  const auto bad = run_cli("run " + data_path("accelsim/opcodes.traceg") + " --trace-format nvbit");
  EXPECT_EQ(bad.status, 1);
  GMS_EXPECT_CONTAINS(bad.err, "no NVBit mem_trace launch line");
}

TEST(ImportFormatsTest, EmptyReadsAreSafe) {
  // Fuzz finding: a zero-byte read into an empty buffer passed a null pointer to memcpy.
  TempPath p(".txt");
  write_bytes(p.str(), "abc");
  InputStream in(p.str());
  EXPECT_EQ(in.peek(2), "ab");
  EXPECT_EQ(in.read(nullptr, 0), 0u);
  char buf[4];
  EXPECT_EQ(in.read(buf, sizeof buf), 3u);
}

}  // namespace
}  // namespace gms::trace::test
