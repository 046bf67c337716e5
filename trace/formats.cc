// Placeholder until the trace formats land.
#include "trace/formats.h"

#include "sim/error.h"

namespace gms::trace {
std::unique_ptr<TraceReader> open_trace_reader(const std::string& path) {
  fail("{}: trace reading is not implemented yet", path);
}
std::unique_ptr<TraceWriter> open_trace_writer(const std::string& path) {
  fail("{}: trace writing is not implemented yet", path);
}
}  // namespace gms::trace
