// End-to-end tests of `shufl trace`: run the real binary, check stdout, stderr and exit status.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/golden.hpp"
#include "support/run.hpp"

namespace shufl::test {
namespace {


std::vector<std::string> with_trace(std::vector<std::string> args) {
  args.insert(args.begin(), "trace");
  return args;
}

// A failing run: exit 1, nothing on stdout, exactly the one line "shufl: MESSAGE" on stderr.
void expect_error(const std::vector<std::string>& args, const std::string& message) {
  const run_result r = run_shufl(with_trace(args));
  std::string joined;
  for (const auto& a : args) joined += a + " ";
  EXPECT_EQ(r.status, 1) << joined;
  EXPECT_EQ(r.out, "") << joined;
  EXPECT_EQ(r.err, "shufl: " + message + "\n") << joined;
}

TEST(TraceE2E, WorkedExampleEndsInBDEAC) {
  const run_result r = run_shufl({"trace", "A", "B", "C", "D", "E", "--draws", "2,0,2,0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto out = lines(r.out);
  ASSERT_GE(out.size(), 4u);
  EXPECT_EQ(out.back(), "result: B D E A C");
  // The finalized region grows from the back: one more locked item per step.
  const std::vector<std::string> arrays = {"A B E D | C", "D B E | A C", "D B | E A C", "B | D E A C"};
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    const std::string& line = out[out.size() - 6 + k];
    EXPECT_EQ(line.rfind("step " + std::to_string(k + 1) + ": ", 0), 0u) << line;
    EXPECT_TRUE(line.ends_with("   " + arrays[k])) << line;
  }
  EXPECT_NE(r.out.find("i = 4, j = 2 (j in [0, 4])"), std::string::npos);
  EXPECT_NE(out[out.size() - 2].find("4 random draws"), std::string::npos);
  EXPECT_NE(out[out.size() - 2].find("120"), std::string::npos);
}

TEST(TraceE2E, NaiveShowsNoMarkerAndTheNToTheNArgument) {
  const run_result r = run_shufl({"trace", "--algo", "naive", "--n", "5", "--seed", "x"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find(" | "), std::string::npos);
  EXPECT_NE(r.out.find("5^5 = 3125 equally likely paths; 3125 is not divisible by 5! = 120"), std::string::npos)
      << r.out;
}

TEST(TraceE2E, DefaultIsFiveItemsFromTheOs) {
  const run_result r = run_shufl({"trace"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto out = lines(r.out);
  ASSERT_FALSE(out.empty());
  ASSERT_EQ(out.back().rfind("result: ", 0), 0u);
  auto items = split(out.back().substr(8), ' ');
  std::sort(items.begin(), items.end());
  EXPECT_EQ(items, (std::vector<std::string>{"1", "2", "3", "4", "5"}));
  EXPECT_NE(r.out.find("operating system"), std::string::npos);
}

TEST(TraceE2E, SeededRunsRepeatAndNeverColourAPipe) {
  const run_result a = run_shufl({"trace", "--n", "8", "--seed", "again"});
  const run_result b = run_shufl({"trace", "--n", "8", "--seed", "again"});
  ASSERT_EQ(a.status, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.out.find('\x1b'), std::string::npos);
  const run_result c = run_shufl({"trace", "--n", "8", "--seed", "other"});
  EXPECT_NE(a.out, c.out);
  // The "replay: --draws LIST" line replays the run: the same steps and result.
  const auto out = lines(a.out);
  const auto replay = std::find_if(out.begin(), out.end(), [](const auto& l) { return l.rfind("replay: --draws ", 0) == 0; });
  ASSERT_NE(replay, out.end()) << a.out;
  const run_result d = run_shufl({"trace", "--n", "8", "--draws", replay->substr(16)});
  ASSERT_EQ(d.status, 0) << d.err;
  const auto replayed = lines(d.out);
  EXPECT_EQ(replayed.back(), out.back());
  EXPECT_EQ(std::vector<std::string>(replayed.end() - 9, replayed.end()),
            std::vector<std::string>(out.end() - 9, out.end()));
}

// On a terminal (util-linux `script` provides one) finalized items are coloured; NO_COLOR turns
// colour off; stripped of colour and CRs, the terminal text is the pipe text.
TEST(TraceE2E, ColourOnlyOnATerminalWithoutNoColor) {
  if (run_shell("script -qec true /dev/null >/dev/null 2>&1").status != 0) {
    GTEST_SKIP() << "no working script(1) or no pseudo-terminal";
  }
  const std::string cmd = shufl_binary() + " trace A B C D E --draws 2,0,2,0";
  const run_result tty = run_shell("script -qec '" + cmd + "' /dev/null");
  ASSERT_EQ(tty.status, 0) << tty.err;
  EXPECT_NE(tty.out.find("\x1b[32"), std::string::npos);
  std::string plain;
  for (std::size_t k = 0; k < tty.out.size(); ++k) {
    if (tty.out[k] == '\x1b') {
      k = tty.out.find('m', k);
      continue;
    }
    if (tty.out[k] != '\r') plain += tty.out[k];
  }
  EXPECT_EQ(plain, run_shufl({"trace", "A", "B", "C", "D", "E", "--draws", "2,0,2,0"}).out);
  const run_result no_colour = run_shell("NO_COLOR=1 script -qec '" + cmd + "' /dev/null");
  EXPECT_EQ(no_colour.out.find('\x1b'), std::string::npos);
}

TEST(TraceE2E, JsonParsesAndMatchesTheText) {
  const run_result r = run_shufl({"trace", "A", "B", "C", "D", "E", "--draws", "2,0,2,0", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "trace");
  EXPECT_EQ(j["algorithm"], "fisher-yates");
  EXPECT_EQ(j["n"], 5);
  EXPECT_EQ(j["source"], "draws");
  EXPECT_TRUE(j["seed"].is_null());
  EXPECT_EQ(j["result"], nlohmann::json({"B", "D", "E", "A", "C"}));
  ASSERT_EQ(j["steps"].size(), 4u);
  const auto& s0 = j["steps"][0];
  EXPECT_EQ(s0["step"], 1);
  EXPECT_EQ(s0["action"], "swap");
  EXPECT_EQ(s0["cursor"], 4);
  EXPECT_EQ(s0["draw"], 2);
  EXPECT_EQ(s0["draw_range"], nlohmann::json({0, 4}));
  EXPECT_EQ(s0["final"], nlohmann::json({4, 5}));
  EXPECT_EQ(s0["order"], nlohmann::json({"A", "B", "E", "D", "C"}));
  EXPECT_FALSE(s0.contains("outcome"));
  EXPECT_EQ(j["random_draws"], 4);
  EXPECT_EQ(j["draw_sizes"], nlohmann::json({5, 4, 3, 2}));
  EXPECT_EQ(j["counting"]["kind"], "equally-likely-paths");
  EXPECT_EQ(j["counting"]["paths"], "120");
  EXPECT_EQ(j["counting"]["n_factorial"], "120");
  EXPECT_EQ(j["counting"]["divisible_by_n_factorial"], true);
  // The text report says the same things.
  const run_result t = run_shufl({"trace", "A", "B", "C", "D", "E", "--draws", "2,0,2,0"});
  EXPECT_NE(t.out.find(j["steps"][0]["description"].get<std::string>()), std::string::npos);
  EXPECT_NE(t.out.find(j["counting"]["statement"].get<std::string>()), std::string::npos);
}

TEST(TraceE2E, BadInputIsAOneLineError) {
  expect_error({"A", "B", "C", "D", "E", "--draws", "2,0,3,0"},
               "--draws: 3 (value 3 of the list) is out of range for step 3, which draws from [0, 2]");
  expect_error({"A", "B", "C", "D", "E", "--draws", "2,0"},
               "--draws: too few values: step 3 needs a value in [0, 2], but the list has only 2");
  expect_error({"A", "B", "C", "D", "E", "--draws", "2,0,2,0,0"},
               "--draws: 1 value left over: fisher-yates on 5 items made 4 draws");
  expect_error({"--draws", "2,x"}, "invalid value 'x' for --draws: expected a non-negative decimal integer");
  expect_error({"--draws", "2,-1"}, "invalid value '-1' for --draws: expected a non-negative decimal integer");
  {
    // The list of valid names grows with the registry: pin only the start.
    const run_result r = run_shufl({"trace", "--algo", "fisher-yate"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("shufl: unknown algorithm 'fisher-yate'; did you mean 'fisher-yates'?", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  }
  expect_error({"--algo", "naive,fisher-yates"}, "--algo takes one algorithm for trace (got 2)");
  expect_error({"--n", "0"}, "--n must be between 1 and 255 (got 0)");
  expect_error({"--n", "256"}, "--n must be between 1 and 255 (got 256)");
  expect_error({"--n", "010x"}, "invalid value '010x' for --n: expected a non-negative decimal integer");
  expect_error({"--n", "3", "A", "B"}, "give either --n or ITEM..., not both");
  expect_error({"--seed", "1", "--draws", "0"}, "--draws and --seed cannot be used together");
  expect_error({"--format", "xml"}, "invalid value 'xml' for --format: expected text, json or html");
  expect_error({"A", "", "C"}, "item 2 is empty");
}

// Golden outputs: tests/golden/trace/cases.txt lists NAME ALGORITHM ARGS...; NAME.out is stdout.
TEST(TraceE2E, GoldenOutputs) {
  const int cases = check_golden_cases(shufl::test::source_dir() + "/tests/golden/trace",
                                       [](const std::vector<std::string>& words) {
                                         std::vector<std::string> args = {"trace", "--algo"};
                                         args.insert(args.end(), words.begin(), words.end());
                                         return args;
                                       });
  EXPECT_GE(cases, 7);
}

}  // namespace
}  // namespace shufl::test

// The page's many-runs view: the runs of `shufl bias` with the trace's seed, the naive shuffle's
// counts equal to bias's own for the same seed (independently: their sum is the runs asked for,
// and n! = 6 orders each), --runs 0 leaves it out, --runs needs the page.
TEST(TraceE2E, PageTalliesManyRunsAsBiasCountsThem) {
  auto r = shufl::test::run_shufl({"trace", "--n", "3", "--seed", "5", "--runs", "600", "--format", "html"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto bias = shufl::test::run_shufl(
      {"bias", "--n", "3", "--trials", "600", "--seed", "5", "--threads", "1", "--format", "json"});
  ASSERT_EQ(bias.status, 0) << bias.err;
  const auto doc = nlohmann::json::parse(bias.out);
  const std::string naive = r.out.substr(r.out.find(R"(data-algo="naive")"));
  std::uint64_t sum = 0;
  for (const char* order : {"123", "132", "213", "231", "312", "321"}) {
    const std::string key = std::string(R"(data-order=")") + order + R"(" data-count=")";
    const auto at = naive.find(key);
    ASSERT_NE(at, std::string::npos) << order;
    const std::uint64_t count = std::stoull(naive.substr(at + key.size()));
    EXPECT_EQ(count, doc["results"][1]["counts"][order].get<std::uint64_t>()) << order;
    sum += count;
  }
  EXPECT_EQ(sum, 600u);
  r = shufl::test::run_shufl({"trace", "--n", "3", "--seed", "5", "--runs", "0", "--format", "html"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("order-bar"), std::string::npos);
  r = shufl::test::run_shufl({"trace", "--n", "3", "--runs", "10"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: --runs draws the many-runs view of --format html\n");
}
