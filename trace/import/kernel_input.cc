#include "trace/import/kernel_input.h"

#include <filesystem>
#include <system_error>

#include "trace/import/tracez_source.h"

namespace gms::trace {

std::unique_ptr<InputStream> open_kernel_stream(const std::string& path) {
  if (path.ends_with(".tracez")) return open_tracez(path);
  return std::make_unique<InputStream>(path);
}

ListedKernel open_listed_kernel(const std::string& path) {
  ListedKernel k;
  k.path = path;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    for (const char* suffix : {".xz", ".zst"}) {
      if (std::filesystem::exists(path + suffix, ec)) {
        k.path = path + suffix;
        k.fallback = true;
        break;
      }
    }
  }
  k.stream = open_kernel_stream(k.path);
  return k;
}

}  // namespace gms::trace
