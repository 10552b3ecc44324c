// `shufl bias`: options → shufl::run_bias → text, JSON or CSV (+ SVG plot, saved counts).
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <numeric>
#include <sstream>
#include <thread>

#include "common.hpp"
#include "shufl/bias.hpp"
#include "shufl/error.hpp"
#include "shufl/exact.hpp"
#include "shufl/permutation.hpp"

namespace shufl::cli {

namespace {

struct bias_cli_options {
  std::string n = "3";
  std::string trials = "60000";
  std::string seed;
  std::string algo = "fisher-yates,naive";
  std::string alpha = "0.01";
  std::string threads;
  std::string rng = "xoshiro256pp";
  std::string format = "text";
  std::string test = "auto";
  std::string input;
  std::string monte_carlo;
  std::string plot;
  std::string save_counts;
  std::vector<std::string> merge;
  bool check = false;
  bool exact = false;
  bool list = false;
  bool no_secondary = false;
};

constexpr const char* kBiasFooter = R"(
Each algorithm shuffles the deck 1..n TRIALS times. The primary test gives the verdict: the
table of the n! orders (Pearson chi-squared, df = n! - 1, upper tail) when n! <= 10^6 and every
expected count is at least 5, else the element x position matrix (X2 scaled by (n-1)/n,
df = (n-1)^2), which the fixed point, cycle, inversion, rising-sequence and duplicate tests then
join with Holm's correction. Verdicts: "no evidence of bias", "biased", or "unreliable" when an
expected count is below 5. Exit status: 0 success, 1 error, 3 with --check when any algorithm is
biased.

Examples:
  shufl bias --n 3 --trials 60000                 the signature run: naive is biased
  shufl bias --n 4 --trials 240000 --seed 1       reproducible, any --threads
  shufl bias --algo naive --format json --check   machine-readable, exit 3 on bias
  shufl bias --n 52 --trials 1000000 --algo fisher-yates,riffle:7,weak-seed
  shufl bias --n 8 --exact --algo naive           exact law: every one of 8^8 paths
  shufl bias --n 52 --exact --algo riffle:1..10   Bayer-Diaconis, closed form
  python3 my_shuffle.py | shufl bias --input -    test anyone's shuffle
  shufl bias --list                               every algorithm, one line each
)";

std::string format_p(const test_result& t) {
  if (t.p_value < 1e-300) {
    return fmt::format("p < 1e-300 (ln p = {:.2f}, log10 p = {:.2f})", t.ln_p, t.log10_p);
  }
  return fmt::format("p = {:.4g}", t.p_value);
}

std::string format_ln_p(double ln_p) {
  if (ln_p < std::log(1e-300)) return fmt::format("p < 1e-300 (log10 p = {:.2f})", ln_p / std::log(10.0));
  return fmt::format("p = {:.4g}", std::exp(ln_p));
}

std::string labels_of(std::uint64_t rank, std::size_t n) { return deck_label(unrank_permutation(rank, n)); }

// Terminal heatmap of the position matrix: one row per card, one character per position,
// by the cell's z-score (O − E) / sqrt(E (1 − 1/n)).
std::string heatmap(const bias_result& r) {
  const std::size_t n = r.n;
  std::string out = "  position matrix (row: card, column: position; '.' |z| < 2, '+'/'-' z >= 2 / <= -2, '#'/'=' beyond 4):\n";
  const double sd = std::sqrt(r.expected * (1 - 1.0 / static_cast<double>(n)));
  for (std::size_t e = 0; e < n; ++e) {
    out += fmt::format("  {:>4} ", e + 1);
    for (std::size_t p = 0; p < n; ++p) {
      const double z = (static_cast<double>(r.position_counts[e * n + p]) - r.expected) / sd;
      out += z >= 4 ? '#' : z >= 2 ? '+' : z <= -4 ? '=' : z <= -2 ? '-' : '.';
    }
    out += '\n';
  }
  return out;
}

std::string text_exact(const bias_result& r) {
  const auto& x = *r.exact;
  std::string out;
  out += fmt::format("  exact law by {}{}\n", x.method, x.paths ? fmt::format(" of {} paths of random choices", x.paths) : "");
  out += fmt::format("  total variation distance from uniform: {:.10f}{}\n", x.total_variation_value,
                     x.total_variation.size() <= 40 ? fmt::format(" ({})", x.total_variation) : "");
  auto prob = [](const std::string& f, double v) {
    return f.size() <= 40 ? fmt::format("{} ({:.6g})", f, v) : fmt::format("{:.6g}", v);
  };
  out += fmt::format("  most likely deck:  {}  probability {}\n", x.most_likely, prob(x.most_likely_probability, x.most_likely_value));
  out += fmt::format("  least likely deck: {}  probability {}\n", x.least_likely, prob(x.least_likely_probability, x.least_likely_value));
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

std::string text_report(const bias_report& report, const std::string& seed_text, unsigned threads) {
  const auto& o = report.options;
  std::string out;
  if (o.exact) {
    out += fmt::format("shufl bias --exact: n = {}, exact laws (no trials)\n", o.n);
  } else {
    out += fmt::format("shufl bias: n = {}, {} {}, engine {}, seed {}, {} thread{}\n", o.n, o.trials,
                       o.input ? "permutations read" : "trials per algorithm", engine_name(o.engine),
                       o.input ? "(not used)" : seed_text, threads, threads == 1 ? "" : "s");
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
  for (const auto& r : report.results) {
    out += fmt::format("\n{}: {}\n", r.label, r.definition.empty() ? "permutations read from the input" : r.definition);
    if (r.exact) {
      out += text_exact(r);
      continue;
    }
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
      const std::size_t width = std::max<std::size_t>(4, labels_of(0, r.n).size());
      out += fmt::format("  {:<{}}  {:>10}  {:>10}  {:>9}\n", "deck", width, "observed", "expected", "deviation");
      for (const auto rank : rows) {
        const double c = static_cast<double>(r.counts[rank]);
        const auto bar_len = static_cast<std::size_t>(std::lround(40.0 * c / static_cast<double>(max_count)));
        std::string bar;
        for (std::size_t i = 0; i < bar_len; ++i) bar += "\u2588";
        out += fmt::format("  {:<{}}  {:>10}  {:>10.1f}  {:>+8.2f}%  {}\n", labels_of(rank, r.n), width,
                           r.counts[rank], r.expected, 100.0 * (c - r.expected) / r.expected, bar);
      }
      out += fmt::format("  chi-squared: X2 = {:.4f}, df = {}, {}\n", r.chi_squared.statistic,
                         r.chi_squared.df, format_p(r.chi_squared));
      out += fmt::format("  G-test:      G = {:.4f}, df = {}, {}\n", r.g_test.statistic, r.g_test.df,
                         format_p(r.g_test));
      out += fmt::format("  plug-in estimate of the total variation distance from uniform (biased upward): {:.4f}\n",
                         r.plug_in_tv);
    } else {
      if (r.n <= 64) out += heatmap(r);
      out += fmt::format("  position test: X2 x (n-1)/n = {:.4f}, df = {}, {}\n", r.chi_squared.statistic,
                         r.chi_squared.df, format_p(r.chi_squared));
      out += fmt::format("  G-test (scaled): G = {:.4f}, df = {}, {}\n", r.g_test.statistic, r.g_test.df,
                         format_p(r.g_test));
      if (!r.row_tests.empty()) {
        const auto worst = static_cast<std::size_t>(std::min_element(r.row_tests.begin(), r.row_tests.end(),
            [](const auto& a, const auto& b) { return a.ln_p < b.ln_p; }) - r.row_tests.begin());
        out += fmt::format("  per-card tests (not in the verdict): worst is card {}: X2 = {:.4f}, df = {}, {}\n",
                           worst + 1, r.row_tests[worst].statistic, r.row_tests[worst].df,
                           format_p(r.row_tests[worst]));
      }
    }
    if (r.monte_carlo) {
      out += fmt::format("  Monte-Carlo p-value of the primary statistic ({} tables): p = {:.4g}\n",
                         o.monte_carlo, r.monte_carlo->p_value);
    }
    for (const auto& s : r.secondary) {
      const std::string stat = s.name == "duplicates" ? fmt::format("{:g}", s.result.statistic)
                                                      : fmt::format("z = {:+.3f}", s.result.statistic);
      out += fmt::format("  {:<17} {}, {}; {}{}\n", s.name + ":", stat, format_p(s.result), s.detail,
                         s.in_verdict ? "" : " (not in the verdict)");
    }
    if (r.detectable_tv > 0) {
      out += fmt::format("  power: at alpha = {}, these trials detect with 90% probability a {} of {:.4g}\n",
                         o.alpha, r.test == "table" ? "total variation distance" : "per-card position TV",
                         r.detectable_tv);
    }
    for (const auto& w : r.warnings) out += fmt::format("  warning: {}\n", w);
    const std::string basis = r.correction == "holm"
        ? fmt::format("{} tests with Holm's correction, family-wise alpha = {}; smallest adjusted {}",
                      1 + std::count_if(r.secondary.begin(), r.secondary.end(), [](const auto& s) { return s.in_verdict; }),
                      o.alpha, format_ln_p(std::min(r.ln_p_primary_adjusted, std::accumulate(
                          r.secondary.begin(), r.secondary.end(), 0.0, [](double m, const auto& s) {
                            return s.in_verdict ? std::min(m, s.ln_p_adjusted) : m; }))))
        : fmt::format("{} p {} alpha = {}", r.test == "table" ? "chi-squared" : "position test",
                      r.outcome == verdict::biased ? "<" : ">=", o.alpha);
    switch (r.outcome) {
      case verdict::biased: out += fmt::format("  verdict: biased ({})\n", basis); break;
      case verdict::no_evidence: out += fmt::format("  verdict: no evidence of bias ({})\n", basis); break;
      case verdict::unreliable:
        out += "  verdict: unreliable (too few trials for the chi-squared approximation; no verdict)\n";
        break;
    }
  }
  return out;
}

nlohmann::ordered_json test_json(const test_result& t) {
  return {{"statistic", t.statistic}, {"df", t.df}, {"p_value", t.p_value}, {"ln_p", t.ln_p},
          {"log10_p", t.log10_p}};
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
    nlohmann::ordered_json p = nlohmann::ordered_json::object();
    for (std::uint64_t rank = 0; rank < x.probability.size(); ++rank) p[labels_of(rank, r.n)] = x.probability[rank];
    e["probabilities"] = std::move(p);
    e["position_matrix"] = x.position_matrix;
  }
  return e;
}

nlohmann::ordered_json result_json(const bias_result& r, const bias_report& report) {
  nlohmann::ordered_json e;
  e["algorithm"] = r.label;
  e["test"] = r.test;
  if (r.exact) {
    e["verdict"] = verdict_json(r.outcome);
    e["warnings"] = r.warnings;
    e["exact"] = exact_json(r);
    return e;
  }
  if (r.test == "table") {
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (std::uint64_t rank = 0; rank < r.counts.size(); ++rank) counts[labels_of(rank, r.n)] = r.counts[rank];
    e["counts"] = std::move(counts);
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
  if (r.monte_carlo) e["monte_carlo"] = {{"tables", report.options.monte_carlo}, {"p_value", r.monte_carlo->p_value}};
  auto secondary = nlohmann::ordered_json::array();
  for (const auto& s : r.secondary) {
    secondary.push_back({{"name", s.name}, {"statistic", s.result.statistic}, {"p_value", s.result.p_value},
                         {"ln_p", s.result.ln_p}, {"log10_p", s.result.log10_p}, {"in_verdict", s.in_verdict},
                         {"ln_p_adjusted", s.ln_p_adjusted}, {"detail", s.detail}});
  }
  e["secondary"] = std::move(secondary);
  e["correction"] = r.correction;
  e["ln_p_adjusted"] = r.ln_p_primary_adjusted;
  if (r.test == "table") e["plug_in_total_variation_distance"] = r.plug_in_tv;
  e["power"] = {{"probability", 0.9}, {"detectable_total_variation", r.detectable_tv},
                {"meaning", r.test == "table" ? "total variation distance of the permutation law"
                                               : "total variation distance of each card's position law"}};
  e["verdict"] = verdict_json(r.outcome);
  e["warnings"] = r.warnings;
  return e;
}

std::string json_report(const bias_report& report, unsigned threads) {
  const auto& o = report.options;
  nlohmann::ordered_json j;
  j["shufl_version"] = SHUFL_VERSION;
  j["command"] = "bias";
  j["n"] = o.n;
  j["trials"] = o.exact ? 0 : o.trials;
  j["seed"] = o.seed ? nlohmann::ordered_json(*o.seed) : nlohmann::ordered_json(nullptr);
  j["engine"] = engine_name(o.engine);
  j["alpha"] = o.alpha;
  j["threads"] = threads;
  j["correction"] = report.correction;
  auto results = nlohmann::ordered_json::array();
  for (const auto& r : report.results) results.push_back(result_json(r, report));
  j["results"] = std::move(results);
  return j.dump(2) + "\n";
}

std::string csv_report(const bias_report& report) {
  std::string out = "algorithm,test,statistic,df,p_value,ln_p,ln_p_adjusted,verdict\n";
  for (const auto& r : report.results) {
    const std::string v(verdict_json(r.outcome));
    if (r.exact) {
      out += fmt::format("{},exact TV,{:.12g},,,,,{}\n", r.label, r.exact->total_variation_value, v);
      continue;
    }
    out += fmt::format("{},{},{:.10g},{:g},{:.10g},{:.10g},{:.10g},{}\n", r.label, r.test, r.chi_squared.statistic,
                       r.chi_squared.df, r.chi_squared.p_value, r.chi_squared.ln_p, r.ln_p_primary_adjusted, v);
    out += fmt::format("{},G,{:.10g},{:g},{:.10g},{:.10g},,\n", r.label, r.g_test.statistic, r.g_test.df,
                       r.g_test.p_value, r.g_test.ln_p);
    for (const auto& s : r.secondary) {
      out += fmt::format("{},{},{:.10g},,{:.10g},{:.10g},{},\n", r.label, s.name, s.result.statistic,
                         s.result.p_value, s.result.ln_p,
                         s.in_verdict ? fmt::format("{:.10g}", s.ln_p_adjusted) : std::string());
    }
  }
  return out;
}

// SVG heatmap of every result's position matrix, side by side: red above expectation, blue below.
std::string svg_plot(const bias_report& report) {
  const double cell = 8;
  std::string body;
  double x0 = 10, width = 10, height = 0;
  for (const auto& r : report.results) {
    if (r.position_counts.empty()) continue;
    const std::size_t n = r.n;
    const double sd = std::sqrt(r.expected * (1 - 1.0 / static_cast<double>(n)));
    body += fmt::format(R"(<text x="{}" y="16" font-family="sans-serif" font-size="12">{} ({})</text>)" "\n",
                        x0, r.label, verdict_text(r.outcome));
    for (std::size_t e = 0; e < n; ++e) {
      for (std::size_t p = 0; p < n; ++p) {
        const double z = (static_cast<double>(r.position_counts[e * n + p]) - r.expected) / sd;
        const double t = std::min(1.0, std::fabs(z) / 5);
        const int fade = static_cast<int>(std::lround(255 * (1 - t)));
        const std::string color = z >= 0 ? fmt::format("rgb(255,{0},{0})", fade) : fmt::format("rgb({0},{0},255)", fade);
        body += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{}" height="{}" fill="{}"/>)" "\n",
                            x0 + cell * static_cast<double>(p), 24 + cell * static_cast<double>(e), cell, cell, color);
      }
    }
    x0 += cell * static_cast<double>(n) + 30;
    width = x0;
    height = std::max(height, 24 + cell * static_cast<double>(n) + 10);
  }
  return fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}">)" "\n"
                     R"(<rect width="100%" height="100%" fill="white"/>)" "\n{}</svg>\n",
                     width, std::max(height, 40.0), body);
}

