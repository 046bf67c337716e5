// Generator parameters: the option table and value parsing.
#include "tools/gen/params.h"

#include <array>
#include <charconv>
#include <limits>

#include "sim/core/error.h"

namespace gms::gen {
namespace {

constexpr std::array kSpecs{
    ParamSpec{kParamKernelId, "id", "kernel id of the #kernel line (default 1)"},
    ParamSpec{kParamWarps, "warps", "number of warps, one record per warp and field (default 1)"},
    ParamSpec{kParamBlock, "block", "threads per CTA, a multiple of 32 (default: up to 256)"},
    ParamSpec{kParamBase, "base", "base byte address of the data (default 0)"},
    ParamSpec{kParamOffset, "offset", "bytes added to every address, e.g. 8 (default 0)"},
    ParamSpec{kParamElem, "elem", "bytes per lane access: 1, 2, 4, 8, 16 (default 4)"},
    ParamSpec{kParamStride, "stride",
              "lane-to-lane distance in elements; pointer_chase: element spacing (default 1)"},
    ParamSpec{kParamMask, "mask", "active lanes as a 32-bit mask (default 0xffffffff)"},
    ParamSpec{kParamLane, "lane", "the single active lane of one_lane (default 0)"},
    ParamSpec{kParamOp, "op", "memory operation, e.g. LDG, STG, LDS, STS (default per pattern)"},
    ParamSpec{kParamN, "n",
              "matrix size N or row length (default: matrix_* 1024, smem_tile_column 32, "
              "matmul_* 64, vector_add 1M); pointer_chase: measured loads (default one lap); "
              "cta_reuse: loads per thread (default 64)"},
    ParamSpec{kParamTile, "tile", "tile width T; CTAs are T x T threads (default 16)"},
    ParamSpec{kParamStructBytes, "struct-bytes", "bytes per struct of an AoS (default 12)"},
    ParamSpec{kParamField, "field", "struct field read by aos_field, in elements (default 0)"},
    ParamSpec{kParamRecords, "records", "warp instructions of stream/random (default 1M)"},
    ParamSpec{kParamFootprint, "footprint",
              "bytes per array of stream (default 256M), random (1G), pointer_chase (1M) or "
              "stream_occupancy (128M); cta_reuse: all data sets together (default 3 sets)"},
    ParamSpec{kParamSeed, "seed", "random seed (default 1)"},
    ParamSpec{kParamKind, "kind",
              "stream_occupancy kernel: read, write, copy, triad (default read)"},
    ParamSpec{kParamShmem, "shmem",
              "shared memory per CTA in bytes, on the #kernel line (default 0)"},
    ParamSpec{kParamCarveout, "carveout",
              "carve-out in KiB written as the #kernel line's carveout_kb (default: none)"},
    ParamSpec{kParamCtas, "ctas",
              "CTAs of cta_reuse's measured kernel (default: twice its data sets)"},
    ParamSpec{kParamPasses, "passes",
              "times each CTA of cta_reuse's measured kernel reads its data set, one after "
              "another (default 1; gpu-cache's CTAs reread theirs)"},
    ParamSpec{kParamRewarm, "rewarm",
              "pointer_chase: first a warm-up lap and this many loads, then the warm-up lap and "
              "the --n loads again, ids --id to --id + 3 (default: none)"},
    ParamSpec{kParamLoadsInFlight, "loads-in-flight",
              "independent loads a warp keeps in flight, written as the #kernel line's "
              "loads_in_flight (default: none, the preset's gpu.loads_in_flight_per_warp)"},
};

template <class T>
T narrow(std::uint64_t v, std::string_view what) {
  if (v > std::numeric_limits<T>::max()) fail("--{}: {} is too large", what, v);
  return static_cast<T>(v);
}

}  // namespace

std::span<const ParamSpec> param_specs() {
  return kSpecs;
}

std::uint64_t parse_u64(std::string_view text, std::string_view what) {
  std::string_view digits = text;
  int base = 10;
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint64_t value = 0;
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, value, base);
  if (digits.empty() || ec == std::errc::invalid_argument)
    fail("--{}: '{}' is not an unsigned integer", what, text);
  if (ec == std::errc::result_out_of_range) fail("--{}: '{}' is out of range", what, text);
  const std::string_view suffix(ptr, static_cast<std::size_t>(end - ptr));
  unsigned shift = 0;
  if (suffix == "K" || suffix == "Ki")
    shift = 10;
  else if (suffix == "M" || suffix == "Mi")
    shift = 20;
  else if (suffix == "G" || suffix == "Gi")
    shift = 30;
  else if (!suffix.empty())
    fail("--{}: '{}' is not an unsigned integer", what, text);
  if (shift != 0 && value > (std::numeric_limits<std::uint64_t>::max() >> shift))
    fail("--{}: '{}' is out of range", what, text);
  return value << shift;
}

