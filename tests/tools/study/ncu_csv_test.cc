// The measured-counter reader: ncu raw (with program output before the header, ==PROF== lines,
// the units row and scaled units), ncu long, and the groundtruth layout; clear errors.
#include "tools/study/ncu_csv.h"

#include <gtest/gtest.h>

#include "sim/core/error.h"

namespace gms {
namespace {

TEST(NcuCsvTest, RawLayoutSkipsProgramOutputAndTheUnitsRow) {
  const std::string text =
      "hello from the program, with, commas\n"
      "==PROF== Connected to process 1\n"
      "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"launch__grid_size\"\n"
      "\"\",\"\",\"Kbyte\",\"\"\n"
      "\"0\",\"k(int)\",\"1.5\",\"1,024\"\n"
      "program output after the header\n"
      "\"1\",\"k(int)\",\"n/a\",\"2\"\n";
  const MeasuredTable t = parse_measured_csv(text, "x.csv");
  EXPECT_EQ(t.layout, MeasuredLayout::NcuRaw);
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.kernels[0].name, "k(int)");
  EXPECT_DOUBLE_EQ(t.kernels[0].metrics.at("dram__bytes_read.sum"), 1500);
  EXPECT_DOUBLE_EQ(t.kernels[0].metrics.at("launch__grid_size"), 1024);
  EXPECT_EQ(t.kernels[1].metrics.count("dram__bytes_read.sum"), 0u) << "n/a is not reported";
  EXPECT_EQ(t.kernels[1].line, 7);
}

TEST(NcuCsvTest, LongLayoutGroupsMetricsByLaunch) {
  const std::string text =
      "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"a\",\"s\",\"dram__bytes_read.sum\",\"Mbyte\",\"2\"\n"
      "\"0\",\"a\",\"s\",\"launch__grid_size\",\"\",\"4\"\n"
      "\"1\",\"b\",\"s\",\"launch__grid_size\",\"\",\"8\"\n";
  const MeasuredTable t = parse_measured_csv(text, "long.csv");
  EXPECT_EQ(t.layout, MeasuredLayout::NcuLong);
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_DOUBLE_EQ(t.kernels[0].metrics.at("dram__bytes_read.sum"), 2e6);
  EXPECT_DOUBLE_EQ(t.kernels[1].metrics.at("launch__grid_size"), 8);
}

TEST(NcuCsvTest, GroundtruthLayoutKeepsIdsAndLeavesEmptyCellsOut) {
  const std::string text =
      "# a comment line before the header\n"
      "kernel_id,name,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum\n"
      "7,copy,32,\n";
  const MeasuredTable t = parse_measured_csv(text, "gt.csv");
  EXPECT_EQ(t.layout, MeasuredLayout::Groundtruth);
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.kernels[0].id, "7");
  EXPECT_EQ(t.kernels[0].name, "copy");
  EXPECT_DOUBLE_EQ(t.kernels[0].metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 32);
  EXPECT_EQ(t.kernels[0].metrics.count("dram__bytes_read.sum"), 0u);
}

TEST(NcuCsvTest, TheHitRateIsReadUnderOneNameWhicheverNcuPrinted) {
  // ncu 2025.3 names it l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct (the H200 capture).
  const std::string raw =
      "\"ID\",\"Kernel Name\",\"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct\"\n"
      "\"0\",\"k\",\"87.5\"\n";
  const MeasuredTable t = parse_measured_csv(raw, "new.csv");
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(
      t.kernels[0].metrics.at("l1tex__t_sector_hit_rate_pipe_lsu_mem_global_op_ld.pct"), 87.5);
  EXPECT_EQ(t.kernels[0].metrics.size(), 1u);
}

TEST(NcuCsvTest, ErrorsNameTheFileAndLine) {
  auto message = [](const std::string& text) {
    try {
      parse_measured_csv(text, "m.csv");
    } catch (const SimError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("just program output\n").find("m.csv: no CSV header"), std::string::npos);
  EXPECT_NE(message("kernel_id,name,x\n1,a,2,3\n").find("m.csv:2:"), std::string::npos);
  EXPECT_NE(message("kernel_id,name,x\n").find("no kernel rows"), std::string::npos);
  EXPECT_NE(message("kernel_id,name,x\nfoo,a,2\n").find("m.csv:2:"), std::string::npos);
}

}  // namespace
}  // namespace gms