void write_file(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary);
  f << data;
  f.close();
  if (!f) throw error(fmt::format("cannot write '{}'", path));
}

std::string read_all(const std::string& path) {
  if (path == "-") {
    std::string data;
    char buf[65536];
    std::size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, stdin)) > 0) data.append(buf, got);
    if (std::ferror(stdin)) throw error("cannot read standard input");
    return data;
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw error(fmt::format("cannot open '{}'", path));
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// --save-counts: the tallies of every result, with what is needed to merge them honestly.
std::string saved_counts(const bias_report& report) {
  const auto& o = report.options;
  nlohmann::ordered_json j;
  j["shufl_version"] = SHUFL_VERSION;
  j["format"] = "shufl-bias-counts-1";
  j["engine"] = engine_name(o.engine);
  j["seed"] = o.seed ? nlohmann::ordered_json(*o.seed) : nlohmann::ordered_json(nullptr);
  j["n"] = o.n;
  auto results = nlohmann::ordered_json::array();
  for (const auto& r : report.results) {
    if (r.exact) continue;
    nlohmann::ordered_json e;
    e["algorithm"] = r.label;
    e["test"] = r.test;
    e["trials"] = r.trials;
    e["table"] = r.counts;
    e["positions"] = r.position_counts;
    e["sums"] = {{"trials", r.sums.trials}, {"fixed_points", r.sums.fixed_points}, {"cycles", r.sums.cycles},
                 {"inversions", r.sums.inversions}, {"rising_sequences", r.sums.rising_sequences}};
    results.push_back(std::move(e));
  }
  j["results"] = std::move(results);
  return j.dump() + "\n";
}

