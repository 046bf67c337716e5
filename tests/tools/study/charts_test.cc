// Chart primitives: every data mark drawn with its data attributes, text escaped, and the
// roofline hook places points under the ceilings.
#include "sim/report/html/svg_chart.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gms::svg {
namespace {

std::size_t count(const std::string& s, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = s.find(needle); at != std::string::npos; at = s.find(needle, at + 1)) ++n;
  return n;
}

TEST(ChartsTest, BarChartDrawsOneRectPerValue) {
  const std::string svg =
      bar_chart({"t", "y", {"a", "b<c", "d"}, {{"s1", {1, 2, 3}}, {"s2", {0, 5, 1}}}, false});
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(count(svg, "<rect class=\"bar\""), 6u);
  EXPECT_NE(svg.find("data-series=\"s2\" data-category=\"b&lt;c\" data-value=\"5\""),
            std::string::npos);
  EXPECT_EQ(svg.find("b<c"), std::string::npos) << "escaped";
}

TEST(ChartsTest, LineChartBreaksAtMissingValues) {
  const std::string svg = line_chart(
      {"t", "x", "y", {"32", "64", "128"}, {{"k1", {1, NAN, 3}}, {"k2", {4, 5, 6}}}, false});
  EXPECT_EQ(count(svg, "<path class=\"series\""), 2u);
  EXPECT_EQ(count(svg, "<circle class=\"point\""), 5u);
  EXPECT_NE(svg.find("data-series=\"k2\" data-x=\"128\" data-y=\"6\""), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"legend\""), 2u);
}

TEST(ChartsTest, ScatterKeepsZerosOnTheChart) {
  const std::string svg =
      scatter_chart({"t",
                     "measured",
                     "simulated",
                     {{0, 0, "zero", "g"}, {10, 12, "p", "g"}, {1e6, 9e5, "q", "h"}}});
  EXPECT_EQ(count(svg, "<circle class=\"point\""), 3u);
  EXPECT_NE(svg.find("class=\"diagonal\""), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(ChartsTest, RooflineHookPlacesPoints) {
  Roofline r;
  r.peak_gflops = 67000;
  r.peak_gbps = 4800;
  r.points = {{"copy", 0.0, 1.0}, {"gemm", 50, 40000}};
  const std::string svg = roofline_chart(r);
  EXPECT_NE(svg.find("data-chart=\"roofline\""), std::string::npos);
  EXPECT_EQ(count(svg, "<circle class=\"point\""), 2u);
  EXPECT_NE(svg.find("class=\"ceiling\""), std::string::npos);
}

}  // namespace
}  // namespace gms::svg
