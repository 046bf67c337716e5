#include "sim/replay/kernel_frame.h"

#include <algorithm>
#include <utility>

#include "sim/model/time_model.h"

namespace gms {

bool replays_kernel(const RunOptions& opts, std::uint32_t id) {
  return opts.kernel_ids.empty() ||
         std::find(opts.kernel_ids.begin(), opts.kernel_ids.end(), id) != opts.kernel_ids.end();
}

TrafficProfile zero_units(std::uint32_t sms) {
  TrafficProfile units;
  units.sm_l1_sectors.assign(sms, 0);
  units.sm_l1_tag_lookups.assign(sms, 0);
  units.sm_l1_data_wavefronts.assign(sms, 0);
  units.sm_shared_wavefronts.assign(sms, 0);
  return units;
}

void KernelFrame::begin(const KernelInfo& kernel) {
  cold = opts_.mode != SimMode::Cached ? std::make_optional<KernelStats>() : std::nullopt;
  cached = opts_.mode != SimMode::Cold ? std::make_optional<KernelStats>() : std::nullopt;
  if (cold) cold->kernel = kernel;
  if (cached) {
    cached->kernel = kernel;
    cached->mode = KernelMode::Cached;
  }
  for (auto* k : {&cold, &cached})
    if (*k) {
      const auto flops = opts_.flops.find(kernel.id);
      if (flops != opts_.flops.end()) (*k)->kernel.flops = flops->second;
    }
  units = zero_units(cfg_.gpu.sm_count);
  rows_ = InstrTable();
  placement_ = KernelPlacement{};
  if (cached) {
    // Where the kernel's CTAs run decides what the shared-memory carve-out leaves the L1s.
    placement_ = place_kernel(cached->kernel, cfg_);
    cached->resident_ctas_per_sm = placement_.resident_ctas_per_sm;
    cached->carveout_kb = placement_.carveout_kb;
    cached->l1_bytes = placement_.l1_bytes;
  }
}

void KernelFrame::add_row(const InstrStats& row) {
  if (cold) cold->instructions.push_back(row);
  if (cached) cached->instructions.push_back(row);
}

void KernelFrame::finish_kernel(std::optional<KernelStats>& cold,
                                std::optional<KernelStats>& cached, const TrafficProfile& units,
                                const SimConfig& cfg, const RunOptions& opts,
                                std::vector<KernelStats>& out) {
  for (auto* entry : {&cold, &cached}) {
    if (!*entry) continue;
    KernelStats& k = **entry;
    // Unit-level traffic common to both modes (the mode's own L2 and DRAM profile is there).
    k.traffic.sm_l1_sectors = units.sm_l1_sectors;
    k.traffic.sm_l1_tag_lookups = units.sm_l1_tag_lookups;
    k.traffic.sm_l1_data_wavefronts = units.sm_l1_data_wavefronts;
    k.traffic.sm_shared_wavefronts = units.sm_shared_wavefronts;
    k.traffic.load_requests = units.load_requests;
    for (const InstrStats& row : k.instructions)
      k.totals[static_cast<int>(op_class(row.op))] += row.c;
    k.time = estimate_time(k, cfg);
    k.roofline = roofline(k, cfg);
    if (!opts.keep_unit_traffic) {
      TrafficProfile& t = k.traffic;
      for (auto* v : {&t.sm_l1_sectors, &t.sm_l1_tag_lookups, &t.sm_l1_data_wavefronts,
                      &t.sm_shared_wavefronts, &t.l2_slice_sectors, &t.dram.channel_bytes})
        std::vector<std::uint64_t>().swap(*v);
    }
    out.push_back(std::move(k));
  }
}

}  // namespace gms
