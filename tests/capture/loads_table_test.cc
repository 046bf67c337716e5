// gms_calibrate's reading of gms_sass_loads' table (tools/groundtruth/loads_table.h).
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "tools/groundtruth/loads_table.h"

namespace gms::groundtruth {
namespace {

std::map<int, std::uint32_t> read(const std::string& text, const std::string& arch = "sm_90") {
  std::istringstream in(text);
  return read_loads_table(in, "loads.csv", arch);
}

std::string error_of(const std::string& text, const std::string& arch = "sm_90") {
  try {
    read(text, arch);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

constexpr const char* kHeader = "kernel_id,name,arch,loads,loads_in_flight\n";

TEST(LoadsTableTest, KeepsTheRowsOfTheRunningArchitecture) {
  const auto t = read(std::string(kHeader) +
                      "30,stream_s1,sm_80,4,2\n30,stream_s1,sm_90,4,4\n110,ptrchase,sm_90,3,1\n"
                      "1,unit,sm_90,0,0\n");
  ASSERT_EQ(t.size(), 2u);  // kernel 1 has no load: left out
  EXPECT_EQ(t.at(30), 4u);
  EXPECT_EQ(t.at(110), 1u);
  EXPECT_EQ(read(std::string(kHeader) + "30,stream_s1,sm_80,4,2\n", "sm_80").at(30), 2u);
}

TEST(LoadsTableTest, RefusesWhatItCannotRead) {
  EXPECT_EQ(error_of("id,n\n"),
            "loads.csv:1: not a gms_sass_loads table (its header is "
            "kernel_id,name,arch,loads,loads_in_flight)");
  EXPECT_EQ(error_of(std::string(kHeader) + "30,stream_s1,sm_90,4\n"),
            "loads.csv:2: expected kernel_id,name,arch,loads,loads_in_flight");
  EXPECT_EQ(error_of(std::string(kHeader) + "30,stream_s1,sm_90,4,four\n"),
            "loads.csv:2: expected kernel_id,name,arch,loads,loads_in_flight");
  EXPECT_EQ(error_of(std::string(kHeader) + "30,stream_s1,sm_80,4,2\n"),
            "loads.csv: no row for sm_90");
}

}  // namespace
}  // namespace gms::groundtruth
