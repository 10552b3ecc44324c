// `shufl audit --seed-search` end to end: deals made by the real CPython random module, found
// seeds, predicted cards checked against Python's own next deal, the not-found wording, JSON,
// shards and refusals.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support/run.hpp"

namespace shufl::test {
namespace {

// Python: random.seed(SEED) once (per_deal: before every deal, SEED + 90·d), DEALS fresh decks
// shuffled, each printed as its first K cards in poker codes; deal DEALS + 1 printed whole last
// when `extra`.
std::string python_deals(long long seed, int deals, int k, bool per_deal, bool extra = false) {
  const std::string program =
      "import random, sys\n"
      "seed, deals, k, per_deal, extra = " + std::to_string(seed) + ", " + std::to_string(deals) + ", " +
      std::to_string(k) + ", " + (per_deal ? "True" : "False") + ", " + (extra ? "True" : "False") + "\n"
      "codes = [r + s for s in 'shdc' for r in 'A23456789TJQK']\n"
      "random.seed(seed)\n"
      "for d in range(deals + (1 if extra else 0)):\n"
      "    if per_deal: random.seed(seed + 90 * d)\n"
      "    deck = list(range(52)); random.shuffle(deck)\n"
      "    print(' '.join(codes[c] for c in (deck[:k] if d < deals else deck)))\n";
  const auto r = run_program("/usr/bin/env", {"python3", "-c", program});
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

TEST(E2eSeedSearch, FindsAClockSeedAndPredictsTheNextDeal) {
  const std::string all = python_deals(1796112345, 3, 5, false, true);
  const auto rows = lines(all);
  ASSERT_EQ(rows.size(), 4u);
  const std::string logged = rows[0] + "\n" + rows[1] + "\n" + rows[2] + "\n";
  const auto r = run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--dealt", "5", "--seeds",
                            "time:2026-12-01T00:00:00Z..2026-12-01T23:59:59Z", "-"},
                           logged);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("FOUND: seed 1796112345 reproduces all 3 logged deals (15 cards)."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(86,400 seeds)"), std::string::npos) << r.out;
  // Python's own fourth deal.
  EXPECT_NE(r.out.find("Predicted next deal (deal 4):\n  " + rows[3] + "\n"), std::string::npos) << r.out;

  const auto j = nlohmann::json::parse(
      run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--dealt", "5", "--seeds",
                 "1796112000..1796113000", "--format", "json", "-"},
                logged)
          .out);
  const auto& s = j["seed_search"];
  EXPECT_EQ(s["found"], true);
  EXPECT_EQ(s["matches"][0]["seed"], 1796112345);
  EXPECT_EQ(s["seeds"]["count"], 1001);
  EXPECT_EQ(s["predicted_rest_of_last_deal"].size(), 47u);
  std::string next;
  for (const auto& c : s["predicted_next_deal"]) next += (next.empty() ? "" : " ") + c.get<std::string>();
  EXPECT_EQ(next, rows[3]);
}

TEST(E2eSeedSearch, PerDealSeedsFromWholeDecks) {
  const std::string logged = python_deals(1796083210, 2, 52, true);
  const auto r = run_shufl({"audit", "--seed-search", "python-random", "--seeds",
                            "time:2026-12-01T00:00:00Z..2026-12-01T00:10:00Z", "--threads", "2", "-"},
                           logged);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.out.find("  deal 1 (52 cards, E_d = 7.45e-66): seed 1796083210\n  deal 2 (52 cards, E_d = 7.45e-66): seed 1796083300\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2 of 2 logged deals reproduced."), std::string::npos) << r.out;
}

TEST(E2eSeedSearch, NotFoundSaysWhatWasRuledOut) {
  const std::string logged = python_deals(99, 5, 5, false);
  const auto r =
      run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--dealt", "5", "--seeds", "0..50", "-"},
                logged);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Not found: no python-random seed in 0..50 reproduces these 5 deals.\n"
                       "This rules out only python-random seeded with one of these 51 seeds; another generator, "
                       "other shuffle code or a seed outside the range is not tested.\n"),
            std::string::npos)
      << r.out;
  // The shard holding seed 99 finds it; the other one says it searched its own part only.
  const auto mine = run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--dealt", "5",
                               "--seeds", "0..199", "--shard", "0/2", "-"},
                              logged);
  EXPECT_EQ(mine.status, 3) << mine.err;
  EXPECT_NE(mine.out.find("FOUND: seed 99 reproduces all 5 logged deals (25 cards)."), std::string::npos) << mine.out;
  const auto other = run_shufl({"audit", "--seed-search", "python-random", "--reseed", "once", "--dealt", "5",
                                "--seeds", "0..199", "--shard", "1/2", "-"},
                               logged);
  EXPECT_EQ(other.status, 0) << other.err;
  EXPECT_NE(other.out.find("no python-random seed in 100..199, shard 1/2 of 0..199 reproduces these 5 deals"),
            std::string::npos)
      << other.out;
}

