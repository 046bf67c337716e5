#pragma once
/// The reference engine: the model's executable specification. It replays a trace record by
/// record, in trace order, through a model of its own, written to be read
/// (sim/replay/reference/: the plain coalescer, the shared-memory arbiter, the cold model, and
/// the cached hierarchy: an L1 per SM sized per kernel by its placement, the sliced and
/// partitioned L2, the DRAM counting with its row model). It shares with the fast engine only
/// the configuration, the records, the address maps (sim/model/address_map.h) and placement,
/// the statistics structures, and the kernel's frame (sim/replay/kernel_frame.h: the kernels
/// selected, their start, rows and finish, which runs the time model on the counters); none of the
/// fast engine's model code or devices (tests/layering/check_reference_independent.py holds its
/// includes to that). So the differential tests (tests/e2e/engine_differential_test.cc: every
/// trace, preset and mode, and random traces over random configurations) check the fast model, not
/// only its shortcuts: the results must be the fast engine's, byte for byte.
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
