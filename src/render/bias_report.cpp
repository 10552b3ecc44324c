// Formatting of `shufl bias` reports: text (table, heatmap, secondary tests, verdicts), JSON (the
// schema of DESIGN.md), CSV and the SVG heatmap of --plot.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>

#include "count_noun.hpp"
#include "bias_report.hpp"
#include "heatmap.hpp"
#include "shufl/json_text.hpp"
#include "shufl/permutation.hpp"
#include "shufl/text_input.hpp"
#include "shufl/version.hpp"

namespace shufl::render {

namespace {

// A p-value is never printed as 0: below 1e-308 (the double range) it is given by ln p and
// log10 p, which stats.hpp keeps exact far below that.
std::string p_number(double ln_p) {
  return ln_p < std::log(1e-308) ? fmt::format("10^{:.2f}", ln_p / std::log(10.0)) : fmt::format("{:.4g}", std::exp(ln_p));
}

// A bound's number rounded away from what it bounds: up for an upper bound, down for a lower one.
std::string p_number_rounded(double ln_p, bool up) {
  const double log10_p = ln_p / std::log(10.0);
  const auto round = [up](double v, double scale) { return (up ? std::ceil(v * scale - 1e-9) : std::floor(v * scale + 1e-9)) / scale; };
  if (ln_p < std::log(1e-308)) return fmt::format("10^{:.2f}", round(log10_p, 100));
  const double e = std::floor(log10_p);
  const double m = round(std::pow(10.0, log10_p - e), 1000);
  return fmt::format("{:.4g}", m * std::pow(10.0, e));
}

// A p that is (or is a bound from) the floor of the most extreme possible outcome: the deciding
// p of the verdict line, an upper bound on the exact (Holm-adjusted) p, or its exact value.
std::string format_ln_p(double ln_p, bool bound = false, const std::string& approximation = {},
                        const std::string& upper_by = {}) {
  if (bound) {
    const std::string approx = approximation.empty() ? "chi-squared" : approximation;
    if (upper_by == "exact") {
      return fmt::format("p = {} (ln p = {:.2f}; exact: the probability of the most extreme outcomes under "
                         "uniformity, which this outcome is; the {} approximation gives less)",
                         p_number(ln_p), ln_p, approx);
    }
    return fmt::format("p <= {} (ln p <= {:.2f}; an upper bound by {}: the {} approximation gives less than "
                       "any outcome can have)",
                       p_number_rounded(ln_p, true), std::ceil(ln_p * 100 - 1e-9) / 100, upper_by, approx);
  }
  if (ln_p < std::log(1e-308)) {
    return fmt::format("p < 1e-308 (ln p = {:.2f}, log10 p = {:.2f})", ln_p, ln_p / std::log(10.0));
  }
  return fmt::format("p = {:.4g} (ln p = {:.4g})", std::exp(ln_p), ln_p);
}

// One test's p. Where its approximation fell below the floor (the probability of the most
// extreme outcomes, below which no exact p lies), the exact p is stated between the floor and
// an upper bound that needs no approximation; both are the floor for a most extreme outcome.
std::string format_p(const test_result& t, const std::string& approximation = "chi-squared") {
  if (!t.bound || std::string_view(t.upper_by) == "exact") return format_ln_p(t.ln_p, t.bound, approximation, t.upper_by);
  return fmt::format("{} <= p <= {} (ln p from {:.2f} to {:.2f}; the {} approximation gives less than the "
                     "probability of the most extreme outcomes under uniformity, below which no p lies; "
                     "the upper bound is by {})",
                     p_number_rounded(t.ln_p, false), p_number_rounded(t.ln_p_upper, true),
                     std::floor(t.ln_p * 100 + 1e-9) / 100, std::ceil(t.ln_p_upper * 100 - 1e-9) / 100, approximation,
                     t.upper_by);
}

// The reason given on the verdict line: the test that decided and its (Holm-adjusted) p.
std::string verdict_reason(const bias_result& r, double alpha) {
  const bool holm = r.tests_in_verdict > 1;
  // The deciding test's bound, when its p is one: how its upper bound was obtained.
  std::string upper_by;
  if (r.deciding_bound) {
    const test_result& primary = r.monte_carlo ? *r.monte_carlo : r.chi_squared;
    upper_by = primary.upper_by;
    for (const auto& s : r.secondary) {
      if (s.name == r.deciding_test) upper_by = s.result.upper_by;
    }
  }
  const std::string p = format_ln_p(r.ln_p_deciding_adjusted, r.deciding_bound,
                                    r.deciding_test.find("chi-squared") != std::string::npos ? "chi-squared"
                                    : r.deciding_test == "duplicates"                       ? "Poisson"
                                                                                            : "normal",
                                    upper_by);
  const std::string family =
      holm ? fmt::format("{} tests with Holm's correction, family-wise alpha = {}; ", r.tests_in_verdict, alpha) : "";
  const std::string adjusted = holm ? "smallest adjusted " : "";
  switch (r.outcome) {
    case verdict::biased:
      return fmt::format("{}decided by {}: {}{} < alpha = {}", family, r.deciding_test, adjusted, p, alpha);
    case verdict::no_evidence:
      return fmt::format("{}decided by {}: {}{} >= alpha = {}", family, r.deciding_test, adjusted, p, alpha);
    case verdict::unreliable:
    default:
      return fmt::format("the {} is not valid at this sample size (expected count {:.4g} < 5) and no valid test "
                         "rejects{}; no verdict",
                         r.primary_name, r.expected,
                         r.tests_in_verdict ? fmt::format(" ({}{}: {}{})", family, r.deciding_test, adjusted, p) : "");
  }
}


// A permutation as a row label: the cards 1..n ("231"; comma-separated from n = 10), or with
// --input the user's own items (joined when each is one character, else comma-separated).
std::string labels_of(std::uint64_t rank, std::size_t n, const std::vector<std::string>& symbols = {}) {
  const auto p = unrank_permutation(rank, n);
  if (symbols.size() != n) return deck_label(p);
  const bool single = std::all_of(symbols.begin(), symbols.end(),
                                  [](const std::string& s) { return !s.empty() && utf8_sequence_length(s) == s.size(); });
  std::string out;
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0 && !single) out += ',';
    out += symbols[p[k]];
  }
  return out;
}

