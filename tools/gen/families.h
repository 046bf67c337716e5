#pragma once
/// The pattern families behind the table in patterns.cc: one validate/emit pair per pattern.

#include "tools/gen/params.h"
#include "trace/io/writer.h"

namespace gms::gen::detail {

#define GMS_GEN_PATTERN(name)               \
  void validate_##name(const GenParams& p); \
  void emit_##name(const GenParams& p, trace::TraceWriter& w)

// global_patterns.cc: one load per warp over global memory (EXAMPLES A and B).
GMS_GEN_PATTERN(sequential);
GMS_GEN_PATTERN(strided);
GMS_GEN_PATTERN(reversed);
GMS_GEN_PATTERN(broadcast);
GMS_GEN_PATTERN(one_lane);
GMS_GEN_PATTERN(matrix_row);
GMS_GEN_PATTERN(matrix_column);
GMS_GEN_PATTERN(mixed_warp);
GMS_GEN_PATTERN(aos_field);
GMS_GEN_PATTERN(aos_all);
GMS_GEN_PATTERN(soa_all);

// shared_patterns.cc: shared-memory bank patterns (EXAMPLES B4s, B6, C).
GMS_GEN_PATTERN(smem_stride);
GMS_GEN_PATTERN(smem_broadcast);
GMS_GEN_PATTERN(smem_tile_column);

// matmul_patterns.cc: matrix products and element-wise add (EXAMPLES D).
GMS_GEN_PATTERN(matmul_naive);
GMS_GEN_PATTERN(matmul_tiled);
GMS_GEN_PATTERN(vector_add);

// bulk_patterns.cc: large traces for benchmarks.
GMS_GEN_PATTERN(stream);
GMS_GEN_PATTERN(stream_lists);
GMS_GEN_PATTERN(random);

// microbench_patterns.cc: published microbenchmarks' address patterns (tests/fidelity).
GMS_GEN_PATTERN(pointer_chase);
GMS_GEN_PATTERN(stream_occupancy);
GMS_GEN_PATTERN(cta_reuse);

#undef GMS_GEN_PATTERN

/// Checks the op against the address space of the pattern (global or shared).
void check_op(const GenParams& p, bool shared);

}  // namespace gms::gen::detail
