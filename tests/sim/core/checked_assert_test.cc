// GMS_ASSERT compiles away under NDEBUG, which every CMake build type but Debug defines; the
// GMS_CHECKED=ON option (the ASan/UBSan build of .ci/run) removes NDEBUG so that CI runs the
// suite with the asserts on. This checks that the option did what it says, in the tests and in
// the library's headers.
#include "sim/core/error.h"

#include <gtest/gtest.h>

#include "sim/model/sector_cache.h"

namespace gms {
namespace {

TEST(CheckedAssertTest, AssertsAreOnExactlyWhenNdebugIsOff) {
#if defined(GMS_CHECKED_BUILD) && defined(NDEBUG)
  FAIL() << "GMS_CHECKED=ON, yet NDEBUG is defined: GMS_ASSERT is compiled out";
#endif
#ifdef NDEBUG
  EXPECT_NO_THROW(GMS_ASSERT(false, "compiled out"));
#else
  EXPECT_THROW(GMS_ASSERT(false, "checked"), SimError);
  EXPECT_NO_THROW(GMS_ASSERT(true, "holds"));
  // One of the library's own invariants: a sector mask has at most 8 bits.
  try {
    SectorCache<LruPolicy> c(CacheGeometry{1, 1, 9});
    FAIL() << "9 sectors per line accepted";
  } catch (const SimError& e) {
    EXPECT_NE(std::string(e.what()).find("sectors per line"), std::string::npos) << e.what();
  }
#endif
}

}  // namespace
}  // namespace gms
