// Placeholder until the replay driver lands.
#include "sim/simulator.h"

#include "sim/error.h"

namespace gms {
std::vector<KernelStats> simulate(trace::TraceReader&, const SimConfig&, const RunOptions&) {
  fail("simulate is not implemented yet");
}
}  // namespace gms
