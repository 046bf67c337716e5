#include "trace/import/register_dependencies.h"

#include <algorithm>

#include "trace/import/load_concurrency.h"

namespace gms::trace {

void RegisterDependencies::wait_for(std::string_view reg) {
  const int r = LoadConcurrency::register_index(reg);
  if (r < 0) return;
  std::uint32_t& tag = pending_[static_cast<std::size_t>(r)];
  newest_ = std::max(newest_, tag);
  tag = 0;
}

void RegisterDependencies::instruction(std::span<const std::string_view> dests,
                                       std::span<const std::string_view> srcs) {
  if (pending_.empty()) pending_.assign(LoadConcurrency::kRegisters, 0);
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
  LoadConcurrency::mark_filled(dests, load_bytes, pending_, ++loads_);
  return k;
}

}  // namespace gms::trace
