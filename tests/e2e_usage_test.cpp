// End-to-end tests of usage errors and option conventions of the CLI11 subcommands (issue 13):
// U03 "did you mean" for commands and options, `shufl help [COMMAND]`; U04 `-n`, typed help
// placeholders, counts in scientific notation (and `lines -n 1e6` staying GNU's error).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <regex>
#include <cstdint>
#include <set>

#include "support/run.hpp"

namespace shufl {
namespace {

using test::run_shufl;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The long options a --help text lists ("--trials", ...), in order, without duplicates.
std::vector<std::string> long_options(const std::string& help) {
  std::vector<std::string> out;
  const std::regex row(R"(^  (-[^ ,]*(?:, -[^ ,]*)*))");
  const std::regex name(R"(--[a-z][a-z0-9-]*)");
  for (const auto& line : test::lines(help)) {
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    const std::string names = m[1].str();
    for (auto it = std::sregex_iterator(names.begin(), names.end(), name); it != std::sregex_iterator(); ++it) {
      if (std::find(out.begin(), out.end(), it->str()) == out.end()) out.push_back(it->str());
    }
  }
  return out;
}

// Levenshtein distance, written here independently of src/error.cpp.
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u)});
    }
  }
  return d[a.size()][b.size()];
}

// U03: the handed cases, word for word.
TEST(E2eUsage, U03HandedCases) {
  const auto bais = run_shufl({"bais"});
  EXPECT_EQ(bais.status, 1);
  EXPECT_EQ(bais.out, "");
  EXPECT_EQ(bais.err,
            "shufl: unknown command 'bais'; did you mean 'bias'? (valid: lines, bias, deck, trace, audit, help)\n"
            "Try 'shufl --help' for more information.\n");
  const auto trails = run_shufl({"bias", "--trails", "1000"});
  EXPECT_EQ(trails.status, 1);
  EXPECT_EQ(trails.out, "");
  EXPECT_EQ(trails.err,
            "shufl: unrecognized option '--trails'; did you mean '--trials'?\n"
            "Try 'shufl bias --help' for more information.\n");
  const auto help = run_shufl({"help", "bias"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.err, "");
  EXPECT_TRUE(help.out.starts_with("Run shuffle algorithms")) << help.out;
}

// U03, the kind: every command with one letter dropped, doubled or two letters swapped gets its
// name suggested; a word near nothing gets no suggestion but the list.
TEST(E2eUsage, U03MistypedCommandsGetTheClosest) {
  for (const std::string command : {"lines", "bias", "deck", "trace", "help"}) {
    std::vector<std::string> typos = {command.substr(0, command.size() - 1), command + command.back(),
                                      command.substr(0, 1) + command[2] + command[1] + command.substr(3)};
    for (const auto& typo : typos) {
      const auto r = run_shufl({typo, "--help"});
      EXPECT_EQ(r.status, 1) << typo;
      EXPECT_EQ(r.out, "") << typo;
      EXPECT_TRUE(contains(r.err, "shufl: unknown command '" + typo + "'; did you mean '" + command + "'?"))
          << typo << ": " << r.err;
      EXPECT_TRUE(r.err.ends_with("\nTry 'shufl --help' for more information.\n")) << r.err;
    }
  }
  const auto far = run_shufl({"frobnicate"});
  EXPECT_EQ(far.status, 1);
  EXPECT_EQ(far.err,
            "shufl: unknown command 'frobnicate' (valid: lines, bias, deck, trace, audit, help)\n"
            "Try 'shufl --help' for more information.\n");
  const auto none = run_shufl({});
  EXPECT_EQ(none.status, 1);
  EXPECT_EQ(none.out, "");
  EXPECT_TRUE(contains(none.err, "missing command")) << none.err;
  const auto top = run_shufl({"--sead", "1"});
  EXPECT_EQ(top.status, 1);
  EXPECT_EQ(top.err, "shufl: unrecognized option '--sead'\nTry 'shufl --help' for more information.\n");
}

// U03, the kind: for every long option of bias, deck and trace (read from their --help), a typo
// (a letter dropped; two letters swapped) is answered with an option at the least edit distance
// from the typo, the intended one whenever it is strictly closest; `--typo=VALUE` too; the hint
// names the subcommand's help. Nothing runs, nothing is printed on stdout.
TEST(E2eUsage, U03MistypedOptionsGetTheClosest) {
  for (const std::string sub : {"bias", "deck", "trace"}) {
    const auto help = run_shufl({sub, "--help"});
    ASSERT_EQ(help.status, 0);
    const auto options = long_options(help.out);
    std::string listed;
    for (const auto& o : options) listed += o + " ";
    ASSERT_GT(options.size(), 4u) << sub << ": " << listed;
    for (const auto& option : options) {
      if (option.size() < 6) continue;  // "--n", "--rng": too short for a meaningful typo
      std::vector<std::string> typos;
      typos.push_back(option.substr(0, 4) + option.substr(5));  // drop the 3rd letter
      std::string swapped = option;
      std::swap(swapped[3], swapped[4]);
      if (swapped != option) typos.push_back(swapped);
      for (const auto& typo : typos) {
        std::size_t best = SIZE_MAX;
        for (const auto& o : options) best = std::min(best, distance(typo, o));
        for (const bool with_value : {false, true}) {
          const std::string arg = with_value ? typo + "=1" : typo;
          const auto r = run_shufl({sub, arg});
          EXPECT_EQ(r.status, 1) << arg;
          EXPECT_EQ(r.out, "") << arg;
          const std::regex message("shufl: unrecognized option '" + std::regex_replace(arg, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                                   "'; did you mean '(--[a-z-]+)'\\?\nTry 'shufl " + sub +
                                   " --help' for more information.\n");
          std::smatch m;
          ASSERT_TRUE(std::regex_match(r.err, m, message)) << arg << ": " << r.err;
          EXPECT_EQ(distance(typo, m[1].str()), best) << arg << " -> " << m[1].str();
          std::size_t tied = 0;
          for (const auto& o : options) tied += distance(typo, o) == best;
          if (tied == 1) {
            EXPECT_EQ(m[1].str(), option) << arg;
          }
        }
      }
    }
  }
  // An operand a subcommand does not take, and a missing value, also point at that help.
  const auto operand = run_shufl({"bias", "foo"});
  EXPECT_EQ(operand.status, 1);
  EXPECT_EQ(operand.err, "shufl: unexpected argument 'foo'\nTry 'shufl bias --help' for more information.\n");
  const auto missing = run_shufl({"deck", "--deal"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_EQ(missing.err, "shufl: option '--deal' requires an argument\nTry 'shufl deck --help' for more information.\n");
  const auto twice = run_shufl({"bias", "-n", "3", "--n", "4"});
  EXPECT_EQ(twice.status, 1);
  EXPECT_EQ(twice.err, "shufl: option '--n' given more than once\nTry 'shufl bias --help' for more information.\n");
  // A short option near nothing: no suggestion.
  const auto short_option = run_shufl({"trace", "-x"});
  EXPECT_EQ(short_option.err, "shufl: unrecognized option '-x'\nTry 'shufl trace --help' for more information.\n");
}

// U03: `shufl help COMMAND` prints exactly `shufl COMMAND --help`; `shufl help` is `shufl --help`.
TEST(E2eUsage, U03HelpCommandIsCommandHelp) {
  for (const std::string sub : {"lines", "bias", "deck", "trace"}) {
    const auto direct = run_shufl({sub, "--help"});
    const auto via = run_shufl({"help", sub});
    EXPECT_EQ(via.status, 0) << sub;
    EXPECT_EQ(via.status, direct.status) << sub;
    EXPECT_EQ(via.out, direct.out) << sub;
    EXPECT_EQ(via.err, "") << sub;
    EXPECT_FALSE(via.out.empty());
  }
  const auto top = run_shufl({"help"});
  EXPECT_EQ(top.status, 0);
  EXPECT_EQ(top.out, run_shufl({"--help"}).out);
  EXPECT_TRUE(contains(top.out, "help")) << top.out;
  const auto typo = run_shufl({"help", "dekc"});
  EXPECT_EQ(typo.status, 1);
  EXPECT_EQ(typo.out, "");
  EXPECT_TRUE(contains(typo.err, "unknown command 'dekc'; did you mean 'deck'?")) << typo.err;
  EXPECT_EQ(run_shufl({"help", "bias", "deck"}).status, 1);
}

// U04: the handed case: `bias -n 4 --trials 1e6` works (here 2.4e4, to stay fast) and is the
// same run as `--n 4 --trials 24000`; trace takes -n too.
TEST(E2eUsage, U04ShortNAndScientificCounts) {
  const auto plain = run_shufl({"bias", "--n", "4", "--trials", "24000", "--seed", "1", "--algo", "naive", "--format", "json"});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_TRUE(contains(plain.out, "\"trials\": 24000")) << plain.out.substr(0, 400);
  for (const std::string trials : {"2.4e4", "24E3", "2.40e+4", "0.024e6", "24000e0", "2.4000e4", "24.e3"}) {
    const auto r = run_shufl({"bias", "-n", "4", "--trials", trials, "--seed", "1", "--algo", "naive", "--format", "json"});
    EXPECT_EQ(r.status, 0) << trials << ": " << r.err;
    EXPECT_EQ(r.out, plain.out) << trials;
  }
  // --monte-carlo likewise.
  const auto mc = run_shufl({"bias", "-n", "3", "--trials", "20", "--seed", "1", "--algo", "naive", "--monte-carlo", "200", "--format", "json"});
  ASSERT_EQ(mc.status, 0) << mc.err;
  const auto mc_e = run_shufl({"bias", "-n", "3", "--trials", "20", "--seed", "1", "--algo", "naive", "--monte-carlo", "2e2", "--format", "json"});
  EXPECT_EQ(mc_e.status, 0) << mc_e.err;
  EXPECT_EQ(mc_e.out, mc.out);
  // -n in trace is --n.
  const auto trace_long = run_shufl({"trace", "--n", "6", "--seed", "s"});
  const auto trace_short = run_shufl({"trace", "-n", "6", "--seed", "s"});
  EXPECT_EQ(trace_long.status, 0);
  EXPECT_EQ(trace_short.out, trace_long.out);
  EXPECT_EQ(run_shufl({"trace", "-n6", "--seed", "s"}).out, trace_long.out);
}

// U04: only exact integers: a fraction, a negative exponent that leaves a fraction, junk, and
// overflow past 2^64 - 1 are one-line errors naming the option; nothing on stdout.
TEST(E2eUsage, U04ScientificCountsMustBeWholeNumbers) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"1.5e0", "not a whole number"}, {"1e-3", "expected a non-negative integer"}, {"1.25e1", "not a whole number"},
      {"1e", "expected a non-negative integer"}, {"e5", "expected a non-negative integer"},
      {"-1e3", "expected a non-negative integer"}, {"1e3.0", "expected a non-negative integer"},
      {"1e20", "too large"}, {"18446744073709551616e0", "too large"}, {"0x1p3", "expected a non-negative"},
      {" 1e3", "expected a non-negative"}, {"1e3 ", "expected a non-negative"}, {"inf", "expected a non-negative"}};
  for (const auto& [text, why] : cases) {
    for (const std::string option : {"--trials", "--monte-carlo"}) {
      const auto r = run_shufl({"bias", "-n", "3", option, text});
      EXPECT_EQ(r.status, 1) << option << " " << text;
      EXPECT_EQ(r.out, "") << text;
      EXPECT_TRUE(r.err.starts_with("shufl: invalid value '" + text + "' for " + option + ": ")) << r.err;
      EXPECT_TRUE(contains(r.err, why)) << text << ": " << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
  }
  // 1.5e3 is the whole number 1500: accepted, the same run as 1500.
  const auto a = run_shufl({"bias", "-n", "3", "--trials", "1.5e3", "--seed", "1", "--format", "csv"});
  const auto b = run_shufl({"bias", "-n", "3", "--trials", "1500", "--seed", "1", "--format", "csv"});
  EXPECT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
}

// U04: `shufl lines -n 1e6` keeps GNU's number rules: the same error as /usr/bin/shuf.
TEST(E2eUsage, U04LinesCountStaysGnu) {
  const auto gnu = test::run_program("/usr/bin/shuf", {"-n", "1e6"}, "a\n", "shuf");
  const auto ours = test::run_program(test::shufl_binary(), {"-n", "1e6"}, "a\n", "shuf");
  ASSERT_EQ(gnu.status, 1) << "oracle: " << gnu.err;
  EXPECT_EQ(ours.status, gnu.status);
  EXPECT_EQ(ours.out, "");
  EXPECT_EQ(ours.err, gnu.err);
  const auto lines = run_shufl({"lines", "-n", "1e6"}, "a\n");
  EXPECT_EQ(lines.status, 1);
  EXPECT_EQ("shuf" + lines.err.substr(5), gnu.err);
}

// U04: help shows typed placeholders (N, FLOAT, FILE, LIST, SEED, ...), never CLI11's TEXT,
// UINT or INT; names are joined by ", "; every line of the option list fits 80 columns.
TEST(E2eUsage, U04HelpPlaceholders) {
  for (const std::string sub : {"bias", "deck", "trace"}) {
    const auto r = run_shufl({sub, "--help"});
    ASSERT_EQ(r.status, 0);
    const std::string options = r.out.substr(0, r.out.find("\n\n\n"));
    for (const std::string cli11 : {"TEXT", "UINT", " INT", "ENUM", "BOOLEAN"}) {
      EXPECT_FALSE(contains(options, cli11)) << sub << " --help shows " << cli11 << ":\n" << options;
    }
    EXPECT_TRUE(contains(options, "\n  -h, --help ")) << options;
    EXPECT_FALSE(contains(options, ",-")) << options;
    for (const auto& line : test::lines(options)) EXPECT_LE(line.size(), 80u) << sub << ": " << line;
    EXPECT_TRUE(contains(options, "--seed SEED")) << options;
  }
  const auto bias = run_shufl({"bias", "--help"}).out;
  for (const std::string want : {"-n, --n N=3 ", "--trials N=60000 ", "--alpha FLOAT=0.01 ", "--input FILE ",
                                 "--algo LIST=fisher-yates,naive", "--monte-carlo N ", "--threads N "}) {
    EXPECT_TRUE(contains(bias, want)) << want;
  }
  EXPECT_TRUE(contains(run_shufl({"trace", "--help"}).out, "-n, --n N "));
  EXPECT_TRUE(contains(run_shufl({"deck", "--help"}).out, "--cards-file FILE "));
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// Display columns of the test strings below, computed here without utf8proc: CJK ideographs
// (U+4E00..U+9FFF) take 2 columns, every other code point 1.
std::size_t columns_of(const std::string& s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    std::uint32_t cp = len == 1 ? c : (c & (0x7F >> len));
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    w += cp >= 0x4E00 && cp <= 0x9FFF ? 2 : 1;
    i += len;
  }
  return w;
}

// U06: `deck --deal 4x5 --style name`: each card's name is delimited (", "), so every hand splits
// into exactly 5 names of the form "RANK of SUIT", 52 distinct cards in all.
TEST(E2eUsage, U06NameStyleCardsAreDelimited) {
  const auto r = run_shufl({"deck", "--deal", "4x5", "--style", "name", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::regex name("(Ace|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King) of (Spades|Hearts|Diamonds|Clubs)");
  std::set<std::string> seen;
  std::size_t dealt = 0;
  for (const auto& line : test::lines(r.out)) {
    const auto colon = line.find(": ");
    ASSERT_NE(colon, std::string::npos) << line;
    std::vector<std::string> cards;
    std::string rest = line.substr(colon + 2);
    for (std::size_t at; (at = rest.find(", ")) != std::string::npos; rest = rest.substr(at + 2)) cards.push_back(rest.substr(0, at));
    cards.push_back(rest);
    if (line.starts_with("hand ")) {
      EXPECT_EQ(cards.size(), 5u) << line;
      dealt += cards.size();
    } else {
      EXPECT_TRUE(line.starts_with("stock: ")) << line;
      EXPECT_EQ(cards.size(), 32u) << line;
    }
    for (const auto& c : cards) {
      EXPECT_TRUE(std::regex_match(c, name)) << "'" << c << "' in " << line;
      seen.insert(c);
    }
  }
  EXPECT_EQ(dealt, 20u);
  EXPECT_EQ(seen.size(), 52u);
  // The default code style keeps one space between cards.
  const auto code = run_shufl({"deck", "--deal", "4x5", "--seed", "1"});
  EXPECT_EQ(test::lines(code.out).front().size(), std::string("hand 1: ").size() + 5 * 2 + 4);
}

// U06: a memory grid with a two-word symbol, a wide (CJK) one and an accented one: cells are
// separated by " | " and every column starts at the same display column in every row.
TEST(E2eUsage, U06GridColumnsAlignByDisplayWidth) {
  const auto r = run_shufl({"deck", "--grid", "3x4", "--symbols", "big cat,dog,\xc3\xa9t\xc3\xa9,\xe6\x97\xa5\xe6\x9c\xac,x,yy", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = test::lines(r.out);
  ASSERT_EQ(rows.size(), 3u) << r.out;
  std::vector<std::vector<std::size_t>> starts;
  for (const auto& row : rows) {
    std::vector<std::size_t> s;
    for (std::size_t at = row.find(" | "); at != std::string::npos; at = row.find(" | ", at + 3)) {
      s.push_back(columns_of(row.substr(0, at)));
    }
    EXPECT_EQ(s.size(), 3u) << row;
    EXPECT_FALSE(row.ends_with(" ")) << row;
    starts.push_back(s);
  }
  EXPECT_EQ(starts[0], starts[1]) << r.out;
  EXPECT_EQ(starts[1], starts[2]) << r.out;
}

// U06: trace rows stay columns for n >= 20: numbers are right-aligned to a common width, so
// every row of the naive shuffle (no finalized region) has the same width and each item of the
// start row is right-aligned under the same column.
TEST(E2eUsage, U06TraceColumnsForLargeN) {
  const auto r = run_shufl({"trace", "-n", "24", "--algo", "naive", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> rows;
  for (const auto& line : test::lines(r.out)) {
    if (line.starts_with("start ") || line.starts_with("step ")) rows.push_back(line);
  }
  ASSERT_EQ(rows.size(), 25u);
  for (const auto& row : rows) EXPECT_EQ(row.size(), rows.front().size()) << row;
  // The start row ends with "... 9 10 11 ... 24" right-aligned in 3-column cells.
  EXPECT_TRUE(rows.front().ends_with("  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24")) << rows.front();
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// Issue 13 item 8: `--exact --algo riffle:1..10` states each K's distance without printing the
// same two 52-card decks ten times: each deck once, then "the same as above".
TEST(E2eUsage, ExactRiffleRangeDoesNotRepeatDecks) {
  const auto r = run_shufl({"bias", "--n", "52", "--exact", "--algo", "riffle:1..10"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::string identity;
  for (int k = 1; k <= 52; ++k) identity += (k > 1 ? "," : "") + std::to_string(k);
  std::size_t identity_lines = 0, same = 0, distances = 0;
  for (const auto& line : test::lines(r.out)) {
    identity_lines += contains(line, identity);
    same += contains(line, "deck:  the same as above") || contains(line, "deck: the same as above");
    distances += line.starts_with("  total variation distance from uniform: ");
  }
  EXPECT_EQ(identity_lines, 1u) << r.out;
  EXPECT_EQ(same, 18u) << r.out;
  EXPECT_EQ(distances, 10u);
  // The Bayer-Diaconis value after 7 riffles (README): TV 0.3340609995.
  EXPECT_TRUE(contains(r.out, "total variation distance from uniform: 0.3340609995")) << r.out;
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// Issue 13 item 8: a range of riffles under --exact ends with a K-versus-distance table. The
// distances are Bayer and Diaconis's (1992, "Trailing the dovetail shuffle to its lair", Table 1,
// 52 cards: 1.000 1.000 1.000 1.000 .924 .614 .334 .167 .085 .043), here to 10 decimals.
TEST(E2eUsage, ExactRiffleRangeEndsWithAKVersusDistanceTable) {
  const auto r = run_shufl({"bias", "--n", "52", "--exact", "--algo", "riffle:1..10"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto at = r.out.find("\nriffle:K, exact total variation distance from uniform (n = 52):\n");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string table = r.out.substr(at);
  const char* expected[] = {"1.00", "1.00", "1.00", "1.00", "0.92", "0.61", "0.33", "0.17", "0.09", "0.04"};
  for (int k = 1; k <= 10; ++k) {
    const std::string row = fmt::format("\n  {:>4}  ", k);
    const auto p = table.find(row);
    ASSERT_NE(p, std::string::npos) << "no row for K = " << k << ":\n" << table;
    const double distance = std::stod(table.substr(p + row.size(), 12));
    EXPECT_NEAR(distance, std::stod(expected[k - 1]), 0.006) << "K = " << k;
    EXPECT_TRUE(contains(table.substr(p + 1, table.find('\n', p + 1) - p - 1), "biased")) << "K = " << k;
  }
  EXPECT_NE(table.find("     7  0.3340609995    biased\n"), std::string::npos) << table;
  // One algorithm, or two, or a mix of families: no table.
  EXPECT_FALSE(contains(run_shufl({"bias", "--n", "8", "--exact", "--algo", "riffle:1,riffle:2"}).out, "riffle:K,"));
  EXPECT_FALSE(contains(run_shufl({"bias", "--n", "5", "--exact", "--algo", "riffle:1,riffle:2,naive"}).out, "K,"));
}

}  // namespace
}  // namespace shufl
