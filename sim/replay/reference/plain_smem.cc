#include "sim/replay/reference/plain_smem.h"

#include <algorithm>
#include <set>
#include <vector>

namespace gms::ref {

Wavefronts arbitrate(const SharedMemConfig& cfg, const WarpInstr& w) {
  std::set<Addr> words;  // distinct words, over the whole warp
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!(w.mask >> lane & 1u)) continue;
    const Addr a = w.addr[static_cast<std::size_t>(lane)];
    // The lane's last byte, in address arithmetic modulo 2^64 as the trace's addresses are.
    const Addr last = a + w.size - 1;
    for (Addr word = a / cfg.bank_width_bytes; word <= last / cfg.bank_width_bytes; ++word)
      words.insert(word);
  }
  std::vector<std::uint32_t> per_bank(cfg.banks, 0);
  Wavefronts out;
  for (const Addr word : words) out.actual = std::max(out.actual, ++per_bank[word % cfg.banks]);
  out.ideal = static_cast<std::uint32_t>((words.size() + cfg.banks - 1) / cfg.banks);
  return out;
}

}  // namespace gms::ref
