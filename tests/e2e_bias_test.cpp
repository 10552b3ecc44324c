// End-to-end tests of `shufl bias`: the real binary, its stdout, stderr and exit status.
#include <gtest/gtest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <regex>

#include "support/run.hpp"

namespace shufl {
namespace {

using test::run_shell;
using test::run_shufl;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

nlohmann::json bias_json(std::vector<std::string> args) {
  args.insert(args.begin(), "bias");
  args.push_back("--format");
  args.push_back("json");
  const auto r = run_shufl(args);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return nlohmann::json::parse(r.out);
}

// B01: the signature command.
TEST(E2eBias, SignatureCommandText) {
  const auto r = run_shufl({"bias", "--n", "3", "--trials", "60000", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto fy = r.out.find("fisher-yates:");
  const auto naive = r.out.find("naive:");
  ASSERT_NE(fy, std::string::npos);
  ASSERT_NE(naive, std::string::npos);
  const std::string fy_part = r.out.substr(fy, naive - fy), naive_part = r.out.substr(naive);
  EXPECT_TRUE(contains(fy_part, "verdict: no evidence of bias")) << fy_part;
  EXPECT_TRUE(contains(naive_part, "verdict: biased")) << naive_part;
  for (const char* deck : {"123", "132", "213", "231", "312", "321"}) EXPECT_TRUE(contains(fy_part, deck));
  EXPECT_TRUE(contains(r.out, "df = 5"));
}

// Each result opens with one plain sentence (also the JSON `summary`); the tests that do not
// decide follow the verdict under "diagnostics". Independent values: the naive shuffle of 3 gives
// 132, 213 and 231 with probability 5/27 each (by enumeration of its 27 paths), 10/9 of 1/6:
// 11% more often than expected; the table test needs 5 expected per order, 5 x 3! = 30 trials.
TEST(E2eBias, PlainSentenceFirstDiagnosticsLast) {
  const auto r = run_shufl({"bias", "--n", "3", "--trials", "60000", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = bias_json({"--n", "3", "--trials", "60000", "--seed", "1"});
  const auto sentence = [&](std::string_view algo) {
    const auto at = r.out.find(std::string("\n") + std::string(algo) + ": ");
    const auto start = r.out.find('\n', at + 1) + 1;
    return r.out.substr(start, r.out.find('\n', start) - start);
  };
  // Fisher-Yates: the smallest and largest count of the table, of 60000 / 6 expected.
  std::uint64_t lo = UINT64_MAX, hi = 0;
  for (const auto& [order, count] : j["results"][0]["counts"].items()) {
    lo = std::min(lo, count.get<std::uint64_t>());
    hi = std::max(hi, count.get<std::uint64_t>());
  }
  const auto grouped = [](std::uint64_t v) { return fmt::format("{},{:03}", v / 1000, v % 1000); };
  EXPECT_EQ(sentence("fisher-yates"), fmt::format("  fair at this sample size: the 6 orders came up {} to {} times of "
                                                  "10,000 expected", grouped(lo), grouped(hi)));
  EXPECT_TRUE(contains(sentence("naive"), "  biased: orders 132, 213 and 231 come up about 11% more often than "
                                          "expected; p = 1.1e-148, not chance; see `shufl trace --algo naive --n 3`"))
      << sentence("naive");
  EXPECT_EQ("  " + j["results"][0]["summary"].get<std::string>(), sentence("fisher-yates"));
  EXPECT_EQ("  " + j["results"][1]["summary"].get<std::string>(), sentence("naive"));
  // The secondary tests are not in the verdict beside a valid table: after the verdict line,
  // under the diagnostics heading, with the G-test.
  const std::string naive_part = r.out.substr(r.out.find("\nnaive: "));
  const auto verdict = naive_part.find("  verdict: biased");
  const auto diagnostics = naive_part.find("  diagnostics, not in the verdict (the table chi-squared covers what");
  ASSERT_NE(verdict, std::string::npos);
  ASSERT_NE(diagnostics, std::string::npos);
  EXPECT_LT(verdict, diagnostics);
  for (const char* test : {"    G-test:", "    fixed points:", "    cycles:", "    inversions:", "    rising sequences:"}) {
    EXPECT_GT(naive_part.find(test), diagnostics) << test;
  }
  // Too few trials: how many would be enough.
  const auto few = run_shufl({"bias", "--n", "3", "--trials", "20", "--seed", "1", "--algo", "naive"});
  EXPECT_TRUE(contains(few.out, "\n  no verdict yet: too few trials for the table chi-squared (3.3 expected per cell, "
                                "5 needed); about 30 trials would be enough\n"))
      << few.out;
}

TEST(E2eBias, SignatureCommandJsonFollowsSchema) {
  const auto j = bias_json({"--n", "3", "--trials", "60000", "--seed", "1", "--threads", "2"});
  EXPECT_EQ(j["command"], "bias");
  EXPECT_EQ(j["n"], 3);
  EXPECT_EQ(j["trials"], 60000);
  EXPECT_EQ(j["seed"], "1");
  EXPECT_EQ(j["engine"], "xoshiro256pp");
  EXPECT_EQ(j["alpha"], 0.01);
  EXPECT_EQ(j["threads"], 2);
  EXPECT_EQ(j["correction"], "none");
  EXPECT_TRUE(j["shufl_version"].is_string());
  ASSERT_EQ(j["results"].size(), 2u);
  const auto& fy = j["results"][0];
  const auto& naive = j["results"][1];
  EXPECT_EQ(fy["algorithm"], "fisher-yates");
  EXPECT_EQ(fy["test"], "table");
  EXPECT_EQ(fy["verdict"], "no-evidence");
  EXPECT_EQ(naive["verdict"], "biased");
  EXPECT_EQ(fy["expected"], 10000.0);
  ASSERT_EQ(naive["counts"].size(), 6u);
  // Exact law 4/27, 5/27, 5/27, 5/27, 4/27, 4/27 of 60000: 8888.9 / 11111.1, within 5 sd.
  const std::pair<const char*, double> law[] = {{"123", 4}, {"132", 5}, {"213", 5}, {"231", 5}, {"312", 4}, {"321", 4}};
  for (const auto& [deck, k] : law) {
    EXPECT_NEAR(naive["counts"][deck].get<double>(), 60000 * k / 27, 460) << deck;
  }
  for (const char* test : {"chi_squared", "g_test"}) {
    const auto& t = naive[test];
    EXPECT_EQ(t["df"], 5);
    EXPECT_TRUE(std::isfinite(t["ln_p"].get<double>()));
    EXPECT_LT(t["log10_p"].get<double>(), -100);
    EXPECT_NEAR(t["log10_p"].get<double>(), t["ln_p"].get<double>() / std::log(10.0), 1e-6);
  }
  EXPECT_TRUE(naive["warnings"].empty());
}

// B02: warnings follow expected counts (20 trials: 3.33 per cell; 30 trials: exactly 5).
TEST(E2eBias, TooFewTrialsIsUnreliable) {
  auto r = run_shufl({"bias", "--n", "3", "--trials", "20", "--seed", "1"});
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.out, "warning: expected count per permutation is 3.333")) << r.out;
  EXPECT_TRUE(contains(r.out, "verdict: unreliable"));
  EXPECT_FALSE(contains(r.out, "verdict: biased"));
  EXPECT_FALSE(contains(r.out, "verdict: no evidence"));
  r = run_shufl({"bias", "--n", "3", "--trials", "30", "--seed", "1"});
  EXPECT_EQ(r.status, 0);
  EXPECT_FALSE(contains(r.out, "warning")) << r.out;
  EXPECT_FALSE(contains(r.out, "unreliable"));
  const auto j = bias_json({"--n", "3", "--trials", "20", "--seed", "1"});
  EXPECT_EQ(j["results"][0]["verdict"], "unreliable");
  EXPECT_EQ(j["results"][0]["warnings"].size(), 1u);
}

// B03: df = n! − 1.
TEST(E2eBias, DegreesOfFreedom) {
  for (auto [n, df] : {std::pair{"2", 1}, std::pair{"3", 5}, std::pair{"4", 23}}) {
    const auto j = bias_json({"--n", n, "--trials", "2400", "--seed", "1"});
    EXPECT_EQ(j["results"][0]["chi_squared"]["df"], df) << n;
  }
}

// B05: several algorithms in one run: the output says how α applies.
TEST(E2eBias, StatesAlphaPerAlgorithm) {
  const auto r = run_shufl({"bias", "--seed", "1", "--alpha", "0.05"});
  EXPECT_TRUE(contains(r.out, "alpha = 0.05 (alpha per algorithm; no multiple-testing correction)")) << r.out;
}

TEST(E2eBias, SameSeedSameCountsAnyThreads) {
  const auto a = bias_json({"--n", "4", "--trials", "300000", "--seed", "t", "--threads", "1"});
  const auto b = bias_json({"--n", "4", "--trials", "300000", "--seed", "t", "--threads", "2"});
  const auto c = bias_json({"--n", "4", "--trials", "300000", "--seed", "u", "--threads", "2"});
  EXPECT_EQ(a["results"], b["results"]);
  EXPECT_NE(a["results"][0]["counts"], c["results"][0]["counts"]);
}

TEST(E2eBias, CheckExitsThreeOnBias) {
  auto r = run_shufl({"bias", "--seed", "1", "--check"});
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err, "");
  r = run_shufl({"bias", "--seed", "1", "--check", "--algo", "fisher-yates"});
  EXPECT_EQ(r.status, 0);
  r = run_shufl({"bias", "--seed", "1", "--algo", "naive"});  // without --check: 0
  EXPECT_EQ(r.status, 0);
}

// (--trials 1e5 is valid since issue 13 / U04; 1.5e0 is not a whole number.)
TEST(E2eBias, BadInputIsOneClearError) {
  const std::vector<std::vector<std::string>> cases = {
      {"--n", "1"},          {"--n", "256"},          {"--n", "-1"},        {"--n", "three"},
      {"--trials", "0"},     {"--trials", "-1"},     {"--trials", "1.5e0"},  {"--trials", "99999999999999999999999"},
      {"--alpha", "0"},      {"--alpha", "1"},       {"--alpha", "x"},     {"--algo", "fisher-yate"},
      {"--algo", ""},        {"--rng", "mt"},        {"--format", "xml"},  {"--threads", "0"},
      {"--bogus"},           {"extra"},
  };
  for (auto args : cases) {
    args.insert(args.begin(), "bias");
    const auto r = run_shufl(args);
    SCOPED_TRACE(args[1] + " " + (args.size() > 2 ? args[2] : ""));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("shufl: ", 0), 0u) << r.err;
  }
  const auto r = run_shufl({"bias", "--algo", "fisher-yate"});
  EXPECT_TRUE(contains(r.err, "did you mean 'fisher-yates'?")) << r.err;
  const auto none = run_shufl({});
  EXPECT_EQ(none.status, 1);
  const auto unknown = run_shufl({"frobnicate"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_EQ(unknown.out, "");
}

TEST(E2eBias, WriteErrorsAreReported) {
  const auto r = run_shell(test::shufl_binary() + " bias --trials 600 --seed 1 > /dev/full");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: write error: No space left on device\n");
}

TEST(E2eBias, ClosedPipeEndsQuietly) {
  const auto r = run_shell(test::shufl_binary() + " bias --n 5 --trials 1200 --seed 1 | head -1");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind("shufl bias: n = 5", 0), 0u) << r.out;
}

TEST(E2eBias, HelpAndVersion) {
  auto r = run_shufl({"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.out, "bias"));
  EXPECT_TRUE(contains(r.out, "Examples:"));
  r = run_shufl({"bias", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.out, "--trials"));
  EXPECT_TRUE(contains(r.out, "shufl bias --n 3 --trials 60000"));
  r = run_shufl({"--version"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("shufl ", 0), 0u);
  // The licence, and every library the binary links, each with a version number after its name.
  EXPECT_TRUE(contains(r.out, "\nCopyright (c) 2026 the shufl authors. License: MIT")) << r.out;
  for (const char* library : {"CLI11", "fmt", "Boost", "libsodium", "nlohmann-json", "utf8proc", "OpenSSL libcrypto"}) {
    EXPECT_TRUE(std::regex_search(r.out, std::regex(std::string("(built with:|,) ") + library + " [0-9]+\\.[0-9]+")))
        << library << " (with a version) missing from\n" << r.out;
  }
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

using test::run_shell;
using test::run_shufl;

TEST(E2eBias, ListShowsEveryAlgorithm) {
  const auto r = run_shufl({"bias", "--list"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* name : {"fisher-yates", "inside-out", "pencil-and-paper", "two-array", "naive", "sattolo",
                           "asf-poker", "sort-coin:insertion", "sort-coin:merge", "sort-coin:bubble",
                           "sort-coin:selection", "random-keys:BITS", "modulo:BITS", "transpositions:K",
                           "riffle:K", "thorp:K", "shelf:M", "overhand:Q", "pile:K", "cut", "A+B+...",
                           "weak-seed"}) {
    EXPECT_NE(r.out.find(std::string(name) + " "), std::string::npos) << name;
  }
}

// --exact: no trials; the exact law of naive n = 3 is 4/27, 5/27, ... with TV 1/18.
TEST(E2eBias, ExactJson) {
  const auto r = run_shufl({"bias", "--n", "3", "--exact", "--algo", "naive,fisher-yates", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["trials"], 0);
  const auto& naive = j["results"][0];
  EXPECT_EQ(naive["exact"]["probabilities"]["132"], "5/27");
  EXPECT_EQ(naive["exact"]["total_variation_fraction"], "1/18");
  EXPECT_NEAR(naive["exact"]["total_variation_distance"].get<double>(), 1.0 / 18, 1e-12);
  EXPECT_EQ(naive["verdict"], "biased");
  EXPECT_EQ(j["results"][1]["verdict"], "no-evidence");
}

// The Bayer–Diaconis table, printed with 10 decimals, closed form for 52 cards.
TEST(E2eBias, RiffleExactFiftyTwo) {
  const auto r = run_shufl({"bias", "--n", "52", "--exact", "--algo", "riffle:1..10"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* tv : {"1.0000000000", "0.9999995334", "0.9237329294", "0.6135495966", "0.3340609995",
                         "0.1671586419", "0.0854201934", "0.0429455489"}) {
    EXPECT_NE(r.out.find(std::string("total variation distance from uniform: ") + tv), std::string::npos) << tv;
  }
}

TEST(E2eBias, FiftyTwoCardsPositionJson) {
  const auto r = run_shufl({"bias", "--n", "52", "--trials", "20000", "--seed", "1", "--algo", "fisher-yates",
                            "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["correction"], "holm");
  const auto& res = j["results"][0];
  EXPECT_EQ(res["test"], "position");
  EXPECT_EQ(res["position_counts"].size(), 52u);
  EXPECT_EQ(res["position_counts"][0].size(), 52u);
  EXPECT_EQ(res["chi_squared"]["df"], 2601);
  EXPECT_GE(res["secondary"].size(), 4u);
  EXPECT_EQ(res["secondary"][0]["name"], "fixed points");
  EXPECT_FALSE(res.contains("counts"));
}

// Anyone's shuffle: permutations on stdin, 1-based, comma-separated (JavaScript's join).
TEST(E2eBias, InputFromStdin) {
  std::string perms;
  const char* orders[] = {"1,2,3", "1,3,2", "2,1,3", "2,3,1", "3,1,2", "3,2,1"};
  for (int rep = 0; rep < 20; ++rep) {
    for (const char* o : orders) perms += std::string(o) + "\n";
  }
  auto r = run_shufl({"bias", "--input", "-"}, perms);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("n = 3, 120 permutations read"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verdict: no evidence of bias"), std::string::npos) << r.out;
  std::string skewed = perms;
  for (int rep = 0; rep < 25; ++rep) skewed += "1,2,3\n";
  r = run_shufl({"bias", "--input", "-", "--check"}, skewed);
  EXPECT_EQ(r.status, 3) << r.out;
  r = run_shufl({"bias", "--input", "-"}, "1 2 3\n1 2\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "shufl: standard input: line 2: 2 items, expected 3 like the first line; print one permutation per "
            "line, e.g. console.log(a.join(' ')) or console.log(JSON.stringify(a)) in JavaScript, print(*a) in "
            "Python\n");
}

// Counts saved by two runs with different seeds add up; the same seed twice is refused.
TEST(E2eBias, SaveAndMerge) {
  test::temp_dir dir;
  const std::string a = dir.file("a.json"), b = dir.file("b.json"), c = dir.file("c.json");
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--trials", "6000", "--save-counts", a}).status, 0);
  ASSERT_EQ(run_shufl({"bias", "--seed", "2", "--trials", "6000", "--save-counts", b}).status, 0);
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--trials", "6000", "--save-counts", c}).status, 0);
  auto r = run_shufl({"bias", "--merge", a, b, "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 2u);
  std::uint64_t total = 0;
  for (const auto& [k, v] : j["results"][1]["counts"].items()) total += v.get<std::uint64_t>();
  EXPECT_EQ(total, 12000u);
  r = run_shufl({"bias", "--merge", a, c});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("the same trials cannot be counted twice"), std::string::npos) << r.err;
}

TEST(E2eBias, CsvAndPlot) {
  test::temp_dir dir;
  const std::string svg = dir.file("m.svg");
  const auto r = run_shufl({"bias", "--seed", "1", "--format", "csv", "--plot", svg});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "algorithm,test,statistic,df,p_value,ln_p,ln_p_adjusted,verdict,bound,valid,in_verdict,deciding_test,"
            "deciding_ln_p_adjusted");
  EXPECT_NE(r.out.find("naive,table chi-squared,"), std::string::npos);
  const std::string plot = test::read_file(svg);
  EXPECT_EQ(plot.rfind("<svg", 0), 0u);
  EXPECT_NE(plot.find("<rect"), std::string::npos);
}

TEST(E2eBias, MonteCarloReplacesTheApproximation) {
  const auto r = run_shufl({"bias", "--n", "4", "--trials", "48", "--seed", "1", "--monte-carlo", "200",
                            "--algo", "fisher-yates", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NE(j["results"][0]["verdict"], "unreliable");
  EXPECT_EQ(j["results"][0]["monte_carlo"]["tables"], 200);
}

TEST(E2eBias, NewBadInput) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--test", "rows"}, {"--n", "11", "--test", "table"}, {"--monte-carlo", "x"},
           {"--algo", "sort-coin"}, {"--algo", "riffle:0"}, {"--input", "/nonexistent/x"},
           {"--n", "9", "--exact", "--algo", "weak-seed"}, {"--merge", "/nonexistent/y"}}) {
    std::vector<std::string> full{"bias"};
    full.insert(full.end(), args.begin(), args.end());
    const auto r = run_shufl(full);
    EXPECT_EQ(r.status, 1) << args[0];
    EXPECT_EQ(r.out, "") << args[0];
    EXPECT_EQ(r.err.rfind("shufl: ", 0), 0u) << r.err;
  }
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// A p-value below the double range prints as `p < 1e-308 (ln p = ...)`, never as 0; ordinary
// p-values carry ln p too (issue 2, item 5).
TEST(E2eBias, TinyPValuesPrintAsLogNeverZero) {
  const auto r = test::run_shufl({"bias", "--seed", "1", "--trials", "6000000", "--algo", "naive"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("chi-squared: X2 = "), std::string::npos);
  EXPECT_NE(r.out.find(", df = 5, p < 1e-308 (ln p = -"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("p = 0 "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("p = 0\n"), std::string::npos) << r.out;
  const auto fy = test::run_shufl({"bias", "--seed", "1", "--algo", "fisher-yates"});
  EXPECT_NE(fy.out.find("df = 5, p = 0.08861 (ln p = -2.424)"), std::string::npos) << fy.out;
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// Findings of a fresh-eyes review: each is one clear error or a sound run, never a silent wrong
// verdict.
TEST(E2eBias, ReviewFindingsStayFixed) {
  // A trial count near 2^64 used to overflow the chunking into 0 trials and "no evidence".
  auto r = test::run_shufl({"bias", "--trials", "18446744073709551615", "--algo", "naive"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "shufl: --trials must be at most 1000000000000000 (got 18446744073709551615)\n");
  // A large alpha used to fail inside the power calculation.
  r = test::run_shufl({"bias", "--alpha", "0.99", "--seed", "1", "--algo", "naive"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("verdict: biased"), std::string::npos);
  // One trial cannot detect anything: the power line says so instead of a TV above 1 (the
  // primary test is not valid at one trial, so no power is stated).
  r = test::run_shufl({"bias", "--trials", "1", "--seed", "1", "--algo", "naive"});
  EXPECT_NE(r.out.find("power: not stated (the table chi-squared is not valid at this sample size)"),
            std::string::npos) << r.out;
  // --exact runs no trials: options that only trials use are refused, not ignored.
  r = test::run_shufl({"bias", "--exact", "--trials", "5", "--algo", "naive"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: --exact computes the exact law and runs no trials: drop --trials\n");
  // --merge: a missing file says so; the same tallies twice (an unseeded run has no seed to
  // compare) are refused rather than double-counted.
  r = test::run_shufl({"bias", "--merge", "/nonexistent/a.cnt"});
  EXPECT_EQ(r.err, "shufl: cannot open '/nonexistent/a.cnt': No such file or directory\n");
  test::temp_dir dir;
  r = test::run_shufl({"bias", "--trials", "600", "--algo", "naive", "--save-counts", dir.file("a.cnt")});
  ASSERT_EQ(r.status, 0) << r.err;
  dir.write("b.cnt", test::read_file(dir.file("a.cnt")));
  r = test::run_shufl({"bias", "--merge", dir.file("a.cnt"), dir.file("b.cnt")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("the same trials cannot be counted twice"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace shufl
