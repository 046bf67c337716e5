#pragma once
/// The arrays of a trace: the allocations it names (TraceReader::allocations()), else blocks of
/// addresses found from what each static instruction touches. An instruction's footprint is
/// the range of bytes its executions reach (from the diagnosis pass, sim/diagnosis/diagnose.h);
/// footprints that overlap belong to one array, so the six fields of an array of structures
/// are one array and six planes that only touch are six.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/core/records.h"
#include "sim/layout/layout_change.h"

namespace gms {

/// One static instruction of one kernel and what its accesses reach.
struct InstrFootprint {
  std::uint32_t kernel_id = 0;
  std::uint32_t inst = 0;
  Op op = Op::LDG;
  std::uint8_t size = 4;
  Addr lowest = 0, highest = 0;  ///< first and last byte reached
  /// The byte stride between lanes of its commonest kind of execution, where that kind has one
  /// (strided, struct field, shared strided); else 0.
  std::int64_t stride = 0;
  bool struct_field = false;  ///< its commonest kind is one field of an array of structures
  bool conflicted = false;    ///< shared: more wavefronts than the bytes need
};

struct LayoutArray {
  std::string name;
  Addr base = 0, bytes = 0;
  bool from_trace = false;  ///< an allocation the trace names (else found from the addresses)
  bool holds(Addr a) const { return a - base < bytes; }
};

/// The global arrays: each allocation (named `a0`, `a1`, ... where it has no name), then, for
/// footprints that no allocation holds, the overlapping footprints merged into one array each,
/// named `g0`, `g1`, ... by base address.
std::vector<LayoutArray> find_arrays(std::span<const Allocation> allocations,
                                     const std::vector<InstrFootprint>& footprints);

/// The array a spec names: by name, `0xADDR` (the array holding it) or `iN` (the array of
/// instruction N's lowest byte). Throws naming `spec` when none.
const LayoutArray& find_array(const std::vector<LayoutArray>& arrays,
                              const std::vector<InstrFootprint>& footprints,
                              const std::string& name, const std::string& spec);

/// The footprints a change moves: of its space (and kernel), reaching into its region.
std::vector<const InstrFootprint*> touched(const LayoutChange& c,
                                           const std::vector<InstrFootprint>& footprints);

}  // namespace gms
