// The calibration report of fidelity.py's points CSV: the file read into curves, one chart per
// curve with a mark per published and simulated point, text escaped, a metric over its bound
// marked "fail"; bad files get one error naming the file and line; and `gpumemsim fidelity`
// writes the page and the table, or on bad input an error and no file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.h"
#include "tests/tools/cli/cli_runner.h"
#include "tools/study/fidelity_points.h"
#include "tools/study/fidelity_report.h"

namespace gms {
namespace {

const std::string kHeader =
    "# gpumemsim fidelity points, written by hand\n"
    "# points=quick\n"
    "kind,curve,preset,overrides,board,source,x_label,unit,series,x,published,simulated,"
    "error_pct,metric,value,bound,target,within,role\n";
// A board with markup, a quote and a comma (quoted as RFC 4180 says).
const std::string kLatency =
    "latency_x,volta-v100,gpu.clock_mhz=1380,\"V100 <b> & \"\"PCIe\"\", 80 SMs\",repo <a> @ 1c36";
const std::string kStream = "stream_x,hopper-h200,,H200,repo2";

std::string point(const std::string& curve, const std::string& series, const std::string& x,
                  const std::string& values, const std::string& role = "check") {
  const bool latency = curve == kLatency;
  return "point," + curve + "," +
         (latency ? "footprint (KiB),cycles/load," : "block size (threads),GB/s,") + series + "," +
         x + "," + values + ",,,,,," + role + "\n";
}

std::string metric(const std::string& curve, const std::string& unit, const std::string& edges,
                   const std::string& rest) {
  return "metric," + curve + ",," + unit + ",,," + edges + ",," + rest + ",\n";
}

/// Two curves on two presets: a latency curve of 3 points whose l2_edge is over its bound, and
/// a stream curve of 2 blocks x 2 kernels whose mae_read is a gap (bound above target). The first
/// point of each is a fit, the others checks.
std::string good_csv() {
  return kHeader + point(kLatency, "latency", "16", "30,30.5,1.66", "fit") +
         point(kLatency, "latency", "256", "215,214,-0.47") +
         point(kLatency, "latency", "8192", "420,400,-4.76") +
         metric(kLatency, "", ",", "mae,2.3,10.0,10,yes") +
         metric(kLatency, "KiB", "130,130", "l1_edge,0,5.0,5,yes") +
         metric(kLatency, "KiB", "7684,8606", "l2_edge,12,5.0,5,no") +
         point(kStream, "init", "32", "100,110,10") +
         point(kStream, "read", "32", "80,70,-12.5", "fit") +
         point(kStream, "init", "256", "900,880,-2.2") +
         point(kStream, "read", "256", "700,800,14.3") +
         metric(kStream, "", ",", "mae,9.7,15.0,15,yes") +
         metric(kStream, "", ",", "mae_read,13.4,16.1,15,yes");
}

std::size_t count(const std::string& s, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = s.find(needle); at != std::string::npos; at = s.find(needle, at + 1)) ++n;
  return n;
}

std::string page_of(const std::string& csv) {
  std::ostringstream out;
  print_fidelity_html(out, parse_fidelity_points(csv, "p.csv"));
  return out.str();
}

/// The markup of the n-th chart.
std::string chart(const std::string& page, std::size_t n) {
  std::size_t at = 0;
  for (std::size_t i = 0; i <= n; ++i) at = page.find("<svg class=\"chart\"", i ? at + 1 : 0);
  return page.substr(at, page.find("</svg>", at) - at);
}

std::string error_of(const std::string& csv) {
  try {
    parse_fidelity_points(csv, "p.csv");
  } catch (const SimError& e) {
    return e.what();
  }
  return "no error";
}

TEST(FidelityReportTest, ReadsCurvesPointsAndMetrics) {
  const FidelityPoints p = parse_fidelity_points(good_csv(), "p.csv");
  ASSERT_EQ(p.curves.size(), 2u);
  const FidelityCurve& lat = p.curves[0];
  EXPECT_EQ(lat.board, "V100 <b> & \"PCIe\", 80 SMs");
  EXPECT_EQ(lat.overrides, "gpu.clock_mhz=1380");
  EXPECT_EQ(lat.unit, "cycles/load");
  ASSERT_EQ(lat.points.size(), 3u);
  EXPECT_EQ(lat.points[2].line, 6);
  EXPECT_DOUBLE_EQ(lat.points[2].simulated, 400);
  ASSERT_EQ(lat.metrics.size(), 3u);
  EXPECT_EQ(*lat.metrics[2].simulated, 8606);
  EXPECT_FALSE(lat.metrics[0].published);
  EXPECT_FALSE(lat.within());
  const FidelityCurve& st = p.curves[1];
  EXPECT_EQ(st.series(), (std::vector<std::string>{"init", "read"}));
  EXPECT_TRUE(st.within());
  EXPECT_FALSE(st.metrics[0].gap());
  EXPECT_TRUE(st.metrics[1].gap());
  EXPECT_EQ(p.notes[1], "points=quick");
}

TEST(FidelityReportTest, FitsAndChecksApartPerPresetAndKind) {
  const std::vector<FidelityGroup> g = parse_fidelity_points(good_csv(), "p.csv").groups();
  ASSERT_EQ(g.size(), 4u);
  // volta-v100 latency: fit = the 16 KiB point, |1.66|; check = (0.47 + 4.76) / 2 = 2.615.
  EXPECT_EQ(g[0].preset, "volta-v100");
  EXPECT_EQ(g[0].kind, "latency");
  EXPECT_TRUE(g[0].fit);
  EXPECT_EQ(g[0].points, 1u);
  EXPECT_DOUBLE_EQ(g[0].mae_pct, 1.66);
  EXPECT_FALSE(g[1].fit);
  EXPECT_EQ(g[1].points, 2u);
  EXPECT_DOUBLE_EQ(g[1].mae_pct, (0.47 + 4.76) / 2);
  // hopper-h200 bandwidth: fit = 32/read, 12.5; check = (10 + 2.2 + 14.3) / 3.
  EXPECT_EQ(g[2].preset, "hopper-h200");
  EXPECT_EQ(g[2].kind, "bandwidth");
  EXPECT_DOUBLE_EQ(g[2].mae_pct, 12.5);
  EXPECT_DOUBLE_EQ(g[3].mae_pct, (10 + 2.2 + 14.3) / 3);
  EXPECT_EQ(g[3].curves, (std::vector<std::string>{"stream_x"}));
  std::ostringstream out;
  print_fidelity_table(out, parse_fidelity_points(good_csv(), "p.csv"));
  EXPECT_NE(out.str().find("hopper-h200  bandwidth  check  8.8    3       stream_x"),
            std::string::npos)
      << out.str();
  EXPECT_NE(page_of(good_csv()).find("<h2>Fits and checks apart</h2>"), std::string::npos);
}

TEST(FidelityReportTest, OneChartPerCurveWithAMarkPerPoint) {
  const std::string page = page_of(good_csv());
  EXPECT_EQ(count(page, "<svg class=\"chart\" data-chart=\"line\""), 2u);
  const std::string lat = chart(page, 0), st = chart(page, 1);
  EXPECT_EQ(count(lat, "<circle class=\"point\""), 6u);  // 3 published, 3 simulated
  EXPECT_NE(lat.find("data-series=\"published\" data-x=\"8192\" data-y=\"420\""),
            std::string::npos);
  EXPECT_NE(lat.find("data-series=\"simulated\" data-x=\"8192\" data-y=\"400\""),
            std::string::npos);
  EXPECT_EQ(count(st, "<circle class=\"point\""), 8u);  // 2 blocks x 2 kernels x 2
  EXPECT_NE(st.find("data-series=\"read simulated\" data-x=\"256\" data-y=\"800\""),
            std::string::npos);
  EXPECT_NE(st.find("block size (threads)"), std::string::npos);
  // Grouped by preset, in file order.
  EXPECT_LT(page.find("<h2>Preset volta-v100</h2>"), page.find("<h2>Preset hopper-h200</h2>"));
}

TEST(FidelityReportTest, EscapesText) {
  const std::string page = page_of(good_csv());
  EXPECT_NE(page.find("V100 &lt;b&gt; &amp; &quot;PCIe&quot;, 80 SMs"), std::string::npos);
  EXPECT_NE(page.find("repo &lt;a&gt; @ 1c36"), std::string::npos);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_EQ(page.find("<a>"), std::string::npos);
}

TEST(FidelityReportTest, AMetricOverItsBoundIsAFailRow) {
  const std::string page = page_of(good_csv());
  // The summary row of the latency curve and its l2_edge row; nothing of the stream curve.
  EXPECT_EQ(count(page, "<tr class=\"fail\">"), 2u);
  EXPECT_NE(page.find("<tr class=\"fail\"><td>latency_x</td>"), std::string::npos);
  EXPECT_NE(page.find("<tr class=\"fail\"><td>l2_edge</td><td>7684 KiB</td><td>8606 KiB</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<tr><td>stream_x</td>"), std::string::npos);
  EXPECT_NE(page.find("l2_edge 12.00 &gt; 5.0"), std::string::npos);
  EXPECT_NE(page.find("mae_read (bound 16.1, target 15.0)"), std::string::npos);
}

TEST(FidelityReportTest, TableIsTheSummary) {
  std::ostringstream out;
  print_fidelity_table(out, parse_fidelity_points(good_csv(), "p.csv"));
  const std::string t = out.str();
  // header, two curves, totals; a title, a header and four groups
  EXPECT_EQ(count(t, "\n"), 10u) << t;
  EXPECT_NE(t.find("mae 2.3, l1_edge 0.0, l2_edge 12.0"), std::string::npos) << t;
  EXPECT_NE(t.find("l2_edge 12.00 > 5.0"), std::string::npos) << t;
  EXPECT_NE(t.find("2 curves, 5 metrics: 1 over their bound, 1 gaps"), std::string::npos) << t;
}

TEST(FidelityReportTest, BadFilesNameTheFileAndLine) {
  const std::string good = good_csv();
  // A header without `within` (named otherwise).
  std::string no_col = good;
  no_col.replace(no_col.find(",within"), 7, ",inside");
  EXPECT_NE(error_of(no_col).find("p.csv:3: no column 'within'"), std::string::npos)
      << error_of(no_col);
  // Line 5 with a cell too many.
  std::string cells = good;
  cells.insert(cells.find("\n", cells.find("215,214")), ",x");
  EXPECT_NE(error_of(cells).find("p.csv:5: 20 cells"), std::string::npos) << error_of(cells);
  std::string nan = good;
  nan.replace(nan.find("215,214"), 3, "2x5");
  EXPECT_NE(error_of(nan).find("p.csv:5: published '2x5' is not a number"), std::string::npos)
      << error_of(nan);
  std::string kind = good;
  kind.replace(kind.find("point,"), 5, "paint");
  EXPECT_NE(error_of(kind).find("p.csv:4: kind 'paint'"), std::string::npos) << error_of(kind);
  std::string says_yes = good;
  says_yes.replace(says_yes.find("12,5.0,5,no"), 11, "12,5.0,5,yes");
  EXPECT_NE(error_of(says_yes).find("p.csv:9: curve latency_x: l2_edge 12 is over its bound"),
            std::string::npos)
      << error_of(says_yes);
  EXPECT_NE(error_of(good + point(kStream, "read", "32", "1,2,3"))
                .find("p.csv:16: curve stream_x: a second point read at x 32 (line 11"),
            std::string::npos);
  std::string other_board = good + point(kStream, "read", "64", "1,2,3");
  other_board.replace(other_board.rfind(",H200,"), 6, ",H100,");
  EXPECT_NE(error_of(other_board).find("p.csv:16: curve stream_x: board 'H100' where line 10"),
            std::string::npos)
      << error_of(other_board);
  EXPECT_NE(error_of(kHeader + metric("c,p,,b,s", "", ",", "mae,1,10,10,yes"))
                .find("p.csv:4: curve c has metrics but no point"),
            std::string::npos);
  EXPECT_NE(error_of(kHeader).find("p.csv: no curve"), std::string::npos);
  std::string role = good;
  role.replace(role.find(",fit\n"), 5, ",maybe\n");
  EXPECT_NE(error_of(role).find("p.csv:4: role 'maybe': expected fit or check"), std::string::npos)
      << error_of(role);
  std::string metric_role = good;
  metric_role.replace(metric_role.find("10,yes,\n"), 8, "10,yes,fit\n");
  EXPECT_NE(error_of(metric_role).find("p.csv:7: role 'fit' on a metric row"), std::string::npos)
      << error_of(metric_role);
}

TEST(FidelityReportTest, CommandWritesThePageOrOneErrorAndNoFile) {
  test::TempDir tmp;
  const std::string csv = tmp.file("points.csv"), html = tmp.file("f.html");
  std::ofstream(csv) << good_csv();
  const test::CliResult page = test::run_cli("fidelity " + csv + " --format html -o " + html);
  ASSERT_EQ(page.status, 0) << page.err;
  EXPECT_EQ(count(test::slurp(html), "<svg class=\"chart\""), 2u);
  const test::CliResult table = test::run_cli("fidelity " + csv);
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("1 over their bound"), std::string::npos) << table.out;

