#pragma once
/// The reference engine: the model's executable specification. It replays a trace record by
/// record, in trace order, through the model's components: the coalescer, then the shared-memory
/// arbiter, or the cold model (every access misses everywhere) and the cached hierarchy (an L1
/// per SM, sized per kernel by its placement; the sliced L2; the DRAM model). It has none of the
/// fast engine's devices (sim/replay/simulator.cc: the coalescing memo and its deferred charges,
/// the scattered-warp shortcut, L2 accesses batched by slice, partial strided lanes, read-ahead),
/// and its results are the fast engine's, byte for byte: tests/e2e/engine_differential_test.cc
/// compares them on every trace, preset and mode. Where both need one rule (how an access is
/// charged, a kernel started and finished) they call the same function: sim/model/charging.h,
/// sim/replay/kernel_results.h.
///
/// Called through simulate() with RunOptions::engine = Engine::Reference (read_ahead and
/// cached_batch_lines, the fast engine's, are ignored).

#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/replay/simulator.h"
#include "trace/io/reader.h"

namespace gms {

/// simulate(reader, cfg, opts) by the reference engine.
std::vector<KernelStats> simulate_reference(trace::TraceReader& reader, const SimConfig& cfg,
                                            const RunOptions& opts);

/// simulate(traces, cfg, opts) by the reference engine: the traces are one stream of kernels.
std::vector<KernelStats> simulate_reference(const std::vector<std::string>& traces,
                                            const SimConfig& cfg, const RunOptions& opts);

}  // namespace gms
