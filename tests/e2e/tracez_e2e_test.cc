// A .tracez replays as the .traceg of the same run (issue 61, part 5): whole `gpumemsim run`
// reports of the hand-written tracer-6 kernel compared, as the .traceg, as .tracez files of our
// writer (`gpumemsim convert`: one frame per warp; frames of 3 lines with a dictionary), as the
// .traceg that `gpumemsim convert` writes back from a .tracez, and as the .tracez files that
// accel-sim-framework's own post-processor wrote of the raw trace.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/temp_dir.h"
#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "trace/import/tracez_writer.h"

namespace gms {
namespace {

std::string e2e_fixture() {
  return test::data_path("thirdparty/handwritten_v6_grammar/kernel-1-ctx_0x5612a3b0c2d0.traceg");
}

/// `gpumemsim run LIST` (both modes, JSON) with the folder of the list replaced by "DIR".
std::string e2e_report(const std::string& dir, const std::string& list) {
  const test::CliResult r = test::run_cli("run " + dir + "/" + list + " --mode both --format json");
  EXPECT_EQ(r.status, 0) << r.err;
  std::string out = r.out;
  for (std::size_t at = out.find(dir); at != std::string::npos; at = out.find(dir, at))
    out.replace(at, dir.size(), "DIR");
  return out;
}

void e2e_write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST(TracezE2eTest, TracezFilesReplayAsTheirTraceg) {
  test::TempDir a, b, c, d;
  const std::string name = "kernel-1-ctx_0x5612a3b0c2d0";
  std::ifstream in(e2e_fixture(), std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  e2e_write(a.file(name + ".traceg"), text.str());
  e2e_write(a.file("kernelslist.g"), "MemcpyHtoD,0x00007f8200000000,8192\n" + name + ".traceg\n");
  const test::CliResult to =
      test::run_cli("convert " + e2e_fixture() + " " + b.file(name + ".tracez"));
  ASSERT_EQ(to.status, 0) << to.err;
  trace::TracezWriteOptions small;
  small.subchunk_insts = 3;
  small.dictionary = "0000 ffffffff 1 R1 MOV 0 0 0 0 NoVal\n";
  trace::write_tracez(e2e_fixture(), c.file(name + ".tracez"), small);
  for (const test::TempDir* dir : {&b, &c})
    e2e_write(dir->file("kernelslist.g"),
              "MemcpyHtoD,0x00007f8200000000,8192\n" + name + ".tracez\n");
  // And back: the .traceg that convert writes of the framed .tracez.
  const test::CliResult back =
      test::run_cli("convert " + c.file(name + ".tracez") + " " + d.file(name + ".traceg"));
  ASSERT_EQ(back.status, 0) << back.err;
  e2e_write(d.file("kernelslist.g"), "MemcpyHtoD,0x00007f8200000000,8192\n" + name + ".traceg\n");

  const std::string want = e2e_report(a.path.string(), "kernelslist.g");
  ASSERT_NE(want.find("\"records\": 8"), std::string::npos) << want;  // 2 blocks x 2 warps x 2
  EXPECT_EQ(e2e_report(b.path.string(), "kernelslist.g"), want);
  EXPECT_EQ(e2e_report(c.path.string(), "kernelslist.g"), want);
  EXPECT_EQ(e2e_report(d.path.string(), "kernelslist.g"), want);
}

TEST(TracezE2eTest, TheUpstreamPostProcessorsTracezReplaysAsItsTraceg) {
  // tests/data/thirdparty/handwritten_v6_grammar/README.md: the raw kernel 1 post-processed by
  // accel-sim-framework's post-traces-processing into upstream_tracez/ (its default: one frame
  // per warp, a dictionary it trained) and upstream_tracez_sc3/ (TRACEZ_SUBCHUNK_INSTS=3); with
  // --text it wrote the folder's .traceg byte for byte.
  const std::string folder = test::data_path("thirdparty/handwritten_v6_grammar");
  const std::string want = e2e_report(folder, "kernelslist.g");
  ASSERT_NE(want.find("\"records\": 8"), std::string::npos) << want;
  EXPECT_EQ(e2e_report(folder + "/upstream_tracez", "kernelslist.g"), want);
  EXPECT_EQ(e2e_report(folder + "/upstream_tracez_sc3", "kernelslist.g"), want);
}

}  // namespace
}  // namespace gms
