// detail::parse_hex_token: the whole token as hex, with or without 0x, at most 64 bits; its
// table path (up to 16 digits) and its from_chars path (more, leading zeros) agree on every edge.
#include "trace/import/import_parse.h"

#include <gtest/gtest.h>

namespace gms::trace::detail {
namespace {

TEST(ImportParseTest, HexTokens) {
  std::uint64_t v = 0;
  EXPECT_TRUE(parse_hex_token("0", v));
  EXPECT_EQ(v, 0u);
  EXPECT_TRUE(parse_hex_token("ffffffff", v));
  EXPECT_EQ(v, 0xffffffffu);
  EXPECT_TRUE(parse_hex_token("0x7F00aBcD", v, true));
  EXPECT_EQ(v, 0x7f00abcdu);
  EXPECT_TRUE(parse_hex_token("0XFFFFFFFFFFFFFFFF", v));  // 16 digits: the table path's most
  EXPECT_EQ(v, ~std::uint64_t{0});
  EXPECT_TRUE(parse_hex_token("0x0000000000000000012", v));  // 19 digits, leading zeros
  EXPECT_EQ(v, 0x12u);
  EXPECT_FALSE(parse_hex_token("0x10000000000000000", v));  // 17 significant digits: 65 bits
  EXPECT_FALSE(parse_hex_token("12", v, true));             // prefix required
  EXPECT_FALSE(parse_hex_token("0x", v));                   // no digits after 0x
  EXPECT_FALSE(parse_hex_token("", v));
  EXPECT_FALSE(parse_hex_token("-1", v));
  EXPECT_FALSE(parse_hex_token("0x-1", v));
  EXPECT_FALSE(parse_hex_token("+1", v));
  EXPECT_FALSE(parse_hex_token("12g", v));  // a digit that is not hex, at the end
  EXPECT_FALSE(parse_hex_token("g12", v));  // and at the start
  EXPECT_FALSE(parse_hex_token("1 2", v));  // not one token
  EXPECT_FALSE(parse_hex_token("0x00000000000000000000g", v));  // long path, bad digit
}

}  // namespace
}  // namespace gms::trace::detail
