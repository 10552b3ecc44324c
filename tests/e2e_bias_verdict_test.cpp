// End-to-end tests of `shufl bias` verdicts (issue 11, cases S01-S07): p-values that never
// throw and never go below what is possible, the decision rule, the test that decided, and the
// --check exit statuses. Expected values come from tests/reference/verdict/reference.py
// (mpmath and exact enumeration), recorded in reference.txt.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

#include "support/run.hpp"

namespace shufl {
namespace {

using test::run_program;
using test::run_shufl;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// reference.txt: "CASE name value ..." lines; returns the value field(s) of each line by "CASE name".
std::map<std::string, std::vector<std::string>> reference() {
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream in(test::read_file(test::reference_dir() + "/verdict/reference.txt"));
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string c, name;
    fields >> c >> name;
    auto& values = out[c + " " + name];
    for (std::string v; fields >> v;) values.push_back(v);
  }
  return out;
}

// The last field: the decimal value ("S03 smallest_mc_p 1/51 = 0.019608" gives 0.019608).
double ref(const std::string& key) { return std::stod(reference().at(key).back()); }

// Every "ln_p" / "ln_p_adjusted" anywhere in a report is a finite number (never null, NaN, inf).
void expect_all_ln_p_finite(const nlohmann::json& j, const std::string& where = "") {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == "ln_p" || it.key() == "ln_p_adjusted" || it.key() == "log10_p") {
        EXPECT_TRUE(it.value().is_number()) << where << "/" << it.key() << " = " << it.value();
        if (it.value().is_number()) {
          EXPECT_TRUE(std::isfinite(it.value().get<double>())) << where << "/" << it.key();
        }
      }
      expect_all_ln_p_finite(it.value(), where + "/" + it.key());
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) expect_all_ln_p_finite(j[i], where + "/" + std::to_string(i));
  }
}

// The minimum of every ln_p in a result (primary, G, rows, secondary).
double min_ln_p(const nlohmann::json& j) {
  double m = 0;
  std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& v) {
    if (v.is_object()) {
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (it.key() == "ln_p" && it.value().is_number()) m = std::min(m, it.value().get<double>());
        walk(it.value());
      }
    } else if (v.is_array()) {
      for (const auto& x : v) walk(x);
    }
  };
  walk(j);
  return m;
}

