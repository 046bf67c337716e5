// The allocations a trace names (TraceReader::allocations()): wtrace `#alloc` lines, Accel-Sim
// memcpy lines, NVBit alloc lines; what `convert` keeps of them; and every bad line's error.
#include <gtest/gtest.h>

#include <vector>

#include "tests/test_paths.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/formats.h"

namespace gms::trace::test {
namespace {

/// Every allocation of the trace at `path` after its last kernel, and how many each kernel saw.
struct Named {
  std::vector<Allocation> all;
  std::vector<std::size_t> at_kernel;  ///< allocations().size() after each next_kernel()
};

Named allocations_of(const std::string& path) {
  auto reader = open_trace_reader(path, TraceFormat::Auto);
  Named out;
  std::vector<WarpInstr> batch(3);
  KernelInfo k;
  while (reader->next_kernel(k)) {
    out.at_kernel.push_back(reader->allocations().size());
    while (reader->read(batch) != 0) {
    }
  }
  const auto named = reader->allocations();
  out.all.assign(named.begin(), named.end());
  return out;
}

constexpr const char* kWtrace =
    "#wtrace 1\n"
    "#alloc base=0x10000 bytes=4096 name=x\n"
    "#kernel id=7 name=scale grid=2,1,1 block=32,1,1\n"
    "64 LDG 4 - 0 0 ffffffff @0x10000:4\n"
    "  #alloc  base=0x20000\tbytes=128\n"
    "80 STG 4 - 0 0 ffffffff @0x20000:4\n"
    "#kernel id=8\n"
    "64 LDG 4 - 0 0 ffffffff @0x10080:4\n";

TEST(AllocationsTest, WtraceAllocLinesInFileOrder) {
  TempPath p(".wtrace");
  write_bytes(p.str(), kWtrace);
  const Named n = allocations_of(p.str());
  ASSERT_EQ(n.all.size(), 2u);
  EXPECT_EQ(n.all[0], (Allocation{0x10000, 4096, "x"}));
  EXPECT_EQ(n.all[1], (Allocation{0x20000, 128, ""}));
  // Kernel 7 starts after the first line only; the second, among its records, is there by 8.
  EXPECT_EQ(n.at_kernel, (std::vector<std::size_t>{1, 2}));
  // The records are what they were without the lines.
  const Trace t = read_trace(p.str());
  ASSERT_EQ(t.records.size(), 2u);
  EXPECT_EQ(t.records[0].size(), 2u);
  EXPECT_EQ(t.records[1].size(), 1u);
}

TEST(AllocationsTest, ConvertKeepsThemInWtraceAndSaysWhatGmtLeavesOut) {
  TempPath in(".wtrace"), out(".wtrace"), back(".wtrace");
  write_bytes(in.str(), kWtrace);
  {
    auto reader = open_trace_reader(in.str());
    auto writer = open_trace_writer(out.str());
    std::vector<WarpInstr> batch(16);
    KernelInfo k;
    std::size_t copied = 0;
    while (reader->next_kernel(k)) {
      for (const auto named = reader->allocations(); copied < named.size(); ++copied)
        EXPECT_TRUE(writer->add_allocation(named[copied]));
      writer->begin_kernel(k);
      while (const std::size_t n = reader->read(batch)) writer->write(std::span(batch).first(n));
    }
    writer->finish();
  }
  EXPECT_EQ(allocations_of(out.str()).all, allocations_of(in.str()).all);
  EXPECT_EQ(read_trace(out.str()), read_trace(in.str()));
  // .gmt has no allocation record: its writer says so (convert warns with the count).
  TempPath gmt(".gmt");
  auto writer = open_trace_writer(gmt.str());
  EXPECT_FALSE(writer->add_allocation({0x1000, 64, ""}));
  writer->finish();
}

TEST(AllocationsTest, WtraceAllocErrorsNameFileAndLine) {
  const struct {
    const char* line;
    const char* fragment;
  } cases[] = {
      {"#alloc bytes=64", "without the required base= and bytes="},
      {"#alloc base=0x100", "without the required base= and bytes="},
      {"#alloc base=100 bytes=64", "bad #alloc base '100'"},
      {"#alloc base=0x1g bytes=64", "bad #alloc base '0x1g'"},
      {"#alloc base=0x100 bytes=0", "bad #alloc bytes '0'"},
      {"#alloc base=0x100 bytes=1k", "bad #alloc bytes '1k'"},
      {"#alloc base=0x100 bytes=64 color=red", "unknown #alloc key 'color'"},
      {"#alloc base=0x100 64", "bad #alloc field '64'"},
      {"#alloc base=0xffffffffffffffff bytes=2", "does not fit in 64 bits"},
  };
  for (const auto& c : cases) {
    std::string path;
    const std::string msg = text_error(std::string("#wtrace 1\n") + c.line + "\n", path);
    GMS_EXPECT_CONTAINS(msg, path + ":2: ");
    GMS_EXPECT_CONTAINS(msg, c.fragment);
  }
  // A comment that only starts like the keyword is still a comment.
  TempPath comment(".wtrace");
  write_bytes(comment.str(), "#wtrace 1\n#allocations follow\n#kernel id=1\n");
  EXPECT_TRUE(allocations_of(comment.str()).all.empty());
}

TEST(AllocationsTest, AccelSimMemcpyLinesNameEachBlockOnce) {
  // The published MGPUSim vector-add list copies its two inputs in.
  const Named n =
      allocations_of(gms::test::data_path("thirdparty/mgpusim_vectoradd_v5/kernelslist.g"));
  ASSERT_EQ(n.all.size(), 2u);
  EXPECT_EQ(n.all[0], (Allocation{0x00007fb0fc400000, 200000, ""}));
  EXPECT_EQ(n.all[1], (Allocation{0x00007fb0fc430e00, 200000, ""}));
  EXPECT_EQ(n.at_kernel, (std::vector<std::size_t>{2}));

  // A block copied back (DtoH) is the same block; one of another size is another.
  TempDir dir;
  const std::string kernel =
      read_bytes(gms::test::data_path("accelsim/tiled_matmul/kernel-1.traceg"));
  write_bytes(dir.file("kernel-1.traceg"), kernel);
  write_bytes(dir.file("kernelslist.g"),
              "MemcpyHtoD,0x1000,256\nkernel-1.traceg\nMemcpyDtoH,0x1000,256\n"
              "MemcpyDtoH,0x1000,128\nMemcpyHtoD,0x2000,0\n");
  const Named m = allocations_of(dir.file("kernelslist.g"));
  EXPECT_EQ(m.all, (std::vector<Allocation>{{0x1000, 256, ""}, {0x1000, 128, ""}}));

  write_bytes(dir.file("kernelslist.g"), "MemcpyHtoD,0xffffffffffffff00,512\nkernel-1.traceg\n");
  const std::string msg = error_of([&] { allocations_of(dir.file("kernelslist.g")); });
  GMS_EXPECT_CONTAINS(msg, dir.file("kernelslist.g") + ":1: ");
  GMS_EXPECT_CONTAINS(msg, "does not fit in 64 bits");
}

constexpr const char* kNvbitLaunch =
    "MEMTRACE: CTX 0x00005581c6a4e120 - LAUNCH - Kernel pc 0x00007f3a2c000100 - Kernel name "
    "k(float*) - grid launch id 0 - grid size 1,1,1 - block size 32,1,1 - nregs 16 - shmem 0 - "
    "cuda stream id 0\n";

TEST(AllocationsTest, NvbitAllocLines) {
  TempPath p(".log");
  write_bytes(p.str(), std::string("MEMTRACE: CTX 0x00005581c6a4e120 - alloc address "
                                   "0x00007f3a40000000 - size 4096 - name a\n"
                                   "alloc address 0x7f3a40100000 - size 256\n") +
                           kNvbitLaunch);
  const Named n = allocations_of(p.str());
  EXPECT_EQ(n.all,
            (std::vector<Allocation>{{0x00007f3a40000000, 4096, "a"}, {0x7f3a40100000, 256, ""}}));

  const struct {
    const char* line;
    const char* fragment;
  } cases[] = {
      {"alloc address 7f00 - size 4", "bad alloc address '7f00'"},
      {"alloc address 0x7f00", "alloc line without '- size <bytes>'"},
      {"alloc address 0x7f00 - size 0", "bad alloc size"},
      {"alloc address 0x7f00 - size 4 - color red", "unknown alloc field 'color red'"},
      {"alloc address 0xffffffffffffffff - size 4", "does not fit in 64 bits"},
  };
  for (const auto& c : cases) {
    TempPath bad(".log");
    write_bytes(bad.str(), std::string(kNvbitLaunch) + c.line + "\n");
    const std::string msg = error_of([&] { records_of(bad.str(), TraceFormat::Nvbit); });
    GMS_EXPECT_CONTAINS(msg, bad.str() + ":2: ");
    GMS_EXPECT_CONTAINS(msg, c.fragment);
  }
}

TEST(AllocationsTest, ChainedFilesListEveryFilesAllocations) {
  TempPath a(".wtrace"), b(".wtrace");
  write_bytes(a.str(), "#wtrace 1\n#alloc base=0x1000 bytes=64\n#kernel id=1\n");
  write_bytes(b.str(), "#wtrace 1\n#alloc base=0x2000 bytes=32 name=y\n#kernel id=2\n");
  auto reader = open_trace_chain({a.str(), b.str()}, TraceFormat::Auto, {});
  KernelInfo k;
  ASSERT_TRUE(reader->next_kernel(k));
  EXPECT_EQ(reader->allocations().size(), 1u);
  ASSERT_TRUE(reader->next_kernel(k));
  EXPECT_EQ(reader->allocations().size(), 2u);
  EXPECT_FALSE(reader->next_kernel(k));
  const auto all = reader->allocations();
  EXPECT_EQ(std::vector<Allocation>(all.begin(), all.end()),
            (std::vector<Allocation>{{0x1000, 64, ""}, {0x2000, 32, "y"}}));
}

}  // namespace
}  // namespace gms::trace::test
