// The corpus of real third-party traces (tests/data/thirdparty/README.md): each replays in cold
// and cached mode, and its counts, kernel by kernel, equal an independent count made here by a
// few lines of parsing that share nothing with the importer (the tracer's own mem_width column
// gives the access size), and, where the repository published them, the tracer's instruction
// count, nvprof's counters of the same run and the bytes the program's memcpys copied.
#include <gtest/gtest.h>
#include <lzma.h>

#include <bit>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/replay/simulator.h"
#include "tests/test_paths.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/accelsim_reader.h"

namespace gms::trace::test {
namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  std::string bytes = s.str();
  if (!path.ends_with(".xz")) return bytes;
  // Streamed into a growing string: the kernels differ in size by three orders of magnitude.
  lzma_stream xz = LZMA_STREAM_INIT;
  EXPECT_EQ(lzma_stream_decoder(&xz, UINT64_MAX, 0), LZMA_OK) << path;
  xz.next_in = reinterpret_cast<const std::uint8_t*>(bytes.data());
  xz.avail_in = bytes.size();
  std::string out;
  std::uint8_t chunk[1 << 16];
  lzma_ret r = LZMA_OK;
  while (r == LZMA_OK) {
    xz.next_out = chunk;
    xz.avail_out = sizeof chunk;
    r = lzma_code(&xz, LZMA_FINISH);
    out.append(reinterpret_cast<const char*>(chunk), sizeof chunk - xz.avail_out);
  }
  lzma_end(&xz);
  EXPECT_EQ(r, LZMA_STREAM_END) << path;
  return out;
}

/// What the independent parser counts, per memory space and direction.
struct Count {
  std::uint64_t lines = 0;                       // instruction lines
  std::uint64_t non_memory = 0;                  // mem_width 0
  std::uint64_t instructions[4] = {0, 0, 0, 0};  // LDG, STG, LDS, STS with an active lane
  std::uint64_t sectors[4] = {0, 0, 0, 0};       // distinct 32-byte blocks per instruction
  std::uint64_t bytes[4] = {0, 0, 0, 0};         // active lanes x mem_width
  std::uint64_t threads = 0;
  std::uint64_t replay_markers = 0;  // REPLAY_START / REPLAY_END lines (tracer 6)
};

/// Counts an Accel-Sim kernel file: every line that is not a header, '#', "thread block",
/// "warp" or "insts" line is an instruction but REPLAY_START/REPLAY_END; each starts with
/// `prefix_ints` integers (raw files: tb_x tb_y tb_z warp, tracer 6 adds the cluster's 7, and
/// TOOL_TRACE_CORE two more); `v6`: a GMMA has a commit-group column before mem_width.
Count independent_count(const std::string& text, int prefix_ints, bool v6) {
  Count c;
  std::istringstream in(text);
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (header) {
      if (line[0] == '#') header = false;
      continue;
    }
    if (line[0] == '#' || line.starts_with("thread block") || line.starts_with("warp") ||
        line.starts_with("insts") || line.find(" = ") != std::string::npos)  // cluster id = ...
      continue;
    std::istringstream t(line);
    std::string tok, opcode;
    for (int i = 0; i < prefix_ints; ++i) t >> tok;
    std::string pc, mask_hex;
    int dests = 0, srcs = 0;
    unsigned width = 0;
    t >> pc >> mask_hex >> dests;
    for (int i = 0; i < dests; ++i) t >> tok;
    t >> opcode >> srcs;
    if (opcode.starts_with("REPLAY_")) {
      ++c.replay_markers;
      continue;
    }
    ++c.lines;
    for (int i = 0; i < srcs; ++i) t >> tok;
    if (v6 && opcode.find("GMMA") != std::string::npos) t >> tok;
    t >> width;
    if (width == 0) {
      ++c.non_memory;
      continue;
    }
    const std::string base = opcode.substr(0, opcode.find('.'));
    const int kind = base == "LDG"   ? 0
                     : base == "STG" ? 1
                     : base == "LDS" ? 2
                     : base == "STS" ? 3
                                     : -1;
    const std::uint32_t mask = static_cast<std::uint32_t>(std::stoul(mask_hex, nullptr, 16));
    if (kind < 0 || mask == 0) continue;
    int mode = 0;
    t >> mode;
    std::vector<std::uint64_t> addr;
    const int n = std::popcount(mask);
    std::string a;
    t >> a;
    std::uint64_t cur = std::stoull(a, nullptr, 16);
    addr.push_back(cur);
    long long stride = 0;
    if (mode == 1) t >> stride;
    for (int k = 1; k < n; ++k) {
      if (mode == 0) {
        t >> a;
        cur = std::stoull(a, nullptr, 16);
      } else if (mode == 1) {
        cur += static_cast<std::uint64_t>(stride);
      } else {
        long long d = 0;
        t >> d;
        cur += static_cast<std::uint64_t>(d);
      }
      addr.push_back(cur);
    }
    std::set<std::uint64_t> sectors;
    for (std::uint64_t x : addr) {
      sectors.insert(x >> 5);
      sectors.insert((x + width - 1) >> 5);
    }
    ++c.instructions[kind];
    c.sectors[kind] += sectors.size();
    c.bytes[kind] += std::uint64_t{width} * static_cast<std::uint64_t>(n);
    c.threads += static_cast<std::uint64_t>(n);
  }
  return c;
}

