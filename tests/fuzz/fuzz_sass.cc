// libFuzzer target: the SASS listing reader (trace/import/sass_listing.h, the capture kit's
// loads in flight) on arbitrary text; a SimError naming the line is the expected outcome for bad
// input, and every function's figure stays within its own count of loads.
#include <cstdlib>
#include <sstream>
#include <string>

#include "sim/core/error.h"
#include "trace/import/sass_listing.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    for (const auto& f : gms::trace::read_sass_listing(in, "in.sass"))
      if (f.loads_in_flight > f.loads) std::abort();  // more in flight than it issued
  } catch (const gms::SimError&) {
  }
  return 0;
}
