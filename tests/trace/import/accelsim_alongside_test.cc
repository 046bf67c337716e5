// An Accel-Sim trace whose thread blocks are parsed on a thread of their own
// (AccelSimReader::parse_alongside, trace/import/accelsim_block_parser.h) reads exactly as one
// read on one thread: kernels, records, counts, warnings, clusters and the error with its line,
// on every Accel-Sim file of tests/data and on generated traces, valid and broken (a bad line, a
// stray line between blocks, the end of the file or a cut stream inside a block, a skipped
// kernel), in batches of any size.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "tests/test_paths.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/accelsim_reader.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace::test {
namespace {

using ::gms::test::data_path;

/// Everything a reader hands out or keeps, up to its error.
struct Outcome {
  std::vector<KernelInfo> kernels;
  std::vector<WarpInstr> records;
  std::vector<std::vector<BlockCluster>> clusters;  // per kernel
  ImportCounts counts;
  std::vector<std::string> warnings;
  std::string error;
  std::uint64_t blocks_beside = 0;
};

/// Reads `path` whole (or, with `skip_after` > 0, only that many records of each kernel), in
/// batches of `batch` records, with the blocks parsed alongside or not.
Outcome read_all(const std::string& path, bool alongside, std::size_t batch,
                 std::size_t skip_after = 0) {
  Outcome o;
  auto in = std::make_unique<InputStream>(path);
  const bool list = AccelSimReader::looks_like_list(in->peek(4096));
  ImportOptions options;
  options.quiet = true;
  AccelSimReader reader(std::move(in), list, options);
  if (alongside) {
    EXPECT_TRUE(reader.parse_alongside());
  }
  std::vector<WarpInstr> buf(batch);
  try {
    KernelInfo k;
    while (reader.next_kernel(k)) {
      o.kernels.push_back(k);
      std::size_t taken = 0;
      while (std::size_t n = reader.read(buf)) {
        o.records.insert(o.records.end(), buf.begin(), buf.begin() + static_cast<long>(n));
        taken += n;
        if (skip_after != 0 && taken >= skip_after) break;
      }
      o.clusters.push_back(reader.clusters());
    }
  } catch (const SimError& e) {
    o.error = e.what();
  }
  o.counts = reader.counts();
  o.warnings = reader.warnings();
  o.blocks_beside = reader.blocks_parsed_beside();
  return o;
}

/// Both ways read `path` alike; returns the outcome read alongside.
Outcome expect_same(const std::string& path, std::size_t batch = 7, std::size_t skip_after = 0) {
  const Outcome one = read_all(path, false, batch, skip_after);
  Outcome two = read_all(path, true, batch, skip_after);
  EXPECT_EQ(one.blocks_beside, 0u);
  EXPECT_EQ(two.error, one.error) << path;
  EXPECT_EQ(two.kernels, one.kernels) << path;
  EXPECT_EQ(two.records.size(), one.records.size()) << path;
  EXPECT_TRUE(two.records == one.records) << path;
  EXPECT_EQ(two.clusters, one.clusters) << path;
  EXPECT_TRUE(two.counts == one.counts) << path;
  EXPECT_EQ(two.warnings, one.warnings) << path;
  return two;
}

/// What a generated trace holds, and where it is broken.
struct Shape {
  int blocks = 40;
  bool bases = true;      // the header gives the shared and local base addresses
  bool clusters = true;   // Hopper's cluster lines in every block
  int big_block = -1;     // this block has 4000 lines per warp
  int bad_line = -1;      // this block's second warp has an address that is not hex
  int stray_after = -1;   // a line that is not a block after this block
  int begin_inside = -1;  // a #BEGIN_TB inside this block
  int short_insts = -1;   // this block's first warp says one line more than it has
};

std::string generated(const Shape& s, unsigned seed) {
  std::mt19937 rng(seed);
  std::string t =
      "-kernel name = _Z3genPf\n"
      "-kernel id = 1\n"
      "-grid dim = (" +
      std::to_string(s.blocks) +
      ",1,1)\n"
      "-block dim = (64,1,1)\n"
      "-shmem = 0\n";
  if (s.bases)
    t += "-shmem base_addr = 0x00007f0000000000\n"
         "-local mem base_addr = 0x00007f0001000000\n";
  t += "-accelsim tracer version = 5\n"
       "-enable lineinfo = 0\n"
       "\n"
       "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
       "mem_width [adrrescompress?] [mem_addresses] immediate\n\n";
  auto hex = [](std::uint64_t v) { return fmt::format("0x{:016x}", v); };
  for (int b = 0; b < s.blocks; ++b) {
    t += fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n", b);
    if (s.clusters) t += fmt::format("cluster id = {},0,0\ncluster rank = {}\n", b / 4, b % 4);
    if (b % 7 == 3) t += "launch flag = 1\n";  // a block-level key no tracer documents
    for (int w = 0; w < 2; ++w) {
      const int n = b == s.big_block ? 4000 : 1 + static_cast<int>(rng() % 6);
      t += fmt::format("warp = {}\ninsts = {}\n", w, n + (b == s.short_insts && w == 0 ? 1 : 0));
      if (b == s.begin_inside && w == 1) t += "#BEGIN_TB\n";
      for (int i = 0; i < n; ++i) {
        const std::uint64_t pc = 0x10 * static_cast<std::uint64_t>(i + 1);
        const std::uint64_t a = 0x7f0010000000ull + (rng() % 4096) * 128;
        if (b == s.bad_line && w == 1 && i == 1) {
          t += fmt::format("{:04x} ffffffff 1 R1 LDG.E 1 R2 4 1 0xZZ12 4 0\n", pc);
          continue;
        }
        switch (rng() % 6) {
          case 0: {  // an address list
            const auto mask = static_cast<std::uint32_t>(rng() | 1u);
            t += fmt::format("{:04x} {:08x} 1 R1 LDG.E 1 R2 4 0", pc, mask);
            for (int k = 0; k < std::popcount(mask); ++k) t += " " + hex(a + 4 * k);
            t += " 0\n";
            break;
          }
          case 1:  // base and stride
            t += fmt::format("{:04x} ffffffff 1 R1 LDG.E 1 R2 4 1 {} 4 0\n", pc, hex(a));
            break;
          case 2:  // base and deltas
            t += fmt::format("{:04x} 0000000f 1 R1 LDG.E.64 1 R2 8 2 {} 8 8 8 0\n", pc, hex(a));
            break;
          case 3:  // no memory
            t += fmt::format("{:04x} ffffffff 1 R3 IMAD 2 R2 R3 0 0\n", pc);
            break;
          case 4:  // generic: shared, local or global by the base addresses (or their absence)
            t += fmt::format("{:04x} ffffffff 1 R1 LD.E 1 R2 4 1 {} 4 0\n", pc,
                             hex(0x7f0000000100ull + (rng() % 3) * 0x1000000ull));
            break;
          default:  // a store with a field no format line explains
            t += fmt::format("{:04x} ffffffff 0 STG.E 2 R2 R3 4 1 {} 4 0 STORE_DATA 7\n", pc,
                             hex(a));
            break;
        }
      }
    }
    t += "#END_TB\n";
    if (b % 5 == 2) t += "# note = a comment between blocks\n";
    if (b == s.stray_after) t += "stray text\n";
    t += "\n";
  }
  return t;
}

Outcome expect_same_text(const std::string& text, const std::string& suffix = ".traceg") {
  TempPath p(suffix);
  write_bytes(p.str(), text);
  expect_same(p.str(), 1000);
  return expect_same(p.str(), 7);
}

TEST(AccelSimAlongsideTest, EveryAccelSimFileOfTheTestDataReadsAlike) {
  for (const char* name :
       {"accelsim/lineinfo.traceg", "accelsim/opcodes.traceg",
        "accelsim/tiled_matmul/kernelslist.g", "thirdparty/accelsim_pytorch_pow_v5/kernelslist.g",
        "thirdparty/handwritten_v6_hopper_clusters/kernelslist.g",
        "thirdparty/handwritten_v6_grammar/kernelslist.g",
        "thirdparty/handwritten_v6_grammar/upstream_tracez_sc3/kernelslist.g",
        "thirdparty/mgpusim_bfs_rodinia_v3/kernelslist.xz.g",
        "thirdparty/mgpusim_vectoradd_v5/kernelslist.xz.g",
        "thirdparty/microgpusim_matrixmul_v4/kernelslist.g",
        "thirdparty/microgpusim_vectoradd_v4/kernelslist.g",
        "thirdparty/nvbit-rs_vecadd_raw_v3/kernel-1.trace.xz"}) {
    SCOPED_TRACE(name);
    const Outcome o = expect_same(data_path(name));
    EXPECT_EQ(o.error, "");
    EXPECT_FALSE(o.records.empty());
  }
  // Files of many blocks go through the parsing thread (a raw kernel-N.trace does not).
  EXPECT_EQ(
      expect_same(data_path("thirdparty/mgpusim_vectoradd_v5/kernelslist.xz.g")).blocks_beside,
      195u);
  EXPECT_EQ(
      expect_same(data_path("thirdparty/nvbit-rs_vecadd_raw_v3/kernel-1.trace.xz")).blocks_beside,
      0u);
}

TEST(AccelSimAlongsideTest, GeneratedTracesReadAlikeWithTheirWarnings) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    Shape s;
    const Outcome o = expect_same_text(generated(s, seed));
    EXPECT_EQ(o.error, "");
    EXPECT_EQ(o.blocks_beside, 39u);  // all but the kernel's first
    EXPECT_EQ(o.clusters.front().size(), 40u);
    EXPECT_FALSE(o.counts.trailing_by_field.empty());
    EXPECT_GE(o.warnings.size(), 3u);  // the '#' line, the block key, the trailing field
    // Windows line ends, block ends indented (after spaces and tabs, as the parse trims).
    std::string crlf;
    for (const char c : generated(s, seed))
      crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    for (std::size_t at = 0; (at = crlf.find("#END_TB", at)) != std::string::npos; at += 10)
      crlf.insert(at, " \t");
    EXPECT_EQ(expect_same_text(crlf).records, o.records);
    s.bases = false;  // generic accesses warn once
    s.clusters = false;
    const Outcome g = expect_same_text(generated(s, seed));
    EXPECT_GT(g.counts.generic_unresolved, 0u);
  }
}

