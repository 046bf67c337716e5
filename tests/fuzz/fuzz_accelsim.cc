// libFuzzer target: the accelsim reader (TraceFormat::AccelSim) on arbitrary bytes, compressed or
// not.
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gms::fuzz::read_as(data, size, gms::trace::TraceFormat::AccelSim, "kernel-1.traceg");
}
