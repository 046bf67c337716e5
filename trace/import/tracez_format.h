#pragma once
/// Accel-Sim 2.0's `.tracez`: one kernel per file, written by its post-traces-processing (the
/// default since tag v2.0.0; `--text` writes the `.traceg` instead). No magic number: the suffix
/// names it. All integers little-endian.
///
///   kernel header text (the .traceg's header lines, each ending in '\n'), then one NUL byte
///   u32 dict_size, u32 subchunk_insts (the writer's target lines per sub-chunk, 2048 default)
///   dict_size bytes: a zstd dictionary (none when 0) for every frame of the file
///   per warp, at the offset its index entry gives:
///     u32 inst_count, u32 num_subchunks, then per sub-chunk: u32 frame_bytes, one zstd frame
///     of instruction lines ('\n' between lines, none after the last), as the .traceg has them
///   the index: u32 num_blocks, then per block
///     u32 tb x y z, cluster id x y z, cluster cta x y z, cluster rank, warp_count (11 x u32)
///     then per warp: u32 inst_count, u32 num_subchunks, u64 file offset of its warp header,
///                    num_subchunks x u32 lines of each sub-chunk
///   u64 offset of the index (the last 8 bytes of the file)
///
/// A sub-chunk holds at most subchunk_insts lines but never ends inside a REPLAY_START ..
/// REPLAY_END region (the writer extends it to the region's end). The blocks come in linear id
/// order, each with every warp of the block (an empty warp: inst_count 0, no sub-chunks).

#include <cstddef>
#include <cstdint>

namespace gms::trace::tracez {

/// Bytes of one block's fixed fields in the index (11 x u32).
inline constexpr std::size_t kBlockRecordBytes = 11 * 4;
/// Bytes of one warp's fixed fields in the index (u32, u32, u64).
inline constexpr std::size_t kWarpRecordBytes = 16;
/// The sub-chunk length the writer aims at unless told otherwise (TRACEZ_SUBCHUNK_INSTS).
inline constexpr std::uint32_t kDefaultSubchunkInsts = 2048;

/// Limits that keep a damaged file from asking for unbounded memory: each is far above what
/// the writer produces (a 64 KiB dictionary, sub-chunks of a few hundred KiB).
inline constexpr std::uint64_t kMaxHeaderBytes = 1u << 20;
inline constexpr std::uint64_t kMaxDictBytes = 64u << 20;
inline constexpr std::uint64_t kMaxFrameBytes = 256u << 20;
inline constexpr std::uint64_t kMaxSubchunkTextBytes = 1u << 30;

/// One block of the index.
struct BlockEntry {
  std::uint32_t tb[3] = {0, 0, 0};
  std::uint32_t cluster_id[3] = {0, 0, 0};
  std::uint32_t cluster_cta[3] = {0, 0, 0};
  std::uint32_t cluster_rank = 0;
  std::uint32_t warp_count = 0;
};

/// One warp of the index, without its sub-chunk line counts.
struct WarpEntry {
  std::uint32_t inst_count = 0;
  std::uint32_t num_subchunks = 0;
  std::uint64_t offset = 0;
};

}  // namespace gms::trace::tracez
