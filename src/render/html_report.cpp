// `shufl bias --report FILE.html`: one self-contained page per run, rendered from the run's
// --format json document (html_pages.hpp). Numbers are rounded as the text report rounds them;
// every shown number carries data-json (its path in the document) and data-format (the rounding,
// a printf conversion) so that a test can recompute it from the embedded document.
#include <fmt/format.h>
#include <sodium.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

#include "bias_report.hpp"
#include "count_noun.hpp"
#include "bias_view.hpp"
#include "heatmap.hpp"
#include "html_pages.hpp"

namespace shufl::render {

namespace {

constexpr const char* kReportHead = R"~(<style>
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 1.5em; color: #222; background: #fff; max-width: 80em; }
h1 { font-size: 1.4em; margin: 0 0 .3em; } h2 { font-size: 1.2em; margin: 1.6em 0 .3em; border-top: 1px solid #ccc; padding-top: .8em; }
.muted { color: #555; }
.verdict { font-weight: bold; font-size: 1.1em; padding: .1em .5em; border-radius: 4px; }
.verdict.biased { background: #f8d7da; color: #8a1020; } .verdict.no-evidence { background: #dcefd9; color: #1e5e1e; }
.verdict.unreliable { background: #fff3cd; color: #6b5200; }
table.tests { border-collapse: collapse; margin: .6em 0; font-size: .92em; }
table.tests th, table.tests td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
table.tests th:first-child, table.tests td:first-child { text-align: left; }
table.tests tr.deciding td { background: #fff6d5; font-weight: bold; }
.picture { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 1em; margin: .6em 0; }
.warning { color: #8a5a00; }
</style>
)~";

// A number shown on the page, with what it is in the document and how it was rounded.
std::string num(const std::string& path, const char* format, const std::string& shown) {
  return fmt::format(R"(<span class="num" data-json="{}" data-format="{}">{}</span>)", xml_escape(path), format,
                     xml_escape(shown));
}

// A p-value cell from ln p (exact far below 1e-308): "0.08861", or "< 1e-308" below the
// double range, as the text report writes them.
// A bound (the document's "bound": ln p is only an upper bound) is shown with "<= ".
std::string p_cell(const std::string& path, double ln_p, bool bound = false) {
  if (ln_p < std::log(1e-308)) return num(path, bound ? "ln:<=<1e-308" : "ln:<1e-308", bound ? "<= 1e-308" : "< 1e-308");
  return num(path, bound ? "ln:<=.4g" : "ln:.4g", fmt::format("{}{:.4g}", bound ? "<= " : "", std::exp(ln_p)));
}

std::string ln_p_cell(const std::string& path, double ln_p) {
  if (ln_p < std::log(1e-308)) return num(path, ".2f", fmt::format("{:.2f}", ln_p));
  return num(path, ".4g", fmt::format("{:.4g}", ln_p));
}

// Bars of the n! order counts, each coloured by its z-score (heatmap.hpp, p = 1/n!), with the
// expected count as a dashed line.
std::string histogram_svg(const nlohmann::ordered_json& counts, std::size_t k_result) {
  std::vector<std::pair<std::string, double>> bars;
  for (const auto& [key, value] : counts.items()) bars.emplace_back(key, value.get<double>());
  const double cells = static_cast<double>(bars.size());
  double trials = 0, max_count = 1;
  for (const auto& b : bars) {
    trials += b.second;
    max_count = std::max(max_count, b.second);
  }
  const double expected = trials / cells;
  const double bar = std::clamp(std::floor(640 / cells), 1.0, 36.0);
  const double left = 56, top = 10, plot_h = 220;
  const bool labels = bars.size() <= 24;
  const double bottom_space = labels ? 58 : 34;
  const double width = left + bar * cells + 20;
  const double height = top + plot_h + bottom_space;
  const double scale = plot_h / (max_count * 1.08);
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="histogram" width="{:.0f}" height="{:.0f}" font-family="DejaVu Sans, Verdana, sans-serif">)" "\n",
      width, height);
  for (std::size_t k = 0; k < bars.size(); ++k) {
    const double h = bars[k].second * scale;
    const double z = cell_z(bars[k].second, trials, 1 / cells);
    out += fmt::format(
        R"(<rect class="bar" data-result="{}" data-order="{}" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}" stroke="#666" stroke-width="0.3"><title>{}: {} (z = {:.2f})</title></rect>)" "\n",
        k_result, xml_escape(bars[k].first), left + bar * static_cast<double>(k), top + plot_h - h,
        std::max(bar - (bar > 3 ? 1 : 0), 0.5), h, heat_colour(z), xml_escape(bars[k].first), bars[k].second, z);
    if (labels) {
      out += fmt::format(R"~(<text transform="translate({:.1f},{:.1f}) rotate(-90)" font-size="10" text-anchor="end">{}</text>)~" "\n",
                         left + bar * (static_cast<double>(k) + 0.5) + 3.5, top + plot_h + 4, xml_escape(bars[k].first));
    }
  }
  const double ey = top + plot_h - expected * scale;
  out += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#222" stroke-dasharray="5,3"/>)" "\n",
                     left, ey, left + bar * cells, ey);
  out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="10" text-anchor="end">expected {:.1f}</text>)" "\n",
                     left + bar * cells, ey - 4, expected);
  out += fmt::format(R"(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#444"/>)" "\n", left, top,
                     top + plot_h);
  for (int t = 0; t <= 4; ++t) {
    const double v = max_count * 1.08 * t / 4;
    const double y = top + plot_h - v * scale;
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="10" text-anchor="end">{:.0f}</text>)" "\n", left - 4,
                       y + 3.5, v);
  }
  out += fmt::format(R"~(<text transform="translate(12,{:.1f}) rotate(-90)" font-size="11" text-anchor="middle">count</text>)~" "\n",
                     top + plot_h / 2);
  out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="middle">order{}</text>)" "\n",
                     left + bar * cells / 2, height - 6, labels ? "" : " (lexicographic: first 12\u2026n, last n\u202621)");
  out += "</svg>\n";
  return out;
}

