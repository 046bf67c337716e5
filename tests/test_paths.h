#pragma once
/// Paths the tests need, injected by tests/CMakeLists.txt.
#include <string>

namespace gms::test {
inline std::string data_path(const std::string& name) {
  return std::string(GMS_TEST_DATA_DIR) + "/" + name;
}
inline std::string source_path(const std::string& rel) {
  return std::string(GMS_SOURCE_DIR) + "/" + rel;
}
inline std::string cli_path() {
  return GMS_CLI_PATH;
}
/// The calibration-trace recipe tool (tools/groundtruth/recipe_main.cc).
inline std::string recipe_path() {
  return GMS_RECIPE_PATH;
}
}  // namespace gms::test
