#pragma once
/// The parallel replay (RunOptions::threads > 1): one trace on several cores, with the same
/// results, byte for byte, as the sequential fast engine and the reference, whatever the number of
/// threads. The rule that makes it exact: each SM's L1 sees only its own records, in trace order;
/// each L2 slice sees only the accesses that map to it, in trace order, and what a slice does
/// depends on nothing else's order (line_batch.h); every statistic is a sum.
///
/// So the trace is replayed in batches of records, each in one phase of a team of threads
/// (sim/host/thread_team.h). Before a phase this thread reads the batch and numbers its rows and
/// SMs. In the phase, each worker replays the records of the SMs it owns (SM s: worker s mod N)
/// through the coalescer, the shared-memory arbiter, the cold model and its SMs' L1s, queueing
/// each L1 miss, store and atomic for the worker that owns its L2 slice (a contiguous range of
/// slices per worker), tagged with the record's place in the batch; and, in the same phase, it
/// replays the L2 accesses the workers queued for its slices in the previous phase, merged back
/// into trace order by those tags, one slice at a time. Each worker charges its own copy of the
/// rows, unit traffic and DRAM model; at the end of a kernel its slices are flushed in parallel
/// and the copies are summed in worker order.
///
/// Memory stays flat in trace length: a batch of records, and two windows of queued L2 accesses
/// (one filling, one being replayed), each closed once it holds cached_batch_lines accesses, so
/// at most that plus one batch's lines (32 per record).
///
/// With L2 partitions one access touches slices in several partitions (a far read its home slice
/// and its mirror in the reader's partition, a store the copies in the others: l2_cache.h), all
/// at one index inside their partitions: workers then own ranges of those indices (the batch
/// groups of line_batch.h), each with its slices in every partition.
///
/// Where the rule does not hold, the replay runs on one thread (the same results): with the DRAM
/// row model (its FR-FCFS windows see requests in global order) or an L2 line other than 128
/// bytes (one coalescer line in two slices).

#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/replay/simulator.h"
#include "trace/io/reader.h"

namespace gms {

/// True when `cfg` allows the parallel replay (see above); else threads > 1 replay on one.
bool parallel_replay_exact(const SimConfig& cfg);

/// simulate() on opts.threads threads (the caller checked parallel_replay_exact).
std::vector<KernelStats> simulate_parallel(trace::TraceReader& reader, const SimConfig& cfg,
                                           const RunOptions& opts);
std::vector<KernelStats> simulate_parallel(const std::vector<std::string>& traces,
                                           const SimConfig& cfg, const RunOptions& opts);

}  // namespace gms