// The label of item e (0-based) in a report: its --input symbol, else the card e + 1.
std::string item_label(std::size_t e, const std::vector<std::string>& symbols) {
  return symbols.size() > e ? symbols[e] : std::to_string(e + 1);
}

// Terminal heatmap of the position matrix: one row per card, one character per position,
// by the cell's z-score (O − E) / sqrt(E (1 − 1/n)), the quantity of every picture (heatmap.hpp).
std::string heatmap(const bias_result& r, const std::vector<std::string>& symbols) {
  const std::size_t n = r.n;
  std::string out = "  position matrix (row: card, column: position; '.' |z| < 2, '+'/'-' z >= 2 / <= -2, '#'/'=' beyond 4):\n";
  for (std::size_t e = 0; e < n; ++e) {
    out += fmt::format("  {:>4} ", item_label(e, symbols));
    for (std::size_t p = 0; p < n; ++p) {
      const double z = cell_z(static_cast<double>(r.position_counts[e * n + p]), static_cast<double>(r.trials),
                              1.0 / static_cast<double>(n));
      out += z >= 4 ? '#' : z >= 2 ? '+' : z <= -4 ? '=' : z <= -2 ? '-' : '.';
    }
    out += '\n';
  }
  return out;
}

// `previous`: the exact result printed just before (or null): a deck it printed is not repeated
// ("the same as above"), so --exact --algo riffle:1..10 does not print two 52-card decks ten times.
std::string text_exact(const bias_result& r, const bias_result* previous) {
  const auto& x = *r.exact;
  std::string out;
  out += fmt::format("  exact law by {}{}\n", x.method, x.paths ? fmt::format(" of {} paths of random choices", x.paths) : "");
  out += fmt::format("  total variation distance from uniform: {:.10f}{}\n", x.total_variation_value,
                     x.total_variation.size() <= 40 ? fmt::format(" ({})", x.total_variation) : "");
  auto prob = [](const std::string& f, double v) {
    return f.size() <= 40 ? fmt::format("{} ({:.6g})", f, v) : fmt::format("{:.6g}", v);
  };
  const auto* before = previous != nullptr && previous->exact && previous->n == r.n ? &*previous->exact : nullptr;
  const auto deck = [&](const std::string& d, bool most) {
    if (before == nullptr || d.size() < 40) return d;
    if (d == before->most_likely) return std::string(most ? "the same as above" : "the most likely deck above");
    if (d == before->least_likely) return std::string(most ? "the least likely deck above" : "the same as above");
    return d;
  };
  out += fmt::format("  most likely deck:  {}  probability {}\n", deck(x.most_likely, true),
                     prob(x.most_likely_probability, x.most_likely_value));
  out += fmt::format("  least likely deck: {}  probability {}\n", deck(x.least_likely, false),
                     prob(x.least_likely_probability, x.least_likely_value));
  if (!x.probability.empty() && x.probability.size() <= 24) {
    out += fmt::format("  {:<6}  {:>12}  {:>10}\n", "deck", "probability", "x n!");
    const double cells = static_cast<double>(x.probability.size());
    for (std::uint64_t rank = 0; rank < x.probability.size(); ++rank) {
      out += fmt::format("  {:<6}  {:>12}  {:>10.4f}\n", labels_of(rank, r.n), x.probability[rank],
                         x.probability_value[rank] * cells);
    }
  }
  out += fmt::format("  verdict: {}\n", r.outcome == verdict::biased ? "biased (the exact law is not uniform)"
                                                                      : "no bias (the exact law is uniform)");
  return out;
}

nlohmann::ordered_json test_json(const test_result& t) {
  return {{"statistic", t.statistic}, {"df", static_cast<std::uint64_t>(t.df)}, {"p_value", t.p_value}, {"ln_p", t.ln_p},
          {"log10_p", t.log10_p}, {"bound", t.bound}, {"ln_p_upper", t.decision_ln_p()}};
}

