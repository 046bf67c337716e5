#include "sim/replay/simulator.h"

#include <string>
#include <vector>

#include "sim/replay/fast_engine.h"
#include "sim/replay/onepass/engine.h"
#include "sim/replay/reference_engine.h"
#include "sim/replay/thread_choice.h"
#include "trace/import/formats.h"

namespace gms {

namespace {

/// The engine and thread count of one configuration's replay: the dispatcher's one choice.
RunOptions resolved(const SimConfig& cfg, const RunOptions& opts,
                    const std::vector<std::string>& traces) {
  RunOptions r = opts;
  if (r.engine == Engine::Auto) r.engine = Engine::Fast;
  r.threads = replay_threads(cfg, r, traces);
  return r;
}

}  // namespace

std::vector<KernelStats> simulate(trace::TraceReader& reader, const SimConfig& cfg,
                                  const RunOptions& options) {
  const RunOptions opts = resolved(cfg, options, {});
  if (opts.engine == Engine::Reference) return simulate_reference(reader, cfg, opts);
  if (opts.engine == Engine::OnePass) return std::move(simulate_onepass(reader, {cfg}, opts)[0]);
  return simulate_fast(reader, cfg, opts);
}

std::vector<KernelStats> simulate(const std::vector<std::string>& traces, const SimConfig& cfg,
                                  const RunOptions& options) {
  const RunOptions opts = resolved(cfg, options, traces);
  if (opts.engine == Engine::Reference) return simulate_reference(traces, cfg, opts);
  if (opts.engine == Engine::OnePass) {
    auto chain = open_run_chain(traces, opts);
    return std::move(simulate_onepass(*chain, {cfg}, opts)[0]);
  }
  return simulate_fast(traces, cfg, opts);
}

std::vector<std::vector<KernelStats>> simulate_many(const std::vector<std::string>& traces,
                                                    const std::vector<SimConfig>& cfgs,
                                                    const RunOptions& opts) {
  const bool pass = opts.engine == Engine::OnePass ||
                    (opts.engine == Engine::Auto && cfgs.size() > 1 &&
                     onepass_refusal(cfgs).empty() && onepass_order_refusal(opts).empty());
  if (pass && !cfgs.empty()) {
    auto chain = open_run_chain(traces, opts);
    return simulate_onepass(*chain, cfgs, opts);
  }
  std::vector<std::vector<KernelStats>> out;
  out.reserve(cfgs.size());
  for (const SimConfig& cfg : cfgs) out.push_back(simulate(traces, cfg, opts));
  return out;
}

}  // namespace gms
