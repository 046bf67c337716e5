// The one-pass engine with each configuration's own L2 (engine_impl.h).
#include "sim/replay/onepass/engine_impl.h"

namespace gms::detail {

void replay_onepass_own_l2(trace::TraceReader& reader, const std::vector<SimConfig>& cfgs,
                           const RunOptions& opts, std::vector<std::vector<KernelStats>>& out) {
  replay_onepass<true>(reader, cfgs, opts, out);
}

}  // namespace gms::detail