// --merge: adds the saved tallies of several runs, per algorithm, and tests the sums. Runs with
// the same seed (and engine) repeat the same trials, so merging them is refused.
bias_report merge_saved(const std::vector<std::string>& files, bias_options o) {
  struct entry {
    bias_tallies tallies;
    std::string test;
  };
  std::vector<std::pair<std::string, entry>> merged;
  std::vector<std::string> seeds;
  std::size_t n = 0;
  std::string engine;
  for (const auto& file : files) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(read_all(file));
      if (j.at("format") != "shufl-bias-counts-1") throw error("");
    } catch (const std::exception&) {
      throw error(fmt::format("'{}' is not a file written by shufl bias --save-counts", file));
    }
    try {
      const std::size_t file_n = j.at("n");
      if (n != 0 && file_n != n) throw error(fmt::format("'{}' has n = {}, the others n = {}", file, file_n, n));
      n = file_n;
      if (!j.at("seed").is_null()) {
        const std::string seed = j.at("engine").get<std::string>() + "/" + j.at("seed").get<std::string>();
        if (std::find(seeds.begin(), seeds.end(), seed) != seeds.end()) {
          throw error(fmt::format("'{}' was run with the same engine and seed as an earlier file: its trials "
                                  "repeat those and cannot be merged", file));
        }
        seeds.push_back(seed);
      }
      engine = j.at("engine");
      for (const auto& r : j.at("results")) {
        const std::string label = r.at("algorithm");
        auto it = std::find_if(merged.begin(), merged.end(), [&](const auto& m) { return m.first == label; });
        if (it == merged.end()) {
          entry fresh;
          fresh.tallies.n = n;
          fresh.test = r.at("test");
          fresh.tallies.positions.assign(n * n, 0);
          if (fresh.test == "table") fresh.tallies.table.assign(factorial(n), 0);
          merged.emplace_back(label, std::move(fresh));
          it = std::prev(merged.end());
        }
        auto& t = it->second.tallies;
        if (r.at("test") != it->second.test) throw error(fmt::format("'{}': {} was counted with another test", file, label));
        t.trials += r.at("trials").get<std::uint64_t>();
        const auto table = r.at("table").get<std::vector<std::uint64_t>>();
        const auto positions = r.at("positions").get<std::vector<std::uint64_t>>();
        if (table.size() != t.table.size() || positions.size() != t.positions.size()) {
          throw error(fmt::format("'{}': counts of {} have the wrong size", file, label));
        }
        for (std::size_t i = 0; i < table.size(); ++i) t.table[i] += table[i];
        for (std::size_t i = 0; i < positions.size(); ++i) t.positions[i] += positions[i];
        // Secondary sums add up too (a run without them contributes none: then none are used).
        const auto& sums = r.at("sums");
        permutation_sums add;
        add.trials = sums.at("trials");
        add.fixed_points = sums.at("fixed_points");
        add.cycles = sums.at("cycles");
        add.inversions = sums.at("inversions");
        add.rising_sequences = sums.at("rising_sequences");
        t.sums += add;
      }
    } catch (const nlohmann::json::exception&) {
      throw error(fmt::format("'{}' is not a valid file of counts from shufl bias --save-counts", file));
    }
  }
  o.n = n;
  o.engine = parse_engine(engine);
  o.seed.reset();
  bias_report report;
  for (auto& [label, e] : merged) {
    if (e.tallies.sums.trials != e.tallies.trials) e.tallies.sums = {};
    bias_result r = evaluate_tallies(e.tallies, o, e.test);
    r.label = label;
    r.definition = fmt::format("merged from {} files", files.size());
    o.trials = e.tallies.trials;
    report.results.push_back(std::move(r));
  }
  report.options = o;
  for (const auto& r : report.results) {
    if (r.correction == "holm") report.correction = "holm";
  }
  return report;
}

