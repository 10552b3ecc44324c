// End-to-end: with --skip-bad, a line that is not UTF-8 or is longer than 1 MiB is a bad deck like
// any other (skipped and counted, the run goes on), in batch (file, pipe, one thread) and in
// --follow alike; without --skip-bad it stays an error (exit 1) naming the line. Before, such a
// line stopped every run, even with --skip-bad, and a monitor restarted on the same log stopped
// at the same line each time.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/run.hpp"
#include "support/test_rng.hpp"

namespace shufl::test {
namespace {

// 30 decks of poker codes, with an invalid UTF-8 line after the 5th and a line of 1 MiB + 1000
// bytes after that: 30 good decks, 2 bad lines (line 6 and line 7).
std::string log_with_bad_lines() {
  test_rng rng{17};
  std::string text;
  for (int i = 0; i < 30; ++i) {
    text += deck_line(rng.deck(52));
    if (i == 4) {
      text += "As Kd \xff\xfe\n";
      text += std::string((std::size_t{1} << 20) + 1000, 'x') + "\n";
    }
  }
  return text;
}

TEST(E2eAuditSkipBad, LinesNotUtf8OrOverOneMebibyteAreBadDecks) {
  temp_dir dir;
  const std::string log = dir.write("bad.txt", log_with_bad_lines());
  const std::string skipped = "skipped 2 invalid decks (first: ";
  const std::string reason = "line 6: invalid UTF-8 (byte 0xff at column 7)";

  const run_result strict = run_shufl({"audit", log});
  EXPECT_EQ(strict.status, 1);
  EXPECT_EQ(strict.out, "");
  EXPECT_NE(strict.err.find("'" + log + "': " + reason), std::string::npos) << strict.err;

  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, std::vector<std::string>{"--threads", "1"}}) {
    std::vector<std::string> args = {"audit", "--skip-bad", log};
    args.insert(args.end(), extra.begin(), extra.end());
    const run_result file = run_shufl(args);
    ASSERT_EQ(file.status, 0) << file.err;
    EXPECT_NE(file.out.find(skipped + "'" + log + "': " + reason), std::string::npos) << file.out;
    EXPECT_NE(file.out.find("in 30 decks at alpha"), std::string::npos) << file.out;
  }

  const run_result piped = run_shell("cat '" + log + "' | '" + shufl_binary() + "' audit --skip-bad -");
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_NE(piped.out.find(skipped + "standard input: " + reason), std::string::npos) << piped.out;

  // The monitor reads the same log through a pipe to its end: it goes on past both lines.
  const run_result follow = run_shell("cat '" + log + "' | '" + shufl_binary() + "' audit --skip-bad --follow -");
  EXPECT_EQ(follow.status, 0) << follow.err;
  EXPECT_NE(follow.out.find(skipped + "standard input: " + reason), std::string::npos) << follow.out;
  EXPECT_NE(follow.out.find("in 30 decks at alpha"), std::string::npos) << follow.out;
  const run_result follow_strict = run_shell("cat '" + log + "' | '" + shufl_binary() + "' audit --follow -");
  EXPECT_EQ(follow_strict.status, 1);
  EXPECT_NE(follow_strict.err.find("standard input: " + reason), std::string::npos) << follow_strict.err;
}

}  // namespace
}  // namespace shufl::test