// A double that may be NaN (not stated): JSON null.
nlohmann::ordered_json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

// {"123": v0, "132": v1, ...} in rank order. ordered_json's operator[] searches its keys
// linearly (quadratic for 9! rows); the labels are distinct, so append to the underlying vector.
template <class T>
nlohmann::ordered_json labelled_object(std::size_t n, const std::vector<T>& values,
                                      const std::vector<std::string>& symbols = {}) {
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  auto& pairs = object.get_ref<nlohmann::ordered_json::object_t&>();
  pairs.reserve(values.size());
  for (std::uint64_t rank = 0; rank < values.size(); ++rank) pairs.emplace_back(labels_of(rank, n, symbols), values[rank]);
  return object;
}

nlohmann::ordered_json exact_json(const bias_result& r) {
  const auto& x = *r.exact;
  nlohmann::ordered_json e;
  e["method"] = x.method;
  e["paths"] = x.paths;
  e["total_variation_distance"] = x.total_variation_value;
  e["total_variation_fraction"] = x.total_variation;
  e["most_likely"] = {{"deck", x.most_likely}, {"probability", x.most_likely_probability}};
  e["least_likely"] = {{"deck", x.least_likely}, {"probability", x.least_likely_probability}};
  if (!x.probability.empty()) {
    e["probabilities"] = labelled_object(r.n, x.probability);
    e["position_matrix"] = x.position_matrix;
  }
  return e;
}

// The power statement of a tested result, as the text report prints it after "power: " and the
// JSON carries it (power.statement, which the HTML report shows); "" when there is none.
std::string power_statement(const bias_result& r, double alpha) {
  if (!std::isfinite(r.detectable_tv)) {
    return fmt::format("not stated (the {} {})", r.primary_name,
                       r.primary_valid ? "cannot reach the level alpha / tests with these tables"
                                       : "is not valid at this sample size");
  }
  if (r.detectable_tv > 1) {
    return fmt::format("at alpha = {} ({} / {} tests, the level at which the {} alone decides), these trials are too "
                       "few to detect even the largest possible bias with 90% probability",
                       r.power_alpha, alpha, r.tests_in_verdict, r.primary_name);
  }
  if (r.detectable_tv > 0) {
    return fmt::format("the verdict is \"biased\" with probability >= 90% (asymptotically) for {} at total variation "
                       "distance >= {:.4g} from uniform (the {} alone at alpha / {} = {:.4g} rejects that often)",
                       r.test == "table" ? "any law of the n! orders"
                                         : "any law near uniform (a mixture (1 - w) uniform + w Q, w small) in which "
                                           "every card's position law is",
                       r.detectable_tv, r.primary_name, r.tests_in_verdict, r.power_alpha);
  }
  return {};
}

// 9877 → "9,877"; 10000 → "10,000" (the summary sentence's counts).
std::string grouped(std::uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// An expected count: whole numbers grouped ("10,000"), else with one decimal ("2.5").
std::string expected_text(double e) {
  if (e >= 1e15) return fmt::format("{:.3g}", e);
  if (std::fabs(e - std::round(e)) < 1e-9) return grouped(static_cast<std::uint64_t>(std::llround(e)));
  if (e < 10) return fmt::format("{:.2g}", e);
  const auto tenths = static_cast<std::uint64_t>(std::llround(e * 10));
  return fmt::format("{}.{}", grouped(tenths / 10), tenths % 10);
}

// A relative excess as a percentage: "11%", "4.2%", "0.35%".
std::string percent_text(double fraction) {
  const double pc = 100 * fraction;
  return pc >= 9.95 ? fmt::format("{:.0f}%", pc) : fmt::format("{:.2g}%", pc);
}

// A count of trials to suggest, rounded up to two significant digits: 123456 → "130,000".
std::string trials_text(double t) {
  if (!(t < 1e18)) return "more than 10^18";
  auto v = static_cast<std::uint64_t>(std::ceil(std::max(t, 1.0)));
  std::uint64_t scale = 1;
  while (v / scale >= 100) scale *= 10;
  v = (v + scale - 1) / scale * scale;
  return grouped(v);
}

// The deciding p of the summary sentence, short: "p = 1.1e-148", "p = 10^-340.7", "p <= ...".
std::string short_p(double ln_p, bool bound) {
  if (bound) {  // an upper bound (or an exact floor): rounded up, so the sentence stays true
    if (ln_p < std::log(1e-300)) return fmt::format("p <= 10^{:.1f}", std::ceil(ln_p / std::log(10.0) * 10 - 1e-9) / 10);
    return "p <= " + scientific_from_log10_up(ln_p / std::log(10.0));
  }
  if (ln_p < std::log(1e-300)) return fmt::format("p = 10^{:.1f}", ln_p / std::log(10.0));
  return fmt::format("p = {:.2g}", std::exp(ln_p));
}

// "a", "a and b", "a, b and c", "a, b, c and 5 others" (the first three of `names`, in order).
std::string name_list(const std::vector<std::string>& names) {
  const std::size_t shown = std::min<std::size_t>(3, names.size());
  std::string out;
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) out += i + 1 == shown && names.size() == shown ? " and " : ", ";
    out += names[i];
  }
  if (names.size() > shown) out += fmt::format(" and {} others", names.size() - shown);
  return out;
}