/// A CSV column of nvprof's --csv output (one kernel), by metric name.
std::uint64_t nvprof_metric(const std::string& path, const std::string& name) {
  std::istringstream in(file_text(path));
  std::string line;
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) {
    if (line.starts_with("==") || line.empty()) continue;
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char ch : line) {
      if (ch == '"') {
        quoted = !quoted;
      } else if (ch == ',' && !quoted) {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += ch;
      }
    }
    cells.push_back(cell);
    rows.push_back(cells);
  }
  for (std::size_t i = 0; i < rows.at(0).size(); ++i)
    if (rows[0][i] == name) return std::stoull(rows.at(2).at(i));
  ADD_FAILURE() << name << " not in " << path;
  return 0;
}

struct CorpusTrace {
  std::string dir;
  std::string replay;                // what gpumemsim opens (list or kernel file)
  std::vector<std::string> kernels;  // the kernel files counted independently, in launch order
  int prefix_ints;                   // integers before each line's PC (independent_count)
  AccelSimLayout layout;
};

/// kernel-1.traceg.xz ... kernel-<n>.traceg.xz
std::vector<std::string> numbered_kernels(int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back("kernel-" + std::to_string(i) + ".traceg.xz");
  return out;
}

const std::vector<CorpusTrace>& corpus() {
  static const std::vector<CorpusTrace> kCorpus = {
      {"accelsim_pytorch_pow_v5",
       "kernelslist.g",
       {"kernel-593-ctx_0x55c28dad19e0.traceg"},
       0,
       AccelSimLayout::V5},
      {"microgpusim_vectoradd_v4", "kernelslist.g", {"kernel-1.traceg"}, 0, AccelSimLayout::V4},
      {"microgpusim_matrixmul_v4", "kernelslist.g", {"kernel-1.traceg"}, 0, AccelSimLayout::V4},
      {"nvbit-rs_vecadd_raw_v3", "kernel-1.trace.xz", {"kernel-1.trace.xz"}, 4, AccelSimLayout::V3},
      {"mgpusim_bfs_rodinia_v3", "kernelslist.xz.g", numbered_kernels(16), 0, AccelSimLayout::V3},
      {"mgpusim_vectoradd_v5", "kernelslist.xz.g", {"kernel-1.traceg.xz"}, 0, AccelSimLayout::V5},
      // Hand-written (README): no licensed tracer-6 file with cluster lines was found.
      {"handwritten_v6_hopper_clusters",
       "kernelslist.g",
       {"kernel-1-ctx_0x5612a3b0c2d0.traceg"},
       0,
       AccelSimLayout::V6},
      // Hand-written (README): tracer 6's grammar (GMMA commit-group column, REPLAY markers,
      // uniform registers, five sources, negative immediates, Val lists on BAR, HGMMA and
      // SYNCS), post-processed, raw with 11 integers (a kernelslist_ctx_0x... list) and raw
      // with 13 (TOOL_TRACE_CORE).
      {"handwritten_v6_grammar",
       "kernelslist.g",
       {"kernel-1-ctx_0x5612a3b0c2d0.traceg"},
       0,
       AccelSimLayout::V6},
      {"handwritten_v6_grammar",
       "kernelslist_ctx_0x5612a3b0c2d0",
       {"kernel-1-ctx_0x5612a3b0c2d0.trace"},
       11,
       AccelSimLayout::V6},
      // The raw file of kernel 1 post-processed by accel-sim-framework's own
      // post-traces-processing (README): .tracez files with a trained dictionary, one frame per
      // warp and frames of 3 lines; counted on the .traceg of the same run.
      {"handwritten_v6_grammar",
       "upstream_tracez/kernelslist.g",
       {"kernel-1-ctx_0x5612a3b0c2d0.traceg"},
       0,
       AccelSimLayout::V6},
      {"handwritten_v6_grammar",
       "upstream_tracez_sc3/kernelslist.g",
       {"kernel-1-ctx_0x5612a3b0c2d0.traceg"},
       0,
       AccelSimLayout::V6},
      {"handwritten_v6_grammar",
       "kernel-2-ctx_0x5612a3b0c2d0.trace",
       {"kernel-2-ctx_0x5612a3b0c2d0.trace"},
       13,
       AccelSimLayout::V6},
  };
  return kCorpus;
}

