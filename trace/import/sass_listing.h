#pragma once
/// Loads in flight per warp read from a SASS listing (`cuobjdump -sass BINARY`, or nvdisasm's
/// output), by the same scoreboard rule the Accel-Sim importer applies to a trace's register
/// operands (load_concurrency.h). Issue 34 asks for a kernel's memory-level parallelism from
/// the capture kit where it can record it: the kit's trace records addresses only, but its
/// binary holds the code, so the capture lists it and this reads each kernel's figure from it.
///
/// The listing is walked once per function, in address order: each instruction the way an
/// in-order warp issues it, loops taken once. That is what a warp issues in one trip of a
/// loop's body; an unrolled body's independent loads are all in flight before its first use.
/// Branches are not followed, so a load issued in one trip and first used in the next is
/// waited for at the end of the body's text (the back branch reads no register; the next
/// trip's first use does), which a trace's dynamic count would see as well.
///
/// Per instruction: an optional predicate guard (`@P0`, `@!P0`), the opcode with its
/// modifiers, then operands separated by commas, up to ` ;`. A global or local load, or an
/// atomic that returns a value (sass_opcode.h's classes: LDG, LDL, LD, ATOM, ATOMG), writes the
/// registers of its first operand that is not a predicate (`PT`, `P0`, ...) or a memory operand
/// (`[...]`), and reads every other register; every other instruction only touches its
/// registers, which the rule treats alike (a read waits for its load; so does a write). In a
/// memory operand `R2.64` is the address pair R2, R3.

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace gms::trace {

/// One function of a listing.
struct SassFunction {
  std::string arch;         ///< the `code for sm_XX` block it is in ("" when the listing has none)
  std::string name;         ///< as listed (mangled)
  std::uint32_t loads = 0;  ///< global/local loads and returning atomics in its text
  std::uint32_t loads_in_flight = 0;  ///< load_concurrency.h's figure; 0 when it has no load
};

/// Every function of the listing `in` (named `source` in errors), in listing order. Fails
/// (SimError naming `source` and the line) on an instruction line without its ` ;`, an
/// instruction before any `Function :` line, or a listing with no function.
std::vector<SassFunction> read_sass_listing(std::istream& in, std::string_view source);

}  // namespace gms::trace
