#pragma once
/// Typed parameters of the synthetic trace generator, and the table that names them for the
/// command line (`gpumemsim gen --help` is built from it, so the two cannot drift apart).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "sim/core/types.h"

namespace gms::gen {

/// One bit per generator parameter; a pattern lists the ones it reads as a mask of these.
enum Param : std::uint32_t {
  kParamKernelId = 1u << 0,
  kParamWarps = 1u << 1,
  kParamBlock = 1u << 2,
  kParamBase = 1u << 3,
  kParamOffset = 1u << 4,
  kParamElem = 1u << 5,
  kParamStride = 1u << 6,
  kParamMask = 1u << 7,
  kParamLane = 1u << 8,
  kParamOp = 1u << 9,
  kParamN = 1u << 10,
  kParamTile = 1u << 11,
  kParamStructBytes = 1u << 12,
  kParamField = 1u << 13,
  kParamRecords = 1u << 14,
  kParamFootprint = 1u << 15,
  kParamSeed = 1u << 16,
  kParamKind = 1u << 17,
  kParamShmem = 1u << 18,
  kParamCarveout = 1u << 19,
  kParamCtas = 1u << 20,
  kParamLoadsInFlight = 1u << 21,
  kParamPasses = 1u << 22,
  kParamRewarm = 1u << 23,
};

/// The kernels of `stream_occupancy` (gpu-stream's init, read, scale and triad).
enum class StreamKind : std::uint8_t { Read, Write, Copy, Triad };

/// Every knob of every pattern, with the defaults of docs/examples.md (one warp of 32 lanes, 4-byte
/// elements, base 0, all lanes active). A pattern reads only the fields of its parameter mask.
struct GenParams {
  std::uint32_t kernel_id = 1;         ///< `id` of the emitted `#kernel` line
  std::uint64_t warps = 1;             ///< warps of a lane-address pattern (one record each)
  std::uint32_t block = 0;             ///< threads per CTA (multiple of 32); 0 = up to 8 warps
  Addr base = 0;                       ///< first byte of the data (shared: offset in the window)
  std::uint64_t offset_bytes = 0;      ///< added to every address (misalignment)
  std::uint32_t elem_bytes = 4;        ///< bytes per lane access: 1, 2, 4, 8 or 16
  std::uint64_t stride_elems = 1;      ///< distance between neighbouring lanes, in elements
  LaneMask mask = 0xffffffffu;         ///< active lanes
  std::uint32_t lane = 0;              ///< the active lane of `one_lane`
  std::optional<Op> op;                ///< memory operation; unset = the pattern's own
  std::uint64_t n = 0;                 ///< matrix dimension or row length; 0 = pattern default
  std::uint32_t tile = 16;             ///< tile width T of the matrix products (block T x T)
  std::uint32_t struct_bytes = 12;     ///< size of one struct of an array of structs
  std::uint32_t field = 0;             ///< field index (in elements) read by `aos_field`
  std::uint64_t records = 1000000;     ///< warp instructions of the bulk patterns
  std::uint64_t footprint = 0;         ///< bytes touched by the bulk patterns; 0 = default
  std::uint64_t seed = 1;              ///< seed of `random` (fixed, so traces are reproducible)
  StreamKind kind = StreamKind::Read;  ///< kernel of `stream_occupancy`
  std::uint64_t shmem = 0;             ///< shared memory per CTA on the `#kernel` line
  std::optional<std::uint32_t> carveout_kb;  ///< `carveout_kb` of the `#kernel` line; unset: none
  std::uint64_t ctas = 0;    ///< CTAs of cta_reuse's measured kernel; 0 = twice its data sets
  std::uint64_t passes = 1;  ///< times each CTA of cta_reuse's measured kernel reads its set
  /// `loads_in_flight` of the `#kernel` line (a kernel's own memory-level parallelism, e.g. the
  /// independent loads of an unrolled loop); 0: none, the replay uses the preset's.
  std::uint32_t loads_in_flight = 0;
  /// pointer_chase: loads of a first chase, written with its own warm-up lap before the warm-up
  /// and the measured chase; 0: none.
  std::uint64_t rewarm = 0;
};

/// Describes one parameter for the command line: `--option VALUE`.
struct ParamSpec {
  Param bit;
  std::string_view option;  ///< long option name, e.g. "stride"
  std::string_view help;    ///< one line, with the default
};

/// All parameters, in the order `--help` lists them.
std::span<const ParamSpec> param_specs();

/// Stores the textual value of parameter `bit` into `p`. Integers accept decimal or 0x hex and
/// the binary suffixes K, M, G (e.g. "1G" = 2^30); `op` takes a wtrace mnemonic, `kind` read,
/// write, copy or triad. Throws SimError
/// naming the option on a malformed or out-of-range value.
void set_param(GenParams& p, Param bit, const std::string& value);

/// Parses an unsigned integer as set_param does; `what` names it in the error message.
std::uint64_t parse_u64(std::string_view text, std::string_view what);

/// Names of the parameters of a mask, as "--a, --b" for messages and help.
std::string param_names(std::uint32_t mask);

}  // namespace gms::gen
