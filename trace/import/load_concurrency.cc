#include "trace/import/load_concurrency.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace gms::trace {

void LoadConcurrency::reset() {
  warps_.clear();
}

void LoadConcurrency::wait_for(Warp& w, int r) {
  const std::uint32_t tag = w.pending[static_cast<std::size_t>(r)];
  if (tag == 0) return;
  w.pending[static_cast<std::size_t>(r)] = 0;
  if (w.done[tag - 1]) return;
  w.done[tag - 1] = true;
  --w.in_flight;
}

void LoadConcurrency::instruction(std::uint32_t warp, std::span<const std::string_view> dests,
                                  std::span<const std::string_view> srcs,
                                  std::uint32_t load_bytes) {
  if (warp >= warps_.size()) warps_.resize(warp + 1);
  Warp& w = warps_[warp];
  if (w.pending.empty()) w.pending.assign(kRegisters, 0);
  // Reads first (a use waits for its load), then writes (write after write waits too).
  for (const std::string_view s : srcs)
    if (const int r = register_index(s); r >= 0) wait_for(w, r);
  for (const std::string_view d : dests)
    if (const int r = register_index(d); r >= 0) wait_for(w, r);
  // A load whose value goes nowhere (RZ: a prefetch) is never waited for: not counted.
  if (load_bytes == 0 || std::none_of(dests.begin(), dests.end(),
                                      [](std::string_view d) { return register_index(d) >= 0; }))
    return;
  w.done.push_back(false);
  const auto tag = static_cast<std::uint32_t>(w.done.size());
  ++w.in_flight;
  w.most = std::max(w.most, w.in_flight);
  mark_filled(dests, load_bytes, w.pending, tag);
}

void LoadConcurrency::mark_filled(std::span<const std::string_view> dests, std::uint32_t load_bytes,
                                  std::vector<std::uint32_t>& pending, std::uint32_t tag) {
  const int words = dests.size() == 1 ? static_cast<int>((load_bytes + 3) / 4) : 1;
  for (const std::string_view d : dests) {
    const int r = register_index(d);
    if (r < 0) continue;
    const int end = std::min(r + words, r < 256 ? 255 : 256 + 63);  // not into RZ or URZ
    for (int k = r; k < end; ++k) pending[static_cast<std::size_t>(k)] = tag;
  }
}

std::uint32_t LoadConcurrency::loads_in_flight() const {
  double sum = 0;
  std::uint32_t warps = 0;
  for (const Warp& w : warps_)
    if (w.most != 0) {
      sum += w.most;
      ++warps;
    }
  if (warps == 0) return 0;
  return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::lround(sum / warps)));
}

}  // namespace gms::trace
