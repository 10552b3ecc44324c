// End-to-end tests of issue 12's input and JSON-text cases (F03 F04 F06 S08): the real binary,
// its stdout, stderr and exit status.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "support/run.hpp"

namespace {

using shufl::test::run_shufl;

// F03: a BOM, a directory, a missing file, Python's print(list).
TEST(E2eInputs, BiasInputFilesF03) {
  auto r = run_shufl({"bias", "--input", "-"}, "\xef\xbb\xbf" "1 2 3\n2 3 1\n3 1 2\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("n = 3, 3 permutations read from standard input\n"), std::string::npos) << r.out;
  shufl::test::temp_dir dir;
  r = run_shufl({"bias", "--input", dir.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "shufl: cannot read '" + dir.path() + "': Is a directory\n");
  r = run_shufl({"bias", "--input", dir.file("none")});
  EXPECT_EQ(r.err, "shufl: cannot open '" + dir.file("none") + "': No such file or directory\n");
  EXPECT_EQ(r.out, "");
  // Python: for p in perms: print(p) -> "[1, 2, 3]"; CRLF and no final newline alike.
  const std::string file = dir.write("p.txt", "[1, 2, 3]\r\n[2, 3, 1]\r\n[3, 1, 2]\r\n[1, 3, 2]\r\n[2, 1, 3]\r\n[3, 2, 1]");
  r = run_shufl({"bias", "--input", file});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("n = 3, 6 permutations read from '" + file + "'\n"), std::string::npos) << r.out;
  r = run_shufl({"bias", "--input", "-"}, "1 2 3\n2 \xff 1\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: standard input: line 2: invalid UTF-8 (byte 0xff at column 3); text files must be UTF-8\n");
}

// S08: --input claims no engine, seed or threads, and shows the user's items (text and JSON).
TEST(E2eInputs, InputReportShowsTheUsersItemsS08) {
  std::string perms;
  for (int rep = 0; rep < 10; ++rep) perms += "b a c\na b c\nc b a\nb c a\na c b\nc a b\n";
  auto r = run_shufl({"bias", "--input", "-"}, perms);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("engine"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("thread"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("seed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  bac  "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("  123  "), std::string::npos) << r.out;
  r = run_shufl({"bias", "--input", "-", "--format", "json"}, perms);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["engine"].is_null());
  EXPECT_TRUE(j["threads"].is_null());
  EXPECT_TRUE(j["seed"].is_null());
  EXPECT_EQ(j["items"], nlohmann::json::parse(R"(["a", "b", "c"])"));
  EXPECT_EQ(j["results"][0]["counts"]["bac"], 10);
  EXPECT_EQ(j["results"][0]["counts"].size(), 6u);
  // Numbers: 0-based items are shown as written; 1 and 01 are one item.
  r = run_shufl({"bias", "--input", "-", "--format", "json"}, "0 1 2\n00 2 1\n");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["results"][0]["counts"]["021"], 1);
}

// F04: a BOM does not end up inside the first label.
TEST(E2eInputs, CardsFileBomF04) {
  shufl::test::temp_dir dir;
  const std::string file = dir.write("cards.txt", "\xef\xbb\xbf" "Dragon\r\nKnight\r\nPrincess");
  auto r = run_shufl({"deck", "--cards-file", file, "--seed", "1", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto cards = nlohmann::json::parse(r.out)["deck"].get<std::vector<std::string>>();
  std::sort(cards.begin(), cards.end());
  EXPECT_EQ(cards, (std::vector<std::string>{"Dragon", "Knight", "Princess"}));
  r = run_shufl({"deck", "--cards-file", dir.path()});
  EXPECT_EQ(r.err, "shufl: cannot read '" + dir.path() + "': Is a directory\n");
  r = run_shufl({"deck", "--cards-file", "-"}, "ok\n\xfe\n");
  EXPECT_EQ(r.err, "shufl: standard input: line 2: invalid UTF-8 (byte 0xfe at column 1); text files must be UTF-8\n");
  EXPECT_EQ(r.out, "");
  // Item 9: labels x --decks is capped.
  r = run_shufl({"deck", "--cards-file", "-", "--decks", "20000"}, std::string(100000, 'x') + "\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("the limit is 64 MiB (labels x --decks)"), std::string::npos) << r.err;
}

// F06: bytes that are not UTF-8 in a label, seed, trace item or saved counts: valid JSON, exit 0,
// {"hex": ...} by the documented rule, and the seed reproduces its run.
TEST(E2eInputs, InvalidUtf8InJsonF06) {
  const std::string bad = "\xff\xfe";
  auto r = run_shufl({"deck", "--cards", "A," + bad + ",C", "--seed", bad, "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["seed"], nlohmann::json::parse(R"({"hex": "fffe"})"));
  int hex_cards = 0;
  for (const auto& c : j["deck"]) hex_cards += c.is_object() && c["hex"] == "fffe";
  EXPECT_EQ(hex_cards, 1);
  r = run_shufl({"trace", "A", bad, "C", "--seed", bad, "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["items"][1], nlohmann::json::parse(R"({"hex": "fffe"})"));
  EXPECT_EQ(j["seed"]["hex"], "fffe");
  // bias: the seed in the report and in --save-counts; --merge reads it back (the seed guard
  // still sees two runs with the same seed).
  shufl::test::temp_dir dir;
  r = run_shufl({"bias", "--n", "3", "--trials", "600", "--algo", "naive", "--seed", bad, "--format", "json",
                 "--save-counts", dir.file("a.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["seed"]["hex"], "fffe");
  EXPECT_EQ(nlohmann::json::parse(shufl::test::read_file(dir.file("a.json")))["runs"][0]["seed"]["hex"], "fffe");
  r = run_shufl({"bias", "--n", "3", "--trials", "600", "--algo", "naive", "--seed", bad, "--save-counts",
                 dir.file("b.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_shufl({"bias", "--merge", dir.file("a.json"), dir.file("b.json")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("the same trials cannot be counted twice"), std::string::npos) << r.err;
  // A file name that is not UTF-8, as the label of --input's result.
  const std::string odd = dir.write("p" + bad, "1 2 3\n3 2 1\n");
  r = run_shufl({"bias", "--input", odd, "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["results"][0]["algorithm"].is_object());
}

}  // namespace
