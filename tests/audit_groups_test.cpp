// Tests of --group-by in the library: the reader's group field (cards.hpp), the joint Holm
// decision over every group's tests (groups.hpp), and the monitor's groups (follow_groups.hpp):
// the whole log's Shiryaev–Roberts identity E0[Σ_g M_g | past] = Σ_g M_g + 1 by exact
// enumeration of the next deck of either group, the average run length of the whole log against
// --arl on simulated fair interleaved streams, the replay window shared by every group, and whole
// decks replayed at lags 100 and 10^4.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "shufl/audit/follow_groups.hpp"
#include "shufl/audit/groups.hpp"
#include "shufl/error.hpp"
#include "shufl/stats.hpp"
#include "shufl/text_input.hpp"
#include "support/audit_packs.hpp"
#include "support/test_rng.hpp"

namespace {

using shufl::audit::follow_group_set;
using shufl::test::small_pack;
using shufl::test::standard_pack;
using shufl::test::test_rng;

// The groups and decks a reader gives for `text` with --group-by `field`.
std::vector<std::pair<std::string, std::size_t>> read_groups(const std::string& text, std::size_t field,
                                                             bool skip_bad = false) {
  shufl::text_reader in(text, "t");
  shufl::audit::reader_options o;
  o.group_field = field;
  o.skip_bad = skip_bad;
  o.pack = shufl::pack_kind::euchre;
  shufl::audit::deck_reader r(in, o);
  std::vector<std::uint32_t> faces;
  std::vector<std::pair<std::string, std::size_t>> out;
  while (r.next(faces)) out.emplace_back(std::string(r.group()), faces.size());
  return out;
}

const std::string euchre = "9s Ts Js Qs Ks As 9h Th Jh Qh Kh Ah 9d Td Jd Qd Kd Ad 9c Tc Jc Qc Kc Ac";

std::string with_commas(const std::string& s) {
  std::string out = s;
  std::replace(out.begin(), out.end(), ' ', ',');
  return out;
}

TEST(AuditGroups, ReaderTakesTheGroupFieldSeparatedLikeTheCards) {
  EXPECT_EQ(read_groups("T1 " + euchre + "\n  T2   " + euchre + "\n", 1),
            (std::vector<std::pair<std::string, std::size_t>>{{"T1", 24}, {"T2", 24}}));
  // Commas: field 2 in the middle; a field may hold spaces (trimmed).
  const std::string c = with_commas(euchre);
  const std::string line = c.substr(0, 2) + ", table 7 ," + c.substr(3) + "\n";
  EXPECT_EQ(read_groups(line, 2), (std::vector<std::pair<std::string, std::size_t>>{{"table 7", 24}}));
  // Tabs, the last field.
  std::string tabs = euchre;
  std::replace(tabs.begin(), tabs.end(), ' ', '\t');
  EXPECT_EQ(read_groups(tabs + "\tm-3\n", 25), (std::vector<std::pair<std::string, std::size_t>>{{"m-3", 24}}));
}

TEST(AuditGroups, AnEmptyOrMissingGroupFieldIsAnError) {
  const std::string c = with_commas(euchre);
  try {
    read_groups("ok," + c + "\n," + c + "\n", 1);
    FAIL() << "no error";
  } catch (const shufl::error& e) {
    EXPECT_STREQ(e.what(), "t: line 2: field 1 (--group-by, the group) is empty");
  }
  try {
    read_groups("T1 As\n", 3);
    FAIL() << "no error";
  } catch (const shufl::error& e) {
    EXPECT_STREQ(e.what(), "t: line 1: no field 3 (--group-by): the line has 2 fields");
  }
  // --skip-bad skips such a line like any bad deck.
  EXPECT_EQ(read_groups("ok," + c + "\n," + c + "\nb," + c + "\n", 1, true).size(), 2u);
}

TEST(AuditGroups, HolmRunsOverEveryTestOfEveryGroup) {
  // Two groups of two tests: p = 0.001, 0.2 and 0.004, 0.5. Holm over the four at alpha 0.01:
  // sorted 0.001·4 = 0.004, 0.004·3 = 0.012, then max(0.012, 0.2·2), 0.5 → only the first fails
  // (per group, 0.004·2 = 0.008 would have failed in group b).
  std::vector<shufl::audit::group_audit> g(2);
  g[0].group = "a";
  g[1].group = "b";
  const double p[2][2] = {{0.001, 0.2}, {0.004, 0.5}};
  for (int i = 0; i < 2; ++i) {
    g[i].report.decks = 10;
    for (int k = 0; k < 2; ++k) {
      shufl::audit::test_report t;
      t.name = "t" + std::to_string(k);
      t.p = p[i][k];
      t.ln_p = std::log(p[i][k]);
      t.result = shufl::audit::test_outcome::pass;
      g[i].report.tests.push_back(t);
    }
  }
  const auto d = shufl::audit::decide_groups(g, 20, 0.01);
  EXPECT_FALSE(d.pass);
  EXPECT_EQ(d.family, 4u);
  EXPECT_NEAR(std::exp(*g[0].report.tests[0].holm_ln_p), 0.004, 1e-12);
  EXPECT_NEAR(std::exp(*g[1].report.tests[0].holm_ln_p), 0.012, 1e-12);
  EXPECT_FALSE(g[0].report.decision.pass);
  EXPECT_TRUE(g[1].report.decision.pass);
  EXPECT_EQ(d.summary, "evidence of non-randomness in 20 decks of 2 groups at alpha 0.01: group a: t0 failed");
}

// Over every order of the next deck of group `next` (each 1/n! under the null), the mean of
// Σ_g M_g must be Σ_g M_g + 1: the whole log's statistic grows by one per deck in mean.
void expect_sum_identity(const std::vector<std::pair<std::string, std::vector<std::uint32_t>>>& history,
                         const std::string& next) {
  const auto pack = small_pack({1, 1, 1, 1, 1});
  follow_group_set before(pack, 1e300, true, 10);
  for (const auto& [g, d] : history) {
    auto& group = before.get(g);
    group.detector.add_deck(d);
    group.e.add_deck(d);
  }
  const double s0 = std::exp(before.log_sum_m());
  std::vector<std::uint32_t> perm(5);
  std::iota(perm.begin(), perm.end(), 0u);
  double sum = 0, count = 0;
  do {
    follow_group_set after = before;
    after.get(next).detector.add_deck(perm);
    sum += std::exp(after.log_sum_m());
    count += 1;
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_NEAR(sum / count, s0 + 1, 1e-12 * (s0 + 1)) << "next deck of " << next;
}

TEST(AuditGroups, WholeLogShiryaevRobertsIdentityExactlyOnFiveCards) {
  expect_sum_identity({}, "a");
  expect_sum_identity({{"a", {0, 1, 2, 3, 4}}}, "b");
  const std::vector<std::pair<std::string, std::vector<std::uint32_t>>> h = {
      {"a", {0, 1, 2, 3, 4}}, {"b", {1, 2, 3, 4, 0}}, {"a", {4, 2, 0, 1, 3}}, {"c", {0, 1, 2, 3, 4}}, {"b", {2, 0, 1, 4, 3}}};
  expect_sum_identity(h, "a");
  expect_sum_identity(h, "b");
  expect_sum_identity(h, "d");  // a group new to the log
}

// Decks of the whole log until the first alarm of any group: fair decks of an 8-card pack, each
// dealt to one of `groups` groups at random.
std::uint64_t log_run_length(double arl, std::size_t groups, std::uint64_t seed, std::uint64_t cap) {
  const auto pack = small_pack({1, 1, 1, 1, 1, 1, 1, 1});
  follow_group_set set(pack, arl, true, groups);
  test_rng rng{seed};
  for (std::uint64_t t = 1; t <= cap; ++t) {
    auto& g = set.get(std::to_string(rng.below(static_cast<std::uint32_t>(groups))));
    g.detector.add_deck(rng.deck(8));
    if (g.detector.alarmed()) return t;
  }
  return cap;
}

TEST(AuditGroups, AverageRunLengthOfTheWholeLogIsAtLeastTheThreshold) {
  // 300 fair logs of 5 interleaved groups at A = 30, cut at 3,000 decks: the mean run length of
  // the whole log must not be below A by more than 3 standard errors (each group alone would
  // reach A only after about 5·A decks of the log).
  const double a = 30;
  const int n = 300;
  double sum = 0, sq = 0;
  for (int s = 0; s < n; ++s) {
    const double v = static_cast<double>(log_run_length(a, 5, 1000 + static_cast<std::uint64_t>(s), 3000));
    sum += v;
    sq += v * v;
  }
  const double mean = sum / n, se = std::sqrt((sq / n - mean * mean) / (n - 1));
  RecordProperty("mean_run_length", std::to_string(mean));
  EXPECT_GE(mean + 3 * se, a) << "mean " << mean << " se " << se;
}

// The deck at which a group first alarms: `fair` fair decks of 52 cards over three groups, then
// group "c" deals the deck of `lag` decks back (of any group).
std::uint64_t replay_delay(std::uint64_t fair, std::uint64_t lag, std::uint64_t seed) {
  follow_group_set set(standard_pack(), 1e9, true, 10);
  test_rng rng{seed};
  std::vector<std::vector<std::uint32_t>> log;
  const char* names[] = {"a", "b", "c"};
  for (std::uint64_t t = 0; t < fair; ++t) {
    log.push_back(rng.deck(52));
    auto& g = set.get(names[t % 3]);
    g.detector.add_deck(log.back());
    if (g.detector.alarmed()) return 0;  // a false alarm: fails the test below
  }
  for (std::uint64_t k = 1; k <= 5; ++k) {
    log.push_back(log[log.size() - lag]);
    auto& g = set.get("c");
    g.detector.add_deck(log.back());
    if (g.detector.alarmed()) return k;
  }
  return 99;
}

TEST(AuditGroups, AWholeDeckReplayedAtLag100Or10000AlarmsAtOnceAcrossGroups) {
  // docs/monitor.md: a deck repeated from the last 2^20 decks of the log alarms at the default
  // --arl at the first repeat, whichever group dealt the earlier copy.
  EXPECT_EQ(replay_delay(200, 100, 1), 1u);
  EXPECT_EQ(replay_delay(10001, 10000, 2), 1u);
}

}  // namespace
