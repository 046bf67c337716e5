// Global-memory lane-address patterns: one instruction (or one per struct field) per warp, lane t
// of warp w being global thread g = 32w + t (docs/examples.md A and B).
#include "sim/core/error.h"
#include "tools/gen/emit.h"
#include "tools/gen/families.h"

namespace gms::gen::detail {
namespace {

constexpr std::uint64_t kMatrixDefault = 1024;
constexpr Addr kMixedWarpSpan = 8192;  // bytes between warps of mixed_warp (covers 4000+256*15+4)

std::uint64_t thread_of(std::uint64_t warp, std::uint32_t lane) {
  return warp * kWarpSize + lane;
}

/// One kernel of a lane-address pattern with `insts` instructions per warp.
template <class AddrFn>
void emit_global(const GenParams& p, trace::TraceWriter& w, std::string_view name,
                 std::uint32_t insts, LaneMask mask, AddrFn fn) {
  const LaunchShape s = shape_for_warps(p);
  const KernelInfo k =
      make_kernel(p.kernel_id, name, {s.ctas, 1, 1}, {s.warps_per_cta * kWarpSize, 1, 1}, 0, 0);
  emit_lanes(w, k, s, p, insts, p.op.value_or(Op::LDG), mask, fn);
}

void check_global(const GenParams& p) {
  check_op(p, false);
  shape_for_warps(p);
}

std::uint64_t matrix_n(const GenParams& p) {
  return p.n != 0 ? p.n : kMatrixDefault;
}

void check_matrix(const GenParams& p) {
  check_global(p);
  if (p.warps * kWarpSize > matrix_n(p))
    fail("--warps {} walk {} elements, more than the matrix dimension --n {}", p.warps,
         p.warps * kWarpSize, matrix_n(p));
}

void check_struct(const GenParams& p) {
  check_global(p);
  if (p.struct_bytes == 0 || p.struct_bytes % p.elem_bytes != 0)
    fail("--struct-bytes {} must be a positive multiple of --elem {}", p.struct_bytes,
         p.elem_bytes);
}

}  // namespace

void validate_sequential(const GenParams& p) {
  check_global(p);
}
void emit_sequential(const GenParams& p, trace::TraceWriter& w) {
  emit_global(p, w, "sequential", 1, p.mask, [&](std::uint64_t warp, std::uint32_t t, auto) {
    return p.base + p.offset_bytes + p.elem_bytes * thread_of(warp, t);
  });
}

void validate_strided(const GenParams& p) {
  check_global(p);
  if (p.stride_elems == 0) fail("--stride must be at least 1 (use the broadcast pattern)");
}
void emit_strided(const GenParams& p, trace::TraceWriter& w) {
  emit_global(p, w, "strided", 1, p.mask, [&](std::uint64_t warp, std::uint32_t t, auto) {
    return p.base + p.offset_bytes + p.elem_bytes * p.stride_elems * thread_of(warp, t);
  });
}

void validate_reversed(const GenParams& p) {
  check_global(p);
}
void emit_reversed(const GenParams& p, trace::TraceWriter& w) {
  emit_global(p, w, "reversed", 1, p.mask, [&](std::uint64_t warp, std::uint32_t t, auto) {
    return p.base + p.offset_bytes + p.elem_bytes * thread_of(warp, kWarpSize - 1 - t);
  });
}

void validate_broadcast(const GenParams& p) {
  check_global(p);
}
void emit_broadcast(const GenParams& p, trace::TraceWriter& w) {
  emit_global(p, w, "broadcast", 1, p.mask,
              [&](std::uint64_t, std::uint32_t, auto) { return p.base + p.offset_bytes; });
}

void validate_one_lane(const GenParams& p) {
  check_global(p);
  if (p.lane >= kWarpSize) fail("--lane must be 0..31, not {}", p.lane);
}
void emit_one_lane(const GenParams& p, trace::TraceWriter& w) {
  emit_global(p, w, "one_lane", 1, LaneMask{1} << p.lane,
              [&](std::uint64_t warp, std::uint32_t t, auto) {
                return p.base + p.offset_bytes + p.elem_bytes * thread_of(warp, t);
              });
}

void validate_matrix_row(const GenParams& p) {
  check_matrix(p);
}
void emit_matrix_row(const GenParams& p, trace::TraceWriter& w) {
  // Row 0, columns 32w + t: element [0][g] sits at g * elem.
  emit_global(p, w, "matrix_row", 1, p.mask, [&](std::uint64_t warp, std::uint32_t t, auto) {
    return p.base + p.offset_bytes + p.elem_bytes * thread_of(warp, t);
  });
}

void validate_matrix_column(const GenParams& p) {
  check_matrix(p);
}
void emit_matrix_column(const GenParams& p, trace::TraceWriter& w) {
  // Column 0, rows 32w + t: element [g][0] sits at g * n * elem.
  const std::uint64_t n = matrix_n(p);
  emit_global(p, w, "matrix_column", 1, p.mask, [&](std::uint64_t warp, std::uint32_t t, auto) {
    return p.base + p.offset_bytes + p.elem_bytes * n * thread_of(warp, t);
  });
}

void validate_mixed_warp(const GenParams& p) {
  check_global(p);
}
void emit_mixed_warp(const GenParams& p, trace::TraceWriter& w) {
  GenParams q = p;
  q.elem_bytes = 4;  // the notes' numbers are for floats
  emit_global(q, w, "mixed_warp", 1, ~LaneMask{0}, [&](std::uint64_t warp, std::uint32_t t, auto) {
    const Addr lane_addr = t < 16 ? Addr{4} * t : 4000 + Addr{256} * (t - 16);
    return p.base + warp * kMixedWarpSpan + lane_addr;
  });
}

void validate_aos_field(const GenParams& p) {
  check_struct(p);
  if ((std::uint64_t{p.field} + 1) * p.elem_bytes > p.struct_bytes)
    fail("--field {} lies outside a {}-byte struct of {}-byte fields", p.field, p.struct_bytes,
         p.elem_bytes);
}
void emit_aos_field(const GenParams& p, trace::TraceWriter& w) {
  emit_global(p, w, "aos_field", 1, p.mask, [&](std::uint64_t warp, std::uint32_t t, auto) {
    return p.base + p.offset_bytes + p.struct_bytes * thread_of(warp, t) +
           std::uint64_t{p.field} * p.elem_bytes;
  });
}

void validate_aos_all(const GenParams& p) {
  check_struct(p);
}
void emit_aos_all(const GenParams& p, trace::TraceWriter& w) {
  emit_global(p, w, "aos_all", p.struct_bytes / p.elem_bytes, p.mask,
              [&](std::uint64_t warp, std::uint32_t t, std::uint32_t field) {
                return p.base + p.offset_bytes + p.struct_bytes * thread_of(warp, t) +
                       std::uint64_t{field} * p.elem_bytes;
              });
}

void validate_soa_all(const GenParams& p) {
  check_struct(p);
}
void emit_soa_all(const GenParams& p, trace::TraceWriter& w) {
  // Field f is its own array of warps*32 elements, the arrays back to back.
  const std::uint64_t array_bytes = p.warps * kWarpSize * p.elem_bytes;
  emit_global(p, w, "soa_all", p.struct_bytes / p.elem_bytes, p.mask,
              [&](std::uint64_t warp, std::uint32_t t, std::uint32_t field) {
                return p.base + p.offset_bytes + field * array_bytes +
                       p.elem_bytes * thread_of(warp, t);
              });
}

}  // namespace gms::gen::detail
