// `shufl audit --seed-search` end to end on code people write: real programs (CPython, a C program
// compiled here, PHP) deal with a starting order read from a file, the inside-out loop,
// random.sample, one list carried over from deal to deal, and PHP's shuffle(); each is found with
// its modifier (and not without it), its next cards predicted as the program dealt them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support/run.hpp"

namespace shufl::test {
namespace {

// Runs a Python program (Debian's python3 from PATH) and returns its lines.
std::vector<std::string> python_lines(const std::string& program) {
  const auto r = run_program("/usr/bin/env", {"python3", "-c", program});
  EXPECT_EQ(r.status, 0) << r.err;
  return lines(r.out);
}

std::string first_cards(const std::string& line, std::size_t k) { return line.substr(0, 3 * k - 1); }

// The found seed, and the predicted next deal (once) as the program dealt it.
void expect_found(const run_result& r, const std::string& seed, const std::string& next_deal_line) {
  EXPECT_EQ(r.status, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("FOUND: seed " + seed + " "), std::string::npos) << r.out;
  if (!next_deal_line.empty()) {
    EXPECT_NE(r.out.find(next_deal_line), std::string::npos) << r.out;
  }
}

TEST(E2eSeedSearchVariants, DeckOrderFromAFile) {
  temp_dir dir;
  // A deck built in an order of the program's own (a fixed permutation), written to a file.
  const auto rows = python_lines(
      "import random\n"
      "codes = [r + s for s in 'shdc' for r in 'A23456789TJQK']\n"
      "order = codes[:]; random.Random(99).shuffle(order)\n"
      "print(' '.join(order))\n"
      "random.seed(24680)\n"
      "for d in range(3):\n"
      "    deck = order[:]; random.shuffle(deck)\n"
      "    print(' '.join(deck))\n");
  ASSERT_EQ(rows.size(), 4u);
  const std::string order = dir.write("order.txt", rows[0] + "\n");
  const std::string seen = first_cards(rows[1], 5) + "\n" + first_cards(rows[2], 5) + "\n";
  const auto r = run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--dealt", "5",
                            "--deck-order", order, "--seeds", "20000..30000", "-"},
                           seen);
  expect_found(r, "24680", "Predicted next deal (deal 3):\n  " + rows[3] + "\n");
  EXPECT_EQ(run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--dealt", "5", "--seeds",
                       "20000..30000", "-"},
                      seen)
                .status,
            0);
  // A file that is not the pack's order is refused, naming the problem.
  const std::string short_file = dir.write("short.txt", "As 2s 3s\n");
  auto bad = run_shufl({"audit", "--seed-search", "python-random", "--dealt", "5", "--deck-order", short_file, "--seeds",
                        "0..9", "-"},
                       seen);
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("3 cards, the pack has 52"), std::string::npos) << bad.err;
  const std::string twice = dir.write("twice.txt", "As As\n");
  bad = run_shufl({"audit", "--seed-search", "python-random", "--dealt", "5", "--deck-order", twice, "--seeds", "0..9",
                   "-"},
                  seen);
  EXPECT_NE(bad.err.find("'As' appears twice"), std::string::npos) << bad.err;
  bad = run_shufl({"audit", "--seed-search", "python-random", "--dealt", "5", "--deck-order", dir.file("none.txt"),
                   "--seeds", "0..9", "-"},
                  seen);
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("none.txt"), std::string::npos) << bad.err;
}

// A custom pack (--cards-file) whose labels include standard card codes, and its starting order
// from a file: the labels are the pack's own cards, repeated labels are refused as "appears twice".
TEST(E2eSeedSearchVariants, DeckOrderFileOfACustomPack) {
  temp_dir dir;
  const auto rows = python_lines(
      "import random\n"
      "labels = ['red', 'green', 'blue', 'As', 'Kh', 'gold', 'jade', 'onyx']\n"
      "order = labels[::-1]\n"
      "random.seed(1234)\n"
      "for d in range(4):\n"
      "    deck = order[:]; random.shuffle(deck)\n"
      "    print(' '.join(deck))\n");
  ASSERT_EQ(rows.size(), 4u);
  const std::string pack = dir.write("pack.txt", "red\ngreen\nblue\nAs\nKh\ngold\njade\nonyx\n");
  const std::string order = dir.write("order.txt", "onyx jade gold Kh As blue green red\n");
  const auto r = run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--cards-file", pack,
                            "--deck-order", order, "--seeds", "0..2000", "-"},
                           rows[0] + "\n" + rows[1] + "\n" + rows[2] + "\n");
  expect_found(r, "1234", "Predicted next deal (deal 4):\n  " + rows[3] + "\n");
  const auto twice = run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--cards-file", pack,
                                "--deck-order", dir.write("twice.txt", "As As\n"), "--seeds", "0..9", "-"},
                               rows[0] + "\n");
  EXPECT_EQ(twice.status, 1);
  EXPECT_NE(twice.err.find("'As' appears twice"), std::string::npos) << twice.err;
}

