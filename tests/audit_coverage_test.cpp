// Unit tests of the rule coverage table (include/shufl/audit/coverage.hpp): statuses from the
// tests' results, clauses decks cannot answer, and the seed search's part.
#include <gtest/gtest.h>

#include "shufl/audit/coverage.hpp"

namespace shufl::audit {
namespace {

test_report made(const char* name, test_outcome o) {
  test_report t;
  t.name = name;
  t.result = o;
  return t;
}

TEST(AuditCoverage, StatusFollowsTheTestsRun) {
  const std::vector<test_report> tests = {made("card-position", test_outcome::fail),
                                          made("suit-position", test_outcome::pass),
                                          made("rank-position", test_outcome::not_applicable),
                                          made("serial-position", test_outcome::pass),
                                          made("serial-successions", test_outcome::not_valid)};
  const auto rows = rule_coverage(tests);
  ASSERT_EQ(rows.size(), 18u);
  EXPECT_EQ(rows[0].rule, "Virginia 11VAC20-20-510 (1)");
  EXPECT_EQ(rows[0].status, "fail");
  EXPECT_EQ(rows[0].tests, (std::vector<std::string>{"card-position", "suit-position"}));  // not the n/a one
  EXPECT_EQ(rows[1].status, "not run");  // no runs test among these
  EXPECT_EQ(rows[3].rule, "Virginia 11VAC20-20-510 (4)");
  EXPECT_EQ(rows[3].status, "pass");
  EXPECT_EQ(rows[3].tests, (std::vector<std::string>{"serial-position"}));
  int seeding = 0, untestable = 0;
  for (const auto& r : rows) {
    seeding += r.status == "in part, when run: the seed search (--seed-search)";
    untestable += r.status == "not testable from decks";
    if (r.status.starts_with("in part") || r.status.starts_with("not testable")) {
      EXPECT_TRUE(r.tests.empty()) << r.rule;
    }
  }
  EXPECT_EQ(seeding, 2);
  EXPECT_EQ(untestable, 3);
  // Kolmogorov-Smirnov and order statistics: answered by `batches` by name, once it runs.
  EXPECT_EQ(rows[9].rule, "Pennsylvania 58 Pa. Code 810a.5");
  EXPECT_EQ(rows[9].asks, "Kolmogorov-Smirnov, order statistic");
  EXPECT_EQ(rows[9].status, "not run: batches, when run (--batch-size K)");
  EXPECT_TRUE(rows[9].tests.empty());
}

TEST(AuditCoverage, BatchesAnswersKolmogorovSmirnovWhenRun) {
  auto rows = rule_coverage({made("batches", test_outcome::pass)});
  EXPECT_EQ(rows[9].status, "pass");
  EXPECT_EQ(rows[9].tests, (std::vector<std::string>{"batches"}));
  rows = rule_coverage({made("batches", test_outcome::fail)});
  EXPECT_EQ(rows[9].status, "fail");
  rows = rule_coverage({made("batches", test_outcome::not_applicable)});  // no --batch-size
  EXPECT_EQ(rows[9].status, "not run: batches, when run (--batch-size K)");
}

}  // namespace
}  // namespace shufl::audit
