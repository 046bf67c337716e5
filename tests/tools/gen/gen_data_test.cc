// Each hand-written tests/data file (one docs/examples.md case) equals what its pattern generates:
// kernel line and records, field by field. Reads the files with the real trace reader.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/test_paths.h"
#include "tests/tools/gen/collecting_writer.h"
#include "tools/gen/patterns.h"
#include "trace/import/formats.h"

namespace gms::gen {
namespace {

/// A data file and the generator call that must reproduce it.
struct DataCase {
  std::string file;                                   ///< under tests/data, without ".wtrace"
  std::string pattern;                                ///< generator pattern
  std::vector<std::pair<Param, std::string>> params;  ///< as on the command line
};

// clang-format off
const std::vector<DataCase> kCases = {
    {"a1_sequential", "sequential", {}},
    {"a2_misaligned", "sequential", {{kParamOffset, "8"}}},
    {"a3_stride2", "strided", {{kParamStride, "2"}}},
    {"a4_stride8", "strided", {{kParamStride, "8"}}},
    {"a5_stride1024", "strided", {{kParamStride, "1024"}}},
    {"a6_reversed", "reversed", {}},
    {"a7_broadcast", "broadcast", {}},
    {"a8a_column", "matrix_column", {{kParamN, "1024"}}},
    {"a8a_row", "matrix_row", {{kParamN, "1024"}}},
    {"a8b_mixed", "mixed_warp", {}},
    {"a9_aos12", "aos_field", {{kParamStructBytes, "12"}}},
    {"b1_consecutive", "sequential", {}},
    {"b2a_stride2", "strided", {{kParamStride, "2"}}},
    {"b2b_stride32", "strided", {{kParamStride, "32"}}},
    {"b3_one_lane", "one_lane", {{kParamLane, "0"}}},
    {"b4_broadcast", "broadcast", {}},
    {"b4s_smem_broadcast", "smem_broadcast", {}},
    {"b5_aos24_field", "aos_field", {{kParamStructBytes, "24"}}},
    {"b5_aos24_all", "aos_all", {{kParamStructBytes, "24"}}},
    {"b5_soa24_all", "soa_all", {{kParamStructBytes, "24"}}},
    {"b6_tile32", "smem_tile_column", {{kParamN, "32"}}},
    {"b6_tile33", "smem_tile_column", {{kParamN, "33"}}},
    {"b7_rgb_red", "aos_field", {{kParamStructBytes, "12"}}},
    {"b7_planar_red", "sequential", {}},
    {"b9_base64", "sequential", {{kParamBase, "64"}}},
    {"c_stride1", "smem_stride", {{kParamStride, "1"}}},
    {"c_stride2", "smem_stride", {{kParamStride, "2"}}},
    {"c_stride3", "smem_stride", {{kParamStride, "3"}}},
    {"c_stride16", "smem_stride", {{kParamStride, "16"}}},
    {"c_stride24", "smem_stride", {{kParamStride, "24"}}},
    {"c_stride32", "smem_stride", {{kParamStride, "32"}}},
    {"c_smem8_conflict_free", "smem_stride", {{kParamElem, "8"}}},
    {"c_smem8_broadcast", "smem_broadcast", {{kParamElem, "8"}}},
    {"c_smem8_stride32", "smem_stride", {{kParamElem, "8"}, {kParamStride, "32"}}},
    {"c_smem16_conflict_free", "smem_stride", {{kParamElem, "16"}}},
    {"d_naive_n8", "matmul_naive", {{kParamN, "8"}, {kParamTile, "4"}}},
    {"d_tiled_n8_t4", "matmul_tiled", {{kParamN, "8"}, {kParamTile, "4"}}},
};
// clang-format on

/// Reads a whole trace into the same shape as CollectingWriter.
test::CollectingWriter read_all(const std::string& path) {
  test::CollectingWriter out;
  auto reader = trace::open_trace_reader(path);
  KernelInfo k;
  std::vector<WarpInstr> batch(64);
  while (reader->next_kernel(k)) {
    out.begin_kernel(k);
    while (const std::size_t n = reader->read(batch))
      out.write(std::span<const WarpInstr>(batch.data(), n));
  }
  return out;
}

class PatternFileTest : public testing::TestWithParam<DataCase> {};

TEST_P(PatternFileTest, GeneratorReproducesTheHandWrittenFile) {
  const DataCase& c = GetParam();
  GenParams p;
  for (const auto& [bit, value] : c.params) set_param(p, bit, value);
  test::CollectingWriter gen;
  generate(c.pattern, p, gen);
  const test::CollectingWriter file = read_all(test::data_path(c.file + ".wtrace"));

  ASSERT_EQ(file.kernels.size(), gen.kernels.size());
  for (std::size_t k = 0; k < gen.kernels.size(); ++k) {
    const KernelInfo &want = file.kernels[k], &got = gen.kernels[k];
    EXPECT_EQ(got.id, want.id);
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.grid, want.grid);
    EXPECT_EQ(got.block, want.block);
    EXPECT_EQ(got.shmem_bytes, want.shmem_bytes);
    EXPECT_EQ(got.flops, want.flops);
    EXPECT_EQ(got.params, want.params);
    ASSERT_EQ(file.records[k].size(), gen.records[k].size());
    for (std::size_t i = 0; i < gen.records[k].size(); ++i)
      ASSERT_EQ(gen.records[k][i], file.records[k][i]) << "record " << i << " of kernel " << k;
  }
}

TEST_P(PatternFileTest, CommentsStateTheExpectation) {
  // Every data file says which example it is and what it expects, for readers and reviewers.
  const DataCase& c = GetParam();
  std::FILE* f = std::fopen(test::data_path(c.file + ".wtrace").c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  EXPECT_TRUE(text.starts_with("#wtrace 1\n"));
  EXPECT_NE(text.find("# expect"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(PatternData, PatternFileTest, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<DataCase>& info) {
                           return info.param.file;
                         });

}  // namespace
}  // namespace gms::gen
