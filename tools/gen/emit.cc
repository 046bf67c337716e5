// Shared helpers of the pattern families.
#include "tools/gen/emit.h"

#include <bit>
#include <numeric>
#include <string>

#include "sim/core/error.h"

namespace gms::gen::detail {

RecordBatch::RecordBatch(trace::TraceWriter& writer, std::size_t capacity)
    : writer_(writer), buf_(capacity) {}

WarpInstr& RecordBatch::add() {
  if (size_ == buf_.size()) flush();
  WarpInstr& r = buf_[size_++];
  r = WarpInstr{};
  return r;
}

void RecordBatch::flush() {
  if (size_ == 0) return;
  writer_.write(std::span<const WarpInstr>(buf_.data(), size_));
  size_ = 0;
}

void choose_form(WarpInstr& r) {
  r.strided = false;
  r.stride = 0;
  if (r.mask == 0) return;
  const int first = std::countr_zero(r.mask);
  const LaneMask rest = r.mask & (r.mask - 1);
  if (rest == 0) {  // one lane: BASE = its address, STRIDE 0
    r.strided = true;
    return;
  }
  const int second = std::countr_zero(rest);
  const auto a0 = static_cast<std::int64_t>(r.addr[first]);
  const std::int64_t diff = static_cast<std::int64_t>(r.addr[second]) - a0;
  if (diff % (second - first) != 0) return;
  const std::int64_t stride = diff / (second - first);
  if (a0 - first * stride < 0) return;  // BASE would be negative
  for (int lane = second; lane < kWarpSize; ++lane) {
    if ((r.mask & (1u << lane)) == 0) continue;
    if (static_cast<std::int64_t>(r.addr[lane]) != a0 + (lane - first) * stride) return;
  }
  r.strided = true;
  r.stride = stride;
}

LaunchShape shape_for_warps(const GenParams& p) {
  if (p.warps == 0) fail("--warps must be at least 1");
  std::uint64_t wpc = std::gcd(p.warps, std::uint64_t{8});
  if (p.block != 0) {
    if (p.block % kWarpSize != 0 || p.block > 1024)
      fail("--block must be a multiple of 32 up to 1024, not {}", p.block);
    wpc = p.block / kWarpSize;
    if (p.warps % wpc != 0)
      fail("--warps {} is not a whole number of CTAs of {} threads", p.warps, p.block);
  }
  const std::uint64_t ctas = p.warps / wpc;
  if (ctas > 0xffffffffu) fail("--warps {} needs too many CTAs", p.warps);
  return {static_cast<std::uint32_t>(ctas), static_cast<std::uint32_t>(wpc)};
}

KernelInfo make_kernel(std::uint32_t id, std::string_view name, Dim3 grid, Dim3 block,
                       std::uint64_t shmem_bytes, std::uint64_t flops) {
  KernelInfo k;
  k.id = id;
  k.name = std::string(name);
  k.grid = grid;
  k.block = block;
  k.shmem_bytes = shmem_bytes;
  k.flops = flops;
  auto dim = [](Dim3 d) { return fmt::format("{},{},{}", d.x, d.y, d.z); };
  k.params = {{"id", std::to_string(id)},
              {"name", k.name},
              {"grid", dim(grid)},
              {"block", dim(block)},
              {"shmem", std::to_string(shmem_bytes)},
              {"flops", std::to_string(flops)}};
  return k;
}

}  // namespace gms::gen::detail
