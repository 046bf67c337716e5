#pragma once
/// The one rule for how many threads a replay takes when the caller leaves it to the program
/// (RunOptions::threads = 0: `gpumemsim run` without --threads, the Python module's
/// threads=None, a sweep with cores to spare).
///
/// Cold replays of plain .gmt files (trace::plain_gmt_file, read from their first 8 bytes) take
/// one thread per core (at most max_threads): the workers deal the files' blocks
/// (TraceReader::share_blocks), each reads and replays its own, nothing passes between cores but
/// each kernel's sums, and two workers replayed the 2-core machine's cold .gmt cases 1.2x-1.9x
/// as fast as one (bench/RESULTS.md, "Cold replays by blocks"). Cold replays of uncompressed
/// Accel-Sim texts (trace::accelsim_text_file) take two: one worker replays while a thread of the
/// reader's parses the thread blocks (TraceReader::parse_alongside; bench/RESULTS.md, "Accel-Sim
/// blocks parsed beside the reading"). Other cold replays take one: their records would be read
/// by one worker anyway (fast_engine.h), and more would only add a phase per kernel.
///
/// A cached or both-mode replay of uncompressed Accel-Sim texts takes one: its replay is mostly
/// the parse on the reading thread, and with the pipeline it ran 0.84x-1.04x as fast as on one
/// by median, over the sittings bench/RESULTS.md records ("Accel-Sim blocks parsed beside the
/// reading"). Any other cached or both-mode replay takes two: two workers form a pipeline (fast_engine.h), one core
/// reading and replaying the L1s while the other replays the L2 (and, when it waits, the reading
/// moves to a thread on its core). Past two, the workers split the SMs and slices (every one both
/// reads L1 and L2), and on a 16-core machine that lost to the pipeline on every cached case of
/// bench/thread_scaling.py, scattered warps too (a random trace 1.66x-1.91x as fast as one
/// worker with two, 1.21x-1.56x with sixteen; bench/RESULTS.md "Sixteen cores"), so more cores do
/// not change the choice.

#include <cstddef>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/replay/run_options.h"

namespace gms {

/// The threads a replay of `traces` (empty: a reader with no path) with `cfg` and `opts` runs
/// on: opts.threads when it is not 0, else the rule above.
unsigned replay_threads(const SimConfig& cfg, const RunOptions& opts,
                        const std::vector<std::string>& traces);

}  // namespace gms