// "about 11% more often" when the excesses are alike, else "4.1% to 40% more often".
std::string excess_text(const std::vector<double>& excess) {
  const auto [lo, hi] = std::minmax_element(excess.begin(), excess.end());
  const double mean = std::accumulate(excess.begin(), excess.end(), 0.0) / static_cast<double>(excess.size());
  if (*hi - *lo <= 0.5 * mean) return fmt::format("about {} more often", percent_text(mean));
  return fmt::format("{} to {} more often", percent_text(*lo), percent_text(*hi));
}

// The cells that come up more often than expected, for the "biased:" sentence: those at least 3
// standard deviations above (z of heatmap.hpp), the largest excess first; the one with the largest
// excess when none is. `label(i)` names cell i; `p` is a cell's probability under uniformity.
std::string excess_cells(const std::vector<std::uint64_t>& counts, double expected, double trials, double p,
                         const std::function<std::string(std::size_t)>& label, std::string_view one = "",
                         std::string_view many = "") {
  std::vector<std::size_t> over;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (cell_z(static_cast<double>(counts[i]), trials, p) >= 3) over.push_back(i);
  }
  if (over.empty()) {
    over.push_back(static_cast<std::size_t>(std::max_element(counts.begin(), counts.end()) - counts.begin()));
  }
  std::stable_sort(over.begin(), over.end(), [&](auto a, auto b) { return counts[a] > counts[b]; });
  // The three named are the largest excesses, shown in their own order (132, 213, 231).
  std::sort(over.begin(), over.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, over.size())));
  std::vector<std::string> names;
  std::vector<double> excess;
  for (const auto i : over) {
    names.push_back(label(i));
    excess.push_back((static_cast<double>(counts[i]) - expected) / expected);
  }
  return fmt::format("{}{} come{} up {} than expected", names.size() == 1 ? one : many, name_list(names),
                     names.size() == 1 ? "s" : "", excess_text(excess));
}

// The plain sentence that opens each result (text) and is its JSON `summary`: the verdict in
// words with the numbers behind it, what to look at next, and, when the sample is too small,
// how many trials would be enough.
std::string summary_sentence(const bias_result& r, const bias_options& o) {
  const std::string trace = r.definition.empty() ? std::string()
                                                 : fmt::format("; see `shufl trace --algo {} --n {}`", r.label, r.n);
  if (r.exact) {
    const auto& x = *r.exact;
    if (r.outcome != verdict::biased) return "fair: the exact law is uniform (every order has probability 1/n!)";
    const double cells = std::exp(std::lgamma(static_cast<double>(r.n) + 1));
    return fmt::format("biased: exactly, the most likely order is {:.3g} times as likely as with a fair shuffle and "
                       "the least likely {:.3g} times (total variation distance {:.3g}){}",
                       x.most_likely_value * cells, x.least_likely_value * cells, x.total_variation_value, trace);
  }
  const bool table = r.test == "table";
  const std::vector<std::uint64_t>& cells = table ? r.counts : r.position_counts;
  const double trials = static_cast<double>(r.trials);
  const double cell_p = table ? 1.0 / static_cast<double>(cells.size()) : 1.0 / static_cast<double>(r.n);
  const char* noun = o.input ? "permutations" : "trials";
  switch (r.outcome) {
    case verdict::biased: {
      std::string what;
      if (r.deciding_test == r.primary_name) {
        what = table ? excess_cells(
                           cells, r.expected, trials, cell_p,
                           [&](std::size_t rank) { return labels_of(rank, r.n, o.input_symbols); }, "order ", "orders ")
                     : excess_cells(cells, r.expected, trials, cell_p, [&](std::size_t i) {
                         return fmt::format("card {} at position {}", item_label(i / r.n, o.input_symbols), i % r.n + 1);
                       });
      } else {
        const auto s = std::find_if(r.secondary.begin(), r.secondary.end(),
                                    [&](const secondary_test& t) { return t.name == r.deciding_test; });
        what = s == r.secondary.end() ? fmt::format("the {} rejects uniformity", r.deciding_test)
                                      : fmt::format("the {} test is off: {}", s->name, s->detail);
      }
      return fmt::format("biased: {}; {}, not chance{}", what, short_p(r.ln_p_deciding_adjusted, r.deciding_bound),
                         trace);
    }
    case verdict::unreliable:
      return fmt::format("no verdict yet: too few {} for the {} ({} expected per cell, 5 needed); about {} {} would "
                         "be enough",
                         noun, r.primary_name, expected_text(r.expected), trials_text(5 * trials / r.expected), noun);
    case verdict::no_evidence:
    default: {
      const auto [lo, hi] = std::minmax_element(cells.begin(), cells.end());
      std::string out =
          table ? fmt::format("fair at this sample size: the {} orders came up {} to {} times of {} expected",
                              grouped(cells.size()), grouped(*lo), grouped(*hi), expected_text(r.expected))
                : fmt::format("fair at this sample size: every card came up at every position {} to {} times, of {} "
                              "expected",
                              grouped(*lo), grouped(*hi), expected_text(r.expected));
      // Too few trials to see a small bias: the trials for a total variation distance of 0.05
      // (the detectable distance shrinks as 1/sqrt(trials): the non-centrality grows as T d^2).
      constexpr double kSmallBias = 0.05;
      if (std::isfinite(r.detectable_tv) && r.detectable_tv > kSmallBias) {
        out += fmt::format("; too few {} to see a small bias: only a total variation distance of {:.2g} or more "
                           "would show (90%); about {} {} would show {}",
                           noun, r.detectable_tv,
                           trials_text(trials * (r.detectable_tv / kSmallBias) * (r.detectable_tv / kSmallBias)), noun,
                           kSmallBias);
      }
      return out;
    }
  }
}