struct test_row {
  std::string name;
  std::string statistic;
  std::string df;
  std::string p;
  std::string ln_p;
  std::string adjusted;
  std::string role;
};

std::string render_result(const nlohmann::ordered_json& doc, const nlohmann::ordered_json& r, std::size_t k) {
  const auto n = doc.value("n", std::size_t{0});
  const std::string base = fmt::format("results.{}", k);
  const std::string verdict = r.value("verdict", "");
  std::string out;
  out += fmt::format(R"(<section class="result" data-result="{}">)" "\n", k);
  out += fmt::format("<h2>{}</h2>\n", xml_escape(field_text(r, "algorithm")));
  if (r.contains("summary")) out += fmt::format("<p class=\"summary\">{}</p>\n", xml_escape(field_text(r, "summary")));
  out += fmt::format(R"(<p>verdict: <span class="verdict {}">{}</span></p>)" "\n", xml_escape(verdict),
                     xml_escape(verdict_words(verdict)));
  out += "<p class=\"deciding\">";
  const auto lines = deciding_lines(r, n);
  for (std::size_t l = 0; l < lines.size(); ++l) out += (l ? "; " : "") + xml_escape(lines[l]);
  out += "</p>\n";

  if (r.contains("exact")) {
    const auto& x = r["exact"];
    out += fmt::format("<p>exact law by {}: total variation distance from uniform {} ({})</p>\n",
                       xml_escape(x.value("method", "")),
                       num(base + ".exact.total_variation_distance", ".10f",
                           fmt::format("{:.10f}", x.value("total_variation_distance", 0.0))),
                       xml_escape(x.value("total_variation_fraction", "")));
  } else {
    out += "<div class=\"picture\">\n";
    if (r.value("test", "") == "table" && n <= 6 && r.contains("counts")) {
      out += histogram_svg(r["counts"], k);
      out += colour_bar_svg(160, fmt::format("heat-scale-{}", k));
    } else if (r.contains("position_counts")) {
      heat_panel p;
      p.title = field_text(r, "algorithm");
      p.n = n;
      if (auto labels = item_labels(doc); labels.size() == n) p.row_labels = std::move(labels);
      for (const auto& row : r["position_counts"]) {
        for (const auto& c : row) p.counts.push_back(c.get<std::uint64_t>());
      }
      for (std::size_t q = 0; q < n && q < p.counts.size(); ++q) p.trials += static_cast<double>(p.counts[q]);
      if (p.counts.size() == n * n) out += heatmap_svg("", {p}, fmt::format("heat-scale-{}", k));
    }
    out += "</div>\n";
    if (r.value("test", "") == "table" && n <= 6) {  // the heatmap's SVG has its own caption
      out += fmt::format("<p class=\"muted\">{}</p>\n",
                         xml_escape(fmt::format("colour: each order's z = (O \u2212 E) / \u221a(E (1 \u2212 1/{}!)), "
                                                "E = trials/{}!; clipped at \u00b14; white = as expected", n, n)));
    }

    // The tests, rounded as the text report rounds them.
    const bool holm = r.value("correction", "none") == "holm";
    const auto d = find_deciding_test(r, n);
    std::vector<test_row> rows;
    const auto& c = r["chi_squared"];
    const bool table = r.value("test", "") == "table";
    const std::string primary = primary_test_name(r, n);
    const std::string adjusted_path = primary_adjusted_path(r);
    const double primary_adjusted = adjusted_path == "ln_p_adjusted" ? r.value("ln_p_adjusted", 0.0)
                                                                      : r["primary"].value("ln_p_adjusted", 0.0);
    rows.push_back({primary, num(base + ".chi_squared.statistic", ".4f", fmt::format("{:.4f}", c.value("statistic", 0.0))),
                    num(base + ".chi_squared.df", "d", fmt::format("{}", c.value("df", std::uint64_t{0}))),
                    p_cell(base + ".chi_squared.ln_p", c.value("ln_p", 0.0), c.value("bound", false)),
                    ln_p_cell(base + ".chi_squared.ln_p", c.value("ln_p", 0.0)),
                    holm ? p_cell(base + "." + adjusted_path, primary_adjusted, c.value("bound", false)) : "",
                    r.contains("primary") && !r["primary"].value("valid", true) ? "primary (not valid here)" : "primary"});
    const auto& g = r["g_test"];
    rows.push_back({table ? "G-test" : "G-test (scaled)",
                    num(base + ".g_test.statistic", ".4f", fmt::format("{:.4f}", g.value("statistic", 0.0))),
                    num(base + ".g_test.df", "d", fmt::format("{}", g.value("df", std::uint64_t{0}))),
                    p_cell(base + ".g_test.ln_p", g.value("ln_p", 0.0), g.value("bound", false)), ln_p_cell(base + ".g_test.ln_p", g.value("ln_p", 0.0)),
                    "", "not in the verdict"});
    if (r.contains("secondary")) {
      std::size_t s_index = 0;
      for (const auto& s : r["secondary"]) {
        const std::string path = fmt::format("{}.secondary.{}", base, s_index++);
        const std::string name = s.value("name", "");
        const bool dup = name == "duplicates";
        const double stat = s.value("statistic", 0.0);
        rows.push_back({name,
                        dup ? num(path + ".statistic", "g", fmt::format("{:g}", stat))
                            : num(path + ".statistic", "+.3f", fmt::format("z = {:+.3f}", stat)),
                        "", p_cell(path + ".ln_p", s.value("ln_p", 0.0), s.value("bound", false)),
                        ln_p_cell(path + ".ln_p", s.value("ln_p", 0.0)),
                        s.value("in_verdict", false)
                            ? p_cell(path + ".ln_p_adjusted", s.value("ln_p_adjusted", 0.0), s.value("bound", false))
                            : "",
                        !s.value("valid", true) ? "not valid here: " + s.value("validity", std::string()) + "; not in the verdict"
                        : s.value("in_verdict", false) ? "in the verdict"
                                                       : "not in the verdict"});
      }
    }
    if (r.contains("monte_carlo")) {
      const double mp = r["monte_carlo"].value("p_value", 0.0);
      rows.push_back({fmt::format("Monte-Carlo p ({} tables)", r["monte_carlo"].value("tables", std::uint64_t{0})), "", "",
                      num(base + ".monte_carlo.p_value", ".4g", fmt::format("{:.4g}", mp)), "", "", "primary statistic"});
    }
    out += "<table class=\"tests\">\n<tr><th>test</th><th>statistic</th><th>df</th><th>p</th><th>ln p</th>"
           "<th>Holm-adjusted p</th><th>role</th></tr>\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& row = rows[i];
      // The deciding row: the primary test (i == 0) unless a secondary test decided.
      const bool deciding = (verdict != "unreliable" || r.contains("deciding_test")) &&
                            (i == 0 ? d.name == primary || d.name.rfind("chi-squared", 0) == 0 || d.name.rfind("position", 0) == 0
                                    : row.name == d.name && row.role == "in the verdict");
      out += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                         deciding ? R"( class="deciding")" : "", xml_escape(row.name), row.statistic, row.df, row.p,
                         row.ln_p, row.adjusted, xml_escape(deciding ? row.role + ", deciding" : row.role));
    }
    out += "</table>\n";
    out += fmt::format("<p class=\"muted\">{}</p>\n",
                       holm ? fmt::format("Holm's correction over the tests in the verdict: family-wise alpha = {}.",
                                          doc.value("alpha", 0.0))
                            : fmt::format("One test decides: alpha = {}.", doc.value("alpha", 0.0)));
    if (table && r.contains("plug_in_total_variation_distance")) {
      out += fmt::format("<p>plug-in estimate of the total variation distance from uniform (biased upward): {}</p>\n",
                         num(base + ".plug_in_total_variation_distance", ".4f",
                             fmt::format("{:.4f}", r.value("plug_in_total_variation_distance", 0.0))));
    }
    // The power statement is the JSON's (power.statement, the text report's wording); null when
    // no power is stated.
    if (r.contains("power") && r["power"].contains("statement") && r["power"]["statement"].is_string()) {
      out += fmt::format(R"(<p class="power" data-json="{}">power: {}</p>)" "\n", xml_escape(base + ".power.statement"),
                         xml_escape(r["power"]["statement"].get<std::string>()));
    }
  }
  if (r.contains("warnings")) {
    for (const auto& w : r["warnings"]) out += fmt::format("<p class=\"warning\">warning: {}</p>\n", xml_escape(w.get<std::string>()));
  }
  out += "</section>\n";
  return out;
}