std::string s01_input() {
  const auto r = run_program("/usr/bin/env", {"python3", "-c",
                                              "import random\n"
                                              "for t in range(5000):\n"
                                              "    r = random.Random(t % 1000); d = list(range(1, 53)); "
                                              "r.shuffle(d); print(*d)"});
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

std::string repeat_line(const std::string& line, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += line + "\n";
  return out;
}

std::string identity_52() {
  std::string line;
  for (int i = 1; i <= 52; ++i) {
    if (i > 1) line += ' ';
    line += std::to_string(i);
  }
  return line;
}

std::string verdict_line(const std::string& text) {
  const auto at = text.rfind("  verdict: ");
  return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
}

// S01: a shuffler with 1000 seeds dealing 5000 decks of 52: 4000 repeats. The duplicates test's
// Poisson tail used to overflow tgamma (exit 1, nothing printed). Now every ln p is finite, the
// duplicates ln p matches mpmath, and the verdict is biased, exit 3 with --check.
TEST(E2eBiasVerdict, S01FewSeedsDuplicatesInLogSpace) {
  const std::string input = s01_input();
  const auto text = run_shufl({"bias", "--input", "-", "--check"}, input);
  EXPECT_EQ(text.status, 3) << text.err;
  EXPECT_EQ(text.err, "");
  EXPECT_TRUE(contains(verdict_line(text.out), "verdict: biased")) << text.out;
  EXPECT_TRUE(contains(verdict_line(text.out), "decided by duplicates")) << verdict_line(text.out);
  EXPECT_FALSE(contains(text.out, "nan") || contains(text.out, "inf")) << text.out;

  const auto r = run_shufl({"bias", "--input", "-", "--format", "json"}, input);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  expect_all_ln_p_finite(j);
  const auto& res = j["results"][0];
  EXPECT_EQ(res["verdict"], "biased");
  bool found = false;
  for (const auto& s : res["secondary"]) {
    if (s["name"] != "duplicates") continue;
    found = true;
    EXPECT_EQ(s["statistic"].get<double>(), ref("S01 repeats"));
    const double expected = ref("S01 duplicates_ln_p");
    EXPECT_NEAR(s["ln_p"].get<double>(), expected, 1e-7 * std::fabs(expected));
    EXPECT_GE(s["ln_p"].get<double>(), ref("S01 duplicates_floor"));
  }
  EXPECT_TRUE(found);
}

// S01 kind, engine side: weak-seed (2^32 seeds) at n = 52 keeps every ln p finite too.
TEST(E2eBiasVerdict, S01WeakSeedAllFinite) {
  const auto r = run_shufl({"bias", "--n", "52", "--trials", "200000", "--seed", "1", "--algo", "weak-seed,sattolo",
                            "--format", "json", "--check"});
  EXPECT_EQ(r.status, 3) << r.err;
  expect_all_ln_p_finite(nlohmann::json::parse(r.out));
}

// S02: ties in the Monte-Carlo p. 4 x "1 2 3" and 1 x "1 3 2": exact p = 156/7776 (table) and
// 96/7776 (position) by enumerating all 6^5 samples; the Monte-Carlo p is within 4 standard errors.
TEST(E2eBiasVerdict, S02MonteCarloTiesCountExactly) {
  const std::string input = repeat_line("1 2 3", 4) + "1 3 2\n";
  const double b = 10000;  // 4 standard errors: 0.0056 (table), less than the old error 0.007
  for (const auto& [test, key] : {std::pair<std::string, std::string>{"auto", "S02 table_exact_p"},
                                  {"position", "S02 position_exact_p"}}) {
    const auto r = run_shufl({"bias", "--input", "-", "--seed", "s02", "--monte-carlo", "10000", "--test", test,
                              "--format", "json"}, input);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const std::string frac = reference().at(key).front();  // "156/7776"
    const double exact = std::stod(frac.substr(0, frac.find('/'))) / std::stod(frac.substr(frac.find('/') + 1));
    const double se = std::sqrt(exact * (1 - exact) / b);
    const double p = j["results"][0]["monte_carlo"]["p_value"].get<double>();
    EXPECT_NEAR(p, exact, 4 * se) << test;
  }
}

// S03: the verdict line names the Monte-Carlo p that decided, and B = 50 draws a warning: its
// smallest p, 1/51, is above alpha = 0.01.
TEST(E2eBiasVerdict, S03VerdictNamesTheDecidingTest) {
  const auto r = run_shufl({"bias", "--n", "4", "--trials", "60", "--algo", "asf-poker", "--seed", "mc",
                            "--monte-carlo", "50"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string v = verdict_line(r.out);
  EXPECT_TRUE(contains(v, "decided by table Monte-Carlo")) << v;
  EXPECT_FALSE(contains(v, "chi-squared p")) << v;
  const auto mc_at = r.out.find("Monte-Carlo p-value of the primary statistic (50 tables): p = ");
  ASSERT_NE(mc_at, std::string::npos) << r.out;
  const std::string mc_p = r.out.substr(mc_at + 62, r.out.find('\n', mc_at) - mc_at - 62);
  EXPECT_TRUE(contains(v, "p = " + mc_p)) << v << " vs " << mc_p;
  EXPECT_TRUE(contains(r.out, "--monte-carlo 50 can never reject at alpha = 0.01")) << r.out;
  const auto b_at = r.out.find("1/(B+1) = ");
  ASSERT_NE(b_at, std::string::npos);
  EXPECT_NEAR(std::stod(r.out.substr(b_at + 10)), ref("S03 smallest_mc_p"), 1e-5);
}

// Holm's step-down adjustment, written out again: ln of min(1, max over j <= i of (m - j) p_(j)).
std::vector<double> holm(const std::vector<double>& ln_p) {
  std::vector<std::size_t> order(ln_p.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return ln_p[a] < ln_p[b]; });
  std::vector<double> out(ln_p.size());
  double running = -1e300;
  for (std::size_t i = 0; i < order.size(); ++i) {
    running = std::max(running, std::min(0.0, std::log(static_cast<double>(order.size() - i)) + ln_p[order[i]]));
    out[order[i]] = running;
  }
  return out;
}

// S05: the deciding test and its adjusted p are the same in text, JSON and CSV, and equal Holm's
// adjustment recomputed here from the raw ln p of the tests that feed the verdict.
TEST(E2eBiasVerdict, S05DecidingTestIdenticalInTextJsonCsv) {
  for (const std::string seed : {"cal-135", "1", "2"}) {
    const std::vector<std::string> args{"bias", "--n", "8", "--trials", "20000", "--algo", "fisher-yates",
                                        "--alpha", "0.05", "--seed", seed};
    auto with = [&](std::vector<std::string> extra) {
      auto a = args;
      a.insert(a.end(), extra.begin(), extra.end());
      const auto r = run_shufl(a);
      EXPECT_EQ(r.status, 0) << r.err;
      return r.out;
    };
    const auto j = nlohmann::json::parse(with({"--format", "json"}))["results"][0];
    std::vector<double> ln_ps;
    std::vector<std::string> names;
    if (j["primary"]["in_verdict"].get<bool>()) {
      ln_ps.push_back(j["chi_squared"]["ln_p"].get<double>());
      names.push_back(j["primary"]["name"].get<std::string>());
    }
    for (const auto& s : j["secondary"]) {
      if (!s["in_verdict"].get<bool>()) continue;
      ln_ps.push_back(s["ln_p"].get<double>());
      names.push_back(s["name"].get<std::string>());
    }
    ASSERT_EQ(ln_ps.size(), j["tests_in_verdict"].get<std::size_t>());
    const auto adjusted = holm(ln_ps);
    const auto k = static_cast<std::size_t>(std::min_element(adjusted.begin(), adjusted.end()) - adjusted.begin());
    EXPECT_EQ(j["deciding_test"], names[k]) << seed;
    EXPECT_NEAR(j["ln_p_adjusted"].get<double>(), adjusted[k], 1e-9 * std::max(1.0, std::fabs(adjusted[k])));

    const std::string v = verdict_line(with({}));
    EXPECT_TRUE(contains(v, "decided by " + names[k] + ": smallest adjusted p = ")) << v;
    const auto at = v.find("(ln p = ");
    ASSERT_NE(at, std::string::npos) << v;
    EXPECT_NEAR(std::stod(v.substr(at + 8)), adjusted[k], 1e-3 * std::max(1.0, std::fabs(adjusted[k]))) << v;

    const auto csv = test::lines(with({"--format", "csv"}));
    ASSERT_GE(csv.size(), 2u);
    const auto header = test::split(csv[0], ',');
    const auto row = test::split(csv[1], ',');
    const auto col = [&](const std::string& name) {
      return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    ASSERT_LT(col("deciding_ln_p_adjusted"), row.size());
    EXPECT_EQ(row[col("deciding_test")], names[k]);
    EXPECT_NEAR(std::stod(row[col("deciding_ln_p_adjusted")]), adjusted[k], 1e-8 * std::max(1.0, std::fabs(adjusted[k])));
    EXPECT_EQ(row[col("verdict")], j["verdict"]);
  }
}

// S06: 100 identical identity decks: the position test is not valid (expected 1.9 per cell) but
// the fixed-point test is (100 trials) and rejects overwhelmingly: biased, exit 3 with --check.
// Its p is exactly (1/52!)^100 (only that outcome has 5200 fixed points): printed as that bound.
TEST(E2eBiasVerdict, S06ValidTestRejectsSoBiased) {
  const std::string input = repeat_line(identity_52(), 100);
  const auto text = run_shufl({"bias", "--input", "-", "--check"}, input);
  EXPECT_EQ(text.status, 3) << text.out << text.err;
  EXPECT_TRUE(contains(verdict_line(text.out), "verdict: biased")) << text.out;

  const auto r = run_shufl({"bias", "--input", "-", "--format", "json", "--check"}, input);
  EXPECT_EQ(r.status, 3);
  const auto res = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(res["verdict"], "biased");
  EXPECT_FALSE(res["primary"]["valid"].get<bool>());
  for (const auto& s : res["secondary"]) {
    if (s["name"] != "fixed points") continue;
    EXPECT_TRUE(s["valid"].get<bool>());
    EXPECT_TRUE(s["bound"].get<bool>());
    EXPECT_NEAR(s["ln_p"].get<double>(), ref("S06 floor_100_trials"), 1e-6);
  }
  EXPECT_GE(min_ln_p(res), ref("S06 floor_100_trials") - 1e-6);
}

// S06, the engine side: sattolo (no fixed points ever) and one riffle (at most 2 rising
// sequences) at 100 trials of 52 cards must not pass --check.
TEST(E2eBiasVerdict, S06SattoloAndOneRiffleFailCheck) {
  const auto r = run_shufl({"bias", "--n", "52", "--trials", "100", "--algo", "sattolo,riffle:1", "--seed", "1",
                            "--check"});
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  const auto r2 = run_shufl({"bias", "--n", "52", "--trials", "100", "--algo", "sattolo,riffle:1", "--check"});
  EXPECT_EQ(r2.status, 3) << r2.out << r2.err;
}

// --check: 4 when nothing is biased but a verdict is unreliable (B02's 20 trials of 3 cards), 0
// without --check, 0 when every verdict is reliable and clean.
TEST(E2eBiasVerdict, CheckExitStatuses) {
  EXPECT_EQ(run_shufl({"bias", "--n", "3", "--trials", "20", "--algo", "fisher-yates", "--seed", "1", "--check"}).status, 4);
  EXPECT_EQ(run_shufl({"bias", "--n", "3", "--trials", "20", "--algo", "fisher-yates", "--seed", "1"}).status, 0);
  EXPECT_EQ(run_shufl({"bias", "--n", "3", "--trials", "600", "--algo", "fisher-yates", "--seed", "1", "--check"}).status, 0);
  EXPECT_EQ(run_shufl({"bias", "--n", "3", "--algo", "fisher-yates,naive", "--seed", "1", "--trials", "6000",
                       "--check"}).status, 3);
}

// S07: one identity deck of 52: no p below ln(1/52!) = -156.36 anywhere (fixed points used to
// print -1304.66); the fixed-point p is exactly that bound, marked so; one trial decides nothing.
TEST(E2eBiasVerdict, S07NoPBelowTheMostExtremeOutcome) {
  const std::string input = identity_52() + "\n";
  const auto r = run_shufl({"bias", "--input", "-", "--format", "json", "--check"}, input);
  EXPECT_EQ(r.status, 4) << r.err;
  const auto res = nlohmann::json::parse(r.out)["results"][0];
  expect_all_ln_p_finite(res);
  const double floor = ref("S07 floor_1_trial");
  EXPECT_GE(min_ln_p(res), floor - 1e-6);
  EXPECT_EQ(res["verdict"], "unreliable");
  for (const auto& s : res["secondary"]) {
    if (s["name"] != "fixed points") continue;
    EXPECT_TRUE(s["bound"].get<bool>());
    EXPECT_NEAR(s["ln_p"].get<double>(), floor, 1e-6);
  }
  const auto text = run_shufl({"bias", "--input", "-"}, input);
  // The identity is the one most extreme outcome: the floor is its exact p, said so.
  EXPECT_TRUE(contains(text.out, "p = 1.24e-68 (ln p = -156.36; exact: the probability of the most extreme outcomes "
                                 "under uniformity, which this outcome is; the normal approximation gives less)"))
      << text.out;
  EXPECT_FALSE(contains(text.out, "-1304")) << text.out;
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

using test::run_shufl;

// Issue 11: every run finishes in predictable time and memory or is refused at once with the limit.
TEST(E2eBiasVerdict, Item11RunsEndOrAreRefusedAtOnce) {
  // The counting argument of 10^6 transpositions of 255 cards used to multiply a huge exact
  // integer (quadratic); the trace itself would hold 2 x 10^6 decks. Refused with the limit.
  auto r = run_shufl({"trace", "--algo", "transpositions:1000000", "--n", "255", "--seed", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("at most 10000000 steps x items"), std::string::npos) << r.err;
  // Just under the limit it runs, and the counting argument (prime exponents) stays correct:
  // (255·255)^K paths are never divisible by 255! (the prime 2 divides 255! but not 255).
  r = run_shufl({"trace", "--algo", "transpositions:300", "--n", "255", "--seed", "1", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["counting"]["divisible_by_n_factorial"], false);
  // The riffle closed form over 2^(K n): refused at once beyond 16384 bits.
  r = run_shufl({"bias", "--n", "255", "--exact", "--algo", "riffle:1000"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("K x n <= 16384"), std::string::npos) << r.err;
  // 1024 threads at n = 9 each with 9! counts: capped, and said so on stderr.
  r = run_shufl({"bias", "--n", "9", "--threads", "1024", "--trials", "10000000", "--seed", "1", "--algo",
                 "fisher-yates", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("--threads 1024 capped to 92 for n = 9"), std::string::npos) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["threads"], 92);
}

}  // namespace
}  // namespace shufl