nlohmann::ordered_json result_json(const bias_result& r, const bias_report& report) {
  nlohmann::ordered_json e;
  e["algorithm"] = json_text(r.label);
  e["test"] = r.test;
  e["summary"] = json_text(summary_sentence(r, report.options));
  if (r.exact) {
    e["verdict"] = verdict_json(r.outcome);
    e["warnings"] = r.warnings;
    e["exact"] = exact_json(r);
    return e;
  }
  if (r.test == "table") {
    e["counts"] = labelled_object(r.n, r.counts, report.options.input_symbols);
  }
  auto matrix = nlohmann::ordered_json::array();
  for (std::size_t row = 0; row < r.n; ++row) {
    matrix.push_back(std::vector<std::uint64_t>(r.position_counts.begin() + static_cast<std::ptrdiff_t>(row * r.n),
                                                r.position_counts.begin() + static_cast<std::ptrdiff_t>((row + 1) * r.n)));
  }
  e["position_counts"] = std::move(matrix);
  e["expected"] = r.expected;
  e["chi_squared"] = test_json(r.chi_squared);
  e["g_test"] = test_json(r.g_test);
  if (!r.row_tests.empty()) {
    auto rows = nlohmann::ordered_json::array();
    for (const auto& t : r.row_tests) rows.push_back(test_json(t));
    e["row_tests"] = std::move(rows);
  }
  if (r.monte_carlo) {
    e["monte_carlo"] = {{"tables", report.options.monte_carlo}, {"p_value", r.monte_carlo->p_value},
                        {"ln_p", r.monte_carlo->ln_p}};
  }
  e["primary"] = {{"name", r.primary_name}, {"valid", r.primary_valid}, {"in_verdict", r.primary_valid},
                  {"ln_p_adjusted", r.ln_p_primary_adjusted}};
  auto secondary = nlohmann::ordered_json::array();
  for (const auto& s : r.secondary) {
    secondary.push_back({{"name", s.name}, {"statistic", s.result.statistic}, {"p_value", s.result.p_value},
                         {"ln_p", s.result.ln_p}, {"log10_p", s.result.log10_p}, {"bound", s.result.bound},
                         {"ln_p_upper", s.result.decision_ln_p()},
                         {"valid", s.valid}, {"validity", s.validity}, {"in_verdict", s.in_verdict},
                         {"ln_p_adjusted", s.ln_p_adjusted}, {"detail", s.detail}});
  }
  e["secondary"] = std::move(secondary);
  e["correction"] = r.correction;
  e["tests_in_verdict"] = r.tests_in_verdict;
  e["deciding_test"] = r.deciding_test;
  e["ln_p_adjusted"] = r.ln_p_deciding_adjusted;
  e["p_adjusted"] = std::exp(r.ln_p_deciding_adjusted);
  e["p_adjusted_is_bound"] = r.deciding_bound;
  if (r.test == "table") e["plug_in_total_variation_distance"] = r.plug_in_tv;
  e["power"] = {{"probability", 0.9}, {"alpha", r.power_alpha}, {"tests", r.tests_in_verdict},
                {"detectable_total_variation", number_or_null(r.detectable_tv)},
                {"alternative", r.power_alternative}};
  const std::string power = power_statement(r, report.options.alpha);
  e["power"]["statement"] = power.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(power);
  e["verdict"] = verdict_json(r.outcome);
  e["warnings"] = r.warnings;
  return e;
}

}  // namespace

// The header of a --merge: what was merged (S08): every run's seed and engine, the files and
// shards, and what is missing.
std::string merge_header(const bias_report& report) {
  const auto& o = report.options;
  std::string out = fmt::format("shufl bias --merge: n = {}, {} per algorithm, merged from {}\n", o.n,
                                count_noun(o.trials, "trial", "trials"),
                                count_noun(report.merged_files.size(), "file", "files"));
  const std::size_t shown = std::min<std::size_t>(report.runs.size(), 20);
  out += fmt::format("{} run{}:", report.runs.size(), report.runs.size() == 1 ? "" : "s");
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& run = report.runs[i];
    out += fmt::format("{} {}, {}", i ? ";" : "", run.describe(), count_noun(run.trials, "trial", "trials"));
    if (!run.shards.empty()) {
      out += fmt::format(", {} shard{} of {}", run.shards.size(), run.shards.size() == 1 ? "" : "s",
                         run.shards.front().second);
    }
  }
  if (shown < report.runs.size()) out += fmt::format("; and {} more", report.runs.size() - shown);
  out += report.runs.size() > 1 ? " (independent runs, counts added)\n" : "\n";
  for (const auto& m : report.missing) out += fmt::format("PARTIAL: {}\n", m);
  return out;
}

