#include "sim/replay/reference/plain_dram.h"

#include <utility>

namespace gms::ref {

PlainDram::PlainDram(const DramConfig& cfg)
    : cfg_(cfg),
      channels_(dram_channels(cfg)),
      window_(cfg.channels),
      open_(cfg.channels, std::vector<std::uint64_t>(cfg.banks_per_channel, 0)),
      is_open_(cfg.channels, std::vector<bool>(cfg.banks_per_channel, false)) {
  t_.channel_bytes.assign(cfg.channels, 0);
}

void PlainDram::access(Addr addr, std::uint32_t bytes, bool write) {
  const std::uint32_t ch = channels_.unit_of(addr);
  t_.channel_bytes[ch] += bytes;
  if (write)
    t_.write_bytes += bytes;
  else
    t_.read_bytes += bytes;
  if (!cfg_.row_model) return;
  const std::uint64_t chunk = addr / cfg_.interleave_bytes;
  const std::uint64_t offset =
      chunk / cfg_.channels * cfg_.interleave_bytes + addr % cfg_.interleave_bytes;
  const std::uint64_t row = offset / cfg_.row_bytes;
  if (window_[ch].size() == cfg_.row_window) serve_one(ch);
  window_[ch].push_back({static_cast<std::uint32_t>(row % cfg_.banks_per_channel), row});
}

void PlainDram::serve_one(std::uint32_t ch) {
  std::deque<Request>& w = window_[ch];
  for (auto it = w.begin(); it != w.end(); ++it) {
    if (is_open_[ch][it->bank] && open_[ch][it->bank] == it->row) {
      ++t_.row_hits;
      w.erase(it);
      return;
    }
  }
  ++t_.row_misses;
  open_[ch][w.front().bank] = w.front().row;
  is_open_[ch][w.front().bank] = true;
  w.pop_front();
}

void PlainDram::flush_write(std::uint32_t bytes) {
  t_.write_bytes += bytes;
  t_.flush_write_bytes += bytes;
}

void PlainDram::flush_read(std::uint32_t bytes) {
  t_.read_bytes += bytes;
  t_.flush_read_bytes += bytes;
}

DramTraffic PlainDram::finish() {
  for (std::uint32_t ch = 0; ch < window_.size(); ++ch)
    while (!window_[ch].empty()) serve_one(ch);
  for (std::vector<bool>& banks : is_open_) banks.assign(banks.size(), false);
  DramTraffic out = std::move(t_);
  t_ = {};
  t_.channel_bytes.assign(cfg_.channels, 0);
  return out;
}

}  // namespace gms::ref
