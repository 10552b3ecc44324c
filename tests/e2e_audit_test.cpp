// End-to-end tests of `shufl audit` and `shufl deck --count`: run the real binary on fair streams
// and on decks with planted flaws (small generators here, with their own random numbers), and
// check that the test meant to catch each flaw fails, the fair stream passes, and errors and exit
// statuses follow DESIGN.md.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "support/run.hpp"
#include "support/test_rng.hpp"

namespace shufl::test {
namespace {


nlohmann::json audit_json(const std::vector<std::string>& args, const std::string& input = {}) {
  std::vector<std::string> a = {"audit"};
  a.insert(a.end(), args.begin(), args.end());
  a.emplace_back("--format");
  a.emplace_back("json");
  const run_result r = run_shufl(a, input);
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

std::string result_of(const nlohmann::json& j, const std::string& name) {
  for (const auto& t : j["tests"]) {
    if (t["name"] == name) return t["result"];
  }
  return "missing";
}

// Decks from a generator, as a file.
template <class F>
std::string planted(const temp_dir& dir, std::size_t decks, F&& make) {
  std::string text;
  std::vector<std::vector<std::uint32_t>> history;
  for (std::size_t t = 0; t < decks; ++t) {
    history.push_back(make(t, history));
    text += deck_line(history.back());
  }
  return dir.write("decks.txt", text);
}

TEST(E2eAudit, FairStreamPasses) {
  const run_result r = run_shell("'" + shufl_binary() + "' deck --count 3000 --seed fair | '" + shufl_binary() +
                                 "' audit - --check");
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("result: pass: no evidence of non-randomness in 3000 decks at alpha 0.01"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("certified"), std::string::npos);
  EXPECT_NE(r.err.find("inferred"), std::string::npos) << r.err;  // the reader's inference note
  for (const char* name : {"card-position", "suit-position", "rank-position", "successions", "adjacent-pairs",
                           "descents", "rising-sequences", "runs-up-down", "fixed-points", "guessing",
                           "guessing-shelf", "permutation-3", "permutation-4", "position-pairs", "coupon-collector-suits",
                           "coupon-collector-ranks", "gap", "serial-successions", "serial-position", "duplicates"}) {
    EXPECT_NE(r.out.find(std::string("\n") + name + " "), std::string::npos) << name;
  }
  // The rule coverage table, as on the page: Virginia (3) answered by position-pairs among others.
  EXPECT_NE(r.out.find("\nrule coverage (each clause"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  Virginia 11VAC20-20-510 (3)        pass     position-pairs, successions"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n  UK Gambling Commission RTS 7C      not testable from decks\n"), std::string::npos) << r.out;
}

TEST(E2eAudit, JsonReportFields) {
  const temp_dir dir;
  test_rng rng{7};
  const std::string file = planted(dir, 400, [&](std::size_t, const auto&) { return rng.deck(52); });
  const nlohmann::json j = audit_json({file, "--pack", "standard"});
  EXPECT_EQ(j["command"], "audit");
  EXPECT_EQ(j["decks"], 400);
  EXPECT_EQ(j["alpha"], 0.01);
  EXPECT_EQ(j["pack"]["name"], "standard");
  EXPECT_EQ(j["input"]["bytes"], 400 * (52 * 3));
  // sha256sum as the oracle.
  const run_result sum = run_shell("sha256sum '" + file + "' | cut -c1-64");
  EXPECT_EQ(j["input"]["sha256"].get<std::string>() + "\n", sum.out);
  ASSERT_EQ(j["tests"].size(), 20u);
  for (const auto& t : j["tests"]) {
    for (const char* field : {"name", "observed", "expected", "statistic", "df", "p", "ln_p", "holm_p", "result"}) {
      EXPECT_TRUE(t.contains(field)) << t["name"] << " lacks " << field;
    }
  }
  EXPECT_EQ(j["tests"][0]["df"], 51 * 51);
  EXPECT_EQ(j["result"], "pass");
}

TEST(E2eAudit, RotatedRepeatsFailSerialSuccessions) {
  // With probability 0.02 the machine deals the previous deck again, cut by one card.
  const temp_dir dir;
  test_rng rng{11};
  const std::string file = planted(dir, 5000, [&](std::size_t t, const auto& h) {
    if (t > 0 && rng.uniform() < 0.02) {
      auto d = h.back();
      std::rotate(d.begin(), d.begin() + 1, d.end());
      return d;
    }
    return rng.deck(52);
  });
  const nlohmann::json j = audit_json({file});
  EXPECT_EQ(result_of(j, "serial-successions"), "fail");
  EXPECT_EQ(result_of(j, "card-position"), "pass");
  EXPECT_EQ(j["result"], "fail");
  EXPECT_EQ(run_shufl({"audit", file, "--check"}).status, 3);
}

TEST(E2eAudit, KeptTopCardFailsSerialPosition) {
  // With probability 0.5 the previous deck's top card stays on top; the rest is shuffled.
  const temp_dir dir;
  test_rng rng{12};
  const std::string file = planted(dir, 5000, [&](std::size_t t, const auto& h) {
    auto d = rng.deck(52);
    if (t > 0 && rng.uniform() < 0.5) {
      const auto top = h.back()[0];
      std::swap(*std::find(d.begin(), d.end(), top), d[0]);
    }
    return d;
  });
  const nlohmann::json j = audit_json({file});
  EXPECT_EQ(result_of(j, "serial-position"), "fail");
  EXPECT_EQ(result_of(j, "card-position"), "pass");  // every deck alone is still uniform
}

TEST(E2eAudit, IndependentBiasedDecksPassTheSerialTests) {
  // Decks each biased but drawn anew: the position tests fail, the serial tests (dependence
  // only, against the decks' own margins) pass. Planted dependence fails them (tests above).
  for (const char* algo : {"riffle:4", "naive"}) {
    const nlohmann::json j = audit_json({"--algo", algo, "--trials", "20000", "--seed", "1"});
    EXPECT_EQ(result_of(j, "card-position"), "fail") << algo;
    EXPECT_EQ(result_of(j, "serial-successions"), "pass") << algo;
    EXPECT_EQ(result_of(j, "serial-position"), "pass") << algo;
    // Rule coverage: the per-position clause fails, the serial-correlation clause passes.
    ASSERT_EQ(j["rule_coverage"].size(), 18u);
    EXPECT_EQ(j["rule_coverage"][0]["rule"], "Virginia 11VAC20-20-510 (1)");
    EXPECT_EQ(j["rule_coverage"][0]["status"], "fail");
    EXPECT_EQ(j["rule_coverage"][3]["rule"], "Virginia 11VAC20-20-510 (4)");
    EXPECT_EQ(j["rule_coverage"][3]["status"], "pass");
  }
  // A stuck card: the ace of spades on top in 30% of the decks, independently.
  const temp_dir dir;
  test_rng rng{16};
  const std::string file = planted(dir, 5000, [&](std::size_t, const auto&) {
    auto d = rng.deck(52);
    if (rng.uniform() < 0.3) std::swap(*std::find(d.begin(), d.end(), 0u), d[0]);
    return d;
  });
  const nlohmann::json j = audit_json({file});
  EXPECT_EQ(result_of(j, "card-position"), "fail");
  EXPECT_EQ(result_of(j, "serial-successions"), "pass");
  EXPECT_EQ(result_of(j, "serial-position"), "pass");
}

TEST(E2eAudit, GluedNeighboursFailSuccessionsAndAdjacentPairs) {
  // With probability 0.2 a random card c gets card c+1 moved right below it.
  const temp_dir dir;
  test_rng rng{13};
  const std::string file = planted(dir, 5000, [&](std::size_t, const auto&) {
    auto d = rng.deck(52);
    if (rng.uniform() < 0.2) {
      const std::uint32_t c = rng.below(51);
      d.erase(std::find(d.begin(), d.end(), c + 1));
      d.insert(std::find(d.begin(), d.end(), c) + 1, c + 1);
    }
    return d;
  });
  const nlohmann::json j = audit_json({file});
  EXPECT_EQ(result_of(j, "successions"), "fail");
  EXPECT_EQ(result_of(j, "adjacent-pairs"), "fail");
}

TEST(E2eAudit, RepeatedDeckFailsDuplicates) {
  const temp_dir dir;
  test_rng rng{14};
  const std::string file = planted(dir, 1000, [&](std::size_t t, const auto& h) {
    return t == 600 ? h[500] : rng.deck(52);
  });
  const nlohmann::json j = audit_json({file});
  EXPECT_EQ(result_of(j, "duplicates"), "fail");
  for (const auto& t : j["tests"]) {
    if (t["name"] == "duplicates") {
      EXPECT_EQ(t["observed"], 1);
    }
  }
}

TEST(E2eAudit, ThreeRifflesFailRisingSequencesAndGuessing) {
  const nlohmann::json j = audit_json({"--algo", "riffle:3", "--trials", "2000", "--seed", "1"});
  EXPECT_EQ(result_of(j, "rising-sequences"), "fail");
  EXPECT_EQ(result_of(j, "guessing"), "fail");
  EXPECT_EQ(j["input"]["algorithm"], "riffle:3");
  const nlohmann::json fy = audit_json({"--algo", "fisher-yates", "--trials", "3000", "--seed", "1"});
  EXPECT_EQ(fy["result"], "pass");
}

TEST(E2eAudit, AlgoDecksAreTheDecksBiasCounts) {
  // Two chunks of 65536: the card-position table equals bias's position matrix for the same
  // seed, and it does not depend on the threads.
  const nlohmann::json a = audit_json({"--algo", "naive", "--trials", "70000", "--seed", "3", "--threads", "2"});
  const nlohmann::json b = audit_json({"--algo", "naive", "--trials", "70000", "--seed", "3", "--threads", "1"});
  const run_result bias =
      run_shufl({"bias", "--n", "52", "--algo", "naive", "--trials", "70000", "--seed", "3", "--format", "json"});
  ASSERT_EQ(bias.status, 0) << bias.err;
  const auto bj = nlohmann::json::parse(bias.out);
  EXPECT_EQ(a["tests"][0]["table"], bj["results"][0]["position_counts"]);
  EXPECT_EQ(a["tests"], b["tests"]);
  EXPECT_EQ(result_of(a, "card-position"), "fail");  // the naive shuffle's bias
}

TEST(E2eAudit, ThreadsDoNotChangeTheReport) {
  const temp_dir dir;
  test_rng rng{15};
  const std::string file = planted(dir, 9000, [&](std::size_t, const auto&) { return rng.deck(52); });
  const run_result one = run_shufl({"audit", file, "--threads", "1", "--format", "json"});
  const run_result three = run_shufl({"audit", file, "--threads", "3", "--format", "json"});
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, three.out);
}

TEST(E2eAudit, ReadingThreadsOfAFileMatchAPipeAndNameTrueLines) {
  // Two ranges of over 1 MiB each, read by the threads through the file's descriptor in chunks
  // that end mid-line; the same bytes from a pipe are read as one stream.
  const temp_dir dir;
  test_rng rng{41};
  std::string text;
  for (int t = 0; t < 16000; ++t) text += deck_line(rng.deck(52));
  const std::string file = dir.write("big.txt", text);
  const run_result mapped = run_shufl({"audit", file, "--threads", "2", "--format", "json"});
  const run_result piped =
      run_shell(fmt::format("cat '{}' | '{}' audit - --threads 2 --format json", file, shufl_binary()));
  ASSERT_EQ(mapped.status, 0) << mapped.err;
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(nlohmann::json::parse(mapped.out)["tests"], nlohmann::json::parse(piped.out)["tests"]);
  EXPECT_EQ(nlohmann::json::parse(mapped.out)["decks"], 16000);
  // A bad card on line 15001, in the second range: its true line number, and with --skip-bad
  // the other decks.
  std::string bad = text.substr(15000 * 156, 156);
  bad.replace(bad.find(' ') + 1, 2, "Zz");
  const std::string broken = dir.write("broken.txt", text.substr(0, 15000 * 156) + bad + text.substr(15001 * 156));
  run_result r = run_shufl({"audit", broken, "--threads", "2", "--pack", "standard"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("line 15001"), std::string::npos) << r.err;
  r = run_shufl({"audit", broken, "--threads", "2", "--pack", "standard", "--skip-bad", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["decks"], 15999);
  EXPECT_EQ(nlohmann::json::parse(r.out)["skipped"], 1);
}

TEST(E2eAudit, DealtRunsThePositionTestsOnKColumns) {
  const temp_dir dir;
  test_rng rng{16};
  std::string text;
  for (int t = 0; t < 2000; ++t) {
    auto d = rng.deck(52);
    d.resize(5);
    text += deck_line(d);
  }
  const std::string file = dir.write("hands.txt", text);
  const nlohmann::json j = audit_json({file, "--pack", "standard", "--dealt", "5"});
  EXPECT_EQ(j["tests"][0]["df"], 51 * 5);  // card-position: 5 positions + the rest column
  EXPECT_EQ(result_of(j, "successions"), "not-applicable");
  EXPECT_EQ(result_of(j, "serial-position"), "not-applicable");
  EXPECT_EQ(result_of(j, "suit-position"), "pass");
  EXPECT_EQ(j["result"], "pass");
}

TEST(E2eAudit, ErrorsAndExitStatuses) {
  const temp_dir dir;
  test_rng rng{17};
  std::string text = deck_line(rng.deck(52));
  std::string bad = deck_line(rng.deck(52));
  bad.replace(bad.find(' ') + 1, 2, "Zz");
  const std::string file = dir.write("bad.txt", text + bad);
  run_result r = run_shufl({"audit", file, "--pack", "standard"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Zz"), std::string::npos) << r.err;
  r = run_shufl({"audit", file, "--pack", "standard", "--skip-bad", "--format", "json"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["skipped"], 1);
  r = run_shufl({"audit", dir.write("empty.txt", "")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no decks"), std::string::npos) << r.err;
  r = run_shufl({"audit", file, "--alpha", "1.5"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--alpha"), std::string::npos) << r.err;
  r = run_shufl({"audit", dir.file("missing.txt")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.err;
  r = run_shufl({"audit", file, "--seed", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--algo"), std::string::npos) << r.err;
  r = run_shufl({"audit", "--algo", "no-such-shuffle"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
}

TEST(E2eAudit, ReportsValidateAgainstTheSchema) {
  const temp_dir dir;
  test_rng rng{18};
  std::string text;
  for (int t = 0; t < 300; ++t) text += deck_line(rng.deck(52));
  const std::string file = dir.write("decks.txt", text);
  std::vector<std::string> reports;
  const auto save = [&](const std::string& name, const std::vector<std::string>& args) {
    const run_result r = run_shufl(args);
    ASSERT_EQ(r.status, 0) << r.err;
    reports.push_back(dir.write(name, r.out));
  };
  save("file.json", {"audit", file, "--format", "json"});
  save("dealt.json", {"audit", dir.write("hands.txt", "As Kd\n2c 3h\n"), "--dealt", "2", "--pack", "standard", "--format", "json"});
  save("algo.json", {"audit", "--algo", "riffle:2", "--trials", "500", "--seed", "1", "--format", "json"});
  save("algos.json", {"audit", "--algo", "riffle:2,naive", "--trials", "500", "--seed", "1", "--format", "json"});
  save("blackjack.json", {"audit", "--algo", "fisher-yates", "--trials", "500", "--seed", "1", "--decks", "2", "--game",
                          "blackjack", "--format", "json"});
  std::string grouped;  // --group-by: the document of several audits with audits[].group
  for (int t = 0; t < 300; ++t) grouped += (t % 2 ? "T1 " : "T2 ") + deck_line(rng.deck(52));
  save("groups.json", {"audit", dir.write("groups.txt", grouped), "--group-by", "1", "--format", "json"});
  save("custom.json", {"audit", dir.write("c.txt", "b a c\nc b a\n"), "--cards-file", dir.write("abc.txt", "a\nb\nc\n"),
                       "--format", "json"});
  const std::string script =
      "import json, sys, jsonschema\n"
      "schema = json.load(open(sys.argv[1]))\n"
      "jsonschema.Draft7Validator.check_schema(schema)\n"
      "for f in sys.argv[2:]:\n"
      "    jsonschema.Draft7Validator(schema).validate(json.load(open(f)))\n"
      "print('valid', len(sys.argv) - 2)\n";
  std::string cmd = "python3 '" + dir.write("check.py", script) + "' '" + shufl::test::source_dir() +
                    "/schema/audit-report.schema.json'";
  for (const auto& f : reports) cmd += " '" + f + "'";
  const run_result r = run_shell(cmd);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "valid 7\n");
}

// One pass of the ten-shelf machine: the shelf strategy follows the falling runs too, so it
// guesses more cards than original successor (Python: 9.29 and 7.52 per deck, H_52 = 4.54).
TEST(E2eAudit, ShelfStrategyOutguessesOriginalSuccessorOnAShelfShuffler) {
  const nlohmann::json j = audit_json({"--algo", "shelf:10", "--trials", "300", "--seed", "5"});
  const auto total = [&](const std::string& name) {
    for (const auto& t : j["tests"]) {
      if (t["name"] == name) return t["observed"].get<double>() / 300;
    }
    return 0.0;
  };
  EXPECT_EQ(result_of(j, "guessing-shelf"), "fail");
  EXPECT_NEAR(total("guessing-shelf"), 9.29, 0.5);
  EXPECT_NEAR(total("guessing"), 7.52, 0.5);
  const nlohmann::json fair = audit_json({"--algo", "fisher-yates", "--trials", "300", "--seed", "5"});
  EXPECT_EQ(result_of(fair, "guessing-shelf"), "pass");
  EXPECT_NE(run_shufl({"audit", "--help"}).out.find("--deal"), std::string::npos);
}

TEST(E2eAudit, GamePokerClassifiesTheFirstFiveCards) {
  const nlohmann::json fair = audit_json({"--algo", "fisher-yates", "--trials", "20000", "--seed", "2", "--game", "poker"});
  ASSERT_EQ(fair["tests"].size(), 21u);
  const auto& poker = fair["tests"][20];
  EXPECT_EQ(poker["name"], "poker-hands");
  EXPECT_EQ(poker["result"], "pass");
  // 20000 hands: straight flushes (0.31 expected) and fours (4.80) pool to 5.11; the other seven
  // classes expect at least 28.8 each: 8 pools, df 7.
  EXPECT_EQ(poker["note"], "pooled: straight-flush+four-of-a-kind");
  EXPECT_EQ(poker["df"], 7);
  EXPECT_EQ(poker["columns"][0], "high-card");
  std::uint64_t hands = 0;
  for (const auto& row : poker["table"]) {
    for (const auto& c : row) hands += c.get<std::uint64_t>();
  }
  EXPECT_EQ(hands, 20000u);
  // One riffle leaves the top cards from two runs of the original order: flushes and straights.
  const nlohmann::json riffled = audit_json({"--algo", "riffle:1", "--trials", "3000", "--seed", "2", "--game", "poker"});
  EXPECT_EQ(result_of(riffled, "poker-hands"), "fail");
  const run_result bad = run_shufl({"audit", "--algo", "fisher-yates", "--pack", "piquet", "--game", "poker"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("--game poker needs a standard 52-card pack"), std::string::npos) << bad.err;
  EXPECT_EQ(run_shufl({"audit", "--algo", "fisher-yates", "--game", "bridge"}).status, 1);
}

// Six hands dealt round the table: card k to seat k mod 6. Seat h holds cards h, h+6, ..., h+24.
TEST(E2eAudit, GamePokerDealsRoundTheTable) {
  const temp_dir dir;
  test_rng rng{31};
  // Decks whose cards 0, 6, 12, 18, 24 are As Ks Qs Js Ts (a royal flush for seat 1), the rest
  // uniform: seat 1 fails, the other seats are uniform.
  const std::vector<std::uint32_t> royal = {0, 12, 11, 10, 9};
  std::string text;
  for (int t = 0; t < 400; ++t) {
    std::vector<std::uint32_t> rest;
    for (std::uint32_t c = 0; c < 52; ++c) {
      if (std::find(royal.begin(), royal.end(), c) == royal.end()) rest.push_back(c);
    }
    const auto shuffled = rng.deck(47);
    std::vector<std::uint32_t> d;
    std::size_t next = 0;
    for (std::size_t p = 0; p < 52; ++p) d.push_back(p % 6 == 0 && p < 30 ? royal[p / 6] : rest[shuffled[next++]]);
    text += deck_line(d);
  }
  const std::string file = dir.write("royal.txt", text);
  const nlohmann::json j = audit_json({file, "--pack", "standard", "--game", "poker", "--deal", "6x5"});
  const auto& t = j["tests"].back();
  EXPECT_EQ(t["name"], "poker-hands");
  EXPECT_EQ(t["result"], "fail");
  ASSERT_EQ(t["table"].size(), 6u);
  EXPECT_EQ(t["table"][0][8], 400);  // seat 1: 400 straight flushes
  EXPECT_NE(t["note"].get<std::string>().find("6 seats: statistic and p of seat 1"), std::string::npos) << t["note"];
  // The text report prints the same table: seat 1's row ends in its 400 straight flushes.
  const run_result text_report = run_shufl({"audit", file, "--pack", "standard", "--game", "poker", "--deal", "6x5"});
  EXPECT_EQ(text_report.status, 0);  // a fail without --check
  const std::size_t seats = text_report.out.find("poker-hands by seat (hands of each class, before pooling):\n");
  ASSERT_NE(seats, std::string::npos) << text_report.out;
  const std::string seat_rows = text_report.out.substr(seats);
  EXPECT_NE(seat_rows.find("high-card"), std::string::npos);
  EXPECT_NE(seat_rows.find("straight-flush\n  1      "), std::string::npos) << seat_rows;
  const std::size_t row1 = seat_rows.find("\n  1 ");
  ASSERT_NE(row1, std::string::npos);
  const std::string first_row = seat_rows.substr(row1 + 1, seat_rows.find('\n', row1 + 1) - row1 - 1);
  EXPECT_EQ(first_row.substr(first_row.size() - 4), " 400") << first_row;
  EXPECT_NE(seat_rows.find("\n  6 "), std::string::npos);
  // The first five cards (the default 1x5) are As plus four uniform cards: no royal flush there.
  const nlohmann::json first = audit_json({file, "--pack", "standard", "--game", "poker"});
  EXPECT_EQ(first["tests"].back()["table"].size(), 1u);
  // Hole-card logs: --dealt 30 is enough for 6x5; 29 is not.
  std::string dealt;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = text.find('\n', pos);
    const std::string line = text.substr(pos, end - pos);
    std::size_t cut = 0;
    for (int k = 0; k < 30; ++k) cut = line.find(' ', cut) + 1;
    dealt += line.substr(0, cut - 1) + "\n";
    pos = end + 1;
  }
  const std::string dealt_file = dir.write("dealt.txt", dealt);
  const nlohmann::json d = audit_json({dealt_file, "--pack", "standard", "--dealt", "30", "--game", "poker", "--deal", "6x5"});
  EXPECT_EQ(d["tests"].back()["table"], t["table"]);
  const run_result few = run_shufl({"audit", dealt_file, "--pack", "standard", "--dealt", "30", "--game", "poker",
                                    "--deal", "7x5"});
  EXPECT_EQ(few.status, 1);
  EXPECT_NE(few.err.find("--deal 7x5 needs 35 cards per deck; --dealt gives 30"), std::string::npos) << few.err;
  EXPECT_EQ(run_shufl({"audit", file, "--pack", "standard", "--game", "poker", "--deal", "2x2"}).status, 1);
  EXPECT_EQ(run_shufl({"audit", file, "--pack", "standard", "--deal", "2x5"}).status, 1);
}

TEST(E2eAudit, GameBlackjackClassifiesThePlayersTwoCards) {
  const nlohmann::json fair = audit_json(
      {"--algo", "fisher-yates", "--trials", "20000", "--seed", "4", "--decks", "4", "--game", "blackjack"});
  const auto& bj = fair["tests"].back();
  EXPECT_EQ(bj["name"], "blackjack-hands");
  EXPECT_EQ(bj["result"], "pass");
  ASSERT_EQ(bj["table"].size(), 2u);  // 2x2: player (cards 1, 3) and dealer (cards 2, 4)
  ASSERT_EQ(bj["columns"].size(), 26u);
  EXPECT_EQ(bj["columns"][0], "natural");
  EXPECT_EQ(bj["df"], 25);  // 20000 hands: every class expects more than 5 (the rarest 1.2%)
  // One riffle of a shoe in canonical order: the player's cards 1 and 3 come from two runs.
  const nlohmann::json riffled = audit_json(
      {"--algo", "riffle:1", "--trials", "2000", "--seed", "4", "--decks", "2", "--game", "blackjack"});
  EXPECT_EQ(result_of(riffled, "blackjack-hands"), "fail");
  const run_result bad = run_shufl({"audit", "--algo", "fisher-yates", "--jokers", "2", "--game", "blackjack"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("--game blackjack needs a shoe of standard 52-card packs"), std::string::npos) << bad.err;
}

TEST(E2eAudit, FalsePositiveRateOfTheBattery) {
  // 100 fair streams at alpha 0.05: Holm keeps the family-wise rate at most 0.05, so the number
  // of failed audits is at most Binomial(100, 0.05)'s 99.9% quantile, 12.
  int failed = 0, errors = 0;
  for (int seed = 0; seed < 100; ++seed) {
    const run_result r =
        run_shell(fmt::format("'{0}' deck --count 300 --seed fp-{1} | '{0}' audit - --check --alpha 0.05 --threads 1",
                              shufl_binary(), seed));
    failed += r.status == 3;
    errors += r.status != 0 && r.status != 3;
  }
  EXPECT_EQ(errors, 0);
  EXPECT_LE(failed, 12);
}

TEST(E2eDeckCount, SuccessiveDecksOfOneStream) {
  const run_result one = run_shufl({"deck", "--seed", "s"});
  const run_result many = run_shufl({"deck", "--count", "5", "--seed", "s"});
  ASSERT_EQ(many.status, 0) << many.err;
  const auto decks = lines(many.out);
  ASSERT_EQ(decks.size(), 5u);
  // The first deck is the deck printed without --count (one card per line there).
  std::string first = one.out;
  std::replace(first.begin(), first.end(), '\n', ' ');
  first.pop_back();
  EXPECT_EQ(decks[0], first);
  for (const auto& d : decks) EXPECT_EQ(split(d, ' ').size(), 52u);
  EXPECT_NE(decks[0], decks[1]);
  const run_result again = run_shufl({"deck", "--count", "5", "--seed", "s"});
  EXPECT_EQ(again.out, many.out);
  const run_result json = run_shufl({"deck", "--count", "3", "--seed", "s", "--format", "json"});
  ASSERT_EQ(json.status, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["decks"].size(), 3u);
  EXPECT_EQ(j["decks"][1][0], split(decks[1], ' ')[0]);
  const run_result bad = run_shufl({"deck", "--count", "3", "--deal", "2x2"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(run_shufl({"deck", "--count", "0"}).status, 1);
}

// --lags beyond the pair tables' bound (lags x cards^2 <= 2^24) is refused before they are
// allocated: exit 1, the largest --lags named, nothing on stdout; --plan refuses the same.
TEST(E2eAuditLags, PairTablesBeyondTheBoundAreRefused) {
  temp_dir dir;
  std::string cards, deck;
  for (int i = 1; i <= 1024; ++i) {
    cards += fmt::format("c{}\n", i);
    deck += fmt::format("{}{}", i == 1 ? "" : " ", i);
  }
  const std::string pack = dir.write("cards.txt", cards), decks = dir.write("decks.txt", deck + "\n");
  const std::string message = "shufl: --lags 64: position-pairs would count 64 x 1024^2 = 67108864 pairs of cards, more "
                              "than the 16777216 this version keeps (128 MiB per thread): at 1024 cards give --lags 16 "
                              "or fewer\n";
  const run_result r = run_shufl({"audit", decks, "--cards-file", pack, "--lags", "64"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, message);
  const run_result p = run_shufl({"audit", "--plan", "--cards-file", pack, "--lags", "64"});
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(p.err, message);  // (--lags 16, the bound itself, is accepted: AuditPairs.TablesAreBounded)
}

}  // namespace
}  // namespace shufl::test
