#pragma once
/// The one entry point of a replay: every caller (the CLI, the Python module, sweeps, curves,
/// compare, validate) replays through simulate() or simulate_many(), which choose the engine
/// (RunOptions::engine; Auto: the fast engine for one configuration, one pass for several where
/// that is exact) and its threads (sim/replay/thread_choice.h). The engines stream a trace
/// through the coalescer, the shared-memory arbiter and (in cached mode) the memory hierarchy,
/// and accumulate per-instruction and per-kernel statistics; every engine's results are the
/// same, byte for byte.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/replay/run_options.h"
#include "trace/io/reader.h"

namespace gms {

/// Replays every (selected) kernel of `reader` with opts.engine (Auto: Fast) and returns their
/// statistics in trace order (in mode both: each kernel's cold entry, then its cached one). Memory
/// use does not grow with the number of records. Calls of simulate() are independent: the caches
/// start empty.
std::vector<KernelStats> simulate(trace::TraceReader& reader, const SimConfig& cfg,
                                  const RunOptions& opts = {});

/// The same over several traces as one stream of kernels (the L2 may persist from one trace's
/// last kernel into the next trace's first).
std::vector<KernelStats> simulate(const std::vector<std::string>& traces, const SimConfig& cfg,
                                  const RunOptions& opts = {});

/// out[c] == simulate(traces, cfgs[c], opts) for every c: with opts.engine Auto, by one pass
/// over the traces where the configurations allow it exactly (onepass_refusal,
/// sim/replay/onepass/engine.h) and else by one run each; OnePass insists on the pass (throws
/// SimError with the reason where it cannot be exact); Fast and Reference replay each
/// configuration separately.
std::vector<std::vector<KernelStats>> simulate_many(const std::vector<std::string>& traces,
                                                    const std::vector<SimConfig>& cfgs,
                                                    const RunOptions& opts = {});

}  // namespace gms
