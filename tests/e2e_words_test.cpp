// What a new user reads: counts in words ("1 deck", never "1 decks"), the version naming its
// commit, the pointer to docs/glossary.md in the text reports, and the audit report's words,
// glossary and totals chart.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "render/count_noun.hpp"
#include "support/run.hpp"

namespace shufl::test {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Words, CountNoun) {
  EXPECT_EQ(render::count_noun(1, "deck", "decks"), "1 deck");
  EXPECT_EQ(render::count_noun(0, "deck", "decks"), "0 decks");
  EXPECT_EQ(render::count_noun(2, "trial", "trials"), "2 trials");
  EXPECT_EQ(render::count_noun(1, "counts file", "counts files"), "1 counts file");
}

// Every "1 <plural>" a user could meet with a count of one.
TEST(Words, OneIsSingular) {
  run_result r = run_shell("\"" + shufl_binary() + "\" deck --count 1 --seed 1 | \"" + shufl_binary() + "\" audit -");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, ": 1 deck of a standard 52-card deck")) << r.out;
  EXPECT_TRUE(has(r.out, "result: pass: no evidence of non-randomness in 1 deck at alpha 0.01\n")) << r.out;
  r = run_shufl({"bias", "--n", "3", "--trials", "1", "--seed", "1", "--threads", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "shufl bias: n = 3, 1 trial per algorithm, engine xoshiro256pp, seed \"1\", 1 thread\n")) << r.out;
  r = run_shufl({"deck", "--explain", "--seed", "7"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "is a number of 1 digit:")) << r.out;
  r = run_shufl({"deck", "--explain", "--seed", "x"});
  EXPECT_TRUE(has(r.out, "is short (1 character)")) << r.out;
  r = run_shufl({"deck", "--explain", "--cards", "a,b"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "for its 1 draw;")) << r.out;
  r = run_shufl({"trace", "--n", "3", "--seed", "1", "--runs", "1", "--format", "html"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "shuffled the 3 items 1 time (")) << r.out.substr(0, 200);
}

// --version: the version NEWS.md's newest section names, and the commit (git describe).
TEST(Words, VersionNamesNewsVersionAndCommit) {
  const std::string news = read_file(source_dir() + "/NEWS.md");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(news, m, std::regex("\n## ([0-9]+\\.[0-9]+\\.[0-9]+)")));
  const std::string version = m[1];
  const run_result git = run_shell("git -C '" + source_dir() + "' describe --always --tags 2>/dev/null");
  std::string commit = git.status == 0 && !git.out.empty() ? git.out.substr(0, git.out.size() - 1) : "unknown";
  const run_result r = run_shufl({"--version"});
  ASSERT_EQ(r.status, 0);
  // The build type is the build's own (Release, or Debug in the sanitizer build).
  EXPECT_TRUE(std::regex_match(lines(r.out).at(0), std::regex("shufl " + std::regex_replace(version, std::regex("\\."), "\\.") +
                                                                  " \\((Release|Debug|RelWithDebInfo|MinSizeRel) build, commit " +
                                                                  commit + "\\)")))
      << r.out;
}

// The text reports point to the glossary once, before the words are used.
TEST(Words, TextReportsPointToTheGlossary) {
  run_result r = run_shufl({"bias", "--n", "3", "--trials", "600", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto at = r.out.find("docs/glossary.md");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_LT(at, r.out.find("chi-squared: X2"));
  r = run_shell("\"" + shufl_binary() + "\" deck --count 200 --seed 1 | \"" + shufl_binary() + "\" audit -");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto out = lines(r.out);
  ASSERT_GE(out.size(), 2u);
  EXPECT_TRUE(has(out[out.size() - 2], "docs/glossary.md")) << r.out;
  EXPECT_TRUE(out.back().starts_with("result: ")) << r.out;
}

// The report page: the header words link to the page's Words table, the glossary lists only the
// tests that ran (no game: no poker-hands or blackjack-hands), the totals chart says why a marker
// outside its band can pass.
TEST(Words, AuditReportWordsGlossaryAndBand) {
  temp_dir dir;
  const std::string page = dir.path() + "/r.html";
  const run_result r = run_shell("\"" + shufl_binary() + "\" deck --count 300 --seed 1 | \"" + shufl_binary() +
                                 "\" audit - --report " + page);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string html = read_file(page);
  for (const char* id : {"p", "holm-p", "statistic", "df"}) {
    EXPECT_TRUE(has(html, std::string("href=\"#w-") + id + "\"")) << id;
    EXPECT_TRUE(has(html, std::string("<tr id=\"w-") + id + "\">")) << id;
  }
  const std::string glossary = html.substr(html.find("What each test catches"));
  EXPECT_FALSE(has(glossary.substr(0, glossary.find("</table>")), "poker-hands"));
  EXPECT_FALSE(has(glossary.substr(0, glossary.find("</table>")), "blackjack-hands"));
  EXPECT_TRUE(has(glossary, "<td>card-position</td>"));
  EXPECT_TRUE(has(html, "The band is for one test alone"));
  EXPECT_TRUE(has(html, "a marker outside its band can belong to a test that passes"));
}

// Several --algo: each algorithm's report, then the overall result as the last `result:` line
// (the same as the JSON's top-level result and --check's exit status).
TEST(Words, SeveralAlgorithmsEndWithTheOverallResult) {
  run_result r = run_shufl({"audit", "--algo", "naive,fisher-yates", "--trials", "3000", "--seed", "1", "--check"});
  EXPECT_EQ(r.status, 3) << r.err;
  auto out = lines(r.out);
  ASSERT_GE(out.size(), 2u);
  EXPECT_EQ(out[out.size() - 2], "overall: 2 algorithms, each audited on its own at alpha 0.01");
  EXPECT_EQ(out.back(), "result: fail: 1 of 2 algorithms failed: naive");
  r = run_shufl({"audit", "--algo", "fisher-yates,inside-out", "--trials", "300", "--seed", "1", "--check"});
  EXPECT_EQ(r.status, 0) << r.err;
  out = lines(r.out);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.back(), "result: pass: no evidence of non-randomness in the decks of any of the 2 algorithms");
}

// --key-fields: `\,` is a comma inside a header name; a header joined by commas without
// --field-delimiter , gets a hint.
TEST(Words, KeyFieldNamesWithCommasAndTheCommaHint) {
  const std::string tsv = "city, state\tn\nA, B\t1\nC, D\t2\nA, B\t3\n";
  run_result r = run_program(shufl_binary(), {"lines", "--header", "1", "--key-fields", "city\\, state", "--prob", "1",
                                              "--seed", "1"}, tsv);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, tsv);
  // The escaped comma is part of one name, not two items.
  r = run_program(shufl_binary(), {"lines", "--header", "1", "--key-fields", "x\\, y", "--prob", "1"}, tsv);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "--key-fields \u2018x, y\u2019: no field of that name")) << r.err;
  r = run_program(shufl_binary(), {"lines", "--header", "1", "--key-fields", "city", "--prob", "1"}, "name,city\na,b\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "; header line 1 is joined by commas: add --field-delimiter , (or --csv)\n")) << r.err;
  r = run_program(shufl_binary(), {"lines", "--header", "1", "--key-fields", "city", "--prob", "1", "--field-delimiter", ","},
                  "name,city\na,b\n");
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(Words, IntervalZeroSaysMoreThanZero) {
  const run_result r = run_shufl({"audit", "--follow", "-", "--interval", "0"});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "--interval must be more than 0 and at most 1000000 seconds, not 0")) << r.err;
}

}  // namespace
}  // namespace shufl::test
