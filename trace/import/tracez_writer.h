#pragma once
/// Writes an Accel-Sim `.tracez` (tracez_format.h) from a post-processed `.traceg`: the same
/// header, blocks, warps and instruction lines, each warp's lines cut into zstd frames of at
/// most `subchunk_insts` lines that never end inside a REPLAY_START .. REPLAY_END region. One
/// block is held in memory at a time, and the index (a few words per warp) until the end.
/// Our own writer, for fixtures, `gpumemsim convert` and round trips; TracezSource reads back
/// exactly the text the `.traceg` holds, up to blank lines.

#include <cstdint>
#include <string>

#include "trace/import/tracez_format.h"

namespace gms::trace {

struct TracezWriteOptions {
  /// Lines per sub-chunk before a REPLAY region extends it (0: a warp in one sub-chunk).
  std::uint32_t subchunk_insts = tracez::kDefaultSubchunkInsts;
  /// A zstd dictionary for every frame (a trained one or raw content); empty: none.
  std::string dictionary;
  int zstd_level = 3;
};

/// What write_tracez wrote.
struct TracezWriteSummary {
  std::uint64_t blocks = 0, warps = 0, lines = 0, subchunks = 0;
};

/// Reads the `.traceg` at `traceg` (plain, xz or zstd; or a `.tracez`, re-packed) and writes it
/// as the `.tracez` `out`
/// (which appears only once complete). A block or warp line the text does not explain is an
/// error naming the input line.
TracezWriteSummary write_tracez(const std::string& traceg, const std::string& out,
                                const TracezWriteOptions& options = {});

}  // namespace gms::trace
