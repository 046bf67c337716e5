#pragma once
/// The synthetic trace generator: a table of named access patterns (docs/examples.md A-D plus bulk
/// patterns for benchmarks), each emitting kernels and warp instructions into a TraceWriter.
///
///   gms::gen::GenParams p;
///   p.stride_elems = 2;
///   gms::gen::generate("strided", p, writer);  // A3: lane t reads 8t
///   writer.finish();

#include <cstdint>
#include <span>
#include <string_view>

#include "tools/gen/params.h"
#include "trace/io/writer.h"

namespace gms::gen {

/// One named pattern. `params` is the mask of GenParams fields it reads (kernel id included).
struct PatternInfo {
  std::string_view name;
  std::string_view summary;  ///< one line for --help
  std::uint32_t params;
  void (*validate)(const GenParams&);                   ///< throws SimError on bad values
  void (*emit)(const GenParams&, trace::TraceWriter&);  ///< writes kernels and records
};

/// Every pattern, in the order --help lists them.
std::span<const PatternInfo> patterns();

/// The pattern called `name`, or nullptr.
const PatternInfo* find_pattern(std::string_view name);

/// Checks `p` for pattern `name` (unknown name, access size, mask, pattern-specific limits) and
/// throws SimError with a message naming the parameter.
void validate(std::string_view name, const GenParams& p);

/// Validates, then emits pattern `name` into `writer` (begin_kernel + write; not finish()).
void generate(std::string_view name, const GenParams& p, trace::TraceWriter& writer);

}  // namespace gms::gen