TEST(AccelSimAlongsideTest, AnErrorInABlockIsThrownWhereItsBlockIsReached) {
  // Each broken in one place; the message names it.
  const std::pair<int Shape::*, const char*> cases[] = {
      {&Shape::bad_line, "bad address '0xZZ12'"},
      {&Shape::stray_after, "expected #BEGIN_TB, found 'stray"},
      {&Shape::begin_inside, "#BEGIN_TB inside a thread block"},
      {&Shape::short_insts, "but only"},
  };
  for (const auto& [where, fragment] : cases) {
    Shape s;
    s.*where = 20;
    const Outcome o = expect_same_text(generated(s, 7));
    GMS_EXPECT_CONTAINS(o.error, fragment);
    EXPECT_FALSE(o.records.empty());  // the blocks before it were read
  }
  // The file ends inside a block.
  const std::string whole = generated(Shape{}, 7);
  std::size_t at = 0;
  for (int b = 0; b <= 30; ++b) at = whole.find("#BEGIN_TB", at + 1);
  const Outcome cut = expect_same_text(whole.substr(0, whole.find('\n', at + 60) + 1));
  GMS_EXPECT_CONTAINS(cut.error, "end of file inside a thread block");
}

TEST(AccelSimAlongsideTest, ACutStreamInsideABlockFailsAfterTheLinesBeforeIt) {
  Shape s;
  s.blocks = 300;
  const std::string text = generated(s, 11);
  const std::string xz = xz_compress(text);
  const Outcome o = expect_same_text(xz.substr(0, xz.size() * 6 / 10), ".traceg.xz");
  EXPECT_NE(o.error, "");
  const std::string zst = zstd_frames({text});
  const Outcome z = expect_same_text(zst.substr(0, zst.size() * 6 / 10), ".traceg.zst");
  EXPECT_NE(z.error, "");
  // A bad line early in a long block that the stream is cut inside: the bad line is reported.
  Shape big;
  big.blocks = 3;
  big.big_block = 2;
  big.bad_line = 2;
  const std::string long_block = xz_compress(generated(big, 5));
  const Outcome b =
      expect_same_text(long_block.substr(0, long_block.size() * 8 / 10), ".traceg.xz");
  GMS_EXPECT_CONTAINS(b.error, "bad address '0xZZ12'");
}

TEST(AccelSimAlongsideTest, KernelsLeftBeforeTheirEndReadAlike) {
  TempDir dir;
  std::string list;
  for (int k = 1; k <= 3; ++k) {
    Shape s;
    s.blocks = 25 + k;
    std::string text = generated(s, static_cast<unsigned>(k));
    text.replace(text.find("-kernel id = 1"), 14, "-kernel id = " + std::to_string(k));
    write_bytes(dir.file(fmt::format("kernel-{}.traceg", k)), text);
    list += fmt::format("kernel-{}.traceg\n", k);
  }
  write_bytes(dir.file("kernelslist.g"), list);
  for (const std::size_t skip : {std::size_t{0}, std::size_t{1}, std::size_t{40}, std::size_t{300}})
    expect_same(dir.file("kernelslist.g"), 7, skip);
}

}  // namespace
}  // namespace gms::trace::test