void set_param(GenParams& p, Param bit, const std::string& value) {
  std::string_view name = "?";
  for (const ParamSpec& s : kSpecs)
    if (s.bit == bit) name = s.option;
  if (bit == kParamOp) {
    p.op = parse_op(value);
    if (!p.op) fail("--op: unknown operation '{}' (LDG STG LDS STS LDL STL ATOMG RED)", value);
    return;
  }
  if (bit == kParamKind) {
    if (value == "read")
      p.kind = StreamKind::Read;
    else if (value == "write")
      p.kind = StreamKind::Write;
    else if (value == "copy")
      p.kind = StreamKind::Copy;
    else if (value == "triad")
      p.kind = StreamKind::Triad;
    else
      fail("--kind: unknown kernel '{}' (read, write, copy, triad)", value);
    return;
  }
  const std::uint64_t v = parse_u64(value, name);
  switch (bit) {
    case kParamKernelId:
      p.kernel_id = narrow<std::uint32_t>(v, name);
      break;
    case kParamWarps:
      p.warps = v;
      break;
    case kParamBlock:
      p.block = narrow<std::uint32_t>(v, name);
      break;
    case kParamBase:
      p.base = v;
      break;
    case kParamOffset:
      p.offset_bytes = v;
      break;
    case kParamElem:
      p.elem_bytes = narrow<std::uint32_t>(v, name);
      break;
    case kParamStride:
      p.stride_elems = v;
      break;
    case kParamMask:
      p.mask = narrow<LaneMask>(v, name);
      break;
    case kParamLane:
      p.lane = narrow<std::uint32_t>(v, name);
      break;
    case kParamN:
      p.n = v;
      break;
    case kParamTile:
      p.tile = narrow<std::uint32_t>(v, name);
      break;
    case kParamStructBytes:
      p.struct_bytes = narrow<std::uint32_t>(v, name);
      break;
    case kParamField:
      p.field = narrow<std::uint32_t>(v, name);
      break;
    case kParamRecords:
      p.records = v;
      break;
    case kParamFootprint:
      p.footprint = v;
      break;
    case kParamSeed:
      p.seed = v;
      break;
    case kParamShmem:
      p.shmem = v;
      break;
    case kParamCarveout:
      p.carveout_kb = narrow<std::uint32_t>(v, name);
      break;
    case kParamCtas:
      p.ctas = v;
      break;
    case kParamPasses:
      p.passes = v;
      break;
    case kParamRewarm:
      if (v == 0) fail("--{} must be at least 1", name);
      p.rewarm = v;
      break;
    case kParamLoadsInFlight:
      if (v == 0) fail("--{} must be at least 1", name);
      p.loads_in_flight = narrow<std::uint32_t>(v, name);
      break;
    case kParamOp:
    case kParamKind:
      break;
  }
}

std::string param_names(std::uint32_t mask) {
  std::string out;
  for (const ParamSpec& s : kSpecs) {
    if ((mask & s.bit) == 0) continue;
    if (!out.empty()) out += ", ";
    out += "--";
    out += s.option;
  }
  return out;
}

}  // namespace gms::gen
