#pragma once
/// The one-pass engine: one replay of a trace for many configurations that differ only in the
/// capacity of their LRU caches (l1.unified_kb, l1.carveouts_kb, l1.size_kb, l1.sets, l2.size_kb,
/// l2.ways). The trace is read and coalesced once; the L1s and the L2 of every configuration are
/// replayed by the stack algorithm (sim/replay/onepass/stack_lru.h: every associativity of a set
/// count from one recency stack; a set count only one configuration has is the model's own LRU tag
/// store), with sector state, dirty bytes,
/// DRAM fetch units, write-backs and the end-of-kernel flush per configuration. An L2 that is no
/// recency stack across capacities (near/far partitions, l2.partitions > 1: what a home slice
/// sees depends on whether the near copy hit, so on the capacity; or lines other than 128 bytes)
/// is replayed per configuration instead, each by its own L2Cache (LRU; the SM's near partition,
/// far-hit counts, write-backs and flush as in a separate run), fed by the same front end and
/// L1 miss streams; batched by the L2's batch groups (L2Cache::batch_group_of). When the L1 is
/// the same in every configuration the model's own L1Cache produces the one miss stream every
/// L2 sees (stores write through, atomics bypass); when L1 capacities differ each L1 variant
/// feeds its own multi-configuration L2. As in the fast engine, records are coalesced through
/// the shape memo, and L2 accesses are queued and replayed one slice at a time (line_batch.h),
/// one L1 variant after the other, where that is exact (l2_batches_exact). What every
/// configuration counts alike (the coalescer's counts, an L1 variant's hits) is counted once and
/// added to each configuration at the kernel's end.
///
/// The results are simulate()'s for each configuration, entry for entry (counters, traffic, the
/// time estimate): tests/e2e/onepass_sweep_test.cc compares whole sweep CSVs with separate runs.
/// Where the rule does not hold (onepass_refusal names why) nothing is approximated: the caller
/// replays each configuration separately.

#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/replay/simulator.h"
#include "trace/io/reader.h"

namespace gms {

/// The keys whose values may differ between the configurations of one pass.
const std::vector<std::string>& onepass_capacity_keys();

/// Why the configurations cannot be replayed together in one pass, or "" when they can: a key
/// other than onepass_capacity_keys() differs, the L2 is not LRU (it always is a stack or its own
/// LRU model), or the L1's capacity differs and it is not LRU or its lines are not 128-byte
/// lines of 32-byte sectors.
std::string onepass_refusal(const std::vector<SimConfig>& cfgs);

/// Why a run of `opts` cannot be replayed in one pass, or "": a cached run in an order other
/// than the file's (RunOptions::order).
std::string onepass_order_refusal(const RunOptions& opts);

/// out[c] == simulate(reader, cfgs[c], opts) for every c, from one replay of `reader`
/// (opts.engine and read_ahead are ignored; the L2 accesses are batched by slice as the fast
/// engine batches them, opts.cached_batch_lines at a time). Throws SimError when
/// onepass_refusal(cfgs) or onepass_order_refusal(opts) is not empty.
std::vector<std::vector<KernelStats>> simulate_onepass(trace::TraceReader& reader,
                                                       const std::vector<SimConfig>& cfgs,
                                                       const RunOptions& opts);

}  // namespace gms