const CorpusTrace& corpus_trace(std::string_view dir) {
  for (const CorpusTrace& c : corpus())
    if (c.dir == dir) return c;
  throw std::logic_error("no corpus trace " + std::string(dir));
}

std::string corpus_path(const CorpusTrace& c, const std::string& file) {
  return gms::test::data_path("thirdparty/" + c.dir + "/" + file);
}

/// The independent count of each kernel of `c`, in launch order.
std::vector<Count> kernel_counts(const CorpusTrace& c) {
  std::vector<Count> out;
  for (const std::string& file : c.kernels)
    out.push_back(independent_count(file_text(corpus_path(c, file)), c.prefix_ints,
                                    c.layout == AccelSimLayout::V6));
  return out;
}

Count summed(const std::vector<Count>& counts) {
  Count sum;
  for (const Count& one : counts) {
    sum.lines += one.lines;
    sum.non_memory += one.non_memory;
    sum.threads += one.threads;
    sum.replay_markers += one.replay_markers;
    for (int i = 0; i < 4; ++i) {
      sum.instructions[i] += one.instructions[i];
      sum.sectors[i] += one.sectors[i];
      sum.bytes[i] += one.bytes[i];
    }
  }
  return sum;
}

TEST(ThirdPartyCorpusTest, EveryTraceReplaysWithTheIndependentCounts) {
  const SimConfig cfg = load_config({});
  constexpr OpClass kClass[4] = {OpClass::GlobalLoad, OpClass::GlobalStore, OpClass::SharedLoad,
                                 OpClass::SharedStore};
  for (const CorpusTrace& c : corpus()) {
    SCOPED_TRACE(c.dir + "/" + c.replay);
    const std::vector<Count> per_kernel = kernel_counts(c);
    const Count want = summed(per_kernel);
    ASSERT_GT(want.lines, 0u);
    // The importer's own accounting covers every line.
    AccelSimReader reader(std::make_unique<InputStream>(corpus_path(c, c.replay)),
                          c.replay.find("kernelslist") != std::string::npos);
    KernelInfo k;
    std::vector<WarpInstr> batch(256);
    std::uint64_t threads = 0;
    std::size_t kernels = 0;
    while (reader.next_kernel(k)) {
      ++kernels;
      EXPECT_EQ(reader.layout(), c.layout) << "kernel " << kernels;
      while (std::size_t n = reader.read(batch))
        for (std::size_t i = 0; i < n; ++i) threads += std::popcount(batch[i].mask);
    }
    EXPECT_EQ(kernels, c.kernels.size());
    const ImportCounts& ic = reader.counts();
    EXPECT_EQ(ic.records + ic.non_memory + ic.unsupported + ic.bulk_copies + ic.inactive,
              want.lines);
    EXPECT_EQ(ic.non_memory, want.non_memory);
    EXPECT_EQ(ic.replay_markers, want.replay_markers);
    EXPECT_EQ(threads, want.threads);
    for (SimMode mode : {SimMode::Cold, SimMode::Cached}) {
      SCOPED_TRACE(mode == SimMode::Cold ? "cold" : "cached");
      RunOptions opts;
      opts.mode = mode;
      auto r = open_trace_reader(corpus_path(c, c.replay));
      const auto res = simulate(*r, cfg, opts);
      ASSERT_EQ(res.size(), c.kernels.size());
      std::uint64_t records = 0;
      for (std::size_t n = 0; n < res.size(); ++n) {  // kernel by kernel, in launch order
        SCOPED_TRACE(c.kernels[n]);
        records += res[n].records;
        for (int i = 0; i < 4; ++i) {
          SCOPED_TRACE(op_class_key(kClass[i]));
          const AccessCounters& got = res[n].total(kClass[i]);
          EXPECT_EQ(got.instructions, per_kernel[n].instructions[i]);
          EXPECT_EQ(got.bytes_requested, per_kernel[n].bytes[i]);
          if (i < 2) {  // sectors are counted for global accesses only
            EXPECT_EQ(got.sectors, per_kernel[n].sectors[i]);
          }
        }
      }
      EXPECT_EQ(records, ic.records);
    }
  }
}

