// Matrix products C = A x B of n x n floats, one thread per output element, CTAs of T x T threads
// (docs/examples.md D and B8), and the element-wise c = a + b that has no reuse. Lane addresses
// come from the kernels' own index arithmetic: row = by*T + ty, col = bx*T + tx, warp = tid / 32.
#include <algorithm>
#include <array>

#include "sim/core/error.h"
#include "tools/gen/emit.h"
#include "tools/gen/families.h"

namespace gms::gen::detail {
namespace {

constexpr std::uint64_t kMatmulDefault = 64;
constexpr std::uint64_t kVectorDefault = std::uint64_t{1} << 20;
constexpr std::uint64_t kFloat = 4;
constexpr std::uint64_t kRegionAlign = 256;

std::uint64_t round_up(std::uint64_t v, std::uint64_t a) {
  return (v + a - 1) / a * a;
}

/// Thread coordinates of the lanes of every warp of a T x T CTA.
struct CtaLanes {
  std::uint32_t warps = 0;
  std::array<LaneMask, kWarpSize> mask{};  // warps of up to 1024 threads
  std::array<std::array<std::uint32_t, kWarpSize>, kWarpSize> ty{}, tx{};

  explicit CtaLanes(std::uint32_t t) {
    const std::uint32_t threads = t * t;
    warps = (threads + kWarpSize - 1) / kWarpSize;
    for (std::uint32_t tid = 0; tid < threads; ++tid) {
      const std::uint32_t w = tid / kWarpSize, lane = tid % kWarpSize;
      mask[w] |= LaneMask{1} << lane;
      ty[w][lane] = tid / t;
      tx[w][lane] = tid % t;
    }
  }
};

/// Emits the records of one CTA; `fn(ty, tx)` is the address of thread (tx, ty).
class CtaEmitter {
 public:
  CtaEmitter(RecordBatch& batch, const CtaLanes& lanes, std::uint32_t cta)
      : batch_(batch), lanes_(lanes), cta_(cta) {}

  /// One record per warp of the CTA for static instruction `inst`.
  template <class AddrFn>
  void all_warps(std::uint32_t inst, Op op, AddrFn fn) {
    for (std::uint32_t w = 0; w < lanes_.warps; ++w) {
      WarpInstr& r = batch_.add();
      r.inst = inst;
      r.op = op;
      r.size = kFloat;
      r.cta = cta_;
      r.warp = w;
      r.mask = lanes_.mask[w];
      for (int l = 0; l < kWarpSize; ++l)
        if (r.mask & (1u << l)) r.addr[l] = fn(lanes_.ty[w][l], lanes_.tx[w][l]);
      choose_form(r);
    }
  }

