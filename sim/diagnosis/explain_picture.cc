#include "sim/diagnosis/explain_picture.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "sim/model/coalescer.h"
#include "sim/model/smem_arbiter.h"
#include "sim/report/html/svg_chart.h"

namespace gms {

namespace {

constexpr int kWidth = 520, kLaneY = 48, kTargetY = 190, kBox = 12;
/// At most this many sectors are drawn; lanes whose sector is past them point to the last box.
constexpr std::size_t kMaxSectors = 32;

double slot_x(std::size_t i, std::size_t n) {
  const double step =
      static_cast<double>(kWidth - 40) / static_cast<double>(std::max<std::size_t>(n, 1));
  return 20 + step * (static_cast<double>(i) + 0.5);
}

}  // namespace

std::string warp_picture(const WarpInstr& w, const SimConfig& cfg, const std::string& title) {
  const bool shared = is_shared(w.op);
  // Where each active lane lands: its bank, or the rank of its sector among the distinct ones.
  std::array<int, kWarpSize> target{};
  std::size_t targets = 0;
  std::string count;
  if (shared) {
    targets = cfg.shared.banks;
    for (LaneMask m = w.mask; m != 0; m &= m - 1) {
      const auto t = std::countr_zero(m);
      target[t] = static_cast<int>(w.addr[t] / cfg.shared.bank_width_bytes % cfg.shared.banks);
    }
    const SmemArbiter arb(cfg.shared);
    count = fmt::format("{} wavefront(s)", arb.arbitrate(w).wavefronts);
  } else {
    std::vector<Addr> sectors;
    for (LaneMask m = w.mask; m != 0; m &= m - 1)
      sectors.push_back(w.addr[std::countr_zero(m)] / kSectorBytes);
    std::sort(sectors.begin(), sectors.end());
    sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
    targets = std::min(sectors.size(), kMaxSectors);
    for (LaneMask m = w.mask; m != 0; m &= m - 1) {
      const auto t = std::countr_zero(m);
      const auto at = std::lower_bound(sectors.begin(), sectors.end(), w.addr[t] / kSectorBytes);
      target[t] = static_cast<int>(std::min<std::size_t>(at - sectors.begin(), targets - 1));
    }
    CoalescedAccess c;
    Coalescer(cfg.coalescer).coalesce(w, c);
    count = fmt::format("{} sector(s)", c.sectors);
  }
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\">"
      "<text x=\"10\" y=\"18\" font-size=\"13\">{}: {}</text>"
      "<text x=\"10\" y=\"{}\" font-size=\"11\">lanes</text>"
      "<text x=\"10\" y=\"{}\" font-size=\"11\">{}</text>",
      kWidth, kTargetY + 40, svg::escape(title), count, kLaneY - 6, kTargetY + 30,
      shared ? "banks" : "sectors, in address order");
  for (LaneMask m = w.mask; m != 0; m &= m - 1) {
    const auto t = std::countr_zero(m);
    svg += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#4a78b5\" "
        "stroke-width=\"1\"/>",
        slot_x(t, kWarpSize), kLaneY + kBox, slot_x(target[t], targets), kTargetY);
  }
  for (unsigned t = 0; t < kWarpSize; ++t)
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                       slot_x(t, kWarpSize) - kBox / 2.0, kLaneY, kBox, kBox,
                       (w.mask >> t & 1) ? "#4a78b5" : "#dddddd");
  for (std::size_t i = 0; i < targets; ++i)
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#e0a040\"/>",
                       slot_x(i, targets) - kBox / 2.0, kTargetY, kBox, kBox);
  return svg + "</svg>";
}

}  // namespace gms
