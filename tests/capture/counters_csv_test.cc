// The reader of tests/groundtruth/h200_counters.csv, on a temporary file of made-up numbers
// (this file is test input for the parser, not ground truth).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/groundtruth_support.h"

namespace {

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() /
                 (name + "-" + std::to_string(reinterpret_cast<std::uintptr_t>(&text)));
  std::ofstream(p) << text;
  return p;
}

}  // namespace

TEST(CountersCsvTest, ReadsRowsAndMetrics) {
  const auto p = write_temp("counters.csv",
                            "kernel_id,name,gpu__time_duration.sum,dram__bytes_read.sum\n"
                            "1,unit,2144,\"1,024\"\n"
                            "30,stream_s1,70112.5,268435456\n"
                            "41,copy,,0\n");
  const auto t = gms::test::load_counters_csv(p.string());
  std::filesystem::remove(p);
  ASSERT_EQ(t.rows.size(), 3u) << t.reason;
  EXPECT_EQ(t.reason, "");
  ASSERT_NE(t.find(30), nullptr);
  EXPECT_EQ(t.find(30)->name, "stream_s1");
  EXPECT_DOUBLE_EQ(t.find(30)->metrics.at("gpu__time_duration.sum"), 70112.5);
  EXPECT_DOUBLE_EQ(t.find(1)->metrics.at("dram__bytes_read.sum"), 1024);
  EXPECT_EQ(t.find(41)->metrics.count("gpu__time_duration.sum"), 0u);  // empty cell
  EXPECT_EQ(t.find(99), nullptr);
}

TEST(CountersCsvTest, AbsentFileGivesAReason) {
  const auto t = gms::test::load_counters_csv("/nonexistent/h200_counters.csv");
  EXPECT_TRUE(t.rows.empty());
  EXPECT_NE(t.reason.find("does not exist"), std::string::npos);
}

TEST(CountersCsvTest, MalformedInputGivesNoRows) {
  const auto bad_header = write_temp("counters-h.csv", "id,name\n1,unit\n");
  auto t = gms::test::load_counters_csv(bad_header.string());
  std::filesystem::remove(bad_header);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_NE(t.reason.find("kernel_id,name"), std::string::npos);

  const auto bad_value = write_temp("counters-v.csv", "kernel_id,name,m\n1,unit,n/a\n");
  t = gms::test::load_counters_csv(bad_value.string());
  std::filesystem::remove(bad_value);
  EXPECT_TRUE(t.rows.empty());
  EXPECT_NE(t.reason.find("'n/a' in column m"), std::string::npos);
}
