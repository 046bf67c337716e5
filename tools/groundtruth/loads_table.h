#pragma once
/// The loads-in-flight table gms_sass_loads writes (header `kernel_id,name,arch,loads,
/// loads_in_flight`, one row per plain calibration kernel and architecture), as gms_calibrate
/// --capture reads it to put each kernel's figure on its `#kernel` line. Plain C++20.

#include <cstdint>
#include <istream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gms::groundtruth {

/// Kernel id -> loads in flight of the rows for `arch` (e.g. sm_90); rows with 0 (no load)
/// are left out. Throws std::runtime_error naming `source` and the line on a malformed row or
/// header, and when no row is for `arch` (a listing of another build).
inline std::map<int, std::uint32_t> read_loads_table(std::istream& in, const std::string& source,
                                                     const std::string& arch) {
  std::string line;
  std::size_t line_no = 1;
  if (!std::getline(in, line) || line != "kernel_id,name,arch,loads,loads_in_flight")
    throw std::runtime_error(source +
                             ":1: not a gms_sass_loads table (its header is "
                             "kernel_id,name,arch,loads,loads_in_flight)");
  std::map<int, std::uint32_t> table;
  bool any_for_arch = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    auto bad = [&] {
      return std::runtime_error(source + ":" + std::to_string(line_no) +
                                ": expected kernel_id,name,arch,loads,loads_in_flight");
    };
    if (f.size() != 5) throw bad();
    int id = 0;
    unsigned long n = 0;
    try {
      std::size_t used_id = 0, used_n = 0;
      id = std::stoi(f[0], &used_id);
      n = std::stoul(f[4], &used_n);
      if (used_id != f[0].size() || used_n != f[4].size() || n > 1024) throw bad();
    } catch (const std::logic_error&) {
      throw bad();
    }
    if (f[2] != arch) continue;
    any_for_arch = true;
    if (n != 0) table[id] = static_cast<std::uint32_t>(n);
  }
  if (!any_for_arch) throw std::runtime_error(source + ": no row for " + arch);
  return table;
}

}  // namespace gms::groundtruth