TEST(E2eSeedSearch, ALongSearchStartsWithATimeEstimate) {
  // 2^31 java-random seeds for one card: the estimate first, then an early chance match (exit 4).
  const auto r = run_shufl({"audit", "--seed-search", "java-random", "--dealt", "1", "--seeds", "0..2^31-1",
                            "--threads", "1", "-"},
                           "7h\n");
  EXPECT_EQ(r.status, 4) << r.err;
  EXPECT_EQ(r.err.rfind("shufl: searching 2^31 seeds on 1 thread: at most about ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" seeds/s per thread"), std::string::npos) << r.err;
  // Short searches start at once.
  const auto s = run_shufl({"audit", "--seed-search", "java-random", "--dealt", "1", "--seeds", "0..1000", "-"}, "7h\n");
  EXPECT_EQ(s.err, "");
}

// A C program that builds its deck rank-major in the suit order c d h s and shuffles it with
// glibc's rand(): found with --deck-order rank-major:cdhs, and its third deal predicted.
TEST(E2eSeedSearch, DeckOrderOfARealCProgram) {
  temp_dir dir;
  const std::string source = dir.write("rm.c",
      "#include <stdio.h>\n"
      "#include <stdlib.h>\n"
      "int main(int argc, char** argv) {\n"
      "  unsigned seed = (unsigned)strtoul(argv[1], 0, 10);\n"
      "  int deals = atoi(argv[2]), k = atoi(argv[3]);\n"
      "  const char* suits = \"cdhs\"; const char* ranks = \"A23456789TJQK\";\n"
      "  srand(seed);\n"
      "  for (int d = 0; d < deals; ++d) {\n"
      "    char deck[52][3];\n"
      "    int n = 0;\n"
      "    for (int r = 0; r < 13; ++r) for (int s = 0; s < 4; ++s) { deck[n][0] = ranks[r]; deck[n][1] = suits[s]; deck[n][2] = 0; ++n; }\n"
      "    for (int i = 51; i > 0; --i) { int j = rand() % (i + 1); char t[3]; t[0]=deck[i][0]; t[1]=deck[i][1]; deck[i][0]=deck[j][0]; deck[i][1]=deck[j][1]; deck[j][0]=t[0]; deck[j][1]=t[1]; }\n"
      "    for (int c = 0; c < (d + 1 < deals ? k : 52); ++c) printf(c ? \" %s\" : \"%s\", deck[c]);\n"
      "    printf(\"\\n\");\n"
      "  }\n"
      "  return 0;\n"
      "}\n");
  const auto built = run_shell("cc -O2 -o " + dir.file("rm") + " " + source);
  ASSERT_EQ(built.status, 0) << built.err;
  const auto rows = lines(run_program(dir.file("rm"), {"31337", "3", "5"}).out);
  ASSERT_EQ(rows.size(), 3u);
  const auto r = run_shufl({"audit", "--seed-search", "c-rand", "--reseed", "once", "--dealt", "5", "--deck-order",
                            "rank-major:cdhs", "--seeds", "30000..40000", "-"},
                           rows[0] + "\n" + rows[1] + "\n");
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.out.find("FOUND: seed 31337 reproduces all 2 logged deals (10 cards)."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Predicted next deal (deal 3):\n  " + rows[2] + "\n"), std::string::npos) << r.out;
  // The canonical order finds nothing there.
  const auto canonical = run_shufl({"audit", "--seed-search", "c-rand", "--reseed", "once", "--dealt", "5", "--seeds",
                                    "30000..40000", "-"},
                                   rows[0] + "\n" + rows[1] + "\n");
  EXPECT_EQ(canonical.status, 0) << canonical.out;
  const auto bad = run_shufl({"audit", "--seed-search", "c-rand", "--dealt", "5", "--deck-order", "rank-major:cdh",
                              "--seeds", "0..9", "-"},
                             rows[0] + "\n");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("--deck-order"), std::string::npos) << bad.err;
}

// C programs with glibc rand(): the upward loop with rand() / (RAND_MAX / k + 1), and the naive
// swap with rand() % 52. Each is found with --loop/--reduce and its whole deal predicted.
TEST(E2eSeedSearch, LoopAndReductionOfRealCPrograms) {
  temp_dir dir;
  const std::string source = dir.write("var.c",
      "#include <stdio.h>\n"
      "#include <stdlib.h>\n"
      "int main(int argc, char** argv) {\n"
      "  unsigned seed = (unsigned)strtoul(argv[1], 0, 10);\n"
      "  int mode = atoi(argv[2]), k = atoi(argv[3]);\n"
      "  const char* suits = \"shdc\"; const char* ranks = \"A23456789TJQK\";\n"
      "  int a[52];\n"
      "  for (int i = 0; i < 52; ++i) a[i] = i;\n"
      "  srand(seed);\n"
      "  for (int i = 0; i < 52; ++i) {\n"
      "    int j, t;\n"
      "    if (mode == 0) { if (i == 51) break; j = i + rand() / (RAND_MAX / (52 - i) + 1); }\n"
      "    else j = rand() % 52;\n"
      "    t = a[i]; a[i] = a[j]; a[j] = t;\n"
      "  }\n"
      "  for (int c = 0; c < 52; ++c) printf(c ? \" %c%c\" : \"%c%c\", ranks[a[c] % 13], suits[a[c] / 13]);\n"
      "  printf(\"\\n\");\n"
      "  return 0;\n"
      "}\n");
  const auto built = run_shell("cc -O2 -o " + dir.file("var") + " " + source);
  ASSERT_EQ(built.status, 0) << built.err;
  struct row {
    std::string seed, mode, loop, reduce, range;
  };
  for (const auto& w : {row{"4242", "0", "up", "div", "4000..5000"}, row{"777", "1", "naive", "mod", "0..1000"}}) {
    const auto whole = lines(run_program(dir.file("var"), {w.seed, w.mode, "5"}).out);
    ASSERT_EQ(whole.size(), 1u);
    const std::string first5 = whole[0].substr(0, 14), rest = whole[0].substr(15);
    const auto r = run_shufl({"audit", "--seed-search", "c-rand", "--dealt", "5", "--loop", w.loop, "--reduce", w.reduce,
                              "--seeds", w.range, "-"},
                             first5 + "\n");
    EXPECT_EQ(r.status, 3) << r.out << r.err;
    EXPECT_NE(r.out.find("seed " + w.seed + "\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Predicted rest of deal 1 (cards 6 to 52):\n  " + rest + "\n"), std::string::npos) << r.out;
    // The default loop does not find it.
    EXPECT_EQ(run_shufl({"audit", "--seed-search", "c-rand", "--dealt", "5", "--seeds", w.range, "-"}, first5 + "\n").status,
              0);
  }
  const auto own = run_shufl({"audit", "--seed-search", "cpp-mt19937", "--dealt", "1", "--loop", "up", "--seeds", "0..9", "-"},
                             "As\n");
  EXPECT_EQ(own.status, 1);
  EXPECT_NE(own.err.find("cpp-mt19937 has its own shuffle loop"), std::string::npos) << own.err;
  const auto div = run_shufl({"audit", "--seed-search", "python-random", "--dealt", "1", "--reduce", "div", "--seeds",
                              "0..9", "-"},
                             "As\n");
  EXPECT_EQ(div.status, 1);
  EXPECT_NE(div.err.find("div applies to c-rand"), std::string::npos) << div.err;
}

TEST(E2eSeedSearch, Refusals) {
  const std::string logged = python_deals(1, 1, 5, false);
  auto fails = [&](const std::vector<std::string>& args, const std::string& words) {
    const auto r = run_shufl(args, logged);
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
  };
  fails({"audit", "--seeds", "0..9", "-"}, "--seeds applies to --seed-search");
  fails({"audit", "--seed-search", "python-randon", "--seeds", "0..9", "--dealt", "5", "-"}, "did you mean 'python-random'");
  fails({"audit", "--seed-search", "c-rand", "--dealt", "5", "-"}, "--seed-search needs --seeds");
  fails({"audit", "--seed-search", "c-rand", "--seeds", "0..2^32", "--dealt", "5", "-"}, "c-rand seeds go up to");
  fails({"audit", "--seed-search", "c-rand", "--seeds", "0..9", "-"}, "give --dealt K");
  fails({"audit", "--seed-search", "c-rand", "--seeds", "0..9", "--dealt", "5", "--reseed", "sometimes", "-"},
        "--reseed");
}

}  // namespace
}  // namespace shufl::test
