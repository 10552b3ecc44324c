// End-to-end tests of `shufl audit --tier`: the tier in text and JSON, the first N decks of a
// longer file, a file with fewer decks refused (exit 1), options a tier fixes refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/run.hpp"

namespace shufl::test {
namespace {

TEST(E2eAuditTier, SmallTierOnAlgorithmTextAndJson) {
  const run_result t = run_shufl({"audit", "--algo", "fisher-yates", "--seed", "1", "--tier", "small"});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("\ntier: small: 10000 decks, alpha 0.01, batches of 500, lags 2\n"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("\nbatches                    10000"), std::string::npos) << t.out;
  const run_result j = run_shufl({"audit", "--algo", "fisher-yates", "--seed", "1", "--tier", "small", "--format", "json"});
  ASSERT_EQ(j.status, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["decks"], 10000);
  EXPECT_EQ(doc["tier"]["name"], "small");
  EXPECT_EQ(doc["tier"]["batch_size"], 500);
  EXPECT_EQ(doc["tier"]["input_had_more"], false);
  EXPECT_DOUBLE_EQ(doc["alpha"].get<double>(), 0.01);
  // input.trials is the decks generated (the tier's), not --trials' default 100000.
  EXPECT_EQ(doc["input"]["trials"], 10000) << doc["input"];
  const run_result two = run_shufl({"audit", "--algo", "fisher-yates,inside-out", "--seed", "1", "--tier", "small",
                                    "--format", "json"});
  ASSERT_EQ(two.status, 0) << two.err;
  const nlohmann::json both = nlohmann::json::parse(two.out);  // kept: a range over a temporary's member dangles
  for (const auto& a : both["audits"]) {
    EXPECT_EQ(a["input"]["trials"], 10000) << a["input"];
    EXPECT_EQ(a["decks"], 10000);
  }
}

TEST(E2eAuditTier, FileFirstDecksOrTooFew) {
  temp_dir dir;
  const std::string more = dir.path() + "/more.txt", fewer = dir.path() + "/fewer.txt";
  ASSERT_EQ(run_shell(shufl_binary() + " deck --seed x --count 10007 > " + more).status, 0);
  ASSERT_EQ(run_shell(shufl_binary() + " deck --seed x --count 9999 > " + fewer).status, 0);
  const run_result m = run_shufl({"audit", more, "--tier", "small", "--format", "json"});
  ASSERT_EQ(m.status, 0) << m.err;
  const auto doc = nlohmann::json::parse(m.out);
  EXPECT_EQ(doc["decks"], 10000);
  EXPECT_EQ(doc["tier"]["input_had_more"], true);
  const run_result mt = run_shufl({"audit", more, "--tier", "small"});
  EXPECT_NE(mt.out.find("10000 decks (the first of a longer input; the rest not used)"), std::string::npos) << mt.out;
  const run_result f = run_shufl({"audit", fewer, "--tier", "small"});
  EXPECT_EQ(f.status, 1);
  EXPECT_NE(f.err.find("the small tier needs 10000 decks; the input has 9999"), std::string::npos) << f.err;
  EXPECT_EQ(f.out, "");
}

TEST(E2eAuditTier, RefusesWhatATierFixes) {
  for (const char* option : {"--lags", "--batch-size", "--trials"}) {
    const run_result r = run_shufl({"audit", "--algo", "fisher-yates", "--tier", "small", option, "20"});
    EXPECT_EQ(r.status, 1) << option;
    EXPECT_NE(r.err.find(std::string("fixes the battery, alpha, batch size, lags and decks: drop ") + option),
              std::string::npos)
        << r.err;
  }
  const run_result bad = run_shufl({"audit", "--algo", "fisher-yates", "--tier", "huge"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("--tier must be small, standard or big, not 'huge'"), std::string::npos);
}

}  // namespace
}  // namespace shufl::test
