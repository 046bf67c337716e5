#include "sim/layout/vector_merge.h"

#include <algorithm>
#include <bit>

namespace gms {

namespace {

/// How far ahead a warp's next access is looked for among other warps' records.
constexpr std::size_t kWindow = 64;
constexpr std::uint32_t kWidest = 16;  ///< a vector access moves at most 16 bytes a lane

bool mergeable_op(Op op) {
  return op == Op::LDG || op == Op::STG || op == Op::LDS || op == Op::STS || op == Op::LDL ||
         op == Op::STL;
}

bool same_warp(const WarpInstr& a, const WarpInstr& b) {
  return a.cta == b.cta && a.warp == b.warp && a.sm == b.sm;
}

/// Every active lane of `b` is `offset` bytes past its lane in `a`.
bool follows(const WarpInstr& a, const WarpInstr& b, Addr offset) {
  for (LaneMask m = a.mask; m != 0; m &= m - 1) {
    const auto t = std::countr_zero(m);
    if (b.addr[t] != a.addr[t] + offset) return false;
  }
  return true;
}

bool aligned(const WarpInstr& a, Addr width) {
  for (LaneMask m = a.mask; m != 0; m &= m - 1)
    if (a.addr[std::countr_zero(m)] % width != 0) return false;
  return true;
}

}  // namespace

std::size_t merge_vector_runs(std::span<WarpInstr> batch, const std::vector<std::uint32_t>& listed,
                              std::uint64_t& merged) {
  auto is_listed = [&](std::uint32_t inst) {
    return std::find(listed.begin(), listed.end(), inst) != listed.end();
  };
  const std::size_t n = batch.size();
  bool dropped = false;
  for (std::size_t i = 0; i < n; ++i) {
    WarpInstr& a = batch[i];
    if (a.mask == 0 || !mergeable_op(a.op) || a.size >= kWidest || !is_listed(a.inst)) continue;
    if (!a.lanes_complete) complete_strided_lanes(a);
    // The run: the warp's next accesses, each continuing the one before.
    std::size_t run[kWidest];
    std::size_t len = 0;
    Addr bytes = a.size;
    for (std::size_t k = i + 1; k < n && k <= i + kWindow && bytes < kWidest; ++k) {
      WarpInstr& b = batch[k];
      if (b.mask == 0 || !same_warp(a, b)) continue;
      if (!b.lanes_complete) complete_strided_lanes(b);
      if (!is_listed(b.inst) || b.op != a.op || b.size != a.size || b.mask != a.mask ||
          !follows(a, b, bytes))
        break;
      run[len++] = k;
      bytes += a.size;
    }
    // The widest power of two the run and the lanes' alignment allow.
    Addr width = std::bit_floor(bytes);
    while (width > a.size && !aligned(a, width)) width /= 2;
    if (width == a.size) continue;
    const std::size_t absorbed = width / a.size - 1;
    // An absorbed access's instruction goes; the instructions its warp issued before it stay
    // (the timed order's issue cycles, WarpInstr::instrs_before), carried by the merged one.
    // A later record's waits_for_load still counts the absorbed loads, so in a timed what-if it
    // may wait for a load older than the one it uses (never a newer one).
    for (std::size_t r = 0; r < absorbed; ++r) {
      a.instrs_before += batch[run[r]].instrs_before;
      batch[run[r]].mask = 0;
    }
    a.size = static_cast<std::uint8_t>(width);  // the lanes' addresses stay the first's
    ++merged;
    dropped = true;
  }
  if (!dropped) return n;
  const auto end =
      std::remove_if(batch.begin(), batch.end(), [](const WarpInstr& w) { return w.mask == 0; });
  return static_cast<std::size_t>(end - batch.begin());
}

}  // namespace gms
