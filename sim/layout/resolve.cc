#include "sim/layout/resolve.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "sim/core/error.h"

namespace gms {

namespace {

std::uint64_t magnitude(std::int64_t v) {
  return v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

/// The footprints of the space inside [base, base + bytes).
std::vector<const InstrFootprint*> inside(const std::vector<InstrFootprint>& footprints,
                                          LayoutSpace space, Addr base, Addr bytes) {
  std::vector<const InstrFootprint*> out;
  for (const InstrFootprint& f : footprints)
    if (in_space(f.op, space) && f.lowest < base + bytes && f.highest >= base) out.push_back(&f);
  return out;
}

/// The smallest access of the footprints: the element every access is a whole number of.
std::uint32_t unit_of(const std::vector<const InstrFootprint*>& fs, const LayoutSpec& spec) {
  std::uint32_t unit = 0;
  for (const InstrFootprint* f : fs)
    if (unit == 0 || f->size < unit) unit = f->size;
  if (unit == 0) fail("--layout {}: no instruction reads or writes the array", spec.text);
  return unit;
}

}  // namespace

LayoutChange resolve_layout(const LayoutSpec& spec, const std::vector<LayoutArray>& arrays,
                            const std::vector<InstrFootprint>& footprints) {
  LayoutChange c;
  c.kind = spec.kind;
  if (spec.kind == LayoutKind::Pad || spec.kind == LayoutKind::Swizzle) {
    c.space = LayoutSpace::Shared;
    c.base = 0;
    c.bytes = kSharedWindow;
    const auto fs = inside(footprints, c.space, c.base, c.bytes);
    c.unit = std::max<std::uint32_t>(4, unit_of(fs, spec));
    // The pitch: given, else the stride of the first conflicted shared instruction (a column of
    // the tile: lane t in row t).
    std::uint64_t pitch =
        spec.kind == LayoutKind::Pad ? spec.second.value_or(0) : spec.first.value_or(0);
    for (const InstrFootprint* f : fs)
      if (pitch == 0 && f->conflicted && magnitude(f->stride) >= 32) pitch = magnitude(f->stride);
    if (pitch == 0)
      fail(
          "--layout {}: no bank-conflicted column access gives the tile's row pitch: write it "
          "({}:smem:{})",
          spec.text, layout_kind_name(spec.kind),
          spec.kind == LayoutKind::Pad ? "ELEMENTS:PITCH" : "PITCH");
    c.pitch = pitch;
    if (spec.kind == LayoutKind::Pad) {
      c.pad = spec.first.value_or(1) * c.unit;
      c.label = fmt::format("pad:smem:{}:{}", c.pad / c.unit, c.pitch);
    } else {
      const bool fits = pitch >= 128 ? pitch % 128 == 0 : 128 % pitch == 0;
      if (!fits)
        fail(
            "--layout {}: a {}-byte row pitch neither divides nor is a multiple of the 128-byte "
            "bank row: the XOR swizzle would move data between rows (pad it instead)",
            spec.text, pitch);
      c.label = fmt::format("swizzle:smem:{}", c.pitch);
    }
    return c;
  }
  c.space = LayoutSpace::Global;
  if (spec.kind == LayoutKind::Vector) {
    std::string ids;
    for (const std::string& a : spec.arrays) {
      c.insts.push_back(static_cast<std::uint32_t>(std::stoul(a)));
      ids += (ids.empty() ? "" : ",") + a;
    }
    c.label = fmt::format("vector:{}", ids);
    return c;
  }
  if (spec.kind == LayoutKind::Aos) {
    std::uint32_t offset = 0;
    std::string names;
    for (const std::string& n : spec.arrays) {
      const LayoutArray& a = find_array(arrays, footprints, n, spec.text);
      const auto fs = inside(footprints, c.space, a.base, a.bytes);
      const std::uint32_t unit = unit_of(fs, spec);
      for (const LayoutPlane& p : c.planes)
        if (p.base == a.base) fail("--layout {}: array {} named twice", spec.text, n);
      c.planes.push_back({a.base, a.bytes, unit, offset});
      offset += unit;
      names += (names.empty() ? "" : ",") + a.name;
    }
    c.struct_bytes = offset;
    c.base = c.planes.front().base;
    for (const LayoutPlane& p : c.planes) c.base = std::min(c.base, p.base);
    c.label = fmt::format("aos:{}", names);
    return c;
  }
  const LayoutArray& a = find_array(arrays, footprints, spec.arrays[0], spec.text);
  c.base = a.base;
  c.bytes = a.bytes;
  const auto fs = inside(footprints, c.space, a.base, a.bytes);
  c.unit = unit_of(fs, spec);
  if (spec.kind == LayoutKind::Soa) {
    // The structure: given, else the stride of the first struct-field access.
    std::uint64_t s = spec.first.value_or(0);
    for (const InstrFootprint* f : fs)
      if (s == 0 && f->struct_field) s = magnitude(f->stride);
    if (s == 0)
      fail(
          "--layout {}: no access of array {} reads one field of structures: give the "
          "structure's bytes (soa:{}:BYTES)",
          spec.text, a.name, a.name);
    if (s % c.unit != 0 || s == c.unit)
      fail("--layout {}: a {}-byte structure is not two or more {}-byte fields", spec.text, s,
           c.unit);
    c.struct_bytes = s;
    c.count = (a.bytes + s - 1) / s;
    c.label = fmt::format("soa:{}:{}", a.name, s);
    return c;
  }
  // Transpose: the pitch given, else the largest stride of a row or more (a column walk).
  std::uint64_t pitch = spec.first.value_or(0);
  for (const InstrFootprint* f : fs)
    if (!spec.first && magnitude(f->stride) >= 128 && !f->struct_field)
      pitch = std::max(pitch, magnitude(f->stride));
  if (pitch == 0)
    fail(
        "--layout {}: no access of array {} walks a column: give the row pitch "
        "(transpose:{}:BYTES)",
        spec.text, a.name, a.name);
  if (pitch % c.unit != 0)
    fail("--layout {}: a {}-byte row is not a whole number of {}-byte elements", spec.text, pitch,
         c.unit);
  c.pitch = pitch;
  c.count = (a.bytes + pitch - 1) / pitch;
  c.label = fmt::format("transpose:{}:{}", a.name, pitch);
  return c;
}

}  // namespace gms