// Where the page came from: when it was written (UTC), the command line that wrote it and, for
// an --input file, its SHA-256 (libsodium) as it reads now; standard input cannot be read
// again, so it has none.
std::string provenance(const nlohmann::ordered_json& doc, const page_provenance& made) {
  std::string out = fmt::format(R"(<p class="muted" id="provenance">written {}; command line: <code>{}</code>)",
                                made.date_utc, xml_escape(made.command_line));
  if (doc.contains("input") && doc["input"].is_string()) {
    const std::string input = doc["input"].get<std::string>();
    std::string digest = "none (standard input cannot be read again)";
    if (input != "stdin") {
      std::ifstream in(input, std::ios::binary);
      if (in) {
        crypto_hash_sha256_state state;
        crypto_hash_sha256_init(&state);
        char block[1 << 16];
        while (in.read(block, sizeof block) || in.gcount() > 0) {
          crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char*>(block),
                                    static_cast<unsigned long long>(in.gcount()));
        }
        unsigned char hash[crypto_hash_sha256_BYTES];
        crypto_hash_sha256_final(&state, hash);
        digest.clear();
        for (const unsigned char b : hash) digest += fmt::format("{:02x}", b);
      } else {
        digest = "none (the file cannot be read again)";
      }
    }
    out += fmt::format("; input {} SHA-256 {}", xml_escape(input), digest);
  }
  return out + "</p>\n";
}

}  // namespace

