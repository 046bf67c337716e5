#include "trace/io/input_progress.h"

#include <filesystem>

namespace gms::trace {

std::atomic<std::uint64_t>& input_bytes_read() {
  static std::atomic<std::uint64_t> bytes{0};
  return bytes;
}

std::uint64_t input_bytes_total(const std::vector<std::string>& paths) {
  std::uint64_t total = 0;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (p == "-" || !std::filesystem::is_regular_file(p, ec)) return 0;
    const std::uintmax_t size = std::filesystem::file_size(p, ec);
    if (ec) return 0;
    total += size;
  }
  return total;
}

}  // namespace gms::trace
