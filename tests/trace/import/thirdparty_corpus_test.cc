// The corpus of real third-party traces (tests/data/thirdparty/README.md): each replays in cold
// and cached mode, and its counts equal an independent count made here by a few lines of
// parsing that share nothing with the importer (the tracer's own mem_width column gives the
// access size), and, where the repository published them, the tracer's instruction count and
// nvprof's counters of the same run.
#include <gtest/gtest.h>
#include <lzma.h>

#include <bit>
#include <fstream>
#include <set>
#include <sstream>

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
  std::string out(64u << 20, '\0');
  std::uint64_t limit = UINT64_MAX;
  std::size_t in_pos = 0, out_pos = 0;
  const lzma_ret r = lzma_stream_buffer_decode(
      &limit, 0, nullptr, reinterpret_cast<const std::uint8_t*>(bytes.data()), &in_pos,
      bytes.size(), reinterpret_cast<std::uint8_t*>(out.data()), &out_pos, out.size());
  EXPECT_EQ(r, LZMA_OK) << path;
  out.resize(out_pos);
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
};

/// Counts an Accel-Sim kernel file: every line that is not a header, '#', "thread block",
/// "warp" or "insts" line is an instruction; `prefixed`: it starts with tb_x tb_y tb_z warp.
Count independent_count(const std::string& text, bool prefixed) {
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
        line.starts_with("insts"))
      continue;
    ++c.lines;
    std::istringstream t(line);
    std::string tok, opcode;
    if (prefixed)
      for (int i = 0; i < 4; ++i) t >> tok;
    std::string pc, mask_hex;
    int dests = 0, srcs = 0;
    unsigned width = 0;
    t >> pc >> mask_hex >> dests;
    for (int i = 0; i < dests; ++i) t >> tok;
    t >> opcode >> srcs;
    for (int i = 0; i < srcs; ++i) t >> tok;
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
  const char* dir;
  const char* replay;  // what gpumemsim opens (list or kernel file)
  const char* kernel;  // the kernel file counted independently
  bool prefixed;
  AccelSimLayout layout;
};

constexpr CorpusTrace kCorpus[] = {
    {"accelsim_pytorch_pow_v5", "kernelslist.g", "kernel-593-ctx_0x55c28dad19e0.traceg", false,
     AccelSimLayout::V5},
    {"microgpusim_vectoradd_v4", "kernelslist.g", "kernel-1.traceg", false, AccelSimLayout::V4},
    {"microgpusim_matrixmul_v4", "kernelslist.g", "kernel-1.traceg", false, AccelSimLayout::V4},
    {"nvbit-rs_vecadd_raw_v3", "kernel-1.trace.xz", "kernel-1.trace.xz", true, AccelSimLayout::V3},
};

std::string corpus_path(const CorpusTrace& c, const char* file) {
  return gms::test::data_path(std::string("thirdparty/") + c.dir + "/" + file);
}

TEST(ThirdPartyCorpusTest, EveryTraceReplaysWithTheIndependentCounts) {
  const SimConfig cfg = load_config({});
  constexpr OpClass kClass[4] = {OpClass::GlobalLoad, OpClass::GlobalStore, OpClass::SharedLoad,
                                 OpClass::SharedStore};
  for (const CorpusTrace& c : kCorpus) {
    SCOPED_TRACE(c.dir);
    const Count want = independent_count(file_text(corpus_path(c, c.kernel)), c.prefixed);
    ASSERT_GT(want.lines, 0u);
    // The importer's own accounting covers every line.
    AccelSimReader reader(std::make_unique<InputStream>(corpus_path(c, c.replay)),
                          std::string_view(c.replay).find("kernelslist") != std::string::npos);
    KernelInfo k;
    std::vector<WarpInstr> batch(256);
    std::uint64_t threads = 0;
    ASSERT_TRUE(reader.next_kernel(k));
    while (std::size_t n = reader.read(batch))
      for (std::size_t i = 0; i < n; ++i) threads += std::popcount(batch[i].mask);
    EXPECT_EQ(reader.layout(), c.layout);
    EXPECT_FALSE(reader.next_kernel(k));
    const ImportCounts& ic = reader.counts();
    EXPECT_EQ(ic.records + ic.non_memory + ic.unsupported + ic.inactive, want.lines);
    EXPECT_EQ(ic.non_memory, want.non_memory);
    EXPECT_EQ(threads, want.threads);
    for (SimMode mode : {SimMode::Cold, SimMode::Cached}) {
      SCOPED_TRACE(mode == SimMode::Cold ? "cold" : "cached");
      RunOptions opts;
      opts.mode = mode;
      auto r = open_trace_reader(corpus_path(c, c.replay));
      const auto res = simulate(*r, cfg, opts);
      ASSERT_EQ(res.size(), 1u);
      EXPECT_EQ(res[0].records, ic.records);
      for (int i = 0; i < 4; ++i) {
        SCOPED_TRACE(op_class_key(kClass[i]));
        EXPECT_EQ(res[0].total(kClass[i]).instructions, want.instructions[i]);
        EXPECT_EQ(res[0].total(kClass[i]).bytes_requested, want.bytes[i]);
        if (i < 2) {  // sectors are counted for global accesses only
          EXPECT_EQ(res[0].total(kClass[i]).sectors, want.sectors[i]);
        }
      }
    }
  }
}

TEST(ThirdPartyCorpusTest, PublishedCountsOfTheSameRunsAgree) {
  // nvbit-rs: the tracer's stats.csv counts every traced instruction of the kernel.
  {
    const CorpusTrace& c = kCorpus[3];
    std::istringstream stats(file_text(corpus_path(c, "stats.csv")));
    std::string line;
    std::getline(stats, line);
    std::getline(stats, line);
    const std::uint64_t total_insts = std::stoull(line.substr(line.rfind(',') + 1));
    EXPECT_EQ(total_insts, 71974u);
    EXPECT_EQ(independent_count(file_text(corpus_path(c, c.kernel)), true).lines, total_insts);
  }
  // microgpusim vectoradd: nvprof on a GTX 1080 for the same command (vectoradd 100 32).
  const CorpusTrace& c = kCorpus[1];
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
