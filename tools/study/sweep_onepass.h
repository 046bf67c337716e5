#pragma once
/// Sweeps by the one-pass engine (sim/replay/onepass/engine.h). The configurations are grouped
/// by the values of their varied keys that are not cache capacities (the outer loop of passes);
/// each group, per trace, is one replay for all its configurations, when the engine gives
/// exactly what separate replays give (onepass_refusal). The rows are those of separate runs,
/// byte for byte (tests/e2e/onepass_sweep_test.cc); `--separate-runs` forces one replay per point.

#include <string>
#include <vector>

#include "sim/config/config.h"
#include "tools/study/sweep.h"

namespace gms {

/// True when some varied key is a cache capacity key (the one pass could apply).
bool sweep_varies_capacity(const SweepSpec& spec);

/// Why the sweep replays every point separately, or "" when one pass per group covers it
/// (`cfgs`: the sweep's configurations, sweep_config order).
std::string sweep_onepass_refusal(const SweepSpec& spec, const std::vector<SimConfig>& cfgs);

/// The rows of each of `points` (their order), by one pass per trace and group, on `jobs`
/// threads (0: all cores; a group is split into `jobs` passes when there are fewer groups);
/// empty when sweep_onepass_refusal is not.
std::vector<std::string> run_onepass_points(const SweepSpec& spec,
                                            const std::vector<SimConfig>& cfgs,
                                            const std::vector<std::size_t>& points, unsigned jobs,
                                            SweepProgress* progress);

}  // namespace gms
