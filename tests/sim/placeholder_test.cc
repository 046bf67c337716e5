#include <gtest/gtest.h>

#include "sim/types.h"

TEST(TypesTest, OpNamesRoundTrip) {
  for (int i = 0; i < gms::kOpCount; ++i) {
    const auto op = static_cast<gms::Op>(i);
    EXPECT_EQ(gms::parse_op(gms::op_name(op)), op);
  }
  EXPECT_FALSE(gms::parse_op("LDX").has_value());
}
