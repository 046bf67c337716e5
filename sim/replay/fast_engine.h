#pragma once
/// The fast engine, on any number of threads (RunOptions::threads; one code path, the same
/// results, byte for byte, as the reference for any number). The rule that makes threads exact:
/// each SM's L1 sees only its own records, in trace order; each L2 slice sees only the accesses
/// that map to it, in trace order, and what a slice does depends on nothing else's order
/// (fast/line_batch.h); every statistic is a sum.
///
/// So the trace is replayed in batches of records, each in one phase of a team of N workers
/// (sim/host/thread_team.h; with N = 1 the phase is a call on this thread). Before a phase this
/// thread reads the batch and numbers its rows and SMs. In the phase, each worker replays the
/// records of the SMs it owns (SM s: worker s mod N) through the coalescer, the shared-memory
/// arbiter, the cold model and its SMs' L1s (fast/l1_stage.h), queueing each L1 miss, store and
/// atomic for the worker that owns its L2 slice (a contiguous range of slices per worker), tagged
/// with the record's place in the window; and, in the same phase, it replays the L2 accesses the
/// workers queued for its slices in the previous window, merged back into trace order by those
/// tags, one slice at a time. Each worker charges its own share of the rows, unit traffic and
/// DRAM model; at the end of a kernel its slices are flushed and the shares are summed in worker
/// order.
///
/// Two workers instead form a pipeline (cached and both modes): worker 0 owns every SM and
/// reads the trace, worker 1 the L2, and a phase lasts a window: worker 0 replays records until
/// the window's queues hold cached_batch_lines L2 accesses while worker 1 replays the previous
/// window's. Worker 0 also takes a share of the slices when filling is the quicker side: between
/// windows the share moves toward the one that ends both sides at once (their timings of the
/// last phase), or every share while it waits longer on a reading thread than the drain takes
/// (the trace is read slower than it is replayed). The pipeline's windows double, window after
/// window, from the 16th of a kernel up to 4 x cached_batch_lines. A window's accesses go to the
/// owners of its own routing, so a slice's windows are replayed in order whoever replays them. Its
/// speed-ups on two cores are in bench/RESULTS.md, "The L2 on a core of its own".
///
/// Cold replays (cold mode only) of several workers take no phases per batch: where the trace
/// is a plain .gmt file, each worker opens it and reads and replays only its share of the
/// blocks (TraceReader::share_blocks: block b is worker (b - 1) mod N's; each block decodes on
/// its own), with its own rows, numbered in the order its records bring them; at a kernel's
/// end the kernel's rows are numbered by the place in the file where each first appeared, each
/// worker's counters moved to them, and the shares summed. Cold counts are sums whatever the
/// order (where workers are exact: no DRAM row model). Of the faults the workers meet, the
/// earliest in the file is raised. Any other trace the first worker replays alone, as one
/// worker would: splitting the SMs, two workers replayed a cold stream 0.77x-0.84x as fast as
/// one (a cold record is too little work to hand between cores).
///
/// Memory stays flat in trace length: a batch of records, and two windows of queued L2 accesses
/// (one filling, one being replayed), each closed once it holds cached_batch_lines accesses (the
/// pipeline's up to 4x that), so at most that plus one batch's lines (32 per record).
///
/// With L2 partitions one access touches slices in several partitions (a far read its home slice
/// and its mirror in the reader's partition, a store the copies in the others: l2_cache.h), all
/// at one index inside their partitions: workers then own ranges of those indices (the batch
/// groups of line_batch.h), each with its slices in every partition.
///
/// Where batches are not exact (parallel_replay_exact: the DRAM row model, whose FR-FCFS windows
/// see requests in global order, or an L2 line other than 128 bytes, one coalescer line in two
/// slices), the replay takes one worker, which replays each L2 access as it comes.

#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/replay/run_options.h"
#include "trace/io/reader.h"

namespace gms {

/// True when `cfg` allows more than one worker (see above); else any thread count replays on
/// one.
bool parallel_replay_exact(const SimConfig& cfg);

/// simulate() with the fast engine on opts.threads threads (0 counts as 1: the dispatcher
/// resolves the program's choice first).
std::vector<KernelStats> simulate_fast(trace::TraceReader& reader, const SimConfig& cfg,
                                       const RunOptions& opts);
std::vector<KernelStats> simulate_fast(const std::vector<std::string>& traces, const SimConfig& cfg,
                                       const RunOptions& opts);

}  // namespace gms