std::string report_page(const nlohmann::ordered_json& doc, const page_provenance& made) {
  std::string page = std::string(page_head) + kReportHead;
  const std::string header = run_header(doc);
  page += fmt::format("<title>{}</title>\n</head>\n<body>\n", xml_escape(header));
  page += "<h1>shufl bias report</h1>\n";
  page += fmt::format(R"(<p id="header">{}</p>)" "\n", xml_escape(header));
  page += fmt::format(
      "<p class=\"muted\">alpha = {} per algorithm, correction: {}; {}shufl {}. The whole --format json "
      "document is embedded in this page (script element \"bias-data\").</p>\n",
      doc.value("alpha", 0.0), xml_escape(field_text(doc, "correction", "none")),
      doc.contains("threads") && doc["threads"].is_number()  // null for --input and --exact: nothing ran
          ? count_noun(doc["threads"].get<std::uint64_t>(), "thread", "threads") + "; "
          : std::string(),
      xml_escape(field_text(doc, "shufl_version")));
  page += provenance(doc, made);
  if (const std::string order = item_order_line(doc); !order.empty()) {
    page += fmt::format(R"(<p id="item-order">{}</p>)" "\n", xml_escape(order));
  }
  std::size_t k = 0;
  for (const auto& r : doc["results"]) page += render_result(doc, r, k++);
  page += "<script id=\"bias-data\" type=\"application/json\">";
  page += json_for_html(doc);
  page += "</script>\n</body>\n</html>\n";
  return page;
}

std::string bias_report_page(const bias_report& report, unsigned threads, const page_provenance& made) {
  return report_page(nlohmann::ordered_json::parse(json_report(report, threads)), made);
}

}  // namespace shufl::render
