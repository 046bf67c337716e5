// Loads in flight read from a SASS listing (trace/import/sass_listing.h): listings written in
// cuobjdump -sass's layout, each figure worked out by hand from load_concurrency.h's rule.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "trace/import/sass_listing.h"

namespace gms::trace::test {
namespace {

/// A listing of one function `name` whose instructions are `body` (one per line, without the
/// address and ';'), with cuobjdump's headers and second encoding words around them.
std::string listing(const std::string& name, const std::vector<std::string>& body,
                    const std::string& arch = "sm_90") {
  std::string s = "\nFatbin elf code:\n================\narch = " + arch +
                  "\ncode version = [1,7]\n\n" + "\tcode for " + arch + "\n\t\tFunction : " + name +
                  "\n\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS\"\n";
  unsigned addr = 0;
  for (const std::string& instr : body) {
    char a[16];
    std::snprintf(a, sizeof a, "/*%04x*/", addr);
    s +=
        std::string("        ") + a + "                   " + instr +
        " ;                 /* 0x000fe20000000f00 */\n" +
        "                                                               /* 0x000fc40000000000 */\n";
    addr += 0x10;
  }
  s += "\t\t..........\n\n";
  return s;
}

std::vector<SassFunction> read(const std::string& text) {
  std::istringstream in(text);
  return read_sass_listing(in, "test.sass");
}

TEST(SassListingTest, AChaseKeepsOneLoadInFlight) {
  // Each 64-bit load's address is the pointer the previous one loaded into R2, R3.
  const auto f = read(
      listing("chase", {"LDC R1, c[0x0][0x28]", "LDG.E.64 R2, desc[UR4][R2.64]",
                        "LDG.E.64 R2, desc[UR4][R2.64]", "LDG.E.64 R2, desc[UR4][R2.64]", "EXIT"}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].name, "chase");
  EXPECT_EQ(f[0].arch, "sm_90");
  EXPECT_EQ(f[0].loads, 3u);
  EXPECT_EQ(f[0].loads_in_flight, 1u);
}

TEST(SassListingTest, AnUnrolledSumIssuesItsLoadsBeforeTheFirstAdd) {
  // Four independent loads, then the adds: all four are in flight when the first FADD waits.
  const auto f = read(
      listing("sum4", {"LDG.E R4, desc[UR4][R2.64]", "LDG.E R5, desc[UR4][R2.64+0x200]",
                       "LDG.E R6, desc[UR4][R2.64+0x400]", "LDG.E R7, desc[UR4][R2.64+0x600]",
                       "FADD R0, R4, R0", "FADD R0, R5, R0", "FADD R0, R6, R0", "FADD R0, R7, R0",
                       "@!P0 BRA 0x0", "STG.E desc[UR4][R8.64], R0", "EXIT"}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].loads, 4u);
  EXPECT_EQ(f[0].loads_in_flight, 4u);
}

TEST(SassListingTest, AWideLoadFillsTheRegistersAfterItsDestination) {
  // LDG.E.128 R4 fills R4-R7; the second load's destination R6 waits for it (write after
  // write), so one is in flight; a 32-bit load into R4 would leave R6 free (two in flight).
  const auto wide = read(
      listing("wide", {"LDG.E.128 R4, desc[UR4][R2.64]", "LDG.E R6, desc[UR4][R8.64]", "EXIT"}));
  EXPECT_EQ(wide[0].loads_in_flight, 1u);
  const auto narrow =
      read(listing("narrow", {"LDG.E R4, desc[UR4][R2.64]", "LDG.E R6, desc[UR4][R8.64]", "EXIT"}));
  EXPECT_EQ(narrow[0].loads_in_flight, 2u);
}

TEST(SassListingTest, AMemoryOperandsPairReadsBothRegisters) {
  // [R2.64] is the address R2, R3: the second load reads R3, which the first is filling.
  const auto f =
      read(listing("pair", {"LDG.E R3, desc[UR4][R8.64]", "LDG.E R4, desc[UR4][R2.64]", "EXIT"}));
  EXPECT_EQ(f[0].loads_in_flight, 1u);
}

TEST(SassListingTest, GuardsStoresSharedLoadsAndAtomics) {
  // A guard reads a predicate (no dependency); stores, shared loads and LDGSTS fill no register
  // the scoreboard tracks; an atomic that returns into R6 (after its predicate PT) is a load,
  // one that returns into RZ is not.
  const auto f = read(listing(
      "mixed",
      {"@P0 LDG.E R4, desc[UR4][R2.64]", "@!P1 STG.E desc[UR4][R8.64], R9", "LDS R10, [R11]",
       "LDGSTS.E [R12], desc[UR4][R2.64]", "ATOMG.E.ADD.STRONG.GPU PT, R6, desc[UR4][R2.64], R5",
       "ATOMG.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R5", "FADD R0, R4, R6", "EXIT"}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].loads, 2u);  // the LDG and the returning ATOMG
  EXPECT_EQ(f[0].loads_in_flight, 2u);
}

TEST(SassListingTest, EachFunctionAndArchitectureIsItsOwn) {
  const auto f = read(listing("a", {"LDG.E R4, desc[UR4][R2.64]", "LDG.E R5, desc[UR4][R2.64]"}) +
                      listing("b", {"LDG.E R4, desc[UR4][R2.64]", "FADD R0, R4, R0"}, "sm_80") +
                      listing("c", {"MOV R0, RZ", "EXIT"}));
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].loads_in_flight, 2u);
  EXPECT_EQ(f[1].arch, "sm_80");
  EXPECT_EQ(f[1].loads_in_flight, 1u);  // not carried over from "a"
  EXPECT_EQ(f[2].loads, 0u);
  EXPECT_EQ(f[2].loads_in_flight, 0u);
}

TEST(SassListingTest, ACrlfListingReadsAsItsLfOne) {
  std::string text = listing("f", {"LDG.E R4, desc[UR4][R2.64]", "LDG.E R5, desc[UR4][R2.64]"});
  std::string crlf;
  for (const char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const auto f = read(crlf);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].name, "f");
  EXPECT_EQ(f[0].arch, "sm_90");
  EXPECT_EQ(f[0].loads_in_flight, 2u);
}

TEST(SassListingTest, BadListingsNameTheFileAndLine) {
  auto message = [](const std::string& text) {
    try {
      read(text);
    } catch (const SimError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string cut = listing("f", {"LDG.E R4, desc[UR4][R2.64]"});
  cut = cut.substr(0, cut.find(" ;"));  // the listing ends inside its first instruction
  EXPECT_NE(message(cut).find("test.sass:10: an instruction without its ';'"), std::string::npos)
      << message(cut);
  EXPECT_NE(message("        /*0000*/  LDG.E R4, desc[UR4][R2.64] ;\n")
                .find("test.sass:1: an instruction before any 'Function :' line"),
            std::string::npos);
  EXPECT_NE(message("not a listing\n").find("test.sass: no 'Function :' line"), std::string::npos);
}

}  // namespace
}  // namespace gms::trace::test
