#include "sim/replay/reference/plain_l1_pipe.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace gms::ref {

namespace {

/// Calls f(byte) for each byte of lane `lane`'s access (stopping at the top of the address space).
template <class F>
void each_byte(const WarpInstr& w, unsigned lane, F f) {
  const Addr a = w.addr[lane];
  for (Addr i = 0; i < w.size; ++i) {
    f(a + i);
    if (a + i == std::numeric_limits<Addr>::max()) break;
  }
}

}  // namespace

PlainPipe l1_pipe(const WarpInstr& w) {
  PlainPipe out;
  for (unsigned quarter = 0; quarter < 4; ++quarter) {
    std::set<Addr> lines;
    for (unsigned lane = 8 * quarter; lane < 8 * quarter + 8; ++lane)
      if (w.mask >> lane & 1u) each_byte(w, lane, [&](Addr b) { lines.insert(b / 128); });
    out.tag_lookups += static_cast<std::uint32_t>(lines.size());
  }
  out.tag_lookups = std::max<std::uint32_t>(out.tag_lookups, 4);

  unsigned group = 32;
  while (group > 1 && group * w.size > 128) group /= 2;
  for (unsigned first = 0; first < 32; first += group) {
    std::map<Addr, std::set<Addr>> words_of_bank;
    for (unsigned lane = first; lane < first + group; ++lane)
      if (w.mask >> lane & 1u)
        each_byte(w, lane, [&](Addr b) { words_of_bank[(b / 4) % 32].insert(b / 4); });
    std::uint32_t most = 0;
    for (const auto& [bank, words] : words_of_bank)
      most = std::max(most, static_cast<std::uint32_t>(words.size()));
    out.data_wavefronts += most;
  }
  return out;
}

}  // namespace gms::ref
