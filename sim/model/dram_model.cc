#include "sim/model/dram_model.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace gms {

namespace {
constexpr std::uint64_t kClosed = std::numeric_limits<std::uint64_t>::max();
}

DramModel::DramModel(const DramConfig& cfg)
    : cfg_(cfg),
      row_model_(cfg.row_model),
      channels_(dram_channels(cfg)),
      interleave_shift_(static_cast<unsigned>(std::countr_zero(cfg.interleave_bytes))) {
  t_.channel_bytes.assign(cfg.channels, 0);
  if (cfg.row_model) {
    window_.resize(cfg.channels);
    for (auto& w : window_) w.reserve(cfg.row_window);
    open_row_.assign(std::size_t{cfg.channels} * cfg.banks_per_channel, kClosed);
  }
}

void DramModel::queue_for_row(std::uint32_t ch, Addr addr) {
  // The address inside its channel: drop the channel-selecting chunk bits' contribution by
  // dividing the chunk number by the channel count.
  const std::uint64_t chunk = addr >> interleave_shift_;
  const std::uint64_t offset =
      (chunk / cfg_.channels) * cfg_.interleave_bytes + (addr & (cfg_.interleave_bytes - 1));
  const std::uint64_t row = offset / cfg_.row_bytes;
  auto& w = window_[ch];
  if (w.size() == cfg_.row_window) serve_one(ch);
  w.push_back({static_cast<std::uint32_t>(row % cfg_.banks_per_channel), row});
}

void DramModel::serve_one(std::uint32_t channel) {
  auto& w = window_[channel];
  std::uint64_t* open = &open_row_[std::size_t{channel} * cfg_.banks_per_channel];
  auto hit =
      std::find_if(w.begin(), w.end(), [&](const Pending& p) { return open[p.bank] == p.row; });
  if (hit != w.end()) {
    ++t_.row_hits;
  } else {
    hit = w.begin();
    ++t_.row_misses;
    open[hit->bank] = hit->row;
  }
  w.erase(hit);
}

DramTraffic DramModel::finish() {
  if (cfg_.row_model) {
    for (std::uint32_t ch = 0; ch < window_.size(); ++ch)
      while (!window_[ch].empty()) serve_one(ch);
    std::fill(open_row_.begin(), open_row_.end(), kClosed);
  }
  DramTraffic out = std::move(t_);
  t_ = {};
  t_.channel_bytes.assign(cfg_.channels, 0);
  return out;
}

}  // namespace gms
