// libFuzzer target: the accelsim reader (TraceFormat::AccelSim) on arbitrary bytes, compressed or
// not, read twice: on one thread, and with its thread blocks parsed beside the reading
// (TraceReader::parse_alongside). The two must hand out the same kernels, records, counts and
// warnings, and fail with the same message; a difference is a finding.
#include <memory>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_support.h"
#include "trace/import/accelsim_reader.h"

namespace {

struct Outcome {
  std::vector<gms::KernelInfo> kernels;
  std::vector<gms::WarpInstr> records;
  gms::trace::ImportCounts counts;
  std::vector<std::string> warnings;
  std::string error;
  bool operator==(const Outcome&) const = default;
};

Outcome read(const std::string& path, bool alongside) {
  Outcome o;
  std::unique_ptr<gms::trace::TraceReader> reader;
  try {
    reader = gms::trace::open_trace_reader(path, gms::trace::TraceFormat::AccelSim,
                                           gms::trace::ImportOptions{.quiet = true});
    if (alongside) reader->parse_alongside();
    gms::KernelInfo k;
    std::vector<gms::WarpInstr> batch(5);  // small batches cross blocks
    while (reader->next_kernel(k)) {
      o.kernels.push_back(k);
      while (const std::size_t n = reader->read(batch))
        o.records.insert(o.records.end(), batch.begin(), batch.begin() + static_cast<long>(n));
    }
  } catch (const gms::SimError& e) {
    o.error = e.what();
  }
  if (const auto* a = dynamic_cast<const gms::trace::AccelSimReader*>(reader.get())) {
    o.counts = a->counts();
    o.warnings = a->warnings();
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int r =
      gms::fuzz::read_as(data, size, gms::trace::TraceFormat::AccelSim, "kernel-1.traceg");
  const std::string path = (gms::fuzz::work_dir() / "kernel-1.traceg").string();
  if (!(read(path, false) == read(path, true))) __builtin_trap();
  return r;
}