// A parameter range of one family under --exact (`--algo riffle:1..10`, three results or more,
// one definition, one n): the distances side by side, K against total variation distance, as
// Bayer and Diaconis tabulate them. Empty otherwise.
static std::string exact_range_table(const bias_report& report) {
  const auto& rs = report.results;
  if (rs.size() < 3) return {};
  const auto colon = rs.front().label.find(':');
  if (colon == std::string::npos) return {};
  const std::string family = rs.front().label.substr(0, colon);
  for (const auto& r : rs) {
    if (!r.exact || r.n != rs.front().n || r.definition != rs.front().definition ||
        r.label.compare(0, colon + 1, family + ":") != 0) {
      return {};
    }
  }
  std::string out = fmt::format("\n{}:K, exact total variation distance from uniform (n = {}):\n", family, rs.front().n);
  out += fmt::format("  {:>4}  {:<14}  {}\n", "K", "distance", "verdict");
  for (const auto& r : rs) {
    out += fmt::format("  {:>4}  {:<14.10f}  {}\n", r.label.substr(colon + 1), r.exact->total_variation_value,
                       r.outcome == verdict::biased ? "biased" : "no bias");
  }
  return out;
}

std::string item_order_sentence(item_order order, const std::vector<std::string>& symbols) {
  std::string shown;
  for (std::size_t k = 0; k < symbols.size(); ++k) {
    if (symbols.size() > 8 && k == 4) {
      shown += " \u2026";
      k = symbols.size() - 2;
    }
    if (k > 0) shown += ' ';
    shown += symbols[k];
  }
  switch (order) {
    case item_order::cards:
      return fmt::format("identity order: the cards in the pack's order (spades, hearts, diamonds, clubs, each Ace to "
                         "King; jokers; trumps): {}", shown);
    case item_order::listed: return fmt::format("identity order: as --items lists the items: {}", shown);
    case item_order::bytes:
      return fmt::format("identity order: the items sorted by their bytes, as they are neither numbers nor cards: {} "
                         "(fixed points, inversions, cycles and rising sequences count against it; --items gives "
                         "another)", shown);
    case item_order::numbers:
    default: return fmt::format("identity order: the numbers by value: {}", shown);
  }
}