// A C program with glibc rand() that builds its list inside-out (a[i] = a[j]; a[j] = i).
TEST(E2eSeedSearchVariants, InsideOutLoopOfARealCProgram) {
  temp_dir dir;
  const std::string source = dir.write("io.c",
      "#include <stdio.h>\n#include <stdlib.h>\n"
      "int main(int argc, char** argv) {\n"
      "  const char* suits = \"shdc\"; const char* ranks = \"A23456789TJQK\";\n"
      "  srand((unsigned)strtoul(argv[1], 0, 10));\n"
      "  for (int d = 0; d < 3; ++d) {\n"
      "    int a[52];\n"
      "    for (int i = 0; i < 52; ++i) { int j = rand() % (i + 1); a[i] = a[j]; a[j] = i; }\n"
      "    for (int c = 0; c < 52; ++c) printf(c ? \" %c%c\" : \"%c%c\", ranks[a[c] % 13], suits[a[c] / 13]);\n"
      "    printf(\"\\n\");\n"
      "  }\n"
      "  return 0;\n"
      "}\n");
  ASSERT_EQ(run_shell("cc -O2 -o " + dir.file("io") + " " + source).status, 0);
  const auto rows = lines(run_program(dir.file("io"), {"1796083321"}).out);
  ASSERT_EQ(rows.size(), 3u);
  const std::string seen = first_cards(rows[0], 5) + "\n" + first_cards(rows[1], 5) + "\n";
  const std::vector<std::string> args{"audit", "--seed-search", "c-rand", "--reseed", "once", "--dealt", "5", "--seeds",
                                      "time:2026-12-01T00:00:00Z..2026-12-01T01:00:00Z"};
  auto with = args;
  with.insert(with.end(), {"--loop", "inside-out", "-"});
  expect_found(run_shufl(with, seen), "1796083321", "Predicted next deal (deal 3):\n  " + rows[2] + "\n");
  auto without = args;
  without.push_back("-");
  EXPECT_EQ(run_shufl(without, seen).status, 0);
}

// CPython 3.11 random.sample: 5 cards use the set method, a whole-deck sample (sample:52) the pool.
TEST(E2eSeedSearchVariants, RandomSampleOfCPython) {
  const auto rows = python_lines(
      "import random\n"
      "codes = [r + s for s in 'shdc' for r in 'A23456789TJQK']\n"
      "random.seed(31415)\n"
      "for d in range(3): print(' '.join(random.sample(codes, 5)))\n"
      "random.seed(27182)\n"
      "for d in range(3): print(' '.join(random.sample(codes, 52)))\n");
  ASSERT_EQ(rows.size(), 6u);
  auto r = run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--loop", "sample", "--dealt", "5",
                      "--seeds", "30000..40000", "-"},
                     rows[0] + "\n" + rows[1] + "\n");
  expect_found(r, "31415", "Predicted next deal (deal 3):\n  " + rows[2] + "\n");
  EXPECT_NE(r.out.find("--loop sample:5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Deal 2: all 5 cards random.sample dealt were logged.\n"), std::string::npos) << r.out;
  // The whole-deck sample logged by its first 6 cards: sample:52, and the rest of it predicted.
  r = run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--loop", "sample:52", "--dealt", "6",
                 "--seeds", "27000..28000", "-"},
                first_cards(rows[3], 6) + "\n" + first_cards(rows[4], 6) + "\n");
  expect_found(r, "27182", "Predicted next deal (deal 3):\n  " + rows[5] + "\n");
  EXPECT_NE(r.out.find("Predicted rest of deal 2 (cards 7 to 52):\n  " + rows[4].substr(18) + "\n"), std::string::npos)
      << r.out;
  // Not with random.shuffle's loop; refused on another family, or asking fewer cards than logged.
  EXPECT_EQ(run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--dealt", "5", "--seeds",
                       "30000..40000", "-"},
                      rows[0] + "\n" + rows[1] + "\n")
                .status,
            0);
  auto bad = run_shufl({"audit", "--seed-search", "c-rand", "--loop", "sample", "--dealt", "5", "--seeds", "0..9", "-"},
                       rows[0] + "\n");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("it applies to python-random, not c-rand"), std::string::npos) << bad.err;
  bad = run_shufl({"audit", "--seed-search", "python-random", "--loop", "sample:3", "--dealt", "5", "--seeds", "0..9", "-"},
                  rows[0] + "\n");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("more than the 3 random.sample deals"), std::string::npos) << bad.err;
}

