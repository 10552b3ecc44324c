// `shufl bias`: options → shufl::run_bias → text or JSON.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <thread>

#include "common.hpp"
#include "shufl/bias.hpp"
#include "shufl/error.hpp"
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
  bool check = false;
};

constexpr const char* kBiasFooter = R"(
Each algorithm shuffles the deck 1..n TRIALS times; the counts of the n! orders are tested
against the uniform law with Pearson's chi-squared test (df = n! - 1, upper tail). Verdicts:
"no evidence of bias", "biased", or "unreliable" when an expected count is below 5.
Exit status: 0 success, 1 error, 3 with --check when any algorithm is biased.

Examples:
  shufl bias --n 3 --trials 60000                 the signature run: naive is biased
  shufl bias --n 4 --trials 240000 --seed 1       reproducible, any --threads
  shufl bias --algo naive --format json --check   machine-readable, exit 3 on bias
)";

std::string format_p(const test_result& t) {
  if (t.p_value < 1e-308) {
    return fmt::format("p < 1e-308 (ln p = {:.2f}, log10 p = {:.2f})", t.ln_p, t.log10_p);
  }
  return fmt::format("p = {:.4g} (ln p = {:.4g})", t.p_value, t.ln_p);
}

std::string text_report(const bias_report& report, const std::string& seed_text, unsigned threads) {
  const auto& o = report.options;
  std::string out;
  out += fmt::format("shufl bias: n = {}, {} trials per algorithm, engine {}, seed {}, {} thread{}\n",
                     o.n, o.trials, engine_name(o.engine), seed_text, threads, threads == 1 ? "" : "s");
  if (report.results.size() > 1) {
    out += fmt::format(
        "Each algorithm is a separate question, tested on its own at alpha = {} "
        "(alpha per algorithm; no multiple-testing correction).\n",
        o.alpha);
  } else {
    out += fmt::format("Tested at alpha = {}.\n", o.alpha);
  }
  const std::size_t cells = report.results.empty() ? 0 : report.results.front().counts.size();
  for (const auto& r : report.results) {
    out += fmt::format("\n{}: {}\n", r.label, r.definition);
    std::vector<std::uint64_t> rows(cells);
    std::iota(rows.begin(), rows.end(), std::uint64_t{0});
    const bool all_rows = cells <= 120;
    if (!all_rows) {
      // Too many orders to list: show the ten furthest from expectation.
      std::partial_sort(rows.begin(), rows.begin() + 10, rows.end(), [&](auto a, auto b) {
        return std::fabs(static_cast<double>(r.counts[a]) - r.expected) >
               std::fabs(static_cast<double>(r.counts[b]) - r.expected);
      });
      rows.resize(10);
      out += fmt::format("  the 10 of {} orders furthest from expectation:\n", cells);
    }
    const std::uint64_t max_count = std::max<std::uint64_t>(1, *std::max_element(r.counts.begin(), r.counts.end()));
    const std::size_t width = std::max<std::size_t>(4, deck_label(unrank_permutation(0, o.n)).size());
    out += fmt::format("  {:<{}}  {:>10}  {:>10}  {:>9}\n", "deck", width, "observed", "expected", "deviation");
    for (const auto rank : rows) {
      const double c = static_cast<double>(r.counts[rank]);
      const auto bar_len = static_cast<std::size_t>(std::lround(40.0 * c / static_cast<double>(max_count)));
      std::string bar;
      for (std::size_t i = 0; i < bar_len; ++i) bar += "\u2588";
      out += fmt::format("  {:<{}}  {:>10}  {:>10.1f}  {:>+8.2f}%  {}\n",
                         deck_label(unrank_permutation(rank, o.n)), width, r.counts[rank],
                         r.expected, 100.0 * (c - r.expected) / r.expected, bar);
    }
    out += fmt::format("  chi-squared: X2 = {:.4f}, df = {}, {}\n", r.chi_squared.statistic,
                       r.chi_squared.df, format_p(r.chi_squared));
    out += fmt::format("  G-test:      G = {:.4f}, df = {}, {}\n", r.g_test.statistic, r.g_test.df,
                       format_p(r.g_test));
    out += fmt::format("  plug-in estimate of the total variation distance from uniform (biased upward): {:.4f}\n",
                       r.plug_in_tv);
    for (const auto& w : r.warnings) out += fmt::format("  warning: {}\n", w);
    switch (r.outcome) {
      case verdict::biased:
        out += fmt::format("  verdict: biased (chi-squared p < alpha = {})\n", o.alpha);
        break;
      case verdict::no_evidence:
        out += fmt::format("  verdict: no evidence of bias (chi-squared p >= alpha = {})\n", o.alpha);
        break;
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

std::string json_report(const bias_report& report, unsigned threads) {
  const auto& o = report.options;
  nlohmann::ordered_json j;
  j["shufl_version"] = SHUFL_VERSION;
  j["command"] = "bias";
  j["n"] = o.n;
  j["trials"] = o.trials;
  j["seed"] = o.seed ? nlohmann::ordered_json(*o.seed) : nlohmann::ordered_json(nullptr);
  j["engine"] = engine_name(o.engine);
  j["alpha"] = o.alpha;
  j["threads"] = threads;
  j["correction"] = "none";
  auto results = nlohmann::ordered_json::array();
  for (const auto& r : report.results) {
    nlohmann::ordered_json e;
    e["algorithm"] = r.label;
    e["test"] = r.test;
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (std::uint64_t rank = 0; rank < r.counts.size(); ++rank) {
      counts[deck_label(unrank_permutation(rank, o.n))] = r.counts[rank];
    }
    e["counts"] = std::move(counts);
    e["expected"] = r.expected;
    e["chi_squared"] = test_json(r.chi_squared);
    e["g_test"] = test_json(r.g_test);
    e["secondary"] = nlohmann::ordered_json::array();
    e["plug_in_total_variation_distance"] = r.plug_in_tv;
    e["verdict"] = verdict_json(r.outcome);
    e["warnings"] = r.warnings;
    results.push_back(std::move(e));
  }
  j["results"] = std::move(results);
  return j.dump(2) + "\n";
}

}  // namespace

subcommand bias_subcommand() {
  return {"bias", "Run shuffle algorithms many times and test the permutation counts for bias",
          [](CLI::App& sub) -> std::function<int()> {
            auto o = std::make_shared<bias_cli_options>();
            sub.footer(kBiasFooter);
            sub.add_option("--n", o->n, "Deck size: cards 1..N (2 to 10)")->capture_default_str();
            sub.add_option("--trials", o->trials, "Shuffles per algorithm")->capture_default_str();
            sub.add_option("--seed", o->seed, "Any string; the same seed gives the same counts");
            sub.add_option("--algo", o->algo, "Comma-separated algorithms (e.g. fisher-yates,naive)")
                ->capture_default_str();
            sub.add_option("--alpha", o->alpha, "Significance level per algorithm, in (0, 1)")
                ->capture_default_str();
            sub.add_option("--threads", o->threads, "Worker threads (default: all cores); never changes the counts");
            sub.add_option("--rng", o->rng, "Engine: xoshiro256pp, chacha20, mt19937, minstd")
                ->capture_default_str();
            sub.add_flag("--check", o->check, "Exit with status 3 when any algorithm is biased");
            sub.add_option("--format", o->format, "Output format: text or json")->capture_default_str();
            return [o]() -> int {
              bias_options b;
              b.n = static_cast<std::size_t>(std::min<std::uint64_t>(parse_uint("--n", o->n), 1000));
              b.trials = parse_uint("--trials", o->trials);
              if (!o->seed.empty()) b.seed = o->seed;
              b.algorithms = parse_algorithm_list(o->algo);
              b.alpha = parse_double("--alpha", o->alpha);
              b.engine = parse_engine(o->rng);
              if (o->format != "text" && o->format != "json") {
                throw error(fmt::format("invalid value '{}' for --format: expected text or json", o->format));
              }
              if (o->threads.empty()) {
                b.threads = std::max(1u, std::thread::hardware_concurrency());
              } else {
                const auto t = parse_uint("--threads", o->threads);
                if (t < 1 || t > 1024) throw error("--threads must be between 1 and 1024");
                b.threads = static_cast<unsigned>(t);
              }
              const bias_report report = run_bias(b);
              const std::string seed_text = b.seed ? fmt::format("\"{}\"", *b.seed) : "none (from the OS)";
              write_stdout(o->format == "json" ? json_report(report, b.threads)
                                               : text_report(report, seed_text, b.threads));
              const bool any_biased = std::any_of(report.results.begin(), report.results.end(),
                                                  [](const auto& r) { return r.outcome == verdict::biased; });
              return (o->check && any_biased) ? exit_bias_found : exit_ok;
            };
          }};
}

}  // namespace shufl::cli