// A progress bar on stderr, redrawn at most ten times a second; erased when done.
class progress_bar {
 public:
  void operator()(std::uint64_t done, std::uint64_t total, const std::string& label) {
    const auto now = std::chrono::steady_clock::now();
    if (done < total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const double fraction = static_cast<double>(done) / static_cast<double>(total);
    const auto filled = static_cast<std::size_t>(fraction * 30);
    std::fprintf(stderr, "\r%s [%s%s] %3.0f%%\033[K", label.c_str(), std::string(filled, '#').c_str(),
                 std::string(30 - filled, ' ').c_str(), 100 * fraction);
    if (done >= total) std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }

 private:
  std::chrono::steady_clock::time_point last_{};
};

std::string list_text() {
  std::string out;
  for (const auto& a : algorithms()) {
    const std::string name = a.takes_parameter ? fmt::format("{}:{}", a.name, a.name == "modulo" || a.name == "random-keys" ? "BITS" : "K")
                                               : std::string(a.name);
    out += fmt::format("{:<20}  {}\n", name, a.definition);
  }
  return out;
}

}  // namespace

subcommand bias_subcommand() {
  return {"bias", "Run shuffle algorithms many times and test the permutation counts for bias",
          [](CLI::App& sub) -> std::function<int()> {
            auto o = std::make_shared<bias_cli_options>();
            sub.footer(kBiasFooter);
            sub.add_option("--n", o->n, "Deck size: cards 1..N (2 to 255)")->capture_default_str();
            sub.add_option("--trials", o->trials, "Shuffles per algorithm")->capture_default_str();
            sub.add_option("--seed", o->seed, "Any string; the same seed gives the same counts");
            sub.add_option("--algo", o->algo, "Comma-separated algorithms (see --list; riffle:1..10 expands)")
                ->capture_default_str();
            sub.add_flag("--list", o->list, "List every algorithm with its one-line definition");
            sub.add_option("--alpha", o->alpha, "Significance level per algorithm (family-wise), in (0, 1)")
                ->capture_default_str();
            sub.add_option("--test", o->test, "Primary test: auto, table or position")->capture_default_str();
            sub.add_flag("--no-secondary", o->no_secondary,
                         "Skip the fixed point, cycle, inversion and rising-sequence tests (about 2.5x faster at n = 52)");
            sub.add_flag("--exact", o->exact, "Exact laws (enumeration; riffle closed form); no trials");
            sub.add_option("--input", o->input, "Test permutations read from FILE ('-': stdin), one per line")
                ->option_text("FILE");
            sub.add_option("--monte-carlo", o->monte_carlo, "Monte-Carlo p-value from B simulated tables")
                ->option_text("B");
            sub.add_option("--plot", o->plot, "Write the position matrices as an SVG heatmap")->option_text("FILE.svg");
            sub.add_option("--save-counts", o->save_counts, "Save the counts (with engine, seed, version) to FILE")
                ->option_text("FILE");
            sub.add_option("--merge", o->merge, "Add up counts saved by --save-counts and test the sums")
                ->option_text("FILE...");
            sub.add_option("--threads", o->threads, "Worker threads (default: all cores); never changes the counts");
            sub.add_option("--rng", o->rng, "Engine: xoshiro256pp, chacha20, mt19937, minstd")
                ->capture_default_str();
            sub.add_flag("--check", o->check, "Exit with status 3 when any algorithm is biased");
            sub.add_option("--format", o->format, "Output format: text, json or csv")->capture_default_str();
            return [o, &sub]() -> int {
              if (o->list) {
                write_stdout(list_text());
                return exit_ok;
              }
              bias_options b;
              b.n = static_cast<std::size_t>(std::min<std::uint64_t>(parse_uint("--n", o->n), 1000));
              b.trials = parse_uint("--trials", o->trials);
              if (!o->seed.empty()) b.seed = o->seed;
              b.algorithms = parse_algorithm_list(o->algo);
              b.alpha = parse_double("--alpha", o->alpha);
              b.engine = parse_engine(o->rng);
              b.exact = o->exact;
              b.secondary = !o->no_secondary;
              if (o->format != "text" && o->format != "json" && o->format != "csv") {
                throw error(fmt::format("invalid value '{}' for --format: expected text, json or csv", o->format));
              }
              if (o->test == "auto") b.test = bias_test::automatic;
              else if (o->test == "table") b.test = bias_test::table;
              else if (o->test == "position") b.test = bias_test::position;
              else throw error(fmt::format("invalid value '{}' for --test: expected auto, table or position", o->test));
              if (!o->monte_carlo.empty()) {
                b.monte_carlo = parse_uint("--monte-carlo", o->monte_carlo);
                if (b.monte_carlo < 1 || b.monte_carlo > 1'000'000) throw error("--monte-carlo must be between 1 and 1000000");
              }
              if (o->threads.empty()) {
                b.threads = std::max(1u, std::thread::hardware_concurrency());
              } else {
                const auto t = parse_uint("--threads", o->threads);
                if (t < 1 || t > 1024) throw error("--threads must be between 1 and 1024");
                b.threads = static_cast<unsigned>(t);
              }
              if (b.exact && (!o->input.empty() || !o->merge.empty())) {
                throw error("--exact cannot be combined with --input or --merge");
              }
              if (!o->input.empty() && !o->merge.empty()) throw error("--input cannot be combined with --merge");
              bias_report report;
              if (!o->merge.empty()) {
                report = merge_saved(o->merge, b);
              } else {
                if (!o->input.empty()) {
                  if (sub.count("--algo") || sub.count("--n") || sub.count("--trials")) {
                    throw error("--input infers n and the trial count and tests no algorithm: drop --n, --trials and --algo");
                  }
                  auto list = parse_permutations(read_all(o->input));
                  b.n = list.n;
                  b.input = std::move(list.perms);
                  b.input_name = o->input == "-" ? "stdin" : o->input;
                }
                // A bar on a terminal for runs long enough to wait for (n · trials ≥ 10^9).
                if (isatty(STDERR_FILENO) && !b.exact && !b.input &&
                    static_cast<double>(b.n) * static_cast<double>(b.trials) >= 1e9) {
                  b.progress = progress_bar{};
                }
                report = run_bias(b);
              }
              const std::string seed_text = b.seed ? fmt::format("\"{}\"", *b.seed) : "none (from the OS)";
              if (!o->save_counts.empty()) write_file(o->save_counts, saved_counts(report));
              if (!o->plot.empty()) write_file(o->plot, svg_plot(report));
              write_stdout(o->format == "json"  ? json_report(report, b.threads)
                           : o->format == "csv" ? csv_report(report)
                                                : text_report(report, seed_text, b.threads));
              const bool any_biased = std::any_of(report.results.begin(), report.results.end(),
                                                  [](const auto& r) { return r.outcome == verdict::biased; });
              return (o->check && any_biased) ? exit_bias_found : exit_ok;
            };
          }};
}

}  // namespace shufl::cli
