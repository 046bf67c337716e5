#include "sim/diagnosis/diagnose.h"

#include <algorithm>
#include <bit>

#include "sim/replay/instr_table.h"
#include "sim/replay/kernel_frame.h"

namespace gms {

const PatternSummary* KernelPatterns::find(std::uint32_t inst, Op op, std::uint8_t size) const {
  for (const PatternSummary& s : instructions)
    if (s.inst == inst && s.op == op && s.size == size) return &s;
  return nullptr;
}

std::vector<KernelPatterns> diagnose(trace::TraceReader& reader, const SimConfig& cfg,
                                     const RunOptions& opts) {
  const Coalescer coalescer(cfg.coalescer);
  const SmemArbiter arbiter(cfg.shared);
  std::vector<KernelPatterns> out;
  std::vector<WarpInstr> batch(256);
  KernelInfo kernel;
  while (next_replayed_kernel(reader, opts, kernel)) {
    KernelPatterns k;
    k.kernel = kernel;
    InstrTable rows;
    while (const std::size_t n = reader.read(batch)) {
      for (std::size_t i = 0; i < n; ++i) {
        const WarpInstr& w = batch[i];
        bool created = false;
        const std::uint32_t r = rows.row(w, created);
        if (created) {
          PatternSummary s;
          s.inst = w.inst;
          s.op = w.op;
          s.size = w.size;
          k.instructions.push_back(s);
        }
        PatternSummary& s = k.instructions[r];
        s.add(classify(w, coalescer, arbiter));
        for (LaneMask m = w.mask; m != 0; m &= m - 1) {
          const Addr a = w.addr[std::countr_zero(m)];
          s.lowest = std::min(s.lowest, a);
          s.highest = std::max(s.highest, last_byte(a, w.size));
          if (!is_shared(w.op)) k.highest_address = std::max(k.highest_address, a + w.size - 1);
        }
      }
    }
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace gms