 private:
  RecordBatch& batch_;
  const CtaLanes& lanes_;
  std::uint32_t cta_;
};

std::uint64_t matmul_n(const GenParams& p) {
  return p.n != 0 ? p.n : kMatmulDefault;
}

void check_matmul(const GenParams& p) {
  const std::uint64_t n = matmul_n(p);
  if (p.tile == 0 || p.tile > 32)
    fail("--tile must be 1..32 (T x T threads per CTA), not {}", p.tile);
  if (n % p.tile != 0) fail("--n {} must be a multiple of --tile {}", n, p.tile);
  if (n / p.tile > 65535) fail("--n {} needs more than 65535 CTAs per grid dimension", n);
}

/// Everything both products share: sizes, regions, launch.
struct Matmul {
  std::uint64_t n, t, grid;
  Addr a, b, c;
  explicit Matmul(const GenParams& p) : n(matmul_n(p)), t(p.tile), grid(n / p.tile), a(p.base) {
    const std::uint64_t region = round_up(n * n * kFloat, kRegionAlign);
    b = a + region;
    c = b + region;
  }
  KernelInfo kernel(const GenParams& p, std::string_view name, std::uint64_t shmem) const {
    const auto g = static_cast<std::uint32_t>(grid), tt = static_cast<std::uint32_t>(t);
    return make_kernel(p.kernel_id, name, {g, g, 1}, {tt, tt, 1}, shmem, 2 * n * n * n);
  }
};

}  // namespace

void validate_matmul_naive(const GenParams& p) {
  check_matmul(p);
}
void emit_matmul_naive(const GenParams& p, trace::TraceWriter& w) {
  // for k: sum += A[row*n + k] * B[k*n + col];  C[row*n + col] = sum;
  const Matmul m(p);
  const CtaLanes lanes(p.tile);
  w.begin_kernel(m.kernel(p, "matmul_naive", 0));
  RecordBatch batch(w);
  for (std::uint64_t cta = 0; cta < m.grid * m.grid; ++cta) {
    const std::uint64_t bx = cta % m.grid, by = cta / m.grid;
    CtaEmitter e(batch, lanes, static_cast<std::uint32_t>(cta));
    auto row = [&](std::uint32_t ty) { return by * m.t + ty; };
    auto col = [&](std::uint32_t tx) { return bx * m.t + tx; };
    for (std::uint64_t k = 0; k < m.n; ++k) {
      e.all_warps(0, Op::LDG, [&](auto ty, auto) { return m.a + (row(ty) * m.n + k) * kFloat; });
      e.all_warps(1, Op::LDG, [&](auto, auto tx) { return m.b + (k * m.n + col(tx)) * kFloat; });
    }
    e.all_warps(2, Op::STG,
                [&](auto ty, auto tx) { return m.c + (row(ty) * m.n + col(tx)) * kFloat; });
  }
  batch.flush();
}

void validate_matmul_tiled(const GenParams& p) {
  check_matmul(p);
}
void emit_matmul_tiled(const GenParams& p, trace::TraceWriter& w) {
  // for each tile step s: As[ty][tx] = A[row*n + s*T + tx]; Bs[ty][tx] = B[(s*T + ty)*n + col];
  //   sync; for k < T: sum += As[ty][k] * Bs[k][tx]; sync.   C[row*n + col] = sum;
  const Matmul m(p);
  const CtaLanes lanes(p.tile);
  const Addr as = 0, bs = m.t * m.t * kFloat;  // the two tiles in the shared window
  w.begin_kernel(m.kernel(p, "matmul_tiled", 2 * bs));
  RecordBatch batch(w);
  for (std::uint64_t cta = 0; cta < m.grid * m.grid; ++cta) {
    const std::uint64_t bx = cta % m.grid, by = cta / m.grid;
    CtaEmitter e(batch, lanes, static_cast<std::uint32_t>(cta));
    auto row = [&](std::uint32_t ty) { return by * m.t + ty; };
    auto col = [&](std::uint32_t tx) { return bx * m.t + tx; };
    auto own = [&](std::uint32_t ty, std::uint32_t tx) { return (ty * m.t + tx) * kFloat; };
    for (std::uint64_t s = 0; s < m.grid; ++s) {
      e.all_warps(0, Op::LDG,
                  [&](auto ty, auto tx) { return m.a + (row(ty) * m.n + s * m.t + tx) * kFloat; });
      e.all_warps(1, Op::STS, [&](auto ty, auto tx) { return as + own(ty, tx); });
      e.all_warps(2, Op::LDG, [&](auto ty, auto tx) {
        return m.b + ((s * m.t + ty) * m.n + col(tx)) * kFloat;
      });
      e.all_warps(3, Op::STS, [&](auto ty, auto tx) { return bs + own(ty, tx); });
      for (std::uint32_t k = 0; k < m.t; ++k) {
        e.all_warps(4, Op::LDS, [&](auto ty, auto) { return as + own(ty, k); });
        e.all_warps(5, Op::LDS, [&](auto, auto tx) { return bs + own(k, tx); });
      }
    }
    e.all_warps(6, Op::STG,
                [&](auto ty, auto tx) { return m.c + (row(ty) * m.n + col(tx)) * kFloat; });
  }
  batch.flush();
}

void validate_vector_add(const GenParams& p) {
  const std::uint64_t n = p.n != 0 ? p.n : kVectorDefault;
  if (n / 256 >= 0xffffffffu) fail("--n {} needs too many CTAs", n);
}
void emit_vector_add(const GenParams& p, trace::TraceWriter& w) {
  // i = blockIdx.x*256 + threadIdx.x; if (i < n) c[i] = a[i] + b[i];
  constexpr std::uint64_t kBlock = 256, kWarpsPerCta = kBlock / kWarpSize;
  const std::uint64_t n = p.n != 0 ? p.n : kVectorDefault;
  const std::uint64_t region = round_up(n * kFloat, kRegionAlign);
  const auto ctas = static_cast<std::uint32_t>((n + kBlock - 1) / kBlock);
  w.begin_kernel(make_kernel(p.kernel_id, "vector_add", {ctas, 1, 1}, {kBlock, 1, 1}, 0, n));
  RecordBatch batch(w);
  const std::uint64_t warps = (n + kWarpSize - 1) / kWarpSize;
  for (std::uint64_t warp = 0; warp < warps; ++warp) {
    const std::uint64_t first = warp * kWarpSize;
    const std::uint64_t active = std::min<std::uint64_t>(kWarpSize, n - first);
    const LaneMask mask = active == kWarpSize ? ~LaneMask{0} : (LaneMask{1} << active) - 1;
    for (std::uint32_t inst = 0; inst < 3; ++inst) {
      WarpInstr& r = batch.add();
      r.inst = inst;
      r.op = inst < 2 ? Op::LDG : Op::STG;
      r.size = kFloat;
      r.cta = static_cast<std::uint32_t>(warp / kWarpsPerCta);
      r.warp = static_cast<std::uint32_t>(warp % kWarpsPerCta);
      r.mask = mask;
      for (std::uint64_t l = 0; l < active; ++l)
        r.addr[l] = p.base + inst * region + (first + l) * kFloat;
      choose_form(r);
    }
  }
  batch.flush();
}

}  // namespace gms::gen::detail
