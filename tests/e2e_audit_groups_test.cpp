// End-to-end tests of `shufl audit --group-by N`: forty tables interleaved in one log, one of
// them a machine that riffles its own previous deck three times (made here with the test's own
// random numbers); the monitor's alarm names that table (with the alarm's time, group, decks and
// input line), and so does the batch audit (one battery per group, Holm over all, JSON with
// audits[].group). Also the state of every group across a restart, and the errors.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "support/run.hpp"
#include "support/test_rng.hpp"

namespace shufl::test {
namespace {

// `rounds` rounds of one deck per table T00..T39, "Tnn " before the deck; table `bad` riffles
// its own previous deck three times (starting from the canonical order), the others are fair.
std::string forty_tables(std::size_t rounds, int bad, std::uint64_t seed) {
  test_rng rng{seed};
  std::vector<std::uint32_t> previous(52);
  for (std::uint32_t i = 0; i < 52; ++i) previous[i] = i;
  std::string text;
  for (std::size_t t = 0; t < rounds; ++t) {
    for (int k = 0; k < 40; ++k) {
      std::vector<std::uint32_t> d;
      if (k == bad) {
        d = previous;
        for (int r = 0; r < 3; ++r) d = gsr_riffle(d, rng);
        previous = d;
      } else {
        d = rng.deck(52);
      }
      text += (k < 10 ? "T0" : "T") + std::to_string(k) + " " + deck_line(d);
    }
  }
  return text;
}

std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> v;
  for (const auto& line : lines(out)) v.push_back(nlohmann::json::parse(line));
  return v;
}

TEST(AuditGroups, TheMonitorNamesTheOneTableAmongFortyThatRifflesItsPreviousDeck) {
  const std::string log = forty_tables(60, 17, 4);
  const auto r = run_shufl({"audit", "--follow", "-", "--group-by", "1", "--format", "json", "--every", "1000000"}, log);
  ASSERT_EQ(r.status, 3) << r.err;
  const auto v = json_lines(r.out);
  std::vector<nlohmann::json> alarms;
  for (const auto& j : v)
    if (j["type"] == "alarm") alarms.push_back(j);
  ASSERT_EQ(alarms.size(), 1u);
  const auto& a = alarms.front();
  EXPECT_EQ(a["group"], "T17");
  EXPECT_TRUE(std::regex_match(a["time"].get<std::string>(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")))
      << a["time"];
  // decks: the table's own; line: its line in the log (round d − 1 of 40 lines, then 18 more).
  const auto decks = a["decks"].get<std::uint64_t>();
  EXPECT_GE(decks, 2u);
  EXPECT_LE(decks, 30u);
  EXPECT_EQ(a["line"].get<std::uint64_t>(), (decks - 1) * 40 + 18);
  EXPECT_EQ(a["detector_decks"], decks);
  // The final statuses: one per table that dealt, each with its group; the report on the last.
  std::size_t finals = 0;
  for (const auto& j : v) finals += j["type"] == "final" ? 1 : 0;
  EXPECT_EQ(finals, 40u);
  EXPECT_TRUE(v.back()["report"].is_object());
  EXPECT_EQ(v.back()["report"]["audits"].size(), 40u);

  temp_dir dir;
  const std::string prom = dir.file("groups.prom");
  const auto t = run_shufl({"audit", "--follow", "-", "--group-by", "1", "--every", "1000000", "--metrics", prom}, log);
  EXPECT_EQ(t.status, 3);
  EXPECT_NE(t.out.find("group T17: ALARM after "), std::string::npos) << t.out;
  // The metrics label every series with its group: the alarm is T17's alone.
  const std::string m = read_file(prom);
  EXPECT_NE(m.find(fmt::format("shufl_audit_decks_total{{group=\"T17\"}} {}\n", decks)), std::string::npos) << m;
  EXPECT_NE(m.find("shufl_audit_alarm{group=\"T17\"} 1\n"), std::string::npos);
  EXPECT_NE(m.find("shufl_audit_alarm{group=\"T16\"} 0\n"), std::string::npos);
  // One metrics path for grouped and single streams: the info, the heartbeat and each group's
  // last deck time (a real Unix time: after 2020-01-01).
  EXPECT_NE(m.find("shufl_audit_info{version="), std::string::npos) << m;
  EXPECT_NE(m.find("shufl_audit_heartbeat_timestamp_seconds "), std::string::npos) << m;
  const std::string last = "shufl_audit_last_deck_timestamp_seconds{group=\"T17\"} ";
  const auto at = m.find(last);
  ASSERT_NE(at, std::string::npos) << m;
  EXPECT_GT(std::stod(m.substr(at + last.size(), 20)), 1577836800.0);
  std::size_t alarmed = 0;
  for (const auto& line : lines(m)) alarmed += line.rfind("shufl_audit_alarm{", 0) == 0 && line.back() == '1' ? 1 : 0;
  EXPECT_EQ(alarmed, 1u);
}

TEST(AuditGroups, TheBatchAuditNamesItTooWithHolmOverEveryGroup) {
  const std::string log = forty_tables(300, 17, 5);
  const auto r = run_shufl({"audit", "-", "--group-by", "1", "--format", "json", "--check"}, log);
  ASSERT_EQ(r.status, 3) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["result"], "fail");
  EXPECT_EQ(j["decks"], 12000);
  ASSERT_EQ(j["audits"].size(), 40u);
  std::size_t family = 0;
  for (const auto& a : j["audits"]) {
    EXPECT_EQ(a["decks"], 300);
    EXPECT_EQ(a["result"], a["group"] == "T17" ? "fail" : "pass") << a["group"];
    for (const auto& test : a["tests"]) family += test["holm_p"].is_null() ? 0 : 1;
  }
  EXPECT_EQ(j["family"], family);
  EXPECT_EQ(j["audits"][0]["family"], family);  // each group's Holm p comes from the joint family
  // Three riffles of the table's previous deck: serial-successions fails (position-pairs may too).
  const std::string summary = j["summary"];
  EXPECT_NE(summary.find("of 40 groups at alpha 0.01: group T17: "), std::string::npos) << summary;
  EXPECT_NE(summary.find("serial-successions"), std::string::npos) << summary;

  const auto t = run_shufl({"audit", "-", "--group-by", "1"}, log);
  EXPECT_EQ(t.status, 0);
  EXPECT_NE(t.out.find("audit of standard input, group T17: 300 decks"), std::string::npos);
  EXPECT_NE(t.out.find("result: fail: evidence of non-randomness in 12000 decks of 40 groups at alpha 0.01: group T17"),
            std::string::npos)
      << t.out.substr(t.out.size() - 400);
}

TEST(AuditGroups, OneStateFileHoldsEveryGroupAcrossARestart) {
  temp_dir dir;
  const std::string state = dir.file("state.json");
  const std::string log = forty_tables(10, -1, 6);
  const std::string first = log.substr(0, log.size() / 2), second = log.substr(log.size() / 2);
  const std::vector<std::string> args = {"audit", "--follow", "-", "--group-by", "1", "--format", "json", "--state", state};
  const auto a = run_shufl(args, first);
  ASSERT_EQ(a.status, 0) << a.err;
  const auto b = run_shufl(args, second);
  ASSERT_EQ(b.status, 0) << b.err;
  std::vector<std::string> bargs = args;
  bargs.pop_back();
  bargs.pop_back();
  const auto whole = run_shufl(bargs, log);
  ASSERT_EQ(whole.status, 0) << whole.err;
  // Each group's final status after the restart equals one run over the whole log.
  std::map<std::string, nlohmann::json> restarted, once;
  for (const auto& j : json_lines(b.out))
    if (j["type"] == "final") restarted[j["group"]] = j;
  for (const auto& j : json_lines(whole.out))
    if (j["type"] == "final") once[j["group"]] = j;
  ASSERT_EQ(restarted.size(), 40u);
  for (const auto& [g, j] : once) {
    EXPECT_EQ(restarted[g]["decks"], 10) << g;
    // (log10 M differs a little: the replay window is not saved, a restart refills it.)
    for (const auto& p : {"position", "successor", "repeat", "suit-rank"})
      EXPECT_NEAR(restarted[g]["log10_e"][p].get<double>(), j["log10_e"][p].get<double>(), 1e-9) << g << p;
    EXPECT_NEAR(restarted[g]["log10_e_mixture"].get<double>(), j["log10_e_mixture"].get<double>(), 1e-9) << g;
  }
  // A grouped state is not a single stream's, and the reverse.
  const auto plain = run_shufl({"audit", "--follow", "-", "--state", state}, run_shufl({"deck", "--count", "2"}).out);
  EXPECT_EQ(plain.status, 1);
  EXPECT_NE(plain.err.find("give --group-by as then"), std::string::npos) << plain.err;
  const std::string single = dir.file("single.json");
  ASSERT_EQ(run_shufl({"audit", "--follow", "-", "--state", single}, run_shufl({"deck", "--count", "2"}).out).status, 0);
  const auto grouped = run_shufl({"audit", "--follow", "-", "--group-by", "1", "--state", single}, first);
  EXPECT_EQ(grouped.status, 1);
  EXPECT_NE(grouped.err.find("written by a monitor without --group-by"), std::string::npos) << grouped.err;
}

// A restarted pipe (`tail -F log | shufl audit --follow - --group-by 1 --state S`) that gives
// the log's last lines again: they are the grouped state's last decks (`recent_decks`, kept in
// the groups' document) and are skipped; the decks after them are added to their groups.
TEST(AuditGroups, ARestartedPipesRepeatedLastDecksAreSkippedAcrossGroups) {
  temp_dir dir;
  const std::string state = dir.file("state.json");
  const std::string log = forty_tables(3, -1, 8), more = forty_tables(1, -1, 9);
  const std::vector<std::string> args = {"audit", "--follow", "-", "--group-by", "1", "--format", "json", "--state", state};
  const auto a = run_shufl(args, log);
  ASSERT_EQ(a.status, 0) << a.err;
  const auto saved = nlohmann::json::parse(read_file(state));
  EXPECT_EQ(saved["format"], "shufl audit follow groups");
  EXPECT_EQ(saved["recent_decks"].size(), 64u);
  const auto all = lines(log);
  std::string last10;
  for (std::size_t i = all.size() - 10; i < all.size(); ++i) last10 += all[i] + "\n";
  const auto b = run_shufl(args, last10 + more);
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.err.find("the first 10 decks of"), std::string::npos) << b.err;
  std::uint64_t decks = 0, this_run = 0;
  for (const auto& j : json_lines(b.out)) {
    if (j["type"] != "final") continue;
    decks += j["decks"].get<std::uint64_t>();
    this_run += j["decks_this_run"].get<std::uint64_t>();
  }
  EXPECT_EQ(decks, 160u);  // 120 + 40: the 10 repeated decks are not counted twice
  EXPECT_EQ(this_run, 40u);
}

TEST(AuditGroups, Errors) {
  const std::string log = forty_tables(1, -1, 7);
  auto r = run_shufl({"audit", "-", "--group-by", "1", "--max-groups", "39"}, log);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.substr(r.err.find("shufl: ")), "shufl: more than 39 groups (--max-groups 39)\n");
  r = run_shufl({"audit", "--follow", "-", "--group-by", "1", "--max-groups", "39"}, log);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("more than 39 groups"), std::string::npos) << r.err;
  r = run_shufl({"audit", "-", "--group-by", "1", "--dealt", "2", "--pack", "standard"}, "T1,As,Ks\n,As,Ks\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("line 2: field 1 (--group-by, the group) is empty"), std::string::npos) << r.err;
  r = run_shufl({"audit", "-", "--group-by", "0"}, log);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--group-by must be a field number from 1 to 1000"), std::string::npos) << r.err;
  r = run_shufl({"audit", "-", "--max-groups", "3"}, log);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--max-groups applies to --group-by"), std::string::npos) << r.err;
  r = run_shufl({"audit", "--group-by", "1", "--algo", "riffle:3"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--algo does not apply to --group-by"), std::string::npos) << r.err;
  // batches and tiers are one sample's procedure, not run per group: refused, never silently dropped
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--batch-size", "100"}, {"--tier", "small"}}) {
    std::vector<std::string> args{"audit", "-", "--group-by", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    r = run_shufl(args, log);
    EXPECT_EQ(r.status, 1) << extra[0];
    EXPECT_NE(r.err.find(extra[0] + " does not apply to --group-by"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace shufl::test
