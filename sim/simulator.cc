#include "sim/simulator.h"

#include <algorithm>
#include <vector>

#include "sim/coalescer.h"
#include "sim/instr_table.h"
#include "sim/smem_arbiter.h"

namespace gms {

namespace {

constexpr std::size_t kBatchRecords = 4096;

/// Accumulates one kernel's cold-model statistics.
class KernelReplay {
 public:
  KernelReplay(const Coalescer& coalescer, const SmemArbiter& arbiter, KernelStats& out)
      : coalescer_(coalescer), arbiter_(arbiter), out_(out) {}

  void add(const WarpInstr& w) {
    bool created = false;
    const std::uint32_t r = rows_.row(w, created);
    if (created)
      out_.instructions.push_back({w.inst, w.op, w.size, coalescer_.segment_bytes(w.op), {}});
    AccessCounters& c = out_.instructions[r].c;
    ++c.instructions;
    ++c.requests;
    if (is_shared(w.op)) {
      const BankAccess b = arbiter_.arbitrate(w);
      const auto threads = static_cast<std::uint64_t>(std::popcount(w.mask));
      c.active_threads += threads;
      c.bytes_requested += threads * w.size;
      c.wavefronts += b.wavefronts;
      c.ideal_wavefronts += b.ideal_wavefronts;
    } else {
      coalescer_.coalesce(w, access_);
      c.active_threads += access_.active_threads;
      c.bytes_requested += access_.bytes_requested;
      c.bytes_distinct += access_.bytes_distinct;
      c.sectors += access_.sectors;
      c.transactions += access_.transactions;
      c.lines += access_.lines;
      c.bytes_fetched += std::uint64_t{access_.transactions} * access_.segment_bytes;
    }
    ++out_.records;
  }

  void finish() {
    for (const InstrStats& row : out_.instructions)
      out_.totals[static_cast<int>(op_class(row.op))] += row.c;
  }

 private:
  const Coalescer& coalescer_;
  const SmemArbiter& arbiter_;
  KernelStats& out_;
  InstrTable rows_;
  CoalescedAccess access_;
};

}  // namespace

std::vector<KernelStats> simulate(trace::TraceReader& reader, const SimConfig& cfg,
                                  const RunOptions& opts) {
  const Coalescer coalescer(cfg.coalescer);
  const SmemArbiter arbiter(cfg.shared);
  std::vector<WarpInstr> batch(kBatchRecords);
  std::vector<KernelStats> result;
  KernelInfo kernel;
  while (reader.next_kernel(kernel)) {
    if (!opts.kernel_ids.empty() && std::find(opts.kernel_ids.begin(), opts.kernel_ids.end(),
                                              kernel.id) == opts.kernel_ids.end())
      continue;
    KernelStats& stats = result.emplace_back();
    stats.kernel = kernel;
    KernelReplay replay(coalescer, arbiter, stats);
    while (const std::size_t n = reader.read(batch)) {
      for (std::size_t i = 0; i < n; ++i) replay.add(batch[i]);
    }
    replay.finish();
  }
  return result;
}

}  // namespace gms
