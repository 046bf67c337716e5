#pragma once
/// The index arithmetic of every calibration kernel (ids of docs/groundtruth.md),
/// in one place: the CUDA kernels (calibrate.cu) call these functions on the device, and the
/// host model (kernel_model.h) and the unit tests call the same functions on the CPU. Plain
/// C++20 when not compiled by nvcc.
///
/// All offsets are bytes from the start of the kernel's buffer (global) or of its shared array.
/// Every family uses 1-D grids and blocks, so the linear CTA id is blockIdx.x and the warp index
/// is threadIdx.x / 32.

#include <cstdint>

#if defined(__CUDACC__)
#define GMS_HD __host__ __device__
#else
#define GMS_HD
#endif

namespace gms::groundtruth {

// ---- Patterns, ids 1-13 (docs/examples.md A and B) ----------------------------------------
// One CTA of one warp; each active lane t loads one 4-byte float at pattern_offset(id, t).
// 13 patterns: the 12-byte and 24-byte structs are ids 12 and 13.
inline constexpr int kPatternFirstId = 1;
inline constexpr int kPatternLastId = 13;
inline constexpr std::uint64_t kPatternBufferBytes = 1u << 20;

/// Id 10 ("one active lane") runs lane 0 only; every other pattern runs all 32 lanes.
GMS_HD constexpr bool pattern_lane_active(int id, int lane) {
  return id != 10 || lane == 0;
}

GMS_HD constexpr std::uint64_t pattern_offset(int id, int t) {
  const std::uint64_t u = static_cast<std::uint64_t>(t);
  switch (id) {
    case 1:
      return 4 * u;  // A1 unit stride
    case 2:
      return 8 + 4 * u;  // A2 misaligned by 8 bytes
    case 3:
      return 64 + 4 * u;  // B9 base 64
    case 4:
      return 8 * u;  // A3 stride 2 elements
    case 5:
      return 32 * u;  // A4 stride 8 elements
    case 6:
      return 128 * u;  // B2b stride 32 elements
    case 7:
      return 4096 * u;  // A5 stride 1024 elements
    case 8:
      return 4 * (31 - u);  // A6 reversed
    case 9:
      return 0;  // A7 broadcast
    case 10:
      return 0;  // B3 lane 0 only
    case 11:
      return t < 16 ? 4 * u : 4000 + 256 * (u - 16);  // A8b mixed warp
    case 12:
      return 12 * u;  // A9/B7 12-byte struct, field x
    case 13:
      return 24 * u;  // B5 24-byte struct, one field
    default:
      return 0;
  }
}

// ---- Shared-memory banks, ids 20-28 -------------------------------------------------------
// One CTA of one warp; lane t loads smem_access_bytes(id) bytes at smem_offset(id, t) of a
// 128-byte aligned shared array of kSmemArrayBytes. 9 cases: 4-byte strides 1, 2, 3, 16, 32 (ids
// 20-24), 8-byte conflict-free, broadcast and stride 32 elements (25-27), 16-byte conflict-free
// (28).
inline constexpr int kSmemFirstId = 20;
inline constexpr int kSmemLastId = 28;
inline constexpr std::uint32_t kSmemArrayBytes = 8192;

GMS_HD constexpr std::uint32_t smem_access_bytes(int id) {
  return id <= 24 ? 4u : (id <= 27 ? 8u : 16u);
}

GMS_HD constexpr std::uint32_t smem_offset(int id, int t) {
  const std::uint32_t u = static_cast<std::uint32_t>(t);
  switch (id) {
    case 20:
      return 4 * u;  // 4-byte, stride 1 word
    case 21:
      return 8 * u;  // stride 2
    case 22:
      return 12 * u;  // stride 3
    case 23:
      return 64 * u;  // stride 16
    case 24:
      return 128 * u;  // stride 32
    case 25:
      return 8 * u;  // 8-byte, conflict-free
    case 26:
      return 0;  // 8-byte broadcast
    case 27:
      return 256 * u;  // 8-byte, stride 32 elements
    case 28:
      return 16 * u;  // 16-byte, conflict-free
    default:
      return 0;
  }
}

// ---- Streams: stream_stride 30-33, add_stream 40, copy 41, pattern_store 50-52 -------------
// Arrays of kStreamElems floats (256 MiB each, beyond the 60 MB L2). Grid-stride loop:
// thread g (blockIdx.x * blockDim.x + threadIdx.x) of kStreamThreads touches, at iteration k,
// the element (g + k * kStreamThreads) * stride, for k < stream_iterations(stride).
inline constexpr std::uint64_t kStreamElems = std::uint64_t{1} << 26;
inline constexpr std::uint32_t kStreamGrid = 1024;
inline constexpr std::uint32_t kStreamBlock = 256;
inline constexpr std::uint64_t kStreamThreads = std::uint64_t{kStreamGrid} * kStreamBlock;

/// Element stride of a stream kernel: 30-33 load at 1, 2, 8, 32; 40 and 41 at 1; 50-52 store
/// at 1, 2, 32.
GMS_HD constexpr std::uint32_t stream_stride_elems(int id) {
  switch (id) {
    case 31:
      return 2;
    case 32:
      return 8;
    case 33:
      return 32;
    case 51:
      return 2;
    case 52:
      return 32;
    default:
      return 1;
  }
}

GMS_HD constexpr std::uint64_t stream_iterations(std::uint32_t stride) {
  return kStreamElems / stride / kStreamThreads;
}

GMS_HD constexpr std::uint64_t stream_element(std::uint64_t g, std::uint64_t k,
                                              std::uint32_t stride) {
  return (g + k * kStreamThreads) * stride;
}

// ---- reuse16k, id 60 ------------------------------------------------------------------------
// kReuseGrid CTAs of kReuseBlock threads; global warp w owns the 16 KiB block at w * 16 KiB and
// reads it kReusePasses times, 128 unit-stride warp loads per pass (lane t of chunk c reads the
// float at block + (32c + t) * 4).
inline constexpr std::uint32_t kReuseGrid = 128;
inline constexpr std::uint32_t kReuseBlock = 128;
inline constexpr std::uint32_t kReuseBlockBytes = 16384;
inline constexpr std::uint32_t kReusePasses = 8;
inline constexpr std::uint32_t kReuseChunks = kReuseBlockBytes / 128;

GMS_HD constexpr std::uint64_t reuse_offset(std::uint32_t global_warp, std::uint32_t chunk,
                                            std::uint32_t lane) {
  return std::uint64_t{global_warp} * kReuseBlockBytes + (std::uint64_t{chunk} * 32 + lane) * 4;
}

// ---- L1 windows, ids 100-109 ----------------------------------------------------------------
// kWindowGrid CTAs of window_block(id) threads (fewer CTAs than SMs). CTA c sweeps its private
// window [c * W, (c + 1) * W) kWindowSweeps times; sweep iteration i has thread x read the float
// at c * W + (i * block + x) * 4. Each launch asks for a shared-memory carve-out and dynamic
// shared memory (unused by the code) so that the L1 left over differs. Ids 100-106 are CTAs of
// eight warps; 107-109 repeat the windows of 102, 104 and 105 with one warp per CTA: the H200's
// eight-warp windows hit L1 past its capacity where LRU hits nothing (docs/groundtruth.md), and
// one warp, which cannot run ahead of another, tells a replacement policy that keeps part of a
// cyclic sweep (hits with one warp too) from warps drifting apart (none).
inline constexpr int kWindowFirstId = 100;
inline constexpr int kWindowLastId = 109;
inline constexpr int kWindowFirstOneWarpId = 107;
inline constexpr std::uint32_t kWindowGrid = 128;
inline constexpr std::uint32_t kWindowSweeps = 4;

GMS_HD constexpr std::uint32_t window_block(int id) {
  return id >= kWindowFirstOneWarpId ? 32 : 256;
}
/// The eight-warp window whose size, carve-out and shared memory window `id` has: its own, or
/// for a one-warp window the one it repeats.
GMS_HD constexpr int window_twin(int id) {
  constexpr int eight_warps[] = {102, 104, 105};
  return id >= kWindowFirstOneWarpId ? eight_warps[id - kWindowFirstOneWarpId] : id;
}
GMS_HD constexpr std::uint32_t window_bytes(int id) {
  constexpr std::uint32_t kib[] = {16, 64, 128, 192, 256, 320, 512};
  return kib[window_twin(id) - kWindowFirstId] * 1024;
}
/// cudaFuncAttributePreferredSharedMemoryCarveout, percent of the maximum shared memory.
GMS_HD constexpr int window_carveout_pct(int id) {
  constexpr int pct[] = {100, 100, 50, 0, 0, 0, 0};
  return pct[window_twin(id) - kWindowFirstId];
}
/// Dynamic shared memory requested per CTA, bytes.
GMS_HD constexpr std::uint32_t window_dynamic_smem(int id) {
  constexpr std::uint32_t kib[] = {96, 96, 32, 0, 0, 0, 0};
  return kib[window_twin(id) - kWindowFirstId] * 1024;
}
GMS_HD constexpr std::uint32_t window_iterations(int id) {
  return window_bytes(id) / (4 * window_block(id));
}
GMS_HD constexpr std::uint64_t window_offset(int id, std::uint32_t cta, std::uint32_t iter,
                                             std::uint32_t thread) {
  return std::uint64_t{cta} * window_bytes(id) +
         (std::uint64_t{iter} * window_block(id) + thread) * 4;
}

// ---- Pointer chase, id 110 ------------------------------------------------------------------
// One warp. For each footprint F (region f of the chase buffer, at chase_region_offset(f)):
// (1) warm-up: the warp reads the 8-byte word at the start of every 128-byte line of the region,
//     lane t at iteration i reading line 32i + t (inst 0);
// (2) lane 0 follows kChaseSteps pointers from line 0 along a random cyclic permutation of the
//     region's lines (chase_ring, inst 1), timed with clock64 and %globaltimer;
// (3) lane 0 stores {cycles, ns} as 16 bytes at 16f of the results buffer (inst 2).
inline constexpr int kChaseFootprints = 13;
inline constexpr std::uint32_t kChaseLineBytes = 128;
inline constexpr std::uint32_t kChaseSteps = 2048;

/// 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256 MiB (a switch, not a table, so the
/// device code keeps no local-memory array).
GMS_HD constexpr std::uint64_t chase_footprint_bytes(int f) {
  std::uint64_t mib = 0;
  switch (f) {
    case 0:
      mib = 1;
      break;
    case 1:
      mib = 2;
      break;
    case 2:
      mib = 4;
      break;
    case 3:
      mib = 8;
      break;
    case 4:
      mib = 16;
      break;
    case 5:
      mib = 24;
      break;
    case 6:
      mib = 32;
      break;
    case 7:
      mib = 48;
      break;
    case 8:
      mib = 64;
      break;
    case 9:
      mib = 96;
      break;
    case 10:
      mib = 128;
      break;
    case 11:
      mib = 192;
      break;
    default:
      mib = 256;
      break;
  }
  return mib << 20;
}
GMS_HD constexpr std::uint64_t chase_region_offset(int f) {
  std::uint64_t off = 0;
  for (int i = 0; i < f; ++i) off += chase_footprint_bytes(i);
  return off;
}
inline constexpr std::uint64_t kChaseBufferBytes = chase_region_offset(kChaseFootprints);
GMS_HD constexpr std::uint64_t chase_warmup_iterations(int f) {
  return chase_footprint_bytes(f) / (32 * kChaseLineBytes);
}

/// splitmix64, the generator of the chase rings.
GMS_HD constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace gms::groundtruth
