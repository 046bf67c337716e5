// libFuzzer target: the nvbit reader (TraceFormat::Nvbit) on arbitrary bytes, compressed or not.
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gms::fuzz::read_as(data, size, gms::trace::TraceFormat::Nvbit, "in.log");
}