/// `text` line by line, each line ending in `from` with that end replaced by `to`.
std::string with_suffix_replaced(const std::string& text, std::string_view from,
                                 std::string_view to) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.ends_with(from)) line = line.substr(0, line.size() - from.size()) + std::string(to);
    out += line + "\n";
  }
  return out;
}

TEST(ThirdPartyCorpusTest, TheXzListsAreThePublishedListsWithCompressedKernels) {
  // The stored kernels are xz-compressed; each kernelslist.xz.g is the published kernelslist.g
  // with ".xz" after every kernel file name and nothing else changed.
  for (const char* dir : {"mgpusim_bfs_rodinia_v3", "mgpusim_vectoradd_v5"}) {
    SCOPED_TRACE(dir);
    const CorpusTrace& c = corpus_trace(dir);
    const std::string published = file_text(corpus_path(c, "kernelslist.g"));
    const std::string derived = file_text(corpus_path(c, "kernelslist.xz.g"));
    ASSERT_FALSE(published.empty());
    EXPECT_EQ(derived, with_suffix_replaced(published, ".traceg", ".traceg.xz"));
    std::size_t listed = 0;
    std::istringstream in(derived);
    std::string line;
    while (std::getline(in, line)) {
      if (line.starts_with("kernel")) {
        ASSERT_LT(listed, c.kernels.size()) << line;
        EXPECT_EQ(line, c.kernels[listed++]);
      }
    }
    EXPECT_EQ(listed, c.kernels.size());
  }
}

/// The tracer's stats.csv: the total_insts column (the second last) of each kernel's row.
std::vector<std::uint64_t> stats_total_insts(const std::string& path) {
  std::istringstream stats(file_text(path));
  std::string line;
  std::getline(stats, line);  // the column names
  std::vector<std::uint64_t> out;
  while (std::getline(stats, line)) {
    if (line.empty()) continue;
    std::vector<std::string> cells;
    std::istringstream row(line);
    std::string cell;
    while (std::getline(row, cell, ',')) cells.push_back(cell);
    out.push_back(std::stoull(cells.at(cells.size() - 2)));
  }
  return out;
}

TEST(ThirdPartyCorpusTest, PublishedCountsOfTheSameRunsAgree) {
  // nvbit-rs and microgpusim matrixmul: the tracer's stats.csv counts every traced instruction
  // of the kernel (total_insts; total_reported_insts is the same number in both).
  {
    const CorpusTrace& c = corpus_trace("nvbit-rs_vecadd_raw_v3");
    const std::vector<std::uint64_t> insts = stats_total_insts(corpus_path(c, "stats.csv"));
    ASSERT_EQ(insts.size(), 1u);
    EXPECT_EQ(insts[0], 71974u);
    EXPECT_EQ(summed(kernel_counts(c)).lines, insts[0]);
  }
  {
    const CorpusTrace& c = corpus_trace("microgpusim_matrixmul_v4");
    const std::vector<std::uint64_t> insts = stats_total_insts(corpus_path(c, "stats.csv"));
    ASSERT_EQ(insts.size(), 1u);
    EXPECT_EQ(summed(kernel_counts(c)).lines, insts[0]);
  }
  // microgpusim vectoradd: nvprof on a GTX 1080 for the same command (vectoradd 100 32).
  const CorpusTrace& c = corpus_trace("microgpusim_vectoradd_v4");
  const std::string nvprof = corpus_path(c, "nvprof.log");
  const SimConfig cfg = load_config({});
  RunOptions opts;
  opts.mode = SimMode::Cold;
  auto r = open_trace_reader(corpus_path(c, c.replay));
  const auto res = simulate(*r, cfg, opts);
  ASSERT_EQ(res.size(), 1u);
  EXPECT_EQ(res[0].total(OpClass::GlobalLoad).instructions,
            nvprof_metric(nvprof, "inst_executed_global_loads"));
  EXPECT_EQ(res[0].total(OpClass::GlobalStore).instructions,
            nvprof_metric(nvprof, "inst_executed_global_stores"));
  EXPECT_EQ(res[0].total(OpClass::GlobalLoad).sectors,
            nvprof_metric(nvprof, "l2_tex_read_transactions"));
  EXPECT_EQ(res[0].total(OpClass::GlobalStore).sectors,
            nvprof_metric(nvprof, "l2_tex_write_transactions"));
}

