// End-to-end tests of the pages (issue 16) that need no browser: `trace --format html` and
// `bias --report` are one self-contained file each, embed the --format json document unchanged,
// escape labels, and repeat byte for byte. tests/html/check_pages.py drives them in Chromium.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "support/run.hpp"

namespace shufl::test {
namespace {

// The text between <script id="ID" type="application/json"> and the next </script>.
std::string embedded(const std::string& page, const std::string& id) {
  const std::string open = "<script id=\"" + id + "\" type=\"application/json\">";
  const auto begin = page.find(open);
  if (begin == std::string::npos) return {};
  const auto start = begin + open.size();
  return page.substr(start, page.find("</script>", start) - start);
}

// Nothing a page may fetch: no src= or href= other than the empty data: icon, no http(s) URL.
void expect_self_contained(const std::string& page) {
  EXPECT_NE(page.find("content=\"default-src 'none';"), std::string::npos);
  EXPECT_EQ(page.find(" src="), std::string::npos);
  EXPECT_EQ(page.find("http://"), page.find("http://www.w3.org/2000/svg"));  // only SVG namespaces
  EXPECT_EQ(page.find("https://"), std::string::npos);
  std::size_t at = 0, hrefs = 0;
  while ((at = page.find("href=\"", at)) != std::string::npos) {
    EXPECT_EQ(page.compare(at, 13, "href=\"data:,\""), 0) << page.substr(at, 40);
    ++at;
    ++hrefs;
  }
  EXPECT_LE(hrefs, 1u);
}

TEST(HtmlE2E, TracePageEmbedsTheJsonDocumentAndRepeats) {
  for (const std::string algo : {"fisher-yates", "naive", "sort-coin:merge", "riffle:2", "weak-seed"}) {
    const std::vector<std::string> args = {"trace", "--algo", algo, "--n", "5", "--seed", "page"};
    auto html_args = args;
    html_args.insert(html_args.end(), {"--format", "html"});
    auto json_args = args;
    json_args.insert(json_args.end(), {"--format", "json"});
    const run_result page = run_shufl(html_args);
    ASSERT_EQ(page.status, 0) << page.err;
    EXPECT_EQ(page.err, "");
    EXPECT_EQ(page.out.rfind("<!DOCTYPE html>", 0), 0u);
    expect_self_contained(page.out);
    const run_result json = run_shufl(json_args);
    EXPECT_EQ(nlohmann::json::parse(embedded(page.out, "trace-data")), nlohmann::json::parse(json.out)) << algo;
    EXPECT_EQ(run_shufl(html_args).out, page.out) << algo << ": the same seed gave another page";
  }
}

TEST(HtmlE2E, TraceLabelsCannotEndTheScriptOrBecomeMarkup) {
  const run_result page = run_shufl({"trace", "</script><b>", "a&b", "<!--", "--seed", "1", "--format", "html"});
  ASSERT_EQ(page.status, 0) << page.err;
  const std::string data = embedded(page.out, "trace-data");
  EXPECT_EQ(data.find('<'), std::string::npos);
  EXPECT_EQ(data.find('>'), std::string::npos);
  EXPECT_EQ(data.find('&'), std::string::npos);
  const auto doc = nlohmann::json::parse(data);
  EXPECT_EQ(doc["items"][0], "</script><b>");
  EXPECT_EQ(doc["items"][1], "a&b");
  EXPECT_EQ(page.out.find("<b>"), std::string::npos);
}

// The report page says when and by which command it was written, and the SHA-256 of the
// --input file it read (sha256sum as the oracle).
TEST(HtmlE2E, ReportPageCarriesDateCommandAndInputHash) {
  temp_dir dir;
  const std::string file = dir.file("report.html"), input = dir.file("perms.txt");
  {
    std::ofstream out(input, std::ios::binary);
    for (int k = 0; k < 60; ++k) out << (k % 2 ? "1 2 3\n" : "3 1 2\n");
  }
  const run_result r = run_shufl({"bias", "--input", input, "--report", file});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(file);
  const run_result sum = run_shell("sha256sum '" + input + "'");
  ASSERT_EQ(sum.status, 0);
  const std::string digest = sum.out.substr(0, 64);
  EXPECT_NE(page.find("SHA-256 " + digest + "</p>"), std::string::npos) << page.substr(0, 3000);
  EXPECT_NE(page.find("command line: <code>shufl bias --input " + input + " --report " + file + "</code>"),
            std::string::npos);
  EXPECT_TRUE(std::regex_search(page, std::regex("written 20[0-9]{2}-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-6][0-9] UTC;")));
  // Standard input is read once: no hash, said so.
  const run_result piped = run_shufl({"bias", "--input", "-", "--report", file}, "1 2 3\n3 1 2\n");
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_NE(read_file(file).find("input stdin SHA-256 none (standard input cannot be read again)"), std::string::npos);
}

TEST(HtmlE2E, ReportPageEmbedsTheRunAndShowsItsNumbers) {
  temp_dir dir;
  const std::string file = dir.file("report.html");
  const run_result r = run_shufl({"bias", "--n", "4", "--seed", "1", "--trials", "48000", "--threads", "2",
                                  "--format", "json", "--report", file});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(file);
  expect_self_contained(page);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(nlohmann::json::parse(embedded(page, "bias-data")), doc);
  // The text report's rounding: X2 with 4 decimals, the verdict words.
  const run_result text = run_shufl({"bias", "--n", "4", "--seed", "1", "--trials", "48000", "--threads", "2"});
  for (const auto& result : doc["results"]) {
    char x2[64];
    std::snprintf(x2, sizeof x2, "%.4f", result["chi_squared"]["statistic"].get<double>());
    EXPECT_NE(text.out.find(std::string("X2 = ") + x2), std::string::npos) << x2;
    EXPECT_NE(page.find(std::string(">") + x2 + "<"), std::string::npos) << x2;
  }
  EXPECT_NE(page.find(">biased</span>"), std::string::npos);
  EXPECT_NE(page.find(">no evidence of bias</span>"), std::string::npos);
  EXPECT_NE(page.find("n = 4, 48000 trials per algorithm, seed &quot;1&quot;, engine xoshiro256pp"), std::string::npos);
  EXPECT_NE(page.find("class=\"bar\""), std::string::npos);  // the order histogram (n <= 6)
  // Element ids are unique in the page: each picture's colour-bar gradient has its own.
  std::multiset<std::string> ids;
  for (std::size_t at = 0; (at = page.find(" id=\"", at)) != std::string::npos; at += 5) {
    ids.insert(page.substr(at + 5, page.find('"', at + 5) - at - 5));
  }
  EXPECT_EQ(ids.count("heat-scale-0"), 1u);
  EXPECT_EQ(ids.count("heat-scale-1"), 1u);
  for (const auto& id : ids) EXPECT_EQ(ids.count(id), 1u) << id;
  // The power statement shown is the JSON's power.statement, as the text report words it.
  for (const auto& result : doc["results"]) {
    const std::string statement = result["power"]["statement"].get<std::string>();
    EXPECT_NE(text.out.find("  power: " + statement + "\n"), std::string::npos) << statement;
  }
  EXPECT_NE(page.find("power: the verdict is &quot;biased&quot; with probability &gt;= 90%"), std::string::npos);
}

// A report is a run of trials: with --exact (no trials) it is refused at once, no file written.
TEST(HtmlE2E, ExactRunsRefuseReport) {
  temp_dir dir;
  const run_result r = run_shufl({"bias", "--n", "4", "--exact", "--report", dir.file("r.html")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "shufl: --report draws a run of trials (counts, heatmaps, tests) and --exact runs none: drop --report "
                   "(the exact laws are in --format json)\n");
  EXPECT_FALSE(std::ifstream(dir.file("r.html")).good());
}

}  // namespace
}  // namespace shufl::test
