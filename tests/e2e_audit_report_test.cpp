// End-to-end tests of `shufl audit --report FILE.html` and `shufl audit --plan`: the page is
// written (atomically, only .html), escapes what the user wrote, and the options are refused
// where they do not apply; the plan's closed forms (card-position λ per deck δ²n²/(n−1), a
// total's decks from its exact variance) and its text table. The page's rendering is checked in
// Chromium (tests/html/check_audit_report.py); the plan against scipy and a simulation
// (tests/reference/audit/plan_check.py).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "shufl/audit/plan.hpp"
#include "support/run.hpp"

namespace shufl::test {
namespace {

std::string temp_dir() {
  char tmpl[] = "/tmp/shufl-audit-report-XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d ? d : "/tmp";
}

TEST(AuditReport, WritesAPageWithTheBatteryAndEscapesTheFileName) {
  const std::string dir = temp_dir();
  const std::string decks = dir + "/a<b>&.txt";
  const auto made = run_shufl({"deck", "--count", "300", "--seed", "r"});
  ASSERT_EQ(made.status, 0);
  std::ofstream(decks) << made.out;
  const std::string page = dir + "/r.html";
  const auto r = run_shufl({"audit", decks, "--report", page, "--check"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string html = read_file(page);
  EXPECT_NE(html.find("a&lt;b&gt;&amp;.txt"), std::string::npos);
  EXPECT_EQ(html.find("a<b>&.txt"), std::string::npos);
  EXPECT_NE(html.find("@page { size: A4"), std::string::npos);
  EXPECT_NE(html.find("result: pass: no evidence of non-randomness in 300 decks at alpha 0.01"), std::string::npos);
  for (const char* test : {"card-position", "guessing", "serial-position", "duplicates"}) {
    EXPECT_NE(html.find(std::string("<tr data-test=\"") + test + "\">"), std::string::npos) << test;
  }
  EXPECT_EQ(html.find("fair"), std::string::npos);
  EXPECT_EQ(html.find("certif"), std::string::npos);
  // stdout is the text report, unchanged by --report.
  const auto plain = run_shufl({"audit", decks});
  EXPECT_EQ(r.out, plain.out);
  std::remove(decks.c_str());
  std::remove(page.c_str());
  rmdir(dir.c_str());
}

TEST(AuditReport, MetaProvenanceOnTextJsonAndPageAndRuleCoverage) {
  const std::string dir = temp_dir();
  const std::string page = dir + "/m.html";
  const std::vector<std::string> base = {"audit", "--algo", "fisher-yates", "--trials", "300", "--seed", "1",
                                         "--meta", "lab=Acme <Labs>", "--meta", "window=2026-11-01/2026-11-30"};
  auto with_page = base;
  with_page.insert(with_page.end(), {"--report", page});
  const auto text = run_shufl(with_page);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("\nlab: Acme <Labs>\nwindow: 2026-11-01/2026-11-30\n"), std::string::npos) << text.out;
  const std::string html = read_file(page);
  EXPECT_NE(html.find("<tr><th>lab</th><td>Acme &lt;Labs&gt;</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<h3>Rule coverage</h3>"), std::string::npos);
  EXPECT_NE(html.find("<td>Virginia 11VAC20-20-510 (4)</td>"), std::string::npos);
  EXPECT_NE(html.find("not testable from decks"), std::string::npos);
  // The page states the SHA-256 of its embedded data; sha256sum of the script's text agrees.
  const std::string open_tag = "<script id=\"audit-data\" type=\"application/json\">";
  const auto begin = html.find(open_tag) + open_tag.size();
  const std::string data = html.substr(begin, html.find("</script>", begin) - begin);
  const std::string data_file = dir + "/data.json";
  std::ofstream(data_file, std::ios::binary) << data;
  const auto sum = run_shell("sha256sum '" + data_file + "' | cut -c1-64");
  ASSERT_EQ(sum.out.size(), 65u);
  EXPECT_NE(html.find("<code id=\"data-sha256\">" + sum.out.substr(0, 64) + "</code>"), std::string::npos);
  std::remove(data_file.c_str());
  auto json = base;
  json.insert(json.end(), {"--format", "json"});
  const auto j = nlohmann::json::parse(run_shufl(json).out);
  EXPECT_EQ(j["meta"]["lab"], "Acme <Labs>");
  EXPECT_EQ(j["meta"].size(), 2u);
  for (const char* bad : {"nokey", "=v", "a b=1"}) {
    const auto r = run_shufl({"audit", "--algo", "fisher-yates", "--trials", "10", "--meta", bad});
    EXPECT_EQ(r.status, 1) << bad;
    EXPECT_NE(r.err.find("--meta"), std::string::npos) << r.err;
  }
  const auto twice = run_shufl({"audit", "--algo", "fisher-yates", "--trials", "10", "--meta", "a=1", "--meta", "a=2"});
  EXPECT_EQ(twice.status, 1);
  EXPECT_NE(twice.err.find("--meta a is given twice"), std::string::npos) << twice.err;
  std::remove(page.c_str());
  rmdir(dir.c_str());
}

TEST(AuditReport, RefusesOtherExtensionsAndLeavesNoFileOnError) {
  const std::string dir = temp_dir();
  const auto png = run_shufl({"audit", "--algo", "naive", "--trials", "100", "--seed", "1", "--report", dir + "/r.png"});
  EXPECT_EQ(png.status, 1);
  EXPECT_NE(png.err.find("only HTML is supported"), std::string::npos) << png.err;
  // A deck that is not a deck: exit 1, and the page is not written.
  const auto bad = run_shufl({"audit", "-", "--report", dir + "/r.html"}, "As As\n");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(access((dir + "/r.html").c_str(), F_OK), 0);
  // --seed-search with --report reads the input twice: not standard input.
  const auto seed =
      run_shufl({"audit", "-", "--seed-search", "c-rand", "--seeds", "0..9", "--report", dir + "/r.html"}, "As\n");
  EXPECT_EQ(seed.status, 1);
  EXPECT_NE(seed.err.find("reads the input twice (the search, then the battery): give a regular file"), std::string::npos)
      << seed.err;
  EXPECT_NE(access((dir + "/r.html").c_str(), F_OK), 0);
  rmdir(dir.c_str());
}

TEST(AuditPlan, TextTableAndRefusals) {
  const auto r = run_shufl({"audit", "--plan", "--pack", "euchre", "--effect", "0.05,card-position=0.1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("card-position               0.1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("successions                0.05"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("duplicates                    -          -  no effect model"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("decks for every planned test: "), std::string::npos);
  const auto poker = run_shufl({"audit", "--plan", "--game", "poker", "--format", "json"});
  ASSERT_EQ(poker.status, 0) << poker.err;
  const auto j = nlohmann::json::parse(poker.out);
  EXPECT_EQ(j["family"], 21);
  EXPECT_EQ(j["tests"].back()["name"], "poker-hands");
  EXPECT_FALSE(j["tests"].back()["planned"].get<bool>());
  const auto shoe = run_shufl({"audit", "--plan", "--decks", "6", "--format", "json"});
  ASSERT_EQ(shoe.status, 0) << shoe.err;
  const auto s = nlohmann::json::parse(shoe.out);
  EXPECT_EQ(s["family"], 8);  // position tables, both coupon collectors, gap, serial-position, duplicates
  EXPECT_FALSE(s["tests"][3]["planned"].get<bool>());  // successions: not applicable to a shoe

  // --tier plans the tier's battery (batches joins the family; its alpha, lags) and says which
  // planned tests its decks reach (the decks themselves: audit.plan_check, independently).
  const auto tier = run_shufl({"audit", "--plan", "--tier", "standard", "--format", "json"});
  ASSERT_EQ(tier.status, 0) << tier.err;
  EXPECT_EQ(tier.err, "");
  const auto tj = nlohmann::json::parse(tier.out);
  EXPECT_EQ(tj["family"], 21);
  EXPECT_EQ(tj["batch_size"], 10000);
  EXPECT_EQ(tj["tier"]["decks"], 1000000);
  for (const auto& t : tj["tests"]) EXPECT_EQ(t["tier_reached"], t["planned"].get<bool>() ? nlohmann::json(true) : nlohmann::json());
  const auto small = run_shufl({"audit", "--plan", "--tier", "small"});
  ASSERT_EQ(small.status, 0) << small.err;
  EXPECT_NE(small.out.find("\ntier: small: 10000 decks, alpha 0.01, batches of 500, lags 2\ntest "), std::string::npos) << small.out;
  EXPECT_NE(small.out.find("\nbatches                       -          -  no effect model: the power depends on how the bias "
                           "comes and goes between samples\n"), std::string::npos) << small.out;
  EXPECT_NE(small.out.find("\nthe small tier's 10000 decks fall short of power about 0.9 for: card-position ("), std::string::npos)
      << small.out;
  EXPECT_NE(small.out.find("(of 17 planned tests)\n"), std::string::npos) << small.out;
  const auto standard = run_shufl({"audit", "--plan", "--tier", "standard"});
  EXPECT_TRUE(standard.out.ends_with("\nthe standard tier's 1000000 decks reach power about 0.9 for every planned test\n"))
      << standard.out;
  const auto fixed = run_shufl({"audit", "--plan", "--tier", "small", "--alpha", "0.05"});
  EXPECT_EQ(fixed.status, 1);
  EXPECT_EQ(fixed.err, "shufl: --tier small fixes the battery, alpha, batch size, lags and decks: drop --alpha\n");
  const auto lags = run_shufl({"audit", "--plan", "--lags", "12", "--pack", "euchre"});
  ASSERT_EQ(lags.status, 0) << lags.err;
  EXPECT_NE(lags.out.find("\nbattery: lags 12 (position-pairs)\n"), std::string::npos) << lags.out;
  EXPECT_NE(lags.out.find("Holm over 19 tests"), std::string::npos) << lags.out;  // position-pairs needs more than 24 cards
  const auto zero = run_shufl({"audit", "--plan", "--lags", "0"});
  EXPECT_EQ(zero.status, 1);
  EXPECT_EQ(zero.err, "shufl: --lags must be 1 to 64, not 0\n");

  // The plans against schema/audit-plan.schema.json (python3-jsonschema).
  const std::string dir = temp_dir();
  std::ofstream(dir + "/poker.json") << poker.out;
  std::ofstream(dir + "/shoe.json") << shoe.out;
  std::ofstream(dir + "/tier.json") << tier.out;
  const auto valid = run_shell(
      "python3 -c 'import json, sys, jsonschema\n"
      "schema = json.load(open(sys.argv[1]))\n"
      "jsonschema.Draft7Validator.check_schema(schema)\n"
      "for f in sys.argv[2:]: jsonschema.Draft7Validator(schema).validate(json.load(open(f)))\n"
      "print(\"valid\", len(sys.argv) - 2)' '" +
      shufl::test::source_dir() + "/schema/audit-plan.schema.json' " + dir + "/poker.json " + dir + "/shoe.json " + dir + "/tier.json");
  EXPECT_EQ(valid.status, 0) << valid.err;
  EXPECT_EQ(valid.out, "valid 3\n");
  std::remove((dir + "/tier.json").c_str());
  std::remove((dir + "/poker.json").c_str());
  std::remove((dir + "/shoe.json").c_str());
  rmdir(dir.c_str());

  EXPECT_EQ(run_shufl({"audit", "--plan", "decks.txt"}).status, 1);
  EXPECT_EQ(run_shufl({"audit", "--effect", "0.1", "-"}, "As\n").status, 1);
  const auto unknown = run_shufl({"audit", "--plan", "--effect", "sucessions=0.1"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.err.find("no test 'sucessions'"), std::string::npos) << unknown.err;
  EXPECT_EQ(run_shufl({"audit", "--plan", "--effect", "card-position=0.99"}).status, 1);
  EXPECT_EQ(run_shufl({"audit", "--plan", "--effect", "duplicates=0.1"}).status, 1);
  EXPECT_EQ(run_shufl({"audit", "--plan", "--power", "1"}).status, 1);
}

TEST(AuditPlan, ClosedForms) {
  // One card of n on top with probability 1/n + δ: λ per deck = δ² n² / (n − 1).
  for (const std::size_t n : {5u, 24u, 52u}) {
    const double d = 0.02;
    EXPECT_NEAR(audit::position_noncentrality_per_deck(std::vector<std::uint64_t>(n, 1), d),
                d * d * static_cast<double>(n * n) / static_cast<double>(n - 1), 1e-15);
  }
  // fixed-points: variance 1, so decks = λ*(1 df) / δ².
  audit::battery_shape shape;
  shape.cards = shape.positions = 52;
  shape.copies.assign(52, 1);
  audit::plan_options o;
  const auto plan = audit::plan_audit(shape, o);
  EXPECT_EQ(plan.family, 15u);  // no suits: card-position, 8 totals (two guessing strategies), 2 permutation tests, position-pairs, 2 serial tests, duplicates
  for (const auto& t : plan.tests) {
    if (t.name != "fixed-points") continue;
    EXPECT_NEAR(t.per_deck, 0.05 * 0.05, 1e-12);
    EXPECT_EQ(t.decks, static_cast<std::uint64_t>(std::ceil(t.noncentrality / (0.05 * 0.05))));
  }
}

}  // namespace
}  // namespace shufl::test
