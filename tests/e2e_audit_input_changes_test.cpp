// End-to-end: `shufl audit FILE` while another process truncates FILE (a log rotated with
// copytruncate). Earlier versions read the file through a memory mapping and died with SIGBUS
// (exit 135; always with --save-counts), or named a card of a line cut short ("11 cards, the pack
// has 52"); now the run ends with exit status 1 and one message. The truncation comes 0.05 to
// 0.15 s after the start, within a read of about half a second on a loaded 2-core machine;
// should a fast machine finish first, the run is a whole report (exit 0), and were it so slow
// that the truncation came before the open, "no decks" (exit 1): every outcome but the wrong
// ones passes, so the test cannot flake.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/run.hpp"
#include "support/test_rng.hpp"

namespace shufl::test {
namespace {

TEST(E2eAuditInputChanges, TruncatedWhileReadEndsWithOneErrorNeverASignal) {
  temp_dir dir;
  test_rng r{36};
  std::string text;
  for (int i = 0; i < 20000; ++i) text += deck_line(r.deck(52));
  std::string big;
  big.reserve(text.size() * 12);
  for (int i = 0; i < 12; ++i) big += text;  // about 37 MB
  const std::string path = dir.file("decks.log");
  const std::string err = dir.file("err");
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"--threads 1", "0.05"}, {"--save-counts '" + dir.file("c.json") + "'", "0.05"}, {"--threads 2", "0.15"}};
  for (const auto& [options, delay] : runs) {
    dir.write("decks.log", big);
    const run_result res = run_shell("'" + shufl_binary() + "' audit '" + path + "' " + options + " >/dev/null 2>'" + err +
                                     "' & pid=$!; sleep " + delay + "; : > '" + path + "'; wait $pid; echo $?");
    const std::string message = read_file(err);
    const std::string last = message.substr(message.rfind('\n', message.size() - 2) + 1);
    if (res.out == "0\n") continue;  // read whole before the truncation
    EXPECT_EQ(res.out, "1\n") << options << ": " << message;
    const bool changed = last == "shufl: '" + path +
                                     "': the file changed while it was read (truncated, rewritten or appended to, e.g. a "
                                     "log rotated with copytruncate): audit a copy or a rotated file\n";
    EXPECT_TRUE(changed || last == "shufl: no decks in the input\n") << options << ": " << message;
  }
}

}  // namespace
}  // namespace shufl::test
