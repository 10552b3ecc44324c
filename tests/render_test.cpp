// The render layer (src/render/) called directly, without running the binary: one test per family
// of outputs (escaping, the SVG heatmap, JSON documents, HTML pages, the audit's roundings). The
// expected values come from the documented scale, the definitions and hand computation.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "render/audit_output.hpp"
#include "render/audit_report.hpp"
#include "render/bias_report.hpp"
#include "render/heatmap.hpp"
#include "render/html_pages.hpp"
#include "render/progress_line.hpp"
#include "render/text_escape.hpp"
#include "render/trace_output.hpp"
#include "shufl/audit.hpp"
#include "shufl/bias.hpp"
#include "shufl/shuffle.hpp"
#include "shufl/trace.hpp"

namespace {

using namespace shufl;

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

// The text between `open` and the next "</script>", parsed as JSON.
nlohmann::json embedded(const std::string& page, const std::string& open) {
  const auto at = page.find(open);
  EXPECT_NE(at, std::string::npos) << open;
  const auto begin = at + open.size();
  return nlohmann::json::parse(page.substr(begin, page.find("</script>", begin) - begin));
}

// By hand: 1450 trials in 10 s (145/s); f = (1 + 0.45) / 3, left 10 (1 - f) / f = 10.69 s; the bar
// 79 - 15 - 32 - 2 = 30 wide, 13 filled.
TEST(Render, ProgressLines) {
  EXPECT_EQ(render::bias_progress_line("naive", 1, 3, 450, 1000, 10.0, 80),
            "naive (2 of 3) [" + std::string(13, '#') + std::string(17, ' ') + "]  45%    145 trials/s  0:11 left");
  EXPECT_EQ(render::bias_progress_line("naive", 1, 3, 450, 1000, 10.0, 20), "naive (2 of 3)  45%");
  EXPECT_EQ(render::bias_progress_line("x", 0, 1, 0, 1000, 0.1, 20), "x (1 of 1)   0%  --");
  // 5 M/s, 1.5 s left rounds to 2; at 50 columns 11 + 32 + 12 > 49: no bar; at 60 the bar is 14.
  EXPECT_EQ(render::bias_progress_line("a", 0, 1, 2'500'000, 10'000'000, 0.5, 50),
            "a (1 of 1)  25%  5.00M trials/s  0:02 left");
  EXPECT_EQ(render::bias_progress_line("a", 0, 1, 2'500'000, 10'000'000, 0.5, 60),
            "a (1 of 1) [###           ]  25%  5.00M trials/s  0:02 left");
  EXPECT_EQ(render::lines_progress_line("writing", std::uint64_t{3} << 29, std::uint64_t{1} << 31),
            "shufl: writing 1.50 GiB (75%)");
  EXPECT_EQ(render::lines_progress_line("reading", std::uint64_t{3} << 29, 0), "shufl: reading 1.50 GiB");
}

TEST(Render, Escaping) {
  EXPECT_EQ(render::xml_escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
  // U+FFFE and U+FFFF are no XML characters (a parser stops at them); U+FFFD and U+FFFC are.
  EXPECT_EQ(render::xml_escape("a\xEF\xBF\xBE" "b\xEF\xBF\xBF" "c\xEF\xBF\xBD\xEF\xBF\xBC"),
            "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\xEF\xBF\xBD\xEF\xBF\xBC");
  EXPECT_EQ(render::csv_field("=1+1"), "'=1+1");    // a formula defused
  EXPECT_EQ(render::csv_field("a,b"), "\"a,b\"");   // RFC 4180 quoting
}

TEST(Render, HeatmapSvg) {
  // The documented scale's ends and centre (heatmap.hpp, ColorBrewer RdBu with a white centre).
  EXPECT_EQ(render::heat_colour(0), "#ffffff");
  EXPECT_EQ(render::heat_colour(4), "#b2182b");
  EXPECT_EQ(render::heat_colour(-100), "#2166ac");
  EXPECT_EQ(render::cell_z(100, 300, 1.0 / 3), 0);  // observed = expected
  render::heat_panel p;
  p.title = "a<b";
  p.n = 3;
  p.trials = 300;
  p.counts = {100, 100, 100, 100, 100, 100, 100, 100, 100};
  const std::string svg = render::heatmap_svg("head & title", {p, p});
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(occurrences(svg, "<rect class=\"cell\""), 18u);  // 2 panels × 3 × 3 cells
  EXPECT_EQ(occurrences(svg, "data-panel=\"1\" data-card=\"3\" data-position=\"3\""), 1u);
  EXPECT_NE(svg.find("a&lt;b"), std::string::npos);
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
  EXPECT_NE(svg.find("head &amp; title"), std::string::npos);
}

TEST(Render, TraceTextAndJson) {
  // Fisher-Yates (i from n-1 down to 1: j in [0, i]; swap a[i], a[j]) with the draws 0, 0.
  trace_options o;
  o.algorithm = parse_algorithm_list("fisher-yates").at(0);
  o.n = 3;
  o.draws = std::vector<std::uint64_t>{0, 0};
  const trace_result t = run_trace(o);
  const std::vector<std::string> labels{"1", "2", "3"};
  std::vector<std::string> deck = labels;
  for (std::size_t i = 2; i >= 1; --i) std::swap(deck[i], deck[0]);
  const nlohmann::json j = nlohmann::json::parse(render::trace_json(o, t, labels).dump());
  EXPECT_EQ(j["command"], "trace");
  EXPECT_EQ(j["steps"].size(), 2u);
  EXPECT_EQ(j["result"].get<std::vector<std::string>>(), deck);
  const std::string text = render::trace_text_report(o, t, labels, false);
  EXPECT_NE(text.find("result: " + deck[0] + " " + deck[1] + " " + deck[2] + "\n"), std::string::npos);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);  // no colour asked for
  // The page embeds the document unchanged and opens with the shared head.
  const std::string page = render::trace_page(render::trace_json(o, t, labels));
  EXPECT_EQ(page.rfind(render::page_head, 0), 0u);
  EXPECT_EQ(embedded(page, "<script id=\"trace-data\" type=\"application/json\">"), j);
}

TEST(Render, BiasJsonAndReportPage) {
  bias_options o;
  o.n = 3;
  o.trials = 600;
  o.seed = "render";
  o.algorithms = parse_algorithm_list("fisher-yates,naive");
  const bias_report report = run_bias(o);
  const nlohmann::json doc = nlohmann::json::parse(render::json_report(report, 1));
  EXPECT_EQ(doc["command"], "bias");
  ASSERT_EQ(doc["results"].size(), 2u);
  for (const auto& r : doc["results"]) {
    // Every row of the card × position matrix counts each trial once.
    const auto m = r["position_counts"].get<std::vector<std::vector<std::uint64_t>>>();
    ASSERT_EQ(m.size(), 3u);
    for (const auto& row : m) EXPECT_EQ(row[0] + row[1] + row[2], 600u);
  }
  const render::page_provenance made{"2001-02-03 04:05:06 UTC", "shufl bias <x>", {}};
  const std::string page = render::report_page(nlohmann::ordered_json::parse(render::json_report(report, 1)), made);
  EXPECT_EQ(page.rfind(render::page_head, 0), 0u);
  EXPECT_NE(page.find("written 2001-02-03 04:05:06 UTC"), std::string::npos);
  EXPECT_NE(page.find("shufl bias &lt;x&gt;"), std::string::npos);
  EXPECT_EQ(embedded(page, "<script id=\"bias-data\" type=\"application/json\">"), doc);
}

TEST(Render, AuditRoundingsAndPage) {
  EXPECT_EQ(render::audit_p_text(0.5, std::log(0.5), false), "0.5000");
  EXPECT_EQ(render::audit_p_text(0.00012341, std::log(0.00012341), true), "<=0.0002");  // a bound rounds up
  EXPECT_EQ(render::audit_p_text(1e-5, std::log(1e-5), false), "1.00e-05");
  EXPECT_EQ(render::audit_statistic_text(12.345), "12.35");
  EXPECT_EQ(render::audit_statistic_text(12345678), "1.235e+07");
  const render::page_provenance made{"2001-02-03 04:05:06 UTC", "shufl audit <x>", {}};
  const std::string page = render::audit_report_page({}, made);
  EXPECT_EQ(page.rfind(render::page_head, 0), 0u);
  EXPECT_NE(page.find("2001-02-03 04:05:06 UTC"), std::string::npos);
  EXPECT_NE(page.find("shufl audit &lt;x&gt;"), std::string::npos);
  EXPECT_EQ(embedded(page, "<script id=\"audit-data\" type=\"application/json\">"), nlohmann::json::array());
  EXPECT_NE(page.find(" build)</td></tr>"), std::string::npos) << "no commit given: none stated";
  EXPECT_EQ(page.find(", commit"), std::string::npos);
  render::page_provenance built = made;
  built.commit = "v0.2.0-3-g<x>";
  const std::string with_commit = render::audit_report_page({}, built);
  EXPECT_NE(with_commit.find(" build, commit v0.2.0-3-g&lt;x&gt;)</td></tr>"), std::string::npos);
}

// An array's input (the Python package) in the JSON and the text report, and the notebook
// fragment: the page's section, every style selector under the fragment's own class.
TEST(Render, AuditArrayInputAndFragment) {
  audit::audit_report r;
  r.decks = 3;
  r.cards = r.positions = 52;
  r.pack_description = "standard 52-card deck";
  r.decision.summary = "no evidence of non-randomness in 3 decks at alpha 0.01";
  render::audit_input in;
  in.array = render::audit_array_input{"<array>", 3, 52, "uint8"};
  audit::reader_options o;
  o.pack = pack_kind::standard;
  const auto doc = render::audit_json_report(r, in, audit::make_audit_pack(o));
  EXPECT_EQ(doc["input"].dump(), R"({"name":"<array>","shape":[3,52],"dtype":"uint8"})");
  const std::string text = render::audit_text_report(r, in);
  EXPECT_EQ(text.substr(0, text.find('\n')), "audit of <array>: 3 decks of a standard 52-card deck (shape 3x52, uint8)");
  const std::string html = render::audit_report_fragment(render::audit_page_section_of(r, in, doc), "p7-");
  EXPECT_EQ(html.rfind("<div class=\"shufl-audit\">\n<style>\n", 0), 0u);
  // Every id carries the prefix and every link inside the fragment finds its id.
  EXPECT_NE(html.find(" id=\"p7-battery-0\""), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#p7-w-p\">p</a>"), std::string::npos);
  EXPECT_EQ(occurrences(html, " id=\""), occurrences(html, " id=\"p7-"));
  EXPECT_GT(occurrences(html, " id=\""), 5u);
  for (std::size_t at = 0; (at = html.find("href=\"#", at)) != std::string::npos;) {
    at += 7;
    const std::string target = html.substr(at, html.find('"', at) - at);
    EXPECT_EQ(target.rfind("p7-", 0), 0u) << target;
    EXPECT_NE(html.find(" id=\"" + target + "\""), std::string::npos) << target;
  }
  EXPECT_EQ(occurrences(html, "<style"), 1u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("<h2>Audit of &lt;array&gt;</h2>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>shape</th><td>3 \u00d7 52 (decks \u00d7 cards)</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>element type</th><td>uint8</td></tr>"), std::string::npos);
  const std::size_t begin = html.find("<style>\n") + 8;
  const std::string style = html.substr(begin, html.find("</style>") - begin);
  std::size_t selectors = 0;
  for (std::size_t at = 0, open; (open = style.find('{', at)) != std::string::npos; at = style.find('}', open) + 1) {
    std::string list = style.substr(at, open - at);
    for (std::size_t from = 0; from < list.size();) {
      const std::size_t comma = std::min(list.find(',', from), list.size());
      const std::string one = list.substr(list.find_first_not_of(" \n", from), 12);
      EXPECT_EQ(one, ".shufl-audit") << list;
      ++selectors;
      from = comma + 1;
    }
  }
  EXPECT_GT(selectors, 20u);
  EXPECT_EQ(style.find('@'), std::string::npos);
}

}  // namespace
