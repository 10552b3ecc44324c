// The "many runs" view of the trace page (html_pages.hpp): the traced algorithm, Fisher–Yates and
// the naive shuffle each run many times by `run_bias` with one seed, their final orders tallied
// against the n! orders a fair shuffle makes equally likely: a bar per order for n ≤ 5, else the
// card × position heatmap of heatmap.hpp (n ≤ 64). Drawn here as static SVG, so the page stays a
// function of its arguments.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "count_noun.hpp"
#include "heatmap.hpp"
#include "html_pages.hpp"
#include "shufl/bias.hpp"
#include "shufl/exact_count.hpp"
#include "shufl/permutation.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::render {

namespace {

constexpr const char* kFont = R"(font-family="DejaVu Sans, Verdana, sans-serif")";

// An order as the page labels it: the items in their positions, joined (comma-separated when an
// item is longer than one character).
std::string order_label(std::uint64_t rank, const std::vector<std::string>& labels) {
  const auto p = unrank_permutation(rank, labels.size());
  const bool single = std::all_of(labels.begin(), labels.end(), [](const std::string& s) { return s.size() == 1; });
  std::string out;
  for (std::size_t k = 0; k < p.size(); ++k) {
    if (k > 0 && !single) out += ',';
    out += labels[p[k]];
  }
  return out;
}

// One panel of bars: one per order, its height the count, coloured by its z-score, with the
// count a fair shuffle expects as a dashed line.
std::string bars_svg(const bias_result& r, const std::vector<std::string>& labels, std::uint64_t runs) {
  const std::size_t orders = r.counts.size();
  const double expected = static_cast<double>(runs) / static_cast<double>(orders);
  const std::uint64_t top = std::max<std::uint64_t>(*std::max_element(r.counts.begin(), r.counts.end()),
                                                    static_cast<std::uint64_t>(std::ceil(expected * 1.5)));
  const double width = 300, height = 150, left = 46, bottom = orders <= 6 ? 40 : 16;
  const double slot = (width - left - 6) / static_cast<double>(orders);
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="runs-bars" viewBox="0 0 {0:.0f} {1:.0f}" width="{0:.0f}" height="{1:.0f}">)"
      "\n",
      width, height + bottom);
  const auto y_of = [&](double v) { return height - (height - 10) * v / static_cast<double>(top); };
  for (std::size_t k = 0; k < orders; ++k) {
    const double c = static_cast<double>(r.counts[k]);
    const double z = cell_z(c, static_cast<double>(runs), 1.0 / static_cast<double>(orders));
    const std::string name = order_label(k, labels);
    out += fmt::format(
        R"(<rect class="order-bar" data-order="{}" data-count="{}" x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" fill="{}" stroke="#555" stroke-width="0.5"><title>{}: {} (expected {:.1f}, z = {:.2f})</title></rect>)"
        "\n",
        xml_escape(name), r.counts[k], left + slot * static_cast<double>(k) + slot * 0.1, y_of(c), slot * 0.8,
        height - y_of(c), heat_colour(z), xml_escape(name), r.counts[k], expected, z);
    if (orders <= 6) {
      out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" {} font-size="11" text-anchor="middle">{}</text>)" "\n",
                         left + slot * (static_cast<double>(k) + 0.5), height + 14, kFont, xml_escape(name));
    }
  }
  out += fmt::format(
      R"(<line class="expected" x1="{:.1f}" y1="{:.2f}" x2="{:.1f}" y2="{:.2f}" stroke="#222" stroke-dasharray="4 3"/>)" "\n",
      left, y_of(expected), width - 4, y_of(expected));
  out += fmt::format(R"(<text x="{:.1f}" y="{:.2f}" {} font-size="10" text-anchor="end">{:.0f}</text>)" "\n", left - 4,
                     y_of(expected) + 3.5, kFont, expected);
  out += fmt::format(R"(<text x="{:.1f}" y="{:.2f}" {} font-size="10" text-anchor="end">0</text>)" "\n", left - 4,
                     height + 3.5, kFont);
  out += fmt::format(R"(<line x1="{0:.1f}" y1="{1:.1f}" x2="{2:.1f}" y2="{1:.1f}" stroke="#444"/>)" "\n", left, height,
                     width - 4);
  out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" {} font-size="10" text-anchor="middle">{}</text>)" "\n",
                     left + (width - left) / 2, height + bottom - 3, kFont,
                     orders <= 6 ? "" : fmt::format("the {} orders, in lexicographic order", orders));
  return out + "</svg>\n";
}

}  // namespace

