// The address patterns of three published microbenchmarks, so their results can be replayed:
// a pointer chase (latency versus footprint), a one-element-per-thread stream (bandwidth versus
// occupancy) and CTAs that reread a few data sets (L2 bandwidth versus footprint).
// tests/fidelity/ replays them against the measurements.
#include <numeric>
#include <string_view>
#include <vector>

#include "sim/core/error.h"
#include "tools/gen/emit.h"
#include "tools/gen/families.h"

namespace gms::gen::detail {
namespace {

constexpr std::uint64_t kChaseFootprint = std::uint64_t{1} << 20;
constexpr std::uint64_t kStreamOccFootprint = std::uint64_t{128} << 20;
constexpr std::uint32_t kStreamOccBlock = 256;
constexpr std::uint32_t kReuseBlock = 1024;  // gpu-l2-cache's blockSize
constexpr std::uint64_t kReuseLoads = 64;    // its N (loads per thread, 2 a trip) since 3088b33
constexpr std::uint64_t kReuseSets = 3;      // data sets of the default footprint

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

/// The `#kernel` line of a microbenchmark: make_kernel's keys, then `carveout_kb` and
/// `loads_in_flight` when the generator was given them, then `extra` (key, value) pairs.
KernelInfo bench_kernel(const GenParams& p, std::uint32_t id, std::string_view name, Dim3 grid,
                        Dim3 block, std::vector<std::pair<std::string, std::string>> extra = {}) {
  KernelInfo k = make_kernel(id, name, grid, block, p.shmem, 0);
  if (p.carveout_kb) k.params.emplace_back("carveout_kb", std::to_string(*p.carveout_kb));
  if (p.loads_in_flight != 0)
    k.params.emplace_back("loads_in_flight", std::to_string(p.loads_in_flight));
  for (auto& kv : extra) k.params.push_back(std::move(kv));
  return k;
}

std::uint32_t reuse_block(const GenParams& p) {
  return p.block != 0 ? p.block : kReuseBlock;
}

std::uint64_t reuse_loads(const GenParams& p) {
  return p.n != 0 ? p.n : kReuseLoads;
}

/// Bytes one CTA of cta_reuse reads: its data set.
std::uint64_t reuse_set_bytes(const GenParams& p) {
  return std::uint64_t{reuse_block(p)} * reuse_loads(p) * p.elem_bytes;
}

std::uint64_t reuse_sets(const GenParams& p) {
  return p.footprint != 0 ? p.footprint / reuse_set_bytes(p) : kReuseSets;
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
  if (p.kernel_id > 0xffffffffu - 3) fail("--id {} leaves no room for 4 kernel ids", p.kernel_id);
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
  // The lap's elements in chain order, walked once: every lap of both kernels starts at
  // element 0 and follows the one cycle, and a dependent walk through `next` waits on the host's
  // memory at each step once the chain outgrows its caches.
  std::vector<std::uint32_t> order(elems);
  for (std::uint32_t step = 0, at = 0; step < elems; ++step, at = next[at]) order[step] = at;

  const Dim3 grid{1, 1, 1};
  const Dim3 block{static_cast<std::uint32_t>(p.warps) * kWarpSize, 1, 1};
  const std::vector<std::pair<std::string, std::string>> serial = {{"loads_in_flight", "1"}};
  // A warm-up kernel walks the whole cycle once (so the measured kernel finds the L2 warm when
  // the L2 persists across kernels), then the measured kernel makes --n loads (default a lap).
  // --rewarm R writes a warm-up and a chase of R loads first: the two traces `gen --n R` and
  // `gen --n N` replayed one after the other, from one shuffle and walk of the chain
  // (tools/calibration/fidelity.py warms partitioned L2s with two laps so).
  struct Kernel {
    std::string_view name;
    std::uint64_t loads;
  };
  std::vector<Kernel> kernels;
  if (p.rewarm != 0) kernels = {{"pointer_chase_warmup", elems}, {"pointer_chase", p.rewarm}};
  kernels.push_back({"pointer_chase_warmup", elems});
  kernels.push_back({"pointer_chase", p.n != 0 ? p.n : elems});
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    w.begin_kernel(bench_kernel(p, p.kernel_id + static_cast<std::uint32_t>(k), kernels[k].name,
                                grid, block, serial));
    RecordBatch batch(w);
    for (std::uint64_t step = 0, i = 0; step < kernels[k].loads;
         ++step, i = i + 1 == elems ? 0 : i + 1) {
      const Addr at = p.base + Addr{order[i]} * spacing;
      for (std::uint32_t warp = 0; warp < p.warps; ++warp) {
        WarpInstr& r = batch.add();
        r.op = Op::LDG;
        r.size = static_cast<std::uint8_t>(p.elem_bytes);
        r.warp = warp;
        r.mask = p.mask;
        r.strided = true;  // every active lane at the same address: BASE, STRIDE 0
        for (int l = 0; l < kWarpSize; ++l)
          if (p.mask & (1u << l)) r.addr[l] = at;
      }
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

void validate_cta_reuse(const GenParams& p) {
  const std::uint32_t block = reuse_block(p);
  if (block % kWarpSize != 0 || block > 1024)
    fail("--block must be a multiple of 32 up to 1024, not {}", block);
  const std::uint64_t loads = reuse_loads(p);
  if (loads % 2 != 0 || loads > 0xffffffffull)
    fail("--n must be an even number of loads per thread (two a loop trip), not {}", loads);
  const std::uint64_t set = reuse_set_bytes(p);
  if (p.footprint != 0 && (p.footprint % set != 0 || p.footprint < set))
    fail(
        "--footprint {} must be a whole number of data sets of --block x --n x --elem = {} "
        "bytes",
        p.footprint, set);
  if (reuse_sets(p) > 0xffffffffull || p.ctas > 0xffffffffull)
    fail("cta_reuse: at most 2^32 data sets and CTAs");
  if (p.passes == 0) fail("--passes must be at least 1");
  if (p.passes > 0xffffffffull / loads) fail("cta_reuse: at most 2^32 loads per thread in all");
}

void emit_cta_reuse(const GenParams& p, trace::TraceWriter& w) {
  // gpu-l2-cache's sumKernel (te42kyfo/gpu-benches gpu-l2-cache/main.cu as of 3088b33): with R
  // data sets, thread t of CTA b adds B[j] x B[j + block], j = 2 x block x (R x i + b mod R) + t,
  // for i = 0 .. N/2 - 1, so CTA b reads data set b mod R (N/2 chunks of two blocks' elements,
  // 2R blocks apart) and the grid rereads all R sets cyclically, from the L2 when they fit. N is
  // a template constant, so the loop is unrolled: each of the N loads is its own instruction.
  // The benchmark times the kernel after earlier launches have left the sets in the L2; a
  // warm-up kernel of R CTAs reads each set once for that (replay with
  // l2.persist_across_kernels=true). With --passes K each CTA of the measured kernel reads its
  // set K times in a row (gpu-cache's sumKernel: one CTA per SM rereading one set, R = 1).
  const std::uint32_t block = reuse_block(p);
  const std::uint32_t warps_per_cta = block / kWarpSize;
  const std::uint64_t loads = reuse_loads(p), sets = reuse_sets(p);
  const std::uint64_t ctas[2] = {sets, p.ctas != 0 ? p.ctas : 2 * sets};
  const std::uint64_t passes[2] = {1, p.passes};
  const std::string_view names[2] = {"cta_reuse_warmup", "cta_reuse"};
  for (int k = 0; k < 2; ++k) {
    w.begin_kernel(bench_kernel(p, p.kernel_id + k, names[k],
                                {static_cast<std::uint32_t>(ctas[k]), 1, 1}, {block, 1, 1}));
    RecordBatch batch(w);
    for (std::uint64_t cta = 0; cta < ctas[k]; ++cta) {
      for (std::uint64_t read = 0; read < loads * passes[k]; ++read) {
        const std::uint64_t load = read % loads, trip = load / 2, half = load % 2;
        const std::uint64_t chunk = 2 * std::uint64_t{block} * (sets * trip + cta % sets);
        for (std::uint32_t warp = 0; warp < warps_per_cta; ++warp) {
          WarpInstr& r = batch.add();
          r.inst = static_cast<std::uint32_t>(load);
          r.op = Op::LDG;
          r.size = static_cast<std::uint8_t>(p.elem_bytes);
          r.cta = static_cast<std::uint32_t>(cta);
          r.warp = warp;
          r.mask = ~LaneMask{0};
          r.strided = true;
          r.stride = p.elem_bytes;
          const Addr lane0 = p.base + (chunk + half * block + warp * kWarpSize) * p.elem_bytes;
          for (int l = 0; l < kWarpSize; ++l)
            r.addr[l] = lane0 + static_cast<Addr>(l) * p.elem_bytes;
        }
      }
    }
    batch.flush();
  }
}

}  // namespace gms::gen::detail
