// The address patterns of two published microbenchmarks, so their results can be replayed:
// a pointer chase (latency versus footprint) and a one-element-per-thread stream (bandwidth
// versus occupancy). tests/fidelity/ replays them against the measurements.
#include <numeric>
#include <vector>

#include "sim/core/error.h"
#include "tools/gen/emit.h"
#include "tools/gen/families.h"

namespace gms::gen::detail {
namespace {

constexpr std::uint64_t kChaseFootprint = std::uint64_t{1} << 20;
constexpr std::uint64_t kStreamOccFootprint = std::uint64_t{128} << 20;
constexpr std::uint32_t kStreamOccBlock = 256;

std::uint64_t chase_footprint(const GenParams& p) {
  return p.footprint != 0 ? p.footprint : kChaseFootprint;
}

std::uint64_t chase_spacing(const GenParams& p) {
  return std::uint64_t{p.elem_bytes} * p.stride_elems;
}

std::uint64_t stream_occ_footprint(const GenParams& p) {
  return p.footprint != 0 ? p.footprint : kStreamOccFootprint;
}

std::uint32_t stream_occ_block(const GenParams& p) {
  return p.block != 0 ? p.block : kStreamOccBlock;
}

/// The `#kernel` line of a microbenchmark: make_kernel's keys, then `carveout_kb` when the
/// generator was given one, then `extra` (key, value) pairs.
KernelInfo bench_kernel(const GenParams& p, std::uint32_t id, std::string_view name, Dim3 grid,
                        Dim3 block, std::vector<std::pair<std::string, std::string>> extra = {}) {
  KernelInfo k = make_kernel(id, name, grid, block, p.shmem, 0);
  if (p.carveout_kb) k.params.emplace_back("carveout_kb", std::to_string(*p.carveout_kb));
  for (auto& kv : extra) k.params.push_back(std::move(kv));
  return k;
}

}  // namespace

void validate_pointer_chase(const GenParams& p) {
  if (p.stride_elems == 0) fail("--stride (the element spacing) must be at least 1");
  const std::uint64_t spacing = chase_spacing(p);
  const std::uint64_t footprint = chase_footprint(p);
  if (footprint % spacing != 0 || footprint / spacing < 2)
    fail(
        "--footprint {} must be a multiple of the spacing (--elem x --stride = {} bytes) of at "
        "least two elements",
        footprint, spacing);
  if (footprint / spacing > 0xffffffffull)
    fail("--footprint {} holds more than 2^32 elements", footprint);
  if (p.warps == 0 || p.warps > 32) fail("--warps must be 1 to 32 (one CTA), not {}", p.warps);
}

void emit_pointer_chase(const GenParams& p, trace::TraceWriter& w) {
  // The chain: a random cyclic permutation of the elements (Sattolo's algorithm, one cycle
  // through all of them), element i at base + i x spacing. Every active lane of every warp
  // follows the same chain (all lanes load the same address, as gpu-latency does); each load's
  // address is the value the previous one returned, so a warp has one load in flight, which
  // the `#kernel` line says as loads_in_flight=1.
  const std::uint64_t spacing = chase_spacing(p);
  const auto elems = static_cast<std::uint32_t>(chase_footprint(p) / spacing);
  std::vector<std::uint32_t> next(elems);
  std::iota(next.begin(), next.end(), 0u);
  SplitMix64 rng(p.seed);
  for (std::uint32_t i = elems - 1; i > 0; --i) std::swap(next[i], next[rng.below(i)]);

  const Dim3 grid{1, 1, 1};
  const Dim3 block{static_cast<std::uint32_t>(p.warps) * kWarpSize, 1, 1};
  const std::vector<std::pair<std::string, std::string>> serial = {{"loads_in_flight", "1"}};
  // A warm-up kernel walks the whole cycle once (so the measured kernel finds the L2 warm when
  // the L2 persists across kernels), then the measured kernel makes --n loads (default a lap).
  const std::uint64_t laps[2] = {elems, p.n != 0 ? p.n : elems};
  const std::string_view names[2] = {"pointer_chase_warmup", "pointer_chase"};
  for (int k = 0; k < 2; ++k) {
    w.begin_kernel(bench_kernel(p, p.kernel_id + k, names[k], grid, block, serial));
    RecordBatch batch(w);
    std::uint32_t at = 0;
    for (std::uint64_t step = 0; step < laps[k]; ++step) {
      for (std::uint32_t warp = 0; warp < p.warps; ++warp) {
        WarpInstr& r = batch.add();
        r.op = Op::LDG;
        r.size = static_cast<std::uint8_t>(p.elem_bytes);
        r.warp = warp;
        r.mask = p.mask;
        r.strided = true;  // every active lane at the same address: BASE, STRIDE 0
        for (int l = 0; l < kWarpSize; ++l)
          if (p.mask & (1u << l)) r.addr[l] = p.base + Addr{at} * spacing;
      }
      at = next[at];
    }
    batch.flush();
  }
}

void validate_stream_occupancy(const GenParams& p) {
  const std::uint32_t block = stream_occ_block(p);
  if (block % kWarpSize != 0 || block > 1024)
    fail("--block must be a multiple of 32 up to 1024, not {}", block);
  const std::uint64_t footprint = stream_occ_footprint(p);
  if (footprint % p.elem_bytes != 0 || footprint == 0)
    fail("--footprint {} must be a positive multiple of --elem {}", footprint, p.elem_bytes);
  if (footprint / p.elem_bytes / block >= 0xffffffffull)
    fail("--footprint {} needs too many CTAs", footprint);
}

void emit_stream_occupancy(const GenParams& p, trace::TraceWriter& w) {
  // Thread t of the grid handles element t of each array: dst a at base, sources b and c after
  // it (one footprint apart). read: t = b[t]; write: a[t] = x; copy: a[t] = s * b[t]; triad:
  // a[t] = s * b[t] + c[t]. The last CTA's threads past the end are inactive.
  const std::uint64_t footprint = stream_occ_footprint(p);
  const std::uint64_t elems = footprint / p.elem_bytes;
  const std::uint32_t block = stream_occ_block(p);
  const std::uint64_t ctas = (elems + block - 1) / block;
  const std::uint32_t warps_per_cta = block / kWarpSize;
  const Addr a = p.base, b = p.base + footprint, c = p.base + 2 * footprint;
  struct Access {
    Op op;
    Addr array;
  };
  std::vector<Access> body;
  switch (p.kind) {
    case StreamKind::Read:
      body = {{Op::LDG, b}};
      break;
    case StreamKind::Write:
      body = {{Op::STG, a}};
      break;
    case StreamKind::Copy:
      body = {{Op::LDG, b}, {Op::STG, a}};
      break;
    case StreamKind::Triad:
      body = {{Op::LDG, b}, {Op::LDG, c}, {Op::STG, a}};
      break;
  }
  static constexpr std::string_view kNames[] = {"stream_read", "stream_write", "stream_copy",
                                                "stream_triad"};
  w.begin_kernel(bench_kernel(p, p.kernel_id, kNames[static_cast<int>(p.kind)],
                              {static_cast<std::uint32_t>(ctas), 1, 1}, {block, 1, 1}));
  RecordBatch batch(w);
  for (std::uint64_t warp = 0; warp < ctas * warps_per_cta; ++warp) {
    const std::uint64_t first = warp * kWarpSize;
    if (first >= elems) continue;  // a warp of the last CTA with no element
    const std::uint64_t active = std::min<std::uint64_t>(kWarpSize, elems - first);
    for (std::size_t i = 0; i < body.size(); ++i) {
      WarpInstr& r = batch.add();
      r.inst = static_cast<std::uint32_t>(i);
      r.op = body[i].op;
      r.size = static_cast<std::uint8_t>(p.elem_bytes);
      r.cta = static_cast<std::uint32_t>(warp / warps_per_cta);
      r.warp = static_cast<std::uint32_t>(warp % warps_per_cta);
      r.mask = active == kWarpSize ? ~LaneMask{0} : (LaneMask{1} << active) - 1;
      r.strided = true;
      r.stride = p.elem_bytes;
      for (std::uint64_t l = 0; l < active; ++l)
        r.addr[l] = body[i].array + (first + l) * p.elem_bytes;
    }
  }
  batch.flush();
}

}  // namespace gms::gen::detail
