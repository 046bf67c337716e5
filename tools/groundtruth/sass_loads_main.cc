// gms_sass_loads: each calibration kernel's loads in flight per warp, read from the SASS listing
// of gms_calibrate (`cuobjdump -sass gms_calibrate`), by trace/import/sass_listing.h's rule.
// tools/groundtruth/capture.sh passes its CSV to `gms_calibrate --capture --loads-in-flight`,
// which writes each kernel's figure on its `#kernel` line (issue 34: memory-level parallelism
// from the capture kit). Only the plain variants (gt<ID>_<name><false>, the code ncu profiles)
// count; the capture variants carry the recorder's own loads.
//
// usage: gms_sass_loads LISTING   prints kernel_id,name,arch,loads,loads_in_flight
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>

#include "sim/core/error.h"
#include "tools/groundtruth/kernel_model.h"
#include "trace/import/sass_listing.h"

namespace {

/// The kernel id of a plain calibration kernel's mangled name: the Itanium ABI writes the
/// function's name as <length><gt30_stream_s1> and its template argument `false` as ILb0E.
int plain_kernel_id(std::string_view mangled) {
  for (std::size_t pos = mangled.find("gt"); pos != std::string_view::npos;
       pos = mangled.find("gt", pos + 1)) {
    std::size_t digits = pos;
    while (digits > 0 && mangled[digits - 1] >= '0' && mangled[digits - 1] <= '9') --digits;
    if (digits == pos || pos - digits > 4) continue;  // <length>: 1 to 4 digits here
    std::size_t length = 0;
    for (const char c : mangled.substr(digits, pos - digits)) length = length * 10 + (c - '0');
    if (pos + length > mangled.size()) continue;
    const std::string_view ident = mangled.substr(pos, length);
    if (!mangled.substr(pos + length).starts_with("ILb0E")) continue;
    const std::size_t underscore = ident.find('_');
    if (underscore == std::string_view::npos || underscore == 2) continue;
    if (underscore > 6) continue;  // ids have at most 4 digits
    int id = 0;
    for (const char c : ident.substr(2, underscore - 2)) {
      if (c < '0' || c > '9') return -1;
      id = id * 10 + (c - '0');
    }
    const auto* spec = gms::groundtruth::find_spec(id);
    if (spec != nullptr && spec->name == ident.substr(underscore + 1)) return id;
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: gms_sass_loads LISTING   (cuobjdump -sass gms_calibrate > LISTING)\n");
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    if (!in) gms::fail("cannot read {}", argv[1]);
    int found = 0;
    std::printf("kernel_id,name,arch,loads,loads_in_flight\n");
    for (const auto& f : gms::trace::read_sass_listing(in, argv[1])) {
      const int id = plain_kernel_id(f.name);
      if (id < 0) continue;
      ++found;
      const std::string_view name = gms::groundtruth::find_spec(id)->name;
      std::printf("%d,%.*s,%s,%u,%u\n", id, static_cast<int>(name.size()), name.data(),
                  f.arch.c_str(), f.loads, f.loads_in_flight);
    }
    if (found == 0)
      gms::fail("{}: no calibration kernel (gt<ID>_<name><false>) in the listing", argv[1]);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gms_sass_loads: %s\n", e.what());
    return 1;
  }
}