// One list shuffled again every deal without refilling (Python), found with --carry-over only.
TEST(E2eSeedSearchVariants, CarryOverOfOneListReshuffled) {
  const auto rows = python_lines(
      "import random\n"
      "codes = [r + s for s in 'shdc' for r in 'A23456789TJQK']\n"
      "random.seed(16180)\n"
      "deck = codes[:]\n"
      "for d in range(3):\n"
      "    random.shuffle(deck)\n"
      "    print(' '.join(deck))\n");
  ASSERT_EQ(rows.size(), 3u);
  const std::string seen = first_cards(rows[0], 5) + "\n" + first_cards(rows[1], 5) + "\n";
  const std::vector<std::string> args{"audit", "--seed-search", "python-random", "--reseed", "once", "--dealt", "5",
                                      "--seeds", "10000..20000"};
  auto with = args;
  with.insert(with.end(), {"--carry-over", "-"});
  const auto r = run_shufl(with, seen);
  expect_found(r, "16180", "Predicted next deal (deal 3):\n  " + rows[2] + "\n");
  EXPECT_NE(r.out.find("Carry-over: one list reshuffled every deal"), std::string::npos) << r.out;
  auto without = args;
  without.push_back("-");
  EXPECT_EQ(run_shufl(without, seen).status, 0);
  const auto bad = run_shufl({"audit", "--seed-search", "python-random", "--carry-over", "--dealt", "5", "--seeds",
                              "0..9", "-"},
                             seen);
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("--carry-over needs --reseed once"), std::string::npos) << bad.err;
}

// PHP: mt_srand(time()) and shuffle() of a deck built rank-major, dealt to a player who saw 5 cards.
TEST(E2eSeedSearchVariants, PhpShuffleOfARealProgram) {
  const auto r = run_program("/usr/bin/env", {"php", "-r",
      "mt_srand(1796090000); $c = [];"
      "foreach (str_split('A23456789TJQK') as $r) foreach (str_split('shdc') as $s) $c[] = $r . $s;"
      "for ($d = 0; $d < 3; $d++) { $a = $c; shuffle($a); echo implode(' ', $a), \"\\n\"; }"});
  ASSERT_EQ(r.status, 0) << r.err << " (scripts/setup.sh installs php-cli)";
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 3u);
  const std::string seen = first_cards(rows[0], 5) + "\n" + first_cards(rows[1], 5) + "\n";
  const auto found = run_shufl({"audit", "--seed-search", "php-mt-rand", "--reseed", "once", "--dealt", "5",
                                "--deck-order", "rank-major", "--seeds",
                                "time:2026-12-01T00:00:00Z..2026-12-01T23:59:59Z", "-"},
                               seen);
  expect_found(found, "1796090000", "Predicted next deal (deal 3):\n  " + rows[2] + "\n");
}

// dotnet-random's seeds are milliseconds since boot: uptime: windows, and time: refused with the why.
TEST(E2eSeedSearchVariants, UptimeWindowsOfDotnetRandom) {
  const auto r = run_shufl({"audit", "--seed-search", "dotnet-random", "--dealt", "5", "--seeds", "uptime:0..1m", "-"},
                           "As Kd Qh Jc Ts\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("seeds 0..60000 (milliseconds since boot of uptime:0..1m) (60,001 seeds)"), std::string::npos)
      << r.out;
  auto bad = run_shufl({"audit", "--seed-search", "dotnet-random", "--dealt", "5", "--seeds",
                        "time:2026-12-01T00:00:00Z..2026-12-01T00:01:00Z", "-"},
                       "As Kd Qh Jc Ts\n");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("milliseconds since boot (Environment.TickCount), not a clock time: give uptime:A..B"),
            std::string::npos)
      << bad.err;
  bad = run_shufl({"audit", "--seed-search", "c-rand", "--dealt", "5", "--seeds", "uptime:0..1m", "-"}, "As Kd Qh Jc Ts\n");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("uptime: ranges are for dotnet-random"), std::string::npos) << bad.err;
}