TEST(ThirdPartyCorpusTest, TheV5VectorAddMovesWhatItsMemcpysCopied) {
  // mgpusim's vectorAdd reads two float arrays that the program copied to the device (the two
  // MemcpyHtoD lines of the published list) and writes one of the same length: every element
  // is loaded once from each input and stored once, so the replayed global bytes equal the
  // copied bytes, whatever the grid's rounding left idle.
  const CorpusTrace& c = corpus_trace("mgpusim_vectoradd_v5");
  std::istringstream list(file_text(corpus_path(c, "kernelslist.g")));
  std::string line;
  std::vector<std::uint64_t> copied;
  while (std::getline(list, line))
    if (line.starts_with("MemcpyHtoD,"))
      copied.push_back(std::stoull(line.substr(line.rfind(',') + 1)));
  ASSERT_EQ(copied.size(), 2u);
  ASSERT_EQ(copied[0], copied[1]);
  const SimConfig cfg = load_config({});
  RunOptions opts;
  opts.mode = SimMode::Cold;
  auto r = open_trace_reader(corpus_path(c, c.replay));
  const auto res = simulate(*r, cfg, opts);
  ASSERT_EQ(res.size(), 1u);
  EXPECT_EQ(res[0].total(OpClass::GlobalLoad).bytes_requested, copied[0] + copied[1]);
  EXPECT_EQ(res[0].total(OpClass::GlobalStore).bytes_requested, copied[0]);
  // One LDG per input and one STG per warp that holds an element (4-byte floats, 32 lanes).
  const std::uint64_t warps = (copied[0] / 4 + 31) / 32;
  EXPECT_EQ(res[0].total(OpClass::GlobalLoad).instructions, 2 * warps);
  EXPECT_EQ(res[0].total(OpClass::GlobalStore).instructions, warps);
}

TEST(ThirdPartyCorpusTest, TheHopperFilesClustersAreKeptPerBlock) {
  // The cluster lines of each block, read here with a line scan, against clusters().
  const CorpusTrace& c = corpus_trace("handwritten_v6_hopper_clusters");
  std::istringstream in(file_text(corpus_path(c, c.kernels[0])));
  std::string line;
  std::vector<std::uint32_t> ranks, ids;
  std::size_t blocks = 0, bulk = 0;
  while (std::getline(in, line)) {
    if (line.starts_with("cluster rank = ")) ranks.push_back(std::stoul(line.substr(15)));
    if (line.starts_with("cluster id = ")) ids.push_back(std::stoul(line.substr(13)));
    blocks += line.starts_with("thread block = ");
    bulk += line.find(" UTMALDG") != std::string::npos;
  }
  ASSERT_EQ(ranks.size(), blocks);
  ASSERT_GT(bulk, 0u);
  AccelSimReader reader(std::make_unique<InputStream>(corpus_path(c, c.replay)), true);
  KernelInfo k;
  std::vector<WarpInstr> batch(64);
  ASSERT_TRUE(reader.next_kernel(k));
  while (reader.read(batch) != 0) {
  }
  ASSERT_EQ(reader.clusters().size(), ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    EXPECT_EQ(reader.clusters()[i].cta, i);
    EXPECT_EQ(reader.clusters()[i].rank, ranks[i]);
    EXPECT_EQ(reader.clusters()[i].id[0], ids[i]);
  }
  EXPECT_EQ(reader.counts().bulk_copies, bulk);
}

TEST(ThirdPartyCorpusTest, ThePyTorchKernelsHeaderLiesAreRecorded) {
  const Trace t =
      read_trace(gms::test::data_path("thirdparty/accelsim_pytorch_pow_v5/kernelslist.g"));
  ASSERT_EQ(t.kernels.size(), 1u);
  const auto& p = t.kernels[0].params;
  auto has = [&](const char* key, const char* value) {
    return std::find(p.begin(), p.end(), std::pair<std::string, std::string>{key, value}) !=
           p.end();
  };
  EXPECT_TRUE(has("header_nregs", "21955"));
  EXPECT_TRUE(has("header_binary_version", "0"));
  EXPECT_EQ(t.kernels[0].regs, 0u);
  EXPECT_EQ(t.kernels[0].id, 593u);
}

}  // namespace
}  // namespace gms::trace::test
