// Shared-memory bank patterns (docs/examples.md B4s, B6, C). Addresses are byte offsets in the
// CTA's shared window; every CTA uses the same window, so warps repeat the pattern.
#include "sim/core/error.h"
#include "tools/gen/emit.h"
#include "tools/gen/families.h"

namespace gms::gen::detail {
namespace {

constexpr std::uint64_t kTileColumnsDefault = 32;
constexpr std::uint64_t kMaxSharedBytes = 227 * 1024;  // largest CTA window of sm_90

/// One kernel whose CTA window is `shmem` bytes; one instruction per warp.
template <class AddrFn>
void emit_shared(const GenParams& p, trace::TraceWriter& w, std::string_view name,
                 std::uint64_t shmem, AddrFn fn) {
  const LaunchShape s = shape_for_warps(p);
  const KernelInfo k =
      make_kernel(p.kernel_id, name, {s.ctas, 1, 1}, {s.warps_per_cta * kWarpSize, 1, 1}, shmem, 0);
  emit_lanes(w, k, s, p, 1, p.op.value_or(Op::LDS), p.mask, fn);
}

void check_shared(const GenParams& p, std::uint64_t shmem) {
  check_op(p, true);
  shape_for_warps(p);
  if (shmem > kMaxSharedBytes)
    fail("the pattern needs {} bytes of shared memory, more than {} per CTA", shmem,
         kMaxSharedBytes);
}

std::uint64_t stride_window(const GenParams& p) {
  return p.base + ((kWarpSize - 1) * p.stride_elems + 1) * p.elem_bytes;
}

std::uint64_t tile_columns(const GenParams& p) {
  return p.n != 0 ? p.n : kTileColumnsDefault;
}

std::uint64_t tile_window(const GenParams& p) {
  return p.base + kWarpSize * tile_columns(p) * p.elem_bytes;
}

}  // namespace

void validate_smem_stride(const GenParams& p) {
  if (p.stride_elems == 0) fail("--stride must be at least 1 (use smem_broadcast)");
  if (p.stride_elems > kMaxSharedBytes) fail("--stride {} is too large", p.stride_elems);
  check_shared(p, stride_window(p));
}
void emit_smem_stride(const GenParams& p, trace::TraceWriter& w) {
  emit_shared(p, w, "smem_stride", stride_window(p), [&](std::uint64_t, std::uint32_t t, auto) {
    return p.base + std::uint64_t{t} * p.stride_elems * p.elem_bytes;
  });
}

void validate_smem_broadcast(const GenParams& p) {
  check_shared(p, p.base + p.elem_bytes);
}
void emit_smem_broadcast(const GenParams& p, trace::TraceWriter& w) {
  emit_shared(p, w, "smem_broadcast", p.base + p.elem_bytes,
              [&](std::uint64_t, std::uint32_t, auto) { return p.base; });
}

void validate_smem_tile_column(const GenParams& p) {
  if (tile_columns(p) > kMaxSharedBytes) fail("--n {} is too large", tile_columns(p));
  check_shared(p, tile_window(p));
}
void emit_smem_tile_column(const GenParams& p, trace::TraceWriter& w) {
  // float tile[32][n]; warp w reads column w mod n, lane i row i: word i*n + column.
  const std::uint64_t n = tile_columns(p);
  emit_shared(p, w, "smem_tile_column", tile_window(p),
              [&](std::uint64_t warp, std::uint32_t lane, auto) {
                return p.base + (lane * n + warp % n) * p.elem_bytes;
              });
}

}  // namespace gms::gen::detail