// A C program that differs from c-rand in four ways at once (deck rank-major:cdhs aces high, the
// upward loop, rand() / (RAND_MAX / k + 1), one deck carried over): --try-variants finds it,
// states its cost first, and counts every variant in E.
TEST(E2eSeedSearchVariants, TryVariantsFindsEveryModifierAtOnce) {
  temp_dir dir;
  const std::string source = dir.write("tv.c",
      "#include <stdio.h>\n#include <stdlib.h>\n"
      "int main(int argc, char** argv) {\n"
      "  const char* suits = \"cdhs\"; const char* ranks = \"23456789TJQKA\";\n"
      "  srand((unsigned)strtoul(argv[1], 0, 10));\n"
      "  char deck[52][3]; int n = 0;\n"
      "  for (int r = 0; r < 13; ++r) for (int s = 0; s < 4; ++s) { deck[n][0] = ranks[r]; deck[n][1] = suits[s]; deck[n][2] = 0; ++n; }\n"
      "  for (int d = 0; d < 3; ++d) {\n"
      "    for (int i = 0; i < 51; ++i) { int j = i + rand() / (RAND_MAX / (52 - i) + 1); char t0 = deck[i][0], t1 = deck[i][1];\n"
      "      deck[i][0] = deck[j][0]; deck[i][1] = deck[j][1]; deck[j][0] = t0; deck[j][1] = t1; }\n"
      "    for (int c = 0; c < 52; ++c) printf(c ? \" %s\" : \"%s\", deck[c]);\n"
      "    printf(\"\\n\");\n"
      "  }\n"
      "  return 0;\n"
      "}\n");
  ASSERT_EQ(run_shell("cc -O2 -o " + dir.file("tv") + " " + source).status, 0);
  const auto rows = lines(run_program(dir.file("tv"), {"1796090123"}).out);
  ASSERT_EQ(rows.size(), 3u);
  const std::string seen = first_cards(rows[0], 6) + "\n" + first_cards(rows[1], 6) + "\n";
  const std::vector<std::string> args{"audit", "--seed-search", "c-rand", "--reseed", "once", "--dealt", "6", "--seeds",
                                      "time:2026-12-01T01:50:00Z..2026-12-01T02:00:00Z"};
  auto with = args;
  with.insert(with.end(), {"--try-variants", "-"});
  const auto r = run_shufl(with, seen);
  expect_found(r, "1796090123", "Predicted next deal (deal 3):\n  " + rows[2] + "\n");
  EXPECT_EQ(r.err.rfind("shufl: --try-variants: 1536 variants of c-rand (8 loops and draws x 96 deck orders x "
                        "carry-over off and on)", 0),
            0u)
      << r.err;
  EXPECT_NE(r.out.find("Deck order: the list starts rank-major:cdhs:23456789TJQKA\n"
                       "Variant: --loop up --reduce div (in place of the family's loop and draw)\nCarry-over:"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("H = 1536 variants, S = 601 distinct seeds"), std::string::npos) << r.out;
  // JSON: H is the variants' count in E; 2 deals of 6 cards over 601 seeds and 1536 variants.
  with.insert(with.end() - 1, {"--format", "json"});
  const auto j = nlohmann::json::parse(run_shufl(with, seen).out)["seed_search"];
  EXPECT_EQ(j["variants_tried"], 1536);
  EXPECT_EQ(j["chance"]["variants"], 1536);
  const double e = 1536.0 * 601 / (52.0 * 51 * 50 * 49 * 48 * 47) / (52.0 * 51 * 50 * 49 * 48 * 47);
  EXPECT_NEAR(j["chance"]["expected_chance_matches"]["value"].get<double>() / e, 1.0, 1e-9);
  EXPECT_EQ(j["loop"], "up");
  EXPECT_EQ(j["reduce"], "div");
  EXPECT_EQ(j["carry_over"], true);
  // Refused with the modifiers it varies itself.
  auto bad = args;
  bad.insert(bad.end(), {"--try-variants", "--loop", "up", "-"});
  const auto refused = run_shufl(bad, seen);
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.err.find("--try-variants tries every --loop, --reduce and --carry-over"), std::string::npos)
      << refused.err;
}

}  // namespace
}  // namespace shufl::test