  std::string bad_text = good_csv();
  bad_text.replace(bad_text.find("215,214"), 3, "2x5");
  const std::string bad = tmp.file("bad.csv"), bad_html = tmp.file("bad.html");
  std::ofstream(bad) << bad_text;
  const test::CliResult r = test::run_cli("fidelity " + bad + " --format html -o " + bad_html);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(bad + ":5: published '2x5' is not a number"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(bad_html));
  EXPECT_EQ(test::run_cli("fidelity " + csv + " --format svg").status, 1);
}

TEST(FidelityReportTest, APointsFileOfFidelityPyIsDrawnWhole) {
  // fidelity.py's own output for two curves: a mark per published and simulated value of every
  // point row, and the metric rows in the error tables.
  const std::string path = test::data_path("fidelity/v100_quick_points.csv");
  const std::string text = test::slurp(path);
  const std::size_t points = count(text, "\npoint,"), metrics = count(text, "\nmetric,");
  ASSERT_GT(points, 0u);
  const test::CliResult r = test::run_cli("fidelity " + path + " --format html");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count(r.out, "<svg class=\"chart\""), 2u);
  EXPECT_EQ(count(r.out, "<circle class=\"point\""), 2 * points);
  EXPECT_EQ(count(r.out, "<tr><td>mae"), metrics - 2);  // l1_edge and l2_edge start otherwise
  EXPECT_EQ(count(r.out, "<tr class=\"fail\">"), 0u);
}

}  // namespace
}  // namespace gms
