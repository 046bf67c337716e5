// libFuzzer target: the .tracez container (trace/import/tracez_source.h) on arbitrary bytes,
// read as an Accel-Sim kernel file by its suffix: the header, dictionary, index, warp headers
// and zstd frames of a damaged file must give one SimError, never a crash, a sanitizer report
// or an allocation the file's size does not justify. Seeds: files of our writer
// (tests/fuzz/corpus/fuzz_tracez/), with and without a dictionary.
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gms::fuzz::read_as(data, size, gms::trace::TraceFormat::AccelSim, "kernel-1.tracez");
}
