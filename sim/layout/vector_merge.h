#pragma once
/// Consecutive narrow accesses of one warp merged into one vector access (float2, float4): the
/// `vector` layout change. Executions of the listed instructions by one warp that follow each
/// other (no other access of that warp between them), with the same op, size and active lanes,
/// each lane `size` bytes past its address in the one before, become one execution of the
/// first instruction, 2, 4, 8 or 16 times as wide, where every lane's address is a multiple of
/// the new width (a vector load needs its alignment: CUDA C++ Programming Guide, "Size and
/// Alignment Requirement"). Merges only inside one batch of the reader: a run cut by the end of
/// a batch stays as it was.

#include <cstdint>
#include <span>
#include <vector>

#include "sim/core/records.h"

namespace gms {

/// Merges in place, keeping the order of what is left; returns the records left. `listed`
/// says whether an instruction id may be merged. Counts merged (widened) records in `merged`.
std::size_t merge_vector_runs(std::span<WarpInstr> batch, const std::vector<std::uint32_t>& listed,
                              std::uint64_t& merged);

}  // namespace gms
