// The --layout grammar (sim/layout/layout_spec.h), the arrays found from footprints
// (sim/layout/arrays.h) and the address maps (sim/layout/layout_change.h): every malformed spec
// is one error naming it; each map moves an array's bytes to distinct bytes (no two old
// addresses share a new one).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sim/core/error.h"
#include "sim/layout/arrays.h"
#include "sim/layout/layout_change.h"
#include "sim/layout/layout_spec.h"

namespace gms {
namespace {

std::string spec_error(const std::string& text) {
  try {
    parse_layout_spec(text);
  } catch (const SimError& e) {
    return e.what();
  }
  return "";
}

TEST(LayoutSpecTest, ParsesEachForm) {
  const LayoutSpec soa = parse_layout_spec("soa:points:24");
  EXPECT_EQ(soa.kind, LayoutKind::Soa);
  EXPECT_EQ(soa.arrays, std::vector<std::string>{"points"});
  EXPECT_EQ(soa.first, 24u);
  const LayoutSpec aos = parse_layout_spec("aos:x,y,z");
  EXPECT_EQ(aos.arrays, (std::vector<std::string>{"x", "y", "z"}));
  const LayoutSpec pad = parse_layout_spec("pad:smem:2:256");
  EXPECT_EQ(pad.kind, LayoutKind::Pad);
  EXPECT_EQ(pad.first, 2u);
  EXPECT_EQ(pad.second, 256u);
  EXPECT_FALSE(parse_layout_spec("swizzle:smem").first);
  EXPECT_EQ(parse_layout_spec("transpose:0x1000:4096").first, 4096u);
  const LayoutSpec vec = parse_layout_spec("vector:0,i7");
  EXPECT_EQ(vec.kind, LayoutKind::Vector);
  EXPECT_EQ(vec.arrays, (std::vector<std::string>{"0", "7"}));
}

TEST(LayoutSpecTest, EachMalformedSpecIsOneErrorNamingIt) {
  EXPECT_NE(spec_error("vectorize:g0")
                .find("--layout vectorize:g0: unknown layout change "
                      "'vectorize'"),
            std::string::npos);
  EXPECT_NE(spec_error("soa").find("names no array"), std::string::npos);
  EXPECT_NE(spec_error("soa:g0:x").find("'x' is not a positive number"), std::string::npos);
  EXPECT_NE(spec_error("soa:g0:0").find("'0' is not a positive number"), std::string::npos);
  EXPECT_NE(spec_error("soa:g0:24:1").find("too many fields"), std::string::npos);
  EXPECT_NE(spec_error("pad:g0").find("write pad:smem"), std::string::npos);
  EXPECT_NE(spec_error("transpose:smem").find("not shared memory"), std::string::npos);
  EXPECT_NE(spec_error("aos:g0").find("two arrays or more"), std::string::npos);
  EXPECT_NE(spec_error("soa:g0,g1").find("takes one array"), std::string::npos);
  EXPECT_NE(spec_error("aos:g0,,g1").find("empty array name"), std::string::npos);
  EXPECT_NE(spec_error("vector:0,x").find("'x' is not an instruction id"), std::string::npos);
  EXPECT_NE(spec_error("vector:0:16").find("too many fields"), std::string::npos);
}

InstrFootprint footprint(std::uint32_t inst, Addr lo, Addr hi, Op op = Op::LDG) {
  InstrFootprint f;
  f.inst = inst;
  f.op = op;
  f.lowest = lo;
  f.highest = hi;
  return f;
}

// Overlapping footprints are one array, touching ones two; an allocation holds its own; shared
// and local footprints are no global array.
TEST(LayoutArraysTest, OverlapsMergeAndAllocationsName) {
  const std::vector<InstrFootprint> fs{
      footprint(0, 0x100, 0x1ff),     footprint(1, 0x180, 0x27f),
      footprint(2, 0x280, 0x2ff),     footprint(3, 0x10000, 0x100ff),
      footprint(4, 0, 0x7f, Op::LDS), footprint(5, 0x900000, 0x9000ff, Op::LDL)};
  const std::vector<Allocation> allocs{{0x10000, 0x1000, "weights"}, {0x20000, 0x100, ""}};
  const auto arrays = find_arrays(allocs, fs);
  ASSERT_EQ(arrays.size(), 4u);
  EXPECT_EQ(arrays[0].name, "weights");
  EXPECT_TRUE(arrays[0].from_trace);
  EXPECT_EQ(arrays[1].name, "a1");
  EXPECT_EQ(arrays[2].name, "g0");
  EXPECT_EQ(arrays[2].base, 0x100u);
  EXPECT_EQ(arrays[2].bytes, 0x180u);
  EXPECT_EQ(arrays[3].name, "g1");
  EXPECT_EQ(arrays[3].base, 0x280u);
  EXPECT_EQ(find_array(arrays, fs, "0x1f0", "s").name, "g0");
  EXPECT_EQ(find_array(arrays, fs, "i3", "s").name, "weights");
  EXPECT_THROW(find_array(arrays, fs, "nope", "soa:nope"), SimError);
  EXPECT_THROW(find_array(arrays, fs, "0x5000", "soa:0x5000"), SimError);
}

/// Every byte of [0, bytes) moves to a distinct byte.
void expect_one_to_one(const LayoutChange& c, Addr bytes) {
  std::set<Addr> seen;
  for (Addr a = c.base; a < c.base + bytes; ++a) {
    ASSERT_TRUE(c.covers(a));
    EXPECT_TRUE(seen.insert(c.map(a)).second) << c.label << " maps two bytes to " << c.map(a);
  }
}

TEST(LayoutChangeTest, EveryMapIsOneToOne) {
  LayoutChange soa;
  soa.kind = LayoutKind::Soa;
  soa.base = 0x1000;
  soa.bytes = 24 * 40;
  soa.struct_bytes = 24;
  soa.unit = 4;
  soa.count = 40;
  expect_one_to_one(soa, soa.bytes);
  EXPECT_EQ(soa.map(0x1000 + 24 * 3 + 8), 0x1000u + 2 * 40 * 4 + 3 * 4);

  LayoutChange tr;
  tr.kind = LayoutKind::Transpose;
  tr.base = 0x2000;
  tr.pitch = 64;
  tr.unit = 8;
  tr.count = 10;
  tr.bytes = 640;
  expect_one_to_one(tr, tr.bytes);
  EXPECT_EQ(tr.map(0x2000 + 64 * 3 + 16 + 5), 0x2000u + 2 * 10 * 8 + 3 * 8 + 5);

  for (std::uint64_t pitch : {32u, 64u, 128u, 256u, 512u}) {
    LayoutChange sw;
    sw.kind = LayoutKind::Swizzle;
    sw.space = LayoutSpace::Shared;
    sw.bytes = 4096;
    sw.pitch = pitch;
    sw.unit = 4;
    expect_one_to_one(sw, 4096);
  }
  LayoutChange pad;
  pad.kind = LayoutKind::Pad;
  pad.space = LayoutSpace::Shared;
  pad.bytes = 4096;
  pad.pitch = 128;
  pad.pad = 4;
  expect_one_to_one(pad, 4096);
  EXPECT_EQ(pad.shared_bytes(4096), 4224u);
}

}  // namespace
}  // namespace gms
