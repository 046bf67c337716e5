#pragma once
/// The integers that open every line of a tracer's raw kernel-N.trace (before
/// post-traces-processing groups it by block), by tracer generation:
///   4   tb_x tb_y tb_z warp                       (tracers up to 5)
///   6   the same, then sm_id warp_on_sm           (up to 5, TOOL_TRACE_CORE=1)
///   11  tb_x tb_y tb_z warp, cluster id x y z, cluster cta x y z, cluster rank (tracer 6)
///   13  the same, then sm_id warp_on_sm           (tracer 6, TOOL_TRACE_CORE=1)
/// The header does not say which; the first instruction line does (raw_prefix_ints).

#include <string_view>

namespace gms::trace::detail {

/// The prefix widths tried, in this order (4 first: every raw trace read before tracer 6).
inline constexpr unsigned kRawPrefixWidths[] = {4, 6, 11, 13};

/// The prefix width (one of kRawPrefixWidths) after which `line` reads as an instruction:
/// [line_num] (when `lineinfo`), a PC of at least 4 hex digits (the tracer prints "%04x"), a mask
/// of exactly 8 hex digits ("%08x"), dest_num (decimal), the destinations, then an opcode that
/// starts with a letter. The PC rule tells the widths apart: an SM id or a cluster field is
/// printed "%d", at most 3 digits. 4 when no width fits (the parse then names the fault).
unsigned raw_prefix_ints(std::string_view line, bool lineinfo);

}  // namespace gms::trace::detail