std::string text_report(const bias_report& report, const std::string& seed_text, unsigned threads) {
  const auto& o = report.options;
  std::string out;
  if (o.exact) {
    out += fmt::format("shufl bias --exact: n = {}, exact laws (no trials)\n", o.n);
  } else if (o.input) {
    // Read, not simulated: no engine, seed or threads took part.
    out += fmt::format("shufl bias: n = {}, {} read from {}\n", o.n, count_noun(o.trials, "permutation", "permutations"),
                       o.input_name == "stdin" ? std::string("standard input") : fmt::format("'{}'", o.input_name));
    if (!o.input_symbols.empty()) {
      std::string sentence = item_order_sentence(o.input_order, o.input_symbols);
      sentence[0] = 'I';  // "identity order: ..." opens a sentence here
      out += sentence + ".\n";
    }
    out += fmt::format("Tested at alpha = {}{}.\n", o.alpha,
                       report.correction == "holm" ? " (family-wise, with Holm's correction over the tests)" : "");
  } else {
    if (!report.merged_files.empty()) {
      out += merge_header(report);
    } else {
      out += fmt::format("shufl bias: n = {}, {} per algorithm, engine {}, seed {}, {}\n", o.n,
                         count_noun(o.trials, "trial", "trials"), engine_name(o.engine), seed_text,
                         count_noun(threads, "thread", "threads"));
    }
    if (report.results.size() > 1) {
      out += fmt::format(
          "Each algorithm is a separate question, tested on its own at alpha = {} {}.\n", o.alpha,
          report.correction == "holm"
              ? "(alpha per algorithm, family-wise: Holm's correction over the tests of each algorithm; none across algorithms)"
              : "(alpha per algorithm; no multiple-testing correction)");
    } else {
      out += fmt::format("Tested at alpha = {}{}.\n", o.alpha,
                         report.correction == "holm" ? " (family-wise, with Holm's correction over the tests)" : "");
    }
  }
  out += "Words (p, alpha, chi-squared X2, df, z, Holm, power, total variation) in plain terms: docs/glossary.md "
         "(share/doc/shufl/glossary.md when installed).\n";
  const bias_result* previous = nullptr;
  for (const auto& r : report.results) {
    out += fmt::format("\n{}: {}\n", r.label, r.definition.empty() ? "permutations read from the input" : r.definition);
    if (!report.interrupted) out += "  " + summary_sentence(r, o) + "\n";
    if (r.exact) {
      out += text_exact(r, previous);
      previous = &r;
      continue;
    }
    std::vector<std::string> diagnostics;  // what is not in the verdict, printed after it
    if (r.test == "table") {
      const std::size_t cells = r.counts.size();
      std::vector<std::uint64_t> rows(cells);
      std::iota(rows.begin(), rows.end(), std::uint64_t{0});
      if (cells > 120) {
        std::partial_sort(rows.begin(), rows.begin() + 10, rows.end(), [&](auto a, auto b) {
          return std::fabs(static_cast<double>(r.counts[a]) - r.expected) >
                 std::fabs(static_cast<double>(r.counts[b]) - r.expected);
        });
        rows.resize(10);
        out += fmt::format("  the 10 of {} orders furthest from expectation:\n", cells);
      }
      const std::uint64_t max_count = std::max<std::uint64_t>(1, *std::max_element(r.counts.begin(), r.counts.end()));
      const std::string first = labels_of(0, r.n, o.input_symbols);
      const auto columns = static_cast<std::size_t>(  // code points: fmt pads UTF-8 by them too
          std::count_if(first.begin(), first.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
      const std::size_t width = std::max<std::size_t>(4, columns);
      out += fmt::format("  {:<{}}  {:>10}  {:>10}  {:>9}\n", "deck", width, "observed", "expected", "deviation");
      for (const auto rank : rows) {
        const double c = static_cast<double>(r.counts[rank]);
        const auto bar_len = static_cast<std::size_t>(std::lround(40.0 * c / static_cast<double>(max_count)));
        std::string bar;
        for (std::size_t i = 0; i < bar_len; ++i) bar += "\u2588";
        out += fmt::format("  {:<{}}  {:>10}  {:>10.1f}  {:>+8.2f}%  {}\n", labels_of(rank, r.n, o.input_symbols), width,
                           r.counts[rank], r.expected, 100.0 * (c - r.expected) / r.expected, bar);
      }
      out += fmt::format("  chi-squared: X2 = {:.4f}, df = {}, {}\n", r.chi_squared.statistic,
                         r.chi_squared.df, format_p(r.chi_squared));
      diagnostics.push_back(fmt::format("G-test:      G = {:.4f}, df = {}, {}", r.g_test.statistic, r.g_test.df,
                                        format_p(r.g_test)));
      out += fmt::format("  plug-in estimate of the total variation distance from uniform (biased upward): {:.4f}\n",
                         r.plug_in_tv);
    } else {
      if (r.n <= 64) out += heatmap(r, o.input_symbols);
      out += fmt::format("  position test: X2 x (n-1)/n = {:.4f}, df = {}, {}\n", r.chi_squared.statistic,
                         r.chi_squared.df, format_p(r.chi_squared));
      diagnostics.push_back(fmt::format("G-test (scaled): G = {:.4f}, df = {}, {}", r.g_test.statistic,
                                        r.g_test.df, format_p(r.g_test)));
      if (!r.row_tests.empty()) {
        const auto worst = static_cast<std::size_t>(std::min_element(r.row_tests.begin(), r.row_tests.end(),
            [](const auto& a, const auto& b) { return a.ln_p < b.ln_p; }) - r.row_tests.begin());
        diagnostics.push_back(fmt::format("per-card tests: worst is card {}: X2 = {:.4f}, df = {}, {}",
                                          item_label(worst, o.input_symbols), r.row_tests[worst].statistic,
                                          r.row_tests[worst].df, format_p(r.row_tests[worst])));
      }
    }
    if (r.monte_carlo) {
      out += fmt::format("  Monte-Carlo p-value of the primary statistic ({} tables): p = {:.4g}\n",
                         o.monte_carlo, r.monte_carlo->p_value);
    }
    bool invalid = false;
    for (const auto& s : r.secondary) {
      const std::string stat = s.name == "duplicates" ? fmt::format("{:g}", s.result.statistic)
                                                      : fmt::format("z = {:+.3f}", s.result.statistic);
      const std::string line = fmt::format("{:<17} {}, {}; {}{}", s.name + ":", stat, format_p(s.result, s.approximation),
                                           s.detail, s.valid ? std::string() : fmt::format(" (not valid here: {})", s.validity));
      if (s.in_verdict) {
        out += "  " + line + "\n";
      } else {
        diagnostics.push_back(line);
        invalid = invalid || !s.valid;
      }
    }
    if (const std::string power = power_statement(r, o.alpha); !power.empty()) out += "  power: " + power + "\n";
    for (const auto& w : r.warnings) out += fmt::format("  warning: {}\n", w);
    out += fmt::format("  verdict: {} ({})\n", verdict_text(r.outcome), verdict_reason(r, o.alpha));
    if (!diagnostics.empty()) {
      // One line on why these do not decide: the primary test already covers what they measure
      // (they show where a bias lies), or they are not valid at this sample size.
      const std::string why =
          r.primary_valid ? fmt::format("the {} covers what they measure; they show where a bias lies{}",
                                        r.primary_name, invalid ? "; a test not valid here cannot decide" : "")
                          : std::string("not valid at this sample size, they cannot decide");
      out += fmt::format("  diagnostics, not in the verdict ({}):\n", why);
      for (const auto& d : diagnostics) out += "    " + d + "\n";
    }
  }
  out += exact_range_table(report);
  return out;
}

std::string json_report(const bias_report& report, unsigned threads) {
  const auto& o = report.options;
  nlohmann::ordered_json j;
  j["shufl_version"] = SHUFL_VERSION;
  j["command"] = "bias";
  j["n"] = o.n;
  j["trials"] = o.exact ? 0 : o.trials;
  j["seed"] = o.seed ? json_text(*o.seed) : nlohmann::ordered_json(nullptr);
  // --input: read, not simulated: no engine or threads took part (null), and the file is named.
  if (o.input) j["input"] = json_text(o.input_name);
  j["engine"] = o.input ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(engine_name(o.engine));
  j["alpha"] = o.alpha;
  j["threads"] = o.input ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(threads);
  if (o.input) j["items"] = json_texts(o.input_symbols);
  if (o.input) j["item_order"] = item_order_name(o.input_order);
  if (!report.merged_files.empty()) {
    // Provenance of a merge (documented: the only fields besides threads that differ from the
    // unsharded run's JSON).
    nlohmann::ordered_json m;
    m["files"] = json_texts(report.merged_files);  // file names, seeds, inputs: the JSON text rule
    auto runs = nlohmann::ordered_json::array();
    for (const auto& run : report.runs) {
      nlohmann::ordered_json e;
      e["seed"] = run.seed ? json_text(*run.seed) : nlohmann::ordered_json(nullptr);
      e["run_id"] = run.run_id.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(run.run_id);
      e["input"] = run.input.empty() ? nlohmann::ordered_json(nullptr) : json_text(run.input);
      e["engine"] = engine_name(run.engine);
      e["trials"] = run.trials;
      auto shards = nlohmann::ordered_json::array();
      for (const auto& [i, n] : run.shards) shards.push_back({i, n});
      e["shards"] = std::move(shards);
      runs.push_back(std::move(e));
    }
    m["runs"] = std::move(runs);
    m["missing"] = json_texts(report.missing);
    j["merged"] = std::move(m);
  }
  j["correction"] = report.correction;
  auto results = nlohmann::ordered_json::array();
  for (const auto& r : report.results) results.push_back(result_json(r, report));
  j["results"] = std::move(results);
  return j.dump(2) + "\n";
}

std::string csv_report(const bias_report& report) {
  // Text cells go through csv_field (RFC 4180 quoting, formulas defused: an algorithm name read
  // from a counts file may hold anything); numbers are written as they are.
  std::string out =
      "algorithm,test,statistic,df,p_value,ln_p,ln_p_adjusted,verdict,bound,valid,in_verdict,deciding_test,"
      "deciding_ln_p_adjusted\n";
  const auto flag = [](bool b) { return b ? "true" : "false"; };
  for (const auto& r : report.results) {
    const std::string label = csv_field(r.label);
    const std::string v = csv_field(verdict_json(r.outcome));
    if (r.exact) {
      out += fmt::format("{},exact TV,{:.12g},,,,,{},,,,,\n", label, r.exact->total_variation_value, v);
      continue;
    }
    const std::string decided = fmt::format("{},{:.10g}", csv_field(r.deciding_test), r.ln_p_deciding_adjusted);
    const test_result& primary = r.monte_carlo ? *r.monte_carlo : r.chi_squared;
    out += fmt::format("{},{},{:.10g},{:g},{:.10g},{:.10g},{:.10g},{},{},{},{},{}\n", label, csv_field(r.primary_name),
                       primary.statistic, primary.df, primary.p_value, primary.ln_p, r.ln_p_primary_adjusted, v,
                       flag(primary.bound), flag(r.primary_valid), flag(r.primary_valid), decided);
    if (r.monte_carlo) {
      out += fmt::format("{},{},{:.10g},{:g},{:.10g},{:.10g},,{},{},true,false,{}\n", label,
                         csv_field(r.test + " chi-squared"), r.chi_squared.statistic, r.chi_squared.df,
                         r.chi_squared.p_value, r.chi_squared.ln_p, v, flag(r.chi_squared.bound), decided);
    }
    out += fmt::format("{},G,{:.10g},{:g},{:.10g},{:.10g},,{},{},true,false,{}\n", label, r.g_test.statistic,
                       r.g_test.df, r.g_test.p_value, r.g_test.ln_p, v, flag(r.g_test.bound), decided);
    for (const auto& s : r.secondary) {
      out += fmt::format("{},{},{:.10g},,{:.10g},{:.10g},{},{},{},{},{},{}\n", label, csv_field(s.name),
                         s.result.statistic, s.result.p_value, s.result.ln_p,
                         s.in_verdict ? fmt::format("{:.10g}", s.ln_p_adjusted) : std::string(), v,
                         flag(s.result.bound), flag(s.valid), flag(s.in_verdict), decided);
    }
  }
  return out;
}

}  // namespace shufl::render