std::string many_runs_section(const algorithm_spec& traced, const std::vector<std::string>& labels,
                              const std::string& seed, bool seed_given, std::uint64_t runs) {
  const std::size_t n = labels.size();
  std::string out = "<section id=\"many-runs\">\n<h2>Many runs</h2>\n";
  if (n < 2 || n > many_runs_max_n || runs == 0) {
    out += fmt::format("<p class=\"muted\">The many-runs view is drawn for 2 to {} items{}.</p>\n</section>\n",
                       many_runs_max_n, runs == 0 ? " and --runs of at least 1" : "");
    return out;
  }
  bias_options b;
  b.n = n;
  b.trials = runs;
  b.seed = seed;
  b.threads = 1;
  b.secondary = false;
  b.evaluate = false;
  b.test = n <= many_runs_bars_max_n ? bias_test::table : bias_test::position;
  b.algorithms = parse_algorithm_list("fisher-yates,naive");
  if (traced.label() != "fisher-yates" && traced.label() != "naive") b.algorithms.insert(b.algorithms.begin(), traced);
  const bias_report report = run_bias(b);
  // n! exactly (factorial() wraps modulo 2^64 from n = 21 on); the per-order mean only for the
  // bars (n <= 5), where it fits.
  const std::string orders = factorial_decimal(n);
  out += fmt::format(
      "<p id=\"runs-summary\" data-runs=\"{}\" data-orders=\"{}\">Each algorithm below shuffled the {} items {} "
      "(bias's streams, seed \"{}\"{}, the same for every algorithm). A fair shuffle makes each of the {}! = {} final "
      "orders equally likely: {}.</p>\n",
      runs, orders, n, count_noun(runs, "time", "times"), xml_escape(seed), seed_given ? "" : ", fixed when the trace has no --seed", n, orders,
      n <= many_runs_bars_max_n
          ? fmt::format("about {:.1f} runs each (the dashed line); a bar's colour is its z-score", static_cast<double>(runs) / static_cast<double>(factorial(n)))
          : fmt::format("then each item ends at each position in 1/{} of the runs, about {:.1f} (white cells)", n,
                        static_cast<double>(runs) / static_cast<double>(n)));
  out += "<div class=\"runs\">\n";
  if (n <= many_runs_bars_max_n) {
    for (const auto& r : report.results) {
      out += fmt::format("<div class=\"runs-panel\" data-algo=\"{}\">\n<h3>{}</h3>\n", xml_escape(r.label),
                         xml_escape(r.label));
      out += bars_svg(r, labels, runs);
      out += "</div>\n";
    }
  } else {
    std::vector<heat_panel> panels;
    for (const auto& r : report.results) {
      heat_panel p;
      p.title = r.label;
      p.n = n;
      p.trials = static_cast<double>(runs);
      p.counts = r.position_counts;
      p.row_labels = labels;
      panels.push_back(std::move(p));
    }
    for (std::size_t k = 0; k < panels.size(); ++k) {
      out += fmt::format("<div class=\"runs-panel\" data-algo=\"{}\">\n", xml_escape(panels[k].title));
      out += heatmap_svg("", {panels[k]}, fmt::format("runs-scale-{}", k));
      out += "</div>\n";
    }
  }
  out += "</div>\n";
  if (n <= many_runs_bars_max_n) {
    out += fmt::format("<p class=\"muted\">{}</p>\n",
                       xml_escape(fmt::format("colour: each order's z = (O \u2212 E) / \u221a(E (1 \u2212 1/{}!)), E = runs/{}!; "
                                              "clipped at \u00b14; white = as expected; blue fewer, red more",
                                              n, n)));
  }
  return out + "</section>\n";
}

}  // namespace shufl::render
