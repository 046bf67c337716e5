#include "sim/replay/onepass/engine.h"

#include <algorithm>

#include "sim/core/error.h"
#include "sim/replay/onepass/engine_impl.h"

namespace gms {

using detail::Values;

void detail::replay_onepass_stack(trace::TraceReader& reader, const std::vector<SimConfig>& cfgs,
                                  const RunOptions& opts,
                                  std::vector<std::vector<KernelStats>>& out) {
  replay_onepass<false>(reader, cfgs, opts, out);
}

const std::vector<std::string>& onepass_capacity_keys() {
  static const std::vector<std::string> keys = {"l1.unified_kb", "l1.carveouts_kb", "l1.size_kb",
                                                "l1.sets",       "l2.size_kb",      "l2.ways"};
  return keys;
}

std::string onepass_refusal(const std::vector<SimConfig>& cfgs) {
  if (cfgs.empty()) return "no configuration";
  const auto& cap = onepass_capacity_keys();
  const Values first = effective_config(cfgs[0]);
  bool l1_varies = false, l2_varies = false;
  for (std::size_t c = 1; c < cfgs.size(); ++c) {
    const Values v = effective_config(cfgs[c]);
    if (v.size() != first.size()) return "the configurations have different keys";
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i].second == first[i].second) continue;
      const std::string& key = v[i].first;
      if (std::find(cap.begin(), cap.end(), key) == cap.end())
        return fmt::format("{} differs ({} and {}); only L1 and L2 capacities may", key,
                           first[i].second, v[i].second);
      (key.starts_with("l1.") ? l1_varies : l2_varies) = true;
    }
  }
  (void)l2_varies;  // the L2 is a stack, or each configuration's own model (l2_needs_own_model)
  const SimConfig& c = cfgs[0];
  if (c.l2.policy != ReplacementKind::Lru) return "l2.policy is not lru";
  if (l1_varies) {
    if (c.l1.policy != ReplacementKind::Lru) return "l1.policy is not lru";
    if (c.l1.line_bytes != kLineBytes || c.l1.sector_bytes != kSectorBytes)
      return "the L1 lines are not 128-byte lines of 32-byte sectors";
  }
  return "";
}

std::string onepass_order_refusal(const RunOptions& opts) {
  if (opts.mode == SimMode::Cold || opts.order == ReplayOrder::File) return "";
  return fmt::format(
      "--order {}: it replays the file's order only (each configuration's caches would give "
      "the warps another order); use --engine fast or reference",
      order_name(opts.order));
}

std::vector<std::vector<KernelStats>> simulate_onepass(trace::TraceReader& reader,
                                                       const std::vector<SimConfig>& cfgs,
                                                       const RunOptions& opts) {
  std::string why = onepass_refusal(cfgs);
  if (why.empty()) why = onepass_order_refusal(opts);
  if (!why.empty()) fail("one-pass replay: {}", why);
  std::vector<std::vector<KernelStats>> out(cfgs.size());
  if (detail::l2_needs_own_model(cfgs[0]))
    detail::replay_onepass_own_l2(reader, cfgs, opts, out);
  else
    detail::replay_onepass_stack(reader, cfgs, opts, out);
  return out;
}

}  // namespace gms
