#pragma once
/// The `--layout` specs of `gpumemsim explain`, parsed (docs/explain.md, "Layout what-ifs"):
///
///   soa:ARRAY[:STRUCT_BYTES]        array of structures -> structure of arrays
///   aos:ARRAY,ARRAY[,ARRAY...]      structure of arrays -> array of structures (fields in order)
///   pad:smem[:ELEMENTS[:PITCH]]     shared tile rows padded by ELEMENTS elements (default 1)
///   swizzle:smem[:PITCH]            shared tile XOR-swizzled by row
///   transpose:ARRAY[:PITCH]         row-major global array -> column-major
///   vector:INST,INST[,...]          a warp's consecutive accesses by these instructions ->
///                                   one vector access (float2, float4)
///
/// ARRAY names an array: an allocation's name where the trace has them, `g0`, `g1`, ... for the
/// arrays found from the addresses (numbered by base address), `0xADDR` (the array holding that
/// byte) or `iN` (the array instruction N reads or writes). A number left out (structure bytes,
/// row pitch) comes from the diagnosis of the array's accesses.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/layout/layout_change.h"

namespace gms {

struct LayoutSpec {
  std::string text;  ///< as given
  LayoutKind kind = LayoutKind::Soa;
  std::vector<std::string> arrays;  ///< "smem" for the shared kinds; vector: instruction ids
  /// soa: structure bytes; pad: elements; swizzle, transpose: pitch.
  std::optional<std::uint64_t> first;
  std::optional<std::uint64_t> second;  ///< pad: pitch
};

/// Parses one spec; throws SimError naming it when malformed.
LayoutSpec parse_layout_spec(const std::string& text);

}  // namespace gms
