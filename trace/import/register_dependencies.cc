#include "trace/import/register_dependencies.h"

#include <algorithm>

#include "trace/import/load_concurrency.h"

namespace gms::trace {

namespace {

constexpr std::size_t kRegisters = 256 + 64;  // R0-R254, then UR0-UR62

}  // namespace

void RegisterDependencies::start_warp() {
  pending_.assign(kRegisters, 0);
  loads_ = newest_ = 0;
}

void RegisterDependencies::wait_for(std::string_view reg) {
  const int r = LoadConcurrency::register_index(reg);
  if (r < 0) return;
  std::uint32_t& tag = pending_[static_cast<std::size_t>(r)];
  newest_ = std::max(newest_, tag);
  tag = 0;
}

void RegisterDependencies::instruction(std::span<const std::string_view> dests,
                                       std::span<const std::string_view> srcs) {
  if (pending_.empty()) start_warp();
  for (const std::string_view s : srcs) wait_for(s);
  for (const std::string_view d : dests) wait_for(d);  // write after write
}

std::uint32_t RegisterDependencies::record(std::span<const std::string_view> dests,
                                           std::span<const std::string_view> srcs, bool load,
                                           std::uint32_t load_bytes) {
  instruction(dests, srcs);
  const std::uint32_t k = newest_ == 0 ? 0 : loads_ - (newest_ - 1);
  newest_ = 0;
  if (!load) return k;
  const std::uint32_t tag = ++loads_;
  const int words = dests.size() == 1 ? static_cast<int>((load_bytes + 3) / 4) : 1;
  for (const std::string_view d : dests) {
    const int r = LoadConcurrency::register_index(d);
    if (r < 0) continue;
    const int end = std::min(r + words, r < 256 ? 255 : 256 + 63);  // not into RZ or URZ
    for (int i = r; i < end; ++i) pending_[static_cast<std::size_t>(i)] = tag;
  }
  return k;
}

}  // namespace gms::trace
