// fail() records where it was called, so a SimError names the code that raised it, not error.h.
#include "sim/core/error.h"

#include <gtest/gtest.h>

#include <string_view>

namespace gms {
namespace {

TEST(ErrorTest, FailRecordsTheCallersLocation) {
  int line = 0;
  try {
    line = __LINE__ + 1;
    fail("value {} out of range", 7);
  } catch (const SimError& e) {
    EXPECT_STREQ(e.what(), "value 7 out of range");
    EXPECT_EQ(e.where().line(), static_cast<std::uint_least32_t>(line));
    EXPECT_TRUE(std::string_view(e.where().file_name()).ends_with("error_test.cc"))
        << e.where().file_name();
    return;
  }
  FAIL() << "fail() did not throw";
}

TEST(ErrorTest, FailWithoutArgumentsIsLocatedToo) {
  try {
    fail("plain message");
  } catch (const SimError& e) {
    EXPECT_STREQ(e.what(), "plain message");
    EXPECT_TRUE(std::string_view(e.where().file_name()).ends_with("error_test.cc"));
    return;
  }
  FAIL() << "fail() did not throw";
}

}  // namespace
}  // namespace gms
