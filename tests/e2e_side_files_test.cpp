// End-to-end: an output (side file) that is an input or another output is refused before any
// work, in `audit` and `bias` alike (one check, side_file.hpp's check_distinct_files): by device
// and inode where the file exists (another spelling, a symbolic or hard link, standard input),
// by canonical path where it does not yet. Nothing is written and no input is touched.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/run.hpp"
#include "support/test_rng.hpp"

namespace shufl::test {
namespace {

std::string some_decks(std::size_t count) {
  test_rng r{38};
  std::string s;
  for (std::size_t i = 0; i < count; ++i) s += deck_line(r.deck(52));
  return s;
}

TEST(E2eSideFiles, AuditRefusesAnOutputOverTheDeckFileOrAnotherOutput) {
  temp_dir dir;
  const std::string text = some_decks(200);
  const std::string decks = dir.write("decks.txt", text);
  // --save-counts over the deck file (also through a symbolic and a hard link).
  ASSERT_EQ(::symlink(decks.c_str(), dir.file("link.txt").c_str()), 0);
  ASSERT_EQ(::link(decks.c_str(), dir.file("hard.txt").c_str()), 0);
  for (const std::string& name : {decks, dir.path() + "/./decks.txt", dir.file("link.txt"), dir.file("hard.txt")}) {
    const run_result r = run_shufl({"audit", decks, "--save-counts", name});
    EXPECT_EQ(r.status, 1) << name;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "shufl: --save-counts '" + name + "' would overwrite the input file\n");
    EXPECT_EQ(read_file(decks), text);
  }
  // Standard input is known by its descriptor.
  const run_result in = run_shell("'" + shufl_binary() + "' audit --report '" + decks + "' < '" + decks + "'");
  EXPECT_EQ(in.status, 1);
  EXPECT_EQ(in.err, "shufl: --report '" + decks + "' would overwrite the input file\n");
  // Two outputs in one file (not yet there): the counts would be lost under the page.
  const run_result two = run_shufl({"audit", decks, "--save-counts", dir.file("out"), "--report", dir.path() + "/./out"});
  EXPECT_EQ(two.status, 1);
  EXPECT_EQ(two.err, "shufl: --report and --save-counts name the same file '" + dir.path() + "/./out'\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("out")));
  // --cards-file is an input too.
  const std::string cards = dir.write("cards.txt", "a\nb\nc\n");
  const run_result c = run_shufl({"audit", decks, "--cards-file", cards, "--report", cards});
  EXPECT_EQ(c.status, 1);
  EXPECT_EQ(c.err, "shufl: --report '" + cards + "' would overwrite the --cards-file file\n");
  EXPECT_EQ(read_file(cards), "a\nb\nc\n");
  // /dev/null is no file to lose.
  EXPECT_EQ(run_shufl({"audit", decks, "--save-counts", "/dev/null", "--report", "/dev/null"}).status, 0);
}

TEST(E2eSideFiles, FollowRefusesMetricsOverTheLogOrTheState) {
  temp_dir dir;
  const std::string text = some_decks(20);
  const std::string log = dir.write("dealt.log", text);
  const run_result over_log = run_shufl({"audit", "--follow", log, "--metrics", log});
  EXPECT_EQ(over_log.status, 1);
  EXPECT_EQ(over_log.err, "shufl: --metrics '" + log + "' would overwrite the input file\n");
  EXPECT_EQ(read_file(log), text);
  const run_result state_over_log = run_shufl({"audit", "--follow", log, "--state", log});
  EXPECT_EQ(state_over_log.status, 1);
  EXPECT_EQ(state_over_log.err, "shufl: --state '" + log + "' would overwrite the input file\n");
  const run_result same = run_shufl({"audit", "--follow", "-", "--state", dir.file("s.json"), "--metrics",
                                     dir.file("s.json")},
                                    text);
  EXPECT_EQ(same.status, 1);
  EXPECT_EQ(same.err, "shufl: --metrics and --state name the same file '" + dir.file("s.json") + "'\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("s.json")));
}

TEST(E2eSideFiles, BiasRefusesAPictureOverItsInputOnStandardInput) {
  temp_dir dir;
  const std::string perms = dir.write("perms.txt", "1 2 3\n1 3 2\n");
  const run_result r = run_shell("'" + shufl_binary() + "' bias --input - --plot '" + perms + "' < '" + perms + "'");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: --plot '" + perms + "' would overwrite the --input file\n");
  EXPECT_EQ(read_file(perms), "1 2 3\n1 3 2\n");
}

}  // namespace
}  // namespace shufl::test
