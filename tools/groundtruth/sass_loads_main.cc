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

/// The kernel id of a plain calibration kernel's mangled name, or -1: the Itanium ABI writes
/// gt30_stream_s1<false> as <length>gt30_stream_s1 then ILb0E, which each kernel of the table is
/// looked for as.
int plain_kernel_id(std::string_view mangled) {
  for (const auto& spec : gms::groundtruth::kernel_specs()) {
    const std::string ident = "gt" + std::to_string(spec.id) + "_" + std::string(spec.name);
    if (mangled.find(std::to_string(ident.size()) + ident + "ILb0E") != std::string_view::npos)
      return spec.id;
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
