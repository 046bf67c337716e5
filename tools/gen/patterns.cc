// The pattern table and its dispatch.
#include "tools/gen/patterns.h"

#include <array>

#include "sim/core/error.h"
#include "tools/gen/families.h"

namespace gms::gen {
namespace {

using namespace detail;

// Parameter sets shared by families.
constexpr std::uint32_t kLanes = kParamKernelId | kParamWarps | kParamBlock | kParamBase |
                                 kParamOffset | kParamElem | kParamMask | kParamOp;
constexpr std::uint32_t kShared =
    kParamKernelId | kParamWarps | kParamBlock | kParamBase | kParamElem | kParamMask | kParamOp;
constexpr std::uint32_t kMatmul = kParamKernelId | kParamBase | kParamN | kParamTile;
constexpr std::uint32_t kBulk = kParamKernelId | kParamBase | kParamRecords | kParamFootprint;

#define GMS_ROW(name, summary, params)                     \
  PatternInfo {                                            \
#name, summary, params, &validate_##name, &emit_##name \
  }

constexpr std::array kPatterns{
    GMS_ROW(sequential, "lane t reads base+offset+elem*t (A1, A2 offset 8, B1, B9 base 64)",
            kLanes),
    GMS_ROW(strided, "lane t reads elem*stride*t (A3 2, A4 8, A5 1024, B2a 2, B2b 32)",
            kLanes | kParamStride),
    GMS_ROW(reversed, "lane t reads elem*(31-t) (A6)", kLanes),
    GMS_ROW(broadcast, "every lane reads base+offset (A7, B4)", kLanes),
    GMS_ROW(one_lane, "only --lane is active, reading elem*t (B3)",
            (kLanes & ~kParamMask) | kParamLane),
    GMS_ROW(matrix_row, "row walk of a row-major n x n matrix: elem*t (A8a row)", kLanes | kParamN),
    GMS_ROW(matrix_column, "column walk of a row-major n x n matrix: elem*n*t (A8a column)",
            kLanes | kParamN),
    GMS_ROW(mixed_warp, "t<16: 4t, else 4000+256(t-16) (A8b)",
            kParamKernelId | kParamWarps | kParamBlock | kParamBase | kParamOp),
    GMS_ROW(aos_field, "one field of an array of structs: struct_bytes*t+field*elem (A9, B5, B7)",
            kLanes | kParamStructBytes | kParamField),
    GMS_ROW(aos_all, "every field of an array of structs, one instruction each (B5 AoS)",
            kLanes | kParamStructBytes),
    GMS_ROW(soa_all, "the same fields as separate arrays, one instruction each (B5 SoA)",
            kLanes | kParamStructBytes),
    GMS_ROW(smem_stride, "shared: lane t reads word t*stride of elem bytes (C, 8/16-byte)",
            kShared | kParamStride),
    GMS_ROW(smem_broadcast, "shared: every lane reads one word (B4s, 8-byte broadcast)", kShared),
    GMS_ROW(smem_tile_column, "shared: lane i reads tile[i][warp] of tile[32][n] (B6, n=32/33)",
            kShared | kParamN),
    GMS_ROW(matmul_naive, "C = A x B, n x n floats, T x T CTAs, LDG of A and B per k (D)", kMatmul),
    GMS_ROW(matmul_tiled, "C = A x B through T x T shared tiles: LDG+STS, LDS, STG (D, B8)",
            kMatmul),
    GMS_ROW(vector_add, "c = a + b over n floats, 256-thread CTAs: no reuse (D)",
            kParamKernelId | kParamBase | kParamN),
    GMS_ROW(stream, "bulk: unit-stride LDG then STG per warp, --records instructions",
            kBulk | kParamElem),
    GMS_ROW(stream_lists, "bulk: the stream as address lists (as NVBit captures it)",
            kBulk | kParamElem),
    GMS_ROW(random, "bulk: LDG of 32 distinct random sectors per warp over --footprint",
            kBulk | kParamSeed),
    GMS_ROW(pointer_chase,
            "gpu-latency's chase: a warm-up lap, then --n dependent loads along one random cycle "
            "of --footprint / (--elem x --stride) elements",
            kParamKernelId | kParamWarps | kParamBase | kParamElem | kParamStride | kParamMask |
                kParamN | kParamFootprint | kParamSeed | kParamShmem | kParamCarveout |
                kParamRewarm),
    GMS_ROW(stream_occupancy,
            "gpu-stream: one element per thread of --kind read/write/copy/triad, --block threads, "
            "--shmem and --carveout set CTAs per SM",
            kParamKernelId | kParamBlock | kParamBase | kParamElem | kParamFootprint | kParamKind |
                kParamShmem | kParamCarveout | kParamLoadsInFlight),
    GMS_ROW(cta_reuse,
            "gpu-l2-cache: CTA b reads data set b mod R (--n loads per thread), R = --footprint "
            "/ (--block x --n x --elem); a warm-up kernel reads each set once, then --ctas CTAs "
            "read theirs --passes times",
            kParamKernelId | kParamBlock | kParamBase | kParamElem | kParamN | kParamFootprint |
                kParamCtas | kParamPasses | kParamLoadsInFlight),
};

#undef GMS_ROW

}  // namespace

std::span<const PatternInfo> patterns() {
  return kPatterns;
}

const PatternInfo* find_pattern(std::string_view name) {
  for (const PatternInfo& p : kPatterns)
    if (p.name == name) return &p;
  return nullptr;
}

void validate(std::string_view name, const GenParams& p) {
  const PatternInfo* info = find_pattern(name);
  if (info == nullptr) fail("unknown pattern '{}' (see 'gpumemsim gen --list')", name);
  if ((info->params & kParamElem) && !valid_access_size(p.elem_bytes))
    fail("--elem must be 1, 2, 4, 8 or 16, not {}", p.elem_bytes);
  if ((info->params & kParamMask) && p.mask == 0) fail("--mask must have at least one lane");
  info->validate(p);
}

void generate(std::string_view name, const GenParams& p, trace::TraceWriter& writer) {
  validate(name, p);
  find_pattern(name)->emit(p, writer);
}

namespace detail {

void check_op(const GenParams& p, bool shared) {
  if (!p.op) return;
  if (is_shared(*p.op) != shared)
    fail("--op {} is not a {} operation", op_name(*p.op), shared ? "shared (LDS, STS)" : "global");
}

}  // namespace detail
}  // namespace gms::gen
