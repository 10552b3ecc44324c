// Rule coverage (audit/coverage.hpp): the clauses of docs/audit.md's table and their tests.
#include "shufl/audit/coverage.hpp"

#include <algorithm>

namespace shufl::audit {

namespace {

struct clause {
  const char* rule;
  const char* asks;
  std::vector<std::string> tests;  // empty: `other` says why
  const char* other;
  const char* unrun = "not run";   // the status when none of `tests` ran
};

const char* const kSeed = "in part, when run: the seed search (--seed-search)";
const char* const kNot = "not testable from decks";
const char* const kBatches = "not run: batches, when run (--batch-size K)";

const std::vector<clause>& clauses() {
  static const std::vector<clause> c = {
      {"Virginia 11VAC20-20-510 (1)", "a chi-squared test per card position", {"card-position", "suit-position", "rank-position"}, ""},
      {"Virginia 11VAC20-20-510 (2)", "a runs test: no recurring patterns", {"runs-up-down", "descents", "rising-sequences"}, ""},
      {"Virginia 11VAC20-20-510 (3)", "each pair of card positions independent within a game",
       {"position-pairs", "successions", "adjacent-pairs", "permutation-3", "permutation-4"}, ""},
      {"Virginia 11VAC20-20-510 (4)", "serial correlation: independent of the previous game", {"serial-position", "serial-successions"}, ""},
      {"West Virginia 29-22B-909", "chi-squared, runs, within-game correlation, serial correlation",
       {"card-position", "runs-up-down", "position-pairs", "successions", "permutation-3", "serial-position",
        "serial-successions"}, ""},
      {"25 CFR 547.14(b)", "random individually and in the permutations and combinations the game uses; chi-square, runs, "
                           "serial correlation, gap, poker, coupon collector, permutation tests",
       {"card-position", "runs-up-down", "serial-position", "permutation-3", "permutation-4", "coupon-collector-suits",
        "coupon-collector-ranks", "gap", "poker-hands", "blackjack-hands"}, ""},
      {"25 CFR 547.14(b)", "unpredictability and non-repeatability", {"duplicates", "guessing", "guessing-shelf"}, ""},
      {"25 CFR 547.14(d)", "seeding", {}, kSeed},
      {"Pennsylvania 58 Pa. Code 810a.5", "chi-square, adjacency criterion, permutation, runs, serial correlation",
       {"card-position", "adjacent-pairs", "permutation-3", "permutation-4", "runs-up-down", "serial-position"}, ""},
      {"Pennsylvania 58 Pa. Code 810a.5", "Kolmogorov-Smirnov, order statistic", {"batches"}, "", kBatches},
      {"Pennsylvania 58 Pa. Code 810a.5", "source-code review; scaling keeps the distribution; a cryptographically strong RNG", {}, kNot},
      {"Maryland COMAR 36.05.02.17(F)", "95% confidence, chi-squared goodness of fit", {"card-position"}, ""},
      {"New Jersey N.J.A.C. 13:69E-1.28G", "chi-square and runs tests", {"card-position", "runs-up-down"}, ""},
      {"New Jersey N.J.A.C. 13:69E-1.28G", "rescaling keeps outcomes equiprobable; mono-bit tests of raw output", {}, kNot},
      {"Ontario AGCO 21.1.2", "frequency, runs, serial correlation on the grouped outcomes",
       {"card-position", "runs-up-down", "serial-position", "serial-successions"}, ""},
      {"UK Gambling Commission RTS 7A", "outcomes acceptably random by generally accepted tests",
       {"card-position", "successions", "permutation-3", "serial-position", "guessing"}, ""},
      {"UK Gambling Commission RTS 7B", "seeding adds no predictability; unpredictable", {}, kSeed},
      {"UK Gambling Commission RTS 7C", "no cycling; no two RNG instances in step; scaling", {}, kNot},
  };
  return c;
}

}  // namespace

std::vector<coverage_row> rule_coverage(const std::vector<test_report>& tests) {
  std::vector<coverage_row> out;
  for (const auto& c : clauses()) {
    coverage_row row;
    row.rule = c.rule;
    row.asks = c.asks;
    if (c.tests.empty()) {
      row.status = c.other;
      out.push_back(std::move(row));
      continue;
    }
    bool any = false, failed = false;
    for (const auto& name : c.tests) {
      const auto it = std::find_if(tests.begin(), tests.end(), [&](const test_report& t) { return t.name == name; });
      if (it == tests.end()) continue;
      if (it->result != test_outcome::pass && it->result != test_outcome::fail) continue;
      row.tests.push_back(name);
      any = true;
      failed = failed || it->result == test_outcome::fail;
    }
    row.status = !any ? c.unrun : failed ? "fail" : "pass";
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace shufl::audit
