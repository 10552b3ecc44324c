// End-to-end tests of `shufl deck`: run the real binary, check stdout, stderr and exit status.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "shufl/deck.hpp"
#include "support/golden.hpp"
#include "support/run.hpp"

namespace shufl::test {
namespace {


// "hand 1: As Td" -> {"As", "Td"}; "stock:" -> {}.
std::vector<std::string> cards_after_colon(const std::string& line) {
  const auto colon = line.find(": ");
  if (colon == std::string::npos) return {};
  return split(line.substr(colon + 2), ' ');
}

std::vector<std::string> standard_codes() {
  std::vector<std::string> out;
  for (const auto& c : make_pack(pack_kind::standard).cards) out.push_back(format_card(c, card_style::code));
  return out;
}

// A failing run: exit 1, nothing on stdout, one line "shufl: ..." on stderr.
void expect_clean_error(const std::vector<std::string>& args, const std::string& fragment = {}) {
  const run_result r = run_shufl(args);
  std::string joined;
  for (const auto& a : args) joined += a + " ";
  EXPECT_EQ(r.status, 1) << joined;
  EXPECT_EQ(r.out, "") << joined;
  EXPECT_EQ(r.err.rfind("shufl: ", 0), 0u) << joined << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << joined << r.err;
  if (!fragment.empty()) {
    EXPECT_NE(r.err.find(fragment), std::string::npos) << joined << r.err;
  }
}

TEST(DeckE2E, DefaultIsOneCardPerLineAndAPermutation) {
  const run_result r = run_shufl({"deck"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto got = lines(r.out);
  ASSERT_EQ(got.size(), 52u);
  auto expected = standard_codes();
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(got, expected);
}

// D01 through the binary, for many seeds.
TEST(DeckE2E, D01SeededDecksArePermutations) {
  auto expected = standard_codes();
  std::sort(expected.begin(), expected.end());
  for (int s = 1; s <= 25; ++s) {
    const run_result r = run_shufl({"deck", "--seed", std::to_string(s)});
    ASSERT_EQ(r.status, 0);
    auto got = lines(r.out);
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, expected) << "seed " << s;
  }
}

TEST(DeckE2E, SeedsAreStableAndDistinctAndUnseededRunsDiffer) {
  EXPECT_EQ(run_shufl({"deck", "--seed", "42"}).out, run_shufl({"deck", "--seed", "42"}).out);
  EXPECT_NE(run_shufl({"deck", "--seed", "42"}).out, run_shufl({"deck", "--seed", "43"}).out);
  EXPECT_NE(run_shufl({"deck", "--seed", "1"}).out, run_shufl({"deck", "--seed", "4294967297"}).out);
  EXPECT_NE(run_shufl({"deck"}).out, run_shufl({"deck"}).out);  // fails with probability 1/52!
}

// D02: 4 hands of 5 -> 20 distinct cards, the stock does not overlap, nothing is lost.
TEST(DeckE2E, D02DealsNeverDuplicateACard) {
  for (int s = 0; s < 10; ++s) {
    const run_result r = run_shufl({"deck", "--deal", "4x5", "--seed", fmt::format("deal{}", s)});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto ls = lines(r.out);
    ASSERT_EQ(ls.size(), 5u);
    std::multiset<std::string> all;
    for (int h = 0; h < 4; ++h) {
      ASSERT_EQ(ls[h].rfind(fmt::format("hand {}: ", h + 1), 0), 0u) << ls[h];
      const auto hand = cards_after_colon(ls[h]);
      ASSERT_EQ(hand.size(), 5u);
      all.insert(hand.begin(), hand.end());
    }
    ASSERT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 20u);
    ASSERT_EQ(ls[4].rfind("stock: ", 0), 0u);
    for (const auto& c : cards_after_colon(ls[4])) {
      ASSERT_EQ(all.count(c), 0u) << c << " is in a hand and in the stock";
      all.insert(c);
    }
    ASSERT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 52u);
    ASSERT_EQ(all.size(), 52u);
  }
}

// A label with a control byte is named whole, the byte escaped (not cut where the byte was).
TEST(DeckE2E, ControlBytesInLabelsAreShownEscaped) {
  expect_clean_error({"deck", "--cards", "ok,b\tc"}, "card 'b\\x09c' contains a control character");
  expect_clean_error({"deck", "--cards", "\x1b[31mred,b"}, "card '\\x1B[31mred' contains a control character");
}

TEST(DeckE2E, D02ImpossibleDealsPrintNothing) {
  expect_clean_error({"deck", "--deal", "4x14"}, "needs 56 cards");
  expect_clean_error({"deck", "--deal", "4x13", "--burn", "1", "--seed", "1"}, "after burning 1");
  expect_clean_error({"deck", "--deal", "11x5", "--pack", "euchre"}, "24-card deck");
  expect_clean_error({"deck", "--deal", "4x5", "--format", "json", "--decks", "0"});
  // The whole deck can be dealt: the stock line is then empty.
  const run_result r = run_shufl({"deck", "--deal", "4x13", "--seed", "1"});
  ASSERT_EQ(r.status, 0);
  EXPECT_EQ(lines(r.out).back(), "stock:");
}

TEST(DeckE2E, BurnComesFirstThenRoundTheTable) {
  const auto full = lines(run_shufl({"deck", "--seed", "b"}).out);
  const auto dealt = lines(run_shufl({"deck", "--seed", "b", "--deal", "2x3", "--burn", "2"}).out);
  ASSERT_EQ(dealt.size(), 4u);
  EXPECT_EQ(dealt[0], fmt::format("burned: {} {}", full[0], full[1]));
  EXPECT_EQ(dealt[1], fmt::format("hand 1: {} {} {}", full[2], full[4], full[6]));
  EXPECT_EQ(dealt[2], fmt::format("hand 2: {} {} {}", full[3], full[5], full[7]));
  EXPECT_EQ(cards_after_colon(dealt[3]).size(), 44u);
  EXPECT_EQ(cards_after_colon(dealt[3])[0], full[8]);
}

// D03: two decks -> 104 cards, each of the 52 exactly twice.
TEST(DeckE2E, D03TwoDecksHoldEachCardTwice) {
  const run_result r = run_shufl({"deck", "--decks", "2", "--seed", "shoe"});
  ASSERT_EQ(r.status, 0);
  std::map<std::string, int> counts;
  for (const auto& c : lines(r.out)) ++counts[c];
  ASSERT_EQ(counts.size(), 52u);
  for (const auto& [c, n] : counts) EXPECT_EQ(n, 2) << c;
  const auto six = lines(run_shufl({"deck", "--decks", "6"}).out);
  EXPECT_EQ(six.size(), 312u);
}

// D04: memory-match decks.
TEST(DeckE2E, D04PairsAndGrids) {
  const run_result r = run_shufl({"deck", "--pairs", "6", "--seed", "m"});
  ASSERT_EQ(r.status, 0);
  std::map<std::string, int> counts;
  for (const auto& c : lines(r.out)) ++counts[c];
  ASSERT_EQ(counts.size(), 6u);
  for (const auto& [c, n] : counts) EXPECT_EQ(n, 2) << c;

  const run_result g = run_shufl({"deck", "--grid", "3x4", "--symbols", "cat,dog,owl,fox,bee,elk"});
  ASSERT_EQ(g.status, 0) << g.err;
  const auto rows = lines(g.out);
  ASSERT_EQ(rows.size(), 3u);
  std::map<std::string, int> cells;
  for (const auto& row : rows) {
    const auto items = split(row, ' ');
    ASSERT_EQ(items.size(), 4u);
    for (const auto& c : items) ++cells[c];
  }
  ASSERT_EQ(cells.size(), 6u);
  for (const auto& [c, n] : cells) EXPECT_EQ(n, 2) << c;

  expect_clean_error({"deck", "--grid", "5x5"}, "25 cells, an odd number");
  expect_clean_error({"deck", "--pairs", "63"}, "only 62");
  expect_clean_error({"deck", "--pairs", "3", "--symbols", "a,b"}, "only 2");
  expect_clean_error({"deck", "--pairs", "2", "--symbols", "a,a"}, "more than once");
  expect_clean_error({"deck", "--grid", "4"}, "ROWSxCOLUMNS");
  expect_clean_error({"deck", "--grid", "4x4", "--deal", "2x2"});

  // --pairs with a --grid of as many cells is the same layout as the --grid alone; a grid of
  // another size is refused, naming what the grid holds.
  const run_result both = run_shufl({"deck", "--pairs", "8", "--grid", "4x4", "--seed", "kids"});
  ASSERT_EQ(both.status, 0) << both.err;
  EXPECT_EQ(both.err, "");
  EXPECT_EQ(both.out, run_shufl({"deck", "--grid", "4x4", "--seed", "kids"}).out);
  EXPECT_EQ(lines(both.out).size(), 4u);
  expect_clean_error({"deck", "--pairs", "7", "--grid", "4x4"},
                     "--pairs 7 and --grid 4x4 disagree: a 4x4 grid holds 16 cards, 8 pairs");
  expect_clean_error({"deck", "--pairs", "8", "--pack", "standard"}, "choose one of");
}

TEST(DeckE2E, PacksJokersAndCustomDecks) {
  EXPECT_EQ(lines(run_shufl({"deck", "--pack", "piquet"}).out).size(), 32u);
  EXPECT_EQ(lines(run_shufl({"deck", "--pack", "skat"}).out).size(), 32u);
  EXPECT_EQ(lines(run_shufl({"deck", "--pack", "euchre"}).out).size(), 24u);
  EXPECT_EQ(lines(run_shufl({"deck", "--pack", "tarot"}).out).size(), 78u);
  auto jokers = lines(run_shufl({"deck", "--jokers", "2", "--seed", "j"}).out);
  ASSERT_EQ(jokers.size(), 54u);
  EXPECT_EQ(std::count(jokers.begin(), jokers.end(), "RJ"), 1);
  EXPECT_EQ(std::count(jokers.begin(), jokers.end(), "BJ"), 1);

  auto custom = lines(run_shufl({"deck", "--cards", "red, red ,blue"}).out);
  std::sort(custom.begin(), custom.end());
  EXPECT_EQ(custom, (std::vector<std::string>{"blue", "red", "red"}));
  temp_dir dir;
  const std::string file = dir.write("uno.txt", "skip\r\nreverse\n\n+2\n");  // the blank line is skipped
  auto from_file = lines(run_shufl({"deck", "--cards-file", file, "--decks", "2"}).out);
  EXPECT_EQ(from_file.size(), 6u);
  auto from_stdin = lines(run_shufl({"deck", "--cards-file", "-"}, "a\nb\n").out);
  std::sort(from_stdin.begin(), from_stdin.end());
  EXPECT_EQ(from_stdin, (std::vector<std::string>{"a", "b"}));
  expect_clean_error({"deck", "--cards-file", dir.file("missing.txt")}, "missing.txt");
  expect_clean_error({"deck", "--cards-file", "-"}, "no cards");
}

TEST(DeckE2E, StylesAndRedBlackJokers) {
  const auto code = lines(run_shufl({"deck", "--seed", "st", "--jokers", "2"}).out);
  const auto uni = lines(run_shufl({"deck", "--seed", "st", "--jokers", "2", "--style", "unicode"}).out);
  const auto glyph = lines(run_shufl({"deck", "--seed", "st", "--jokers", "2", "--style", "glyph"}).out);
  const auto name = lines(run_shufl({"deck", "--seed", "st", "--jokers", "2", "--style", "name"}).out);
  ASSERT_EQ(code.size(), 54u);
  ASSERT_EQ(uni.size(), 54u);
  ASSERT_EQ(glyph.size(), 54u);
  ASSERT_EQ(name.size(), 54u);
  for (std::size_t i = 0; i < code.size(); ++i) {
    const auto c = parse_card_code(code[i]);
    ASSERT_TRUE(c.has_value()) << code[i];
    EXPECT_EQ(uni[i], format_card(*c, card_style::unicode));
    EXPECT_EQ(glyph[i], format_card(*c, card_style::glyph));
    EXPECT_EQ(name[i], format_card(*c, card_style::name));
  }
  EXPECT_NE(std::find(name.begin(), name.end(), "Red Joker"), name.end());
  EXPECT_NE(std::find(name.begin(), name.end(), "Black Joker"), name.end());
  EXPECT_NE(std::find(name.begin(), name.end(), "Ace of Spades"), name.end());
  EXPECT_NE(std::find(uni.begin(), uni.end(), "10\u2665"), uni.end());
}

// JSON parses, and round-trips: the codes read back are exactly the deck's multiset.
TEST(DeckE2E, JsonParsesAndRoundTrips) {
  const run_result r = run_shufl({"deck", "--deal", "4x5", "--burn", "2", "--jokers", "2", "--seed", "js",
                                  "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "deck");
  EXPECT_EQ(j["seed"], "js");
  EXPECT_EQ(j["engine"], "chacha20");
  EXPECT_EQ(j["cards"], 54);
  ASSERT_EQ(j["hands"].size(), 4u);
  ASSERT_EQ(j["burned"].size(), 2u);
  ASSERT_EQ(j["stock"].size(), 32u);
  std::vector<card> seen;
  std::set<std::string> dealt;
  auto take = [&](const nlohmann::json& a) {
    for (const auto& code : a) {
      const auto c = parse_card_code(code.get<std::string>());
      ASSERT_TRUE(c.has_value()) << code;
      seen.push_back(*c);
    }
  };
  take(j["burned"]);
  for (const auto& h : j["hands"]) {
    ASSERT_EQ(h.size(), 5u);
    take(h);
    for (const auto& c : h) dealt.insert(c.get<std::string>());
  }
  EXPECT_EQ(dealt.size(), 20u);
  take(j["stock"]);
  auto expected = make_pack(pack_kind::standard, 1, 2).cards;
  std::sort(seen.begin(), seen.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(seen, expected);
  // Same seed, text and JSON agree card for card.
  const auto text = lines(run_shufl({"deck", "--deal", "4x5", "--burn", "2", "--jokers", "2", "--seed", "js"}).out);
  EXPECT_EQ(cards_after_colon(text[1]), j["hands"][0].get<std::vector<std::string>>());
  EXPECT_EQ(cards_after_colon(text[5]), j["stock"].get<std::vector<std::string>>());
  // Re-serialising the parsed document gives the same document.
  EXPECT_EQ(nlohmann::json::parse(j.dump()), j);

  const auto plain = nlohmann::json::parse(run_shufl({"deck", "--format", "json"}).out);
  EXPECT_TRUE(plain["seed"].is_null());
  EXPECT_EQ(plain["engine"], "os");
  EXPECT_EQ(plain["deck"].size(), 52u);
  const auto grid = nlohmann::json::parse(run_shufl({"deck", "--grid", "2x3", "--format", "json"}).out);
  ASSERT_EQ(grid["grid"].size(), 2u);
  EXPECT_EQ(grid["grid"][0].size(), 3u);
}

TEST(DeckE2E, ExplainStatesOrdersAndReach) {
  const run_result plain = run_shufl({"deck", "--explain"});
  ASSERT_EQ(plain.status, 0);
  EXPECT_NE(plain.out.find("52! \u2248 2^225.58"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("every order can occur"), std::string::npos) << plain.out;
  const run_result mt = run_shufl({"deck", "--explain", "--seed", "1", "--rng", "mt19937"});
  EXPECT_NE(mt.out.find("2^32.00"), std::string::npos) << mt.out;
  EXPECT_NE(mt.out.find("vanishing fraction"), std::string::npos) << mt.out;
  const run_result seeded = run_shufl({"deck", "--explain", "--seed", "1"});
  EXPECT_EQ(seeded.out.find("vanishing"), std::string::npos) << seeded.out;
  const run_result shoe = run_shufl({"deck", "--explain", "--seed", "1", "--decks", "6"});
  EXPECT_NE(shoe.out.find("312!/(6!)^52 \u2248 2^1646.82"), std::string::npos) << shoe.out;
  EXPECT_NE(shoe.out.find("vanishing fraction"), std::string::npos) << shoe.out;
  const run_result shoe_os = run_shufl({"deck", "--explain", "--decks", "6"});
  EXPECT_EQ(shoe_os.out.find("vanishing"), std::string::npos) << shoe_os.out;
  const auto j = nlohmann::json::parse(run_shufl({"deck", "--explain", "--format", "json", "--decks", "8"}).out);
  EXPECT_TRUE(j["reachable_log2"].is_null());
  EXPECT_GT(j["possible_orders_log2"].get<double>(), 2000.0);
}

// A guessable --seed (a time, a number, short text) draws the same warning from --explain and
// --commit, with the number of seeds an attacker would try; a long passphrase draws none.
TEST(DeckE2E, ExplainAndCommitWarnAlikeOfGuessableSeeds) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"1796083200", "looks like a time in Unix seconds: an attacker who knows the day tries 86,400 seeds"},
      {"1796083200123", "Unix milliseconds: an attacker who knows the day tries 86,400,000 seeds"},
      {"2026-12-01T10:00:00", "looks like a date or time: an attacker who knows the day tries 86,400 seeds"},
      {"42", "is a number of 2 digits: an attacker tries at most 100 seeds"},
      {"kids", "is short (4 characters): an attacker tries at most 456,976 seeds"},  // 26^4
      {"12345678901234567890123", "is a number of 23 digits: an attacker tries at most 2^76 seeds"},
  };
  for (const auto& [seed, words] : cases) {
    const run_result explained = run_shufl({"deck", "--explain", "--seed", seed});
    const run_result committed = run_shufl({"deck", "--commit", "--seed", seed, "--deal", "1x1"});
    ASSERT_EQ(explained.status, 0) << explained.err;
    ASSERT_EQ(committed.status, 0) << committed.err;
    EXPECT_NE(explained.err.find("shufl: warning: --seed '" + seed + "' "), std::string::npos) << explained.err;
    EXPECT_NE(explained.err.find(words), std::string::npos) << explained.err;
    EXPECT_EQ(explained.err, committed.err);
    // The verdict no longer calls the seed space large enough.
    EXPECT_EQ(explained.out.find("large enough"), std::string::npos) << explained.out;
    EXPECT_NE(explained.out.find("this seed is guessable (" + std::string("--seed '") + seed), std::string::npos)
        << explained.out;
    const auto j = nlohmann::json::parse(run_shufl({"deck", "--explain", "--format", "json", "--seed", seed}).out);
    EXPECT_NE(j["seed_warning"].get<std::string>().find(words), std::string::npos);
  }
  const std::string strong = "plum orchard thunder 77 violet";
  const run_result explained = run_shufl({"deck", "--explain", "--seed", strong});
  const run_result committed = run_shufl({"deck", "--commit", "--seed", strong, "--deal", "1x1"});
  EXPECT_EQ(explained.err, "");
  EXPECT_EQ(committed.err, "");
  EXPECT_NE(explained.out.find("large enough"), std::string::npos) << explained.out;
  EXPECT_TRUE(nlohmann::json::parse(run_shufl({"deck", "--explain", "--format", "json"}).out)["seed_warning"].is_null());
}

// The version-2 commitment of a run, recomputed by Python's hashlib from the documented recipe
// (an independent implementation of BLAKE2b and of the message layout).
std::string python_commitment(const std::string& parameters, const std::string& seed) {
  const auto r = run_shell(
      "python3 -c 'import hashlib,sys; print(hashlib.blake2b((sys.argv[1] + \"\\n\" + sys.argv[2]).encode(), "
      "digest_size=32, person=b\"shufl-deck-cmt-2\").hexdigest())' '" + parameters + "' '" + seed + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out.empty() ? r.out : r.out.substr(0, r.out.size() - 1);
}

std::string python_deck_digest(const std::string& codes) {
  const auto r = run_shell("python3 -c 'import hashlib,sys; print(hashlib.blake2b(sys.argv[1].encode(), "
                           "digest_size=32).hexdigest())' '" + codes + "'");
  return r.out.empty() ? r.out : r.out.substr(0, r.out.size() - 1);
}

TEST(DeckE2E, CommitThenVerify) {
  const run_result r = run_shufl({"deck", "--commit", "--deal", "2x5", "--burn", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto ls = lines(r.out);
  ASSERT_EQ(ls.size(), 7u);
  ASSERT_EQ(ls[0].rfind("commitment: ", 0), 0u);
  const std::string commitment = ls[0].substr(12);
  ASSERT_EQ(commitment.size(), 64u);
  ASSERT_EQ(ls[1].rfind("committed to: ", 0), 0u);
  const std::string parameters = ls[1].substr(14);
  ASSERT_EQ(ls[6].rfind("seed: ", 0), 0u);
  const std::string seed = ls[6].substr(6, 64);
  // F07: version 2 binds the engine, the deck and the deal; Python recomputes it from the docs.
  EXPECT_EQ(parameters.rfind("shufl-deck-cmt-2 engine=chacha20 cards=52 deck=", 0), 0u) << parameters;
  EXPECT_EQ(parameters.substr(parameters.size() - 15), "deal=2x5 burn=1");
  EXPECT_EQ(python_commitment(parameters, seed), commitment);
  EXPECT_EQ(deal_commitment(parameters, seed), commitment);
  EXPECT_NE(seed_commitment(seed), commitment);

  // A player re-runs with the revealed seed: the commitment checks and the deal is identical.
  const run_result v = run_shufl({"deck", "--verify-commit", commitment, "--seed", seed, "--deal", "2x5", "--burn", "1"});
  ASSERT_EQ(v.status, 0) << v.err;
  const auto vl = lines(v.out);
  ASSERT_EQ(vl.size(), 5u);
  EXPECT_EQ(vl[0], "commitment: " + commitment + " (verified: matches the seed, engine, deck and deal)");
  for (std::size_t i = 1; i < 5; ++i) EXPECT_EQ(vl[i], ls[i + 1]);

  // A changed seed (or a changed commitment) is caught, with nothing dealt.
  std::string other = seed;
  other[0] = other[0] == '0' ? '1' : '0';
  expect_clean_error({"deck", "--verify-commit", commitment, "--seed", other, "--deal", "2x5", "--burn", "1"},
                     "does not match");
  expect_clean_error({"deck", "--verify-commit", commitment, "--deal", "2x5"}, "--seed");
  expect_clean_error({"deck", "--commit", "--verify-commit", commitment, "--seed", seed});
  expect_clean_error({"deck", "--commit", "--rng", "mt19937"});
  // F07: another engine, deck or deal than the one committed to is refused; so is an empty or
  // malformed commitment.
  expect_clean_error({"deck", "--verify-commit", commitment, "--seed", seed, "--deal", "2x5", "--burn", "1",
                      "--rng", "minstd"}, "does not match");
  expect_clean_error({"deck", "--verify-commit", commitment, "--seed", seed, "--deal", "2x5", "--burn", "1",
                      "--rng", "xoshiro256pp"}, "does not match");
  expect_clean_error({"deck", "--verify-commit", commitment, "--seed", seed, "--deal", "2x5"}, "does not match");
  expect_clean_error({"deck", "--verify-commit", commitment, "--seed", seed, "--deal", "2x5", "--burn", "1",
                      "--jokers", "2"}, "does not match");
  expect_clean_error({"deck", "--verify-commit", "", "--seed", seed, "--deal", "2x5"}, "--verify-commit");
  expect_clean_error({"deck", "--verify-commit", commitment.substr(1), "--seed", seed}, "64 hex digits");
  // F07 as handed: a commitment from the default engine, verified with --rng minstd.
  const run_result f07 = run_shufl({"deck", "--commit", "--deal", "2x2", "--seed", "f07-seed-long-enough"});
  ASSERT_EQ(f07.status, 0) << f07.err;
  expect_clean_error({"deck", "--verify-commit", lines(f07.out)[0].substr(12), "--seed", "f07-seed-long-enough",
                      "--deal", "2x2", "--rng", "minstd"}, "does not match");

  // Version 1 (the seed alone, from earlier releases) verifies only with chacha20, its engine.
  const std::string v1 = seed_commitment("42");
  const run_result old = run_shufl({"deck", "--verify-commit", v1, "--seed", "42", "--deal", "2x2"});
  EXPECT_EQ(old.status, 0) << old.err;
  EXPECT_EQ(lines(old.out)[0], "commitment: " + v1 + " (verified: matches the seed)");
  EXPECT_NE(old.err.find("version-1"), std::string::npos) << old.err;
  expect_clean_error({"deck", "--verify-commit", v1, "--seed", "42", "--deal", "2x2", "--rng", "minstd"},
                     "version-1 commitment, made with chacha20");

  // With a short user seed: the commitment still works, and a warning says it is guessable.
  const run_result s = run_shufl({"deck", "--commit", "--seed", "42", "--deal", "1x1"});
  ASSERT_EQ(s.status, 0);
  const auto sl = lines(s.out);
  EXPECT_EQ(sl[0], "commitment: " + python_commitment(sl[1].substr(14), "42"));
  EXPECT_NE(s.err.find("warning"), std::string::npos);
  // The deck digest is BLAKE2b-256 of the card codes joined by newlines (Python again).
  // Canonical order (deck.hpp): suits s h d c, each from the Ace up to the King.
  std::string euchre_codes;
  for (const char* suit : {"s", "h", "d", "c"}) {
    for (const char* rank : {"A", "9", "T", "J", "Q", "K"}) euchre_codes += std::string(euchre_codes.empty() ? "" : "\n") + rank + suit;
  }
  EXPECT_EQ(deck_digest(make_pack(pack_kind::euchre)), python_deck_digest(euchre_codes));

  const auto j = nlohmann::ordered_json::parse(run_shufl({"deck", "--commit", "--format", "json"}).out);
  EXPECT_EQ(j.begin().key(), "commitment");
  EXPECT_EQ(deal_commitment(j["commitment_parameters"].get<std::string>(), j["seed"].get<std::string>()),
            j["commitment"]);
}

TEST(DeckE2E, BadOptionsAreOneLineErrors) {
  expect_clean_error({"deck", "--decks", "0"});
  expect_clean_error({"deck", "--decks", "-1"}, "--decks");
  expect_clean_error({"deck", "--decks", "1e3"}, "--decks");
  expect_clean_error({"deck", "--decks", "99999999999999999999"}, "too large");
  expect_clean_error({"deck", "--decks", "1000000"}, "too large");
  expect_clean_error({"deck", "--deal", "4y5"}, "HANDSxCARDS");
  expect_clean_error({"deck", "--deal", "-4x5"}, "HANDSxCARDS");
  expect_clean_error({"deck", "--deal", "0x5"});
  expect_clean_error({"deck", "--burn", "2"}, "--deal");
  expect_clean_error({"deck", "--style", "emoji"}, "unknown style");
  expect_clean_error({"deck", "--format", "xml"}, "--format");
  expect_clean_error({"deck", "--pack", "tarto"}, "did you mean 'tarot'");
  expect_clean_error({"deck", "--rng", "mt1993"}, "did you mean 'mt19937'");
  expect_clean_error({"deck", "--pack", "tarot", "--jokers", "1"}, "tarot");
  expect_clean_error({"deck", "--cards", "a,b", "--pairs", "2"}, "choose one");
  expect_clean_error({"deck", "--symbols", "a,b"}, "--symbols");
  expect_clean_error({"deck", "--cards", "a,b", "--jokers", "1"}, "--jokers");
  expect_clean_error({"deck", "--explain", "--commit"});
}

TEST(DeckE2E, HeadEndsQuietly) {
  const run_result r = run_shell(shufl_binary() + " deck --decks 2000 | head -n 1");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(lines(r.out).size(), 1u);
  EXPECT_EQ(r.err, "");
  const run_result full = run_shell(shufl_binary() + " deck > /dev/full");
  EXPECT_EQ(full.status, 1);
  EXPECT_NE(full.err.find("write error"), std::string::npos);
}

// Golden seeded outputs: the same seed gives the same deck on every platform and release.
TEST(DeckE2E, GoldenSeededOutputs) {
  const int cases = check_golden_cases(shufl::test::source_dir() + "/tests/golden/deck",
                                       [](const std::vector<std::string>& words) {
                                         std::vector<std::string> args = {"deck"};
                                         args.insert(args.end(), words.begin(), words.end());
                                         return args;
                                       });
  EXPECT_GE(cases, 10);
}

}  // namespace
}  // namespace shufl::test

namespace shufl::test {
namespace {

// An explicitly empty --cards or --symbols list is an error, not the default deck.
TEST(DeckE2EReview, EmptyListsAreErrors) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"deck", "--cards", ""},
                                               std::vector<std::string>{"deck", "--pairs", "2", "--symbols", ""}}) {
    const auto r = run_shufl(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("is empty"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace shufl::test
