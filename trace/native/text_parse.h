#pragma once
/// Line-level parsing of wtrace v1 text (spec: docs/wtrace.md): one
/// record line into a WarpInstr, one `#kernel` line into a KernelInfo. Hand-written and
/// allocation-free for records; every error is a SimError "<file>:<line>: <message>".

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/records.h"

namespace gms::trace::detail {

/// Where a line came from, for error messages.
struct LineContext {
  const std::string& file;
  std::uint64_t line;
};

/// What a (\n- and \r-stripped) line of a wtrace file is.
enum class LineKind : std::uint8_t { Blank, Comment, Kernel, Alloc, Record };

/// Classifies a line: blank (spaces/tabs only), `#kernel ...`, `#alloc ...`, another `#` comment,
/// or a record.
LineKind classify_line(std::string_view line);

/// Parses the first line of a file: returns normally for "#wtrace 1"; throws "unsupported wtrace
/// version N (reads 1)" for N > 1 and "missing '#wtrace 1' magic line" for anything else.
void check_magic_line(std::string_view line, const LineContext& ctx);

/// Parses a record line `inst op size sm cta warp mask addrs` into `out` (all fields
/// overwritten; inactive lanes get address 0). Rejects unknown ops, bad sizes, a zero mask, an
/// address count that differs from the mask's popcount, non-hex addresses, strided lanes whose
/// address overflows 64 bits, and trailing text.
void parse_record(std::string_view line, const LineContext& ctx, WarpInstr& out);

/// Parses a `#kernel key=value ...` line into `out` (reset first): typed fields from the known
/// keys, and every pair in `params` in line order. `id` is required.
void parse_kernel_line(std::string_view line, const LineContext& ctx, KernelInfo& out);

/// Parses an `#alloc base=0x<hex> bytes=<decimal> [name=<text>]` line into `out` (reset first).
/// `base` and `bytes` are required, `bytes` at least 1 and base + bytes within 64 bits; any other
/// key is an error naming it (a version-1 reader that does not know this line reads it as a
/// comment, so a file with allocations stays readable by it).
void parse_alloc_line(std::string_view line, const LineContext& ctx, Allocation& out);

}  // namespace gms::trace::detail
