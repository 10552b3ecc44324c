// End-to-end tests of bias, deck and trace at their edges: exceptions anywhere end in one line
// and exit 1 (memory limits included), strict counts files, signals that leave no file behind,
// costs that follow the work asked for, hostile text in every output format.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support/background.hpp"
#include "support/run.hpp"

namespace shufl {
namespace {

using json = nlohmann::json;
using test::background_run;
using test::poll_until;
using test::run_shell;
using test::run_shufl;

#ifdef SHUFL_SANITIZED
constexpr bool kSanitized = true;  // tests under `ulimit -v` cannot run: ASan maps terabytes
#else
constexpr bool kSanitized = false;
#endif

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// The names in `dir` that start with '.' (side files' temporaries are ".NAME.XXXXXX").
std::vector<std::string> hidden_files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with(".")) out.push_back(name);
  }
  return out;
}

// CPU seconds (user + system) of the child processes one call ran and waited for: the cost of the
// work, whatever the load of the machine (wall time under a loaded sanitizer run is not).
template <class F>
double seconds_of(F f) {
  const auto children_cpu = [] {
    struct rusage u {};
    ::getrusage(RUSAGE_CHILDREN, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
  };
  const double start = children_cpu();
  f();
  return children_cpu() - start;
}

// --- No uncaught exception ------------------------------------------------------------------

// trace with 100 labels of 1000 bytes under a memory limit: "memory exhausted" and exit 1, never
// an abort (exit 134); without the limit it prints; past the byte limit it is refused at once.
TEST(E2eEdges, TraceOfLongLabelsUnderAMemoryLimitEndsInOneLine) {
  if (kSanitized) GTEST_SKIP() << "AddressSanitizer reserves more address space than any ulimit -v here";
  std::string items;
  for (int k = 0; k < 100; ++k) items += " " + std::string(999, static_cast<char>('a' + k % 26)) + std::to_string(k % 10);
  const std::string bin = quoted(test::shufl_binary());
  // 20 to 27 MB of address space: the binary and its libraries fit (18 MB no longer does since
  // the binary grew past 7 MB), the 10 MB output and its pieces do not; the allocation that
  // fails falls anywhere (it used to fall in a JSON destructor during unwinding at 18-20 MB:
  // std::terminate, exit 134).
  for (const char* limit : {"20000", "22000", "27000"}) {
    for (const char* format : {"json", "html", "text"}) {
      const auto r = run_shell(std::string("ulimit -v ") + limit + "; " + bin + " trace --seed 1 --format " + format +
                               " --" + items);
      EXPECT_EQ(r.status, 1) << limit << " " << format << ": " << r.err.substr(0, 300);
      EXPECT_EQ(r.err, "shufl: memory exhausted\n") << limit << " " << format;
      EXPECT_EQ(r.out, "") << format;
    }
  }
  const auto whole = run_shell(bin + " trace --seed 1 --format json --" + items);
  ASSERT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(json::parse(whole.out)["steps"].size(), 99u);
  // A coin sort of the same items takes thousands of steps: ~500 MB of JSON, refused before
  // anything is formatted, the limit named.
  const auto big = run_shell(bin + " trace --seed 1 --algo sort-coin:bubble --format json --" + items);
  EXPECT_EQ(big.status, 1);
  EXPECT_EQ(big.out, "");
  EXPECT_NE(big.err.find("a trace prints at most 64 MiB: use fewer or shorter items"), std::string::npos) << big.err;
  // Short labels: the same algorithm prints.
  const auto small = run_shufl({"trace", "--seed", "1", "--algo", "sort-coin:bubble", "--n", "100", "--format", "json"});
  EXPECT_EQ(small.status, 0) << small.err;
}

// Threads that cannot all be started (a memory limit on their stacks): the run goes on with
// those that could, and counts what --threads 1 counts; never std::terminate.
TEST(E2eEdges, ThreadsThatCannotStartDoNotAbortTheRun) {
  if (kSanitized) GTEST_SKIP() << "AddressSanitizer reserves more address space than any ulimit -v here";
  const std::string bin = quoted(test::shufl_binary());
  const std::string args = " bias --n 3 --trials 4194304 --seed 1 --format json --threads ";
  const auto one = run_shell(bin + args + "1");
  ASSERT_EQ(one.status, 0) << one.err;
  // 64 threads need 512 MB of stacks; 200 MB of address space holds a few.
  const auto many = run_shell("ulimit -v 200000; " + bin + args + "64");
  ASSERT_EQ(many.status, 0) << many.err;
  auto a = json::parse(one.out), b = json::parse(many.out);
  a.erase("threads");
  b.erase("threads");
  EXPECT_EQ(a, b);
}

// No text of the JSON library reaches the user: a number past the doubles in a counts file.
TEST(E2eEdges, JsonLibraryErrorsAreToldInWords) {
  test::temp_dir dir;
  const auto r = run_shufl({"bias", "--merge", dir.write("big.json", R"({"format":1e999})")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: '" + dir.file("big.json") +
                       "' is not a counts file from shufl bias --save-counts: a number too large for a double\n");
}

// --- Strict counts files --------------------------------------------------------------------

// A key given twice in one object of a counts file is refused, naming the file and the key
// (the last one used to win, silently).
TEST(E2eEdges, DuplicateKeysInACountsFileAreRefused) {
  test::temp_dir dir;
  const std::string good = dir.file("t.json");
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--trials", "6000", "--algo", "naive", "--save-counts", good}).status, 0);
  const std::string text = test::read_file(good);
  ASSERT_EQ(run_shufl({"bias", "--merge", good}).status, 0);
  const auto twice = [&](const std::string& from, const std::string& to, const std::string& name) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    std::string bad = text;
    bad.replace(at, from.size(), to);
    return dir.write(name, bad);
  };
  struct dup {
    std::string from, to, message;
  };
  const std::vector<dup> cases{
      {R"("format":"shufl-bias-counts-2",)", R"("format":"shufl-bias-counts-2","format":"shufl-bias-counts-2",)",
       R"(: format: the key "format" appears twice in one object (each key may appear once))"},
      {R"("seed":"1",)", R"("seed":"1","seed":"2",)",
       R"(: runs[0].seed: the key "seed" appears twice in one object (each key may appear once))"},
      {R"("algorithm":"naive",)", R"("algorithm":"naive","algorithm":"fisher-yates",)",
       R"(: results[0].algorithm: the key "algorithm" appears twice in one object (each key may appear once))"},
      {R"("format":)", "\"\\u001b]0;x\\u0007\":1,\"\\u001b]0;x\\u0007\":2,\"format\":",
       R"(: \033]0;x\a: the key "\u001b]0;x\u0007" appears twice in one object (each key may appear once))"},
  };
  int k = 0;
  for (const auto& c : cases) {
    const std::string file = twice(c.from, c.to, "dup" + std::to_string(k++) + ".json");
    const auto r = run_shufl({"bias", "--merge", file});
    EXPECT_EQ(r.status, 1) << c.to;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("'" + file + "'" + c.message), std::string::npos) << r.err;
  }
}

// --- Costs follow the work asked for --------------------------------------------------------

// A shard of a run with far more shards than chunks: saving and merging it costs what its
// chunks cost, not the number of shards; the missing shards are named from the chunks.
TEST(E2eEdges, MergingAShardOfHugelyManyShardsIsImmediate) {
  test::temp_dir dir;
  const std::string n = "18446744073709551615";
  const std::string empty = dir.file("e.json"), last = dir.file("h.json");
  const auto saved = run_shufl({"bias", "--seed", "1", "--trials", "200000", "--shard", "0/" + n, "--save-counts", empty});
  ASSERT_EQ(saved.status, 0) << saved.err;
  test::run_result merged;
  // The empty shard alone: refused at once (it used to walk 2^64 shards looking for the missing).
  const double took = seconds_of([&] { merged = run_shufl({"bias", "--merge", empty}); });
  EXPECT_LT(took, 5.0);
  EXPECT_EQ(merged.status, 1);
  EXPECT_EQ(merged.err, "shufl: the merged files hold no trials\n");
  // With the last shard: the 4 chunks' missing 3 belong to shards found from the chunks,
  // i = ceil((c + 1) N / C) - 1 for chunk c of C (Python's integers).
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--trials", "200000", "--shard", "18446744073709551614/" + n,
                       "--save-counts", last}).status, 0);
  merged = run_shufl({"bias", "--merge", empty, last});
  EXPECT_EQ(merged.status, 5) << merged.err;
  const auto py = run_shell("python3 -c 'N = 2**64 - 1; print(\", \".join(f\"{-(-(c + 1) * N // 4) - 1}/{N}\" for c in range(3)))'");
  ASSERT_EQ(py.status, 0) << py.err;
  EXPECT_EQ(merged.err, "shufl: partial merge: shards " + py.out.substr(0, py.out.size() - 1) +
                            " missing from seed \"1\" (xoshiro256pp) (chunks 0..2 of 4, 196608 of 200000 trials)\n");
}

// Shard lists merge in linear time: two files of 100,000 shards each (interleaved) merge at once.
TEST(E2eEdges, LongShardListsMergeInLinearTime) {
  test::temp_dir dir;
  // Two real shards (chunks 0 and 1 of 4) whose files list 100,000 shards each, interleaved.
  for (int odd = 0; odd < 2; ++odd) {
    const std::string part = dir.file("p" + std::to_string(odd) + ".json");
    ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--trials", "262144", "--algo", "naive", "--shard",
                         std::to_string(odd) + "/4", "--save-counts", part}).status, 0);
    json j = json::parse(test::read_file(part));
    json shards = json::array();
    for (std::uint64_t i = 0; i < 100000; ++i) shards.push_back({10 * i + 3 + static_cast<std::uint64_t>(odd), 1000000});
    j["runs"][0]["shards"] = shards;
    dir.write("s" + std::to_string(odd) + ".json", j.dump());
  }
  test::run_result merged;
  const double took = seconds_of([&] {
    merged = run_shufl({"bias", "--merge", dir.file("s0.json"), dir.file("s1.json"), "--allow-partial", "--save-counts",
                        dir.file("m.json")});
  });
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_LT(took, 8.0);  // 0.16 s of CPU; the quadratic merge took 3 s of CPU, 17 s on a loaded machine
  const json m = json::parse(test::read_file(dir.file("m.json")));
  ASSERT_EQ(m["runs"][0]["shards"].size(), 200000u);
  EXPECT_EQ(m["runs"][0]["shards"][0], json::parse("[3,1000000]"));
  EXPECT_EQ(m["runs"][0]["shards"][1], json::parse("[4,1000000]"));
  EXPECT_EQ(m["runs"][0]["shards"][199999], json::parse("[999994,1000000]"));
}

// --- Nothing left behind on any signal ------------------------------------------------------

// A run that writes side files, stopped by `sig` once its temporaries exist: it dies of the
// signal (128 + sig) and leaves neither the temporaries nor the targets.
void expect_signal_leaves_nothing(const std::vector<std::string>& side_args, int sig) {
  test::temp_dir dir;
  std::vector<std::string> args{"bias", "--n", "12", "--trials", "1000000000", "--seed", "1", "--threads", "1"};
  for (const auto& a : side_args) args.push_back(a.find('/') == std::string::npos && a[0] != '-' ? dir.file(a) : a);
  // Output files outside the directory watched.
  test::temp_dir logs;
  background_run child(args, logs.file("out"), logs.file("err"));
  ASSERT_TRUE(poll_until([&] { return child.exited() || (child.catches(sig) && hidden_files(dir.path()).size() ==
                                                                                  side_args.size() / 2); },
                         60))
      << "no temporaries or no handler for signal " << sig;
  ASSERT_FALSE(child.exited()) << test::read_file(logs.file("err"));
  child.signal(sig);
  EXPECT_EQ(child.wait(), 128 + sig);
  EXPECT_EQ(hidden_files(dir.path()), std::vector<std::string>{}) << "signal " << sig;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "signal " << sig;
}

TEST(E2eEdges, SignalsDuringPlotAndReportLeaveNoTemporary) {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    expect_signal_leaves_nothing({"--plot", "p.svg"}, sig);
    expect_signal_leaves_nothing({"--plot", "p.svg", "--report", "r.html"}, sig);
  }
}

// SIGHUP and SIGPIPE during --save-counts get what SIGINT and SIGTERM get: the finished chunks
// saved (a valid part), exit 128 + signal, no temporary of any side file left.
TEST(E2eEdges, SighupAndSigpipeDuringSaveCountsSaveTheFinishedChunks) {
  for (const int sig : {SIGHUP, SIGPIPE}) {
    test::temp_dir dir;
    test::temp_dir logs;
    const std::string part = dir.file("part.json");
    background_run child({"bias", "--n", "12", "--trials", "100000000", "--seed", "hup", "--threads", "1",
                          "--algo", "fisher-yates", "--save-counts", part, "--report", dir.file("r.html")},
                         logs.file("out"), logs.file("err"));
    ASSERT_TRUE(poll_until([&] { return child.exited() || child.catches(sig); }, 60));
    // Some CPU time: a chunk or more is finished (a part with no chunk is valid too).
    poll_until([&] { return child.exited() || child.cpu_seconds() >= 0.3; }, 120);
    ASSERT_FALSE(child.exited());
    child.signal(sig);
    EXPECT_EQ(child.wait(), 128 + sig);
    const std::string err = test::read_file(logs.file("err"));
    const std::string name = sig == SIGHUP ? "SIGHUP" : "SIGPIPE";
    EXPECT_EQ(err.rfind("shufl: interrupted by " + name + ": saved ", 0), 0u) << err;
    EXPECT_EQ(hidden_files(dir.path()), std::vector<std::string>{});
    EXPECT_FALSE(std::filesystem::exists(dir.file("r.html")));
    const json j = json::parse(test::read_file(part));
    EXPECT_EQ(j["format"], "shufl-bias-counts-2");
    // A slow build (sanitizers) may be signalled before its first chunk ends: the part is then
    // valid but empty, and merging it alone says so.
    const auto merged = run_shufl({"bias", "--merge", part, "--allow-partial", "--format", "json"});
    if (err.find(": saved 0 of ") == std::string::npos) {
      EXPECT_EQ(merged.status, 0) << merged.err;
    } else {
      EXPECT_NE(merged.err.find("the merged files hold no trials"), std::string::npos) << merged.err;
    }
  }
}

// `bias --exact` refuses a list before computing any law when one of them cannot be computed
// (naive at n = 10 has 10^10 paths): the refusal comes at once, not after fisher-yates' law.
TEST(E2eEdges, ExactRefusesAListBeforeAnyWork) {
  test::run_result r;
  const double took = seconds_of([&] { r = run_shufl({"bias", "--exact", "--n", "10"}); });
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "shufl: naive: 10000000000 paths of random choices: more than 100000000, too many to enumerate\n");
  EXPECT_LT(took, 3.0);
  // Siblings: the 32-bit-seeded algorithm after a computable one; riffle's closed form beyond its bits.
  r = run_shufl({"bias", "--exact", "--n", "9", "--algo", "fisher-yates,weak-seed"});
  EXPECT_EQ(r.err, "shufl: weak-seed draws a 32-bit seed: 2^32 paths, too many to enumerate\n");
  r = run_shufl({"bias", "--exact", "--n", "20", "--algo", "riffle:1,riffle:1000"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("the riffle closed form needs"), std::string::npos) << r.err;
}

// --monte-carlo with the table test: each simulated table is n! counts whatever the trials, so
// B x n! is bounded (refused at once, the limit named) when n! passes the trials.
TEST(E2eEdges, MonteCarloTablesAreBoundedBeforeAnyWork) {
  test::run_result r;
  const double took = seconds_of([&] {
    r = run_shufl({"bias", "--n", "10", "--trials", "1000", "--test", "table", "--monte-carlo", "30", "--seed", "1"});
  });
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "shufl: --monte-carlo 30 with the table test simulates 30 tables of n! = 3628800 counts; at most "
                   "67108864 counts in all (--monte-carlo 18 at n = 10): use fewer tables or --test position\n");
  EXPECT_LT(took, 3.0);
  // Within the limit, and where the trials dominate, it runs.
  EXPECT_EQ(run_shufl({"bias", "--n", "10", "--trials", "1000", "--test", "table", "--monte-carlo", "1", "--seed", "1",
                       "--algo", "fisher-yates"}).status, 0);
  EXPECT_EQ(run_shufl({"bias", "--n", "3", "--trials", "600", "--monte-carlo", "999", "--seed", "1"}).status, 0);
}

// deck --explain prints four lines about a shoe without building it: its memory does not grow
// with --decks (16 million cards used to take 660 MB).
TEST(E2eEdges, DeckExplainCostsItsFourLines) {
  if (kSanitized) GTEST_SKIP() << "AddressSanitizer reserves more address space than any ulimit -v here";
  const std::string bin = quoted(test::shufl_binary());
  // 100 MB of address space: a 16-million-card deck does not fit, its explanation does.
  const auto r = run_shell("ulimit -v 100000; " + bin + " deck --decks 322638 --explain");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("deck: 322638-deck shoe of standard 52-card decks (16777176 cards)\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("possible orders: 16777176!/(322638!)^52"), std::string::npos) << r.out;
  // The same figures as the built shoe for a small one.
  const auto one = run_shufl({"deck", "--decks", "6", "--explain", "--format", "json"});
  ASSERT_EQ(one.status, 0);
  const json j = json::parse(one.out);
  EXPECT_EQ(j["cards"], 312);
  EXPECT_EQ(j["possible_orders_formula"], "312!/(6!)^52");
  // log2(312! / 720^52), from Python's exact integers.
  const auto py = run_shell("python3 -c 'import math; print(round((math.lgamma(313) - 52 * math.lgamma(7)) / "
                            "math.log(2), 3))'");
  EXPECT_NEAR(j["possible_orders_log2"].get<double>(), std::stod(py.out), 1e-3);
  // Custom cards and jokers, and the limits still apply.
  const auto custom = run_shufl({"deck", "--cards", "a,b,b", "--decks", "1000000", "--explain", "--format", "json"});
  ASSERT_EQ(custom.status, 0) << custom.err;
  EXPECT_EQ(json::parse(custom.out)["possible_orders_formula"], "3000000!/(2000000! * 1000000!)");
  const auto big = run_shufl({"deck", "--decks", "322639", "--explain"});
  EXPECT_EQ(big.status, 1);
  EXPECT_EQ(big.err, "shufl: a deck of 322639 x 52 cards is too large (at most 16777216 cards)\n");
}

// --- Statistical statements hold for the cases they name ------------------------------------

// 1000 identical permutations of 3: the floor printed is the exact p of the most extreme outcomes,
// 6 (1/6)^1000 = 10^-777.37 (it was (1/6)^1000 = 10^-778.15, below the true p). Siblings: the
// matrix and each card's row at n = 8, the z-tests' floors (ties of the identity and reversal).
TEST(E2eEdges, FloorsAreTheExactPOfTheMostExtremeOutcomes) {
  // Exact values from Python's integers (log10 of exact rationals).
  const auto exact = [](const std::string& expr) {
    const auto r = run_shell("python3 -c 'from fractions import Fraction as F; import math\n"
                             "p = " + expr + "\nprint(repr(math.log10(p.numerator) - math.log10(p.denominator)))'");
    EXPECT_EQ(r.status, 0) << r.err;
    return std::stod(r.out);
  };
  std::string three;
  for (int k = 0; k < 1000; ++k) three += "1 2 3\n";
  const auto r = run_shufl({"bias", "--input", "-", "--format", "json"}, three);
  ASSERT_EQ(r.status, 0) << r.err;
  const json res = json::parse(r.out)["results"][0];
  const double table = exact("6 * F(1, 6) ** 1000");
  EXPECT_NEAR(table, -777.3728, 1e-3);  // -999 log10 6
  EXPECT_TRUE(res["chi_squared"]["bound"].get<bool>());
  EXPECT_NEAR(res["chi_squared"]["log10_p"].get<double>(), table, 1e-6);
  EXPECT_GE(res["g_test"]["log10_p"].get<double>(), table - 1e-6);  // its approximation stays above
  const auto text = run_shufl({"bias", "--input", "-"}, three);
  EXPECT_NE(text.out.find("X2 = 5000.0000, df = 5, p = 10^-777.37 (ln p = -1789.97; exact"), std::string::npos) << text.out;
  // Fixed points: only the identity has 3 of them, so (1/6)^1000 is their exact p.
  EXPECT_NE(text.out.find("fixed points:     z = +63.246, p = 10^-778.15"), std::string::npos) << text.out;

  // n = 8, 1000 identities: position test (8! > 1000 trials).
  std::string eight;
  for (int k = 0; k < 1000; ++k) eight += "1 2 3 4 5 6 7 8\n";
  const auto p = run_shufl({"bias", "--input", "-", "--format", "json"}, eight);
  ASSERT_EQ(p.status, 0) << p.err;
  const json pos = json::parse(p.out)["results"][0];
  EXPECT_EQ(pos["test"], "position");
  EXPECT_NEAR(pos["chi_squared"]["log10_p"].get<double>(), exact("40320 * F(1, 40320) ** 1000"), 1e-6);
  for (const auto& s : pos["secondary"]) {
    // Fixed points and cycles: only the identity is that extreme; inversions and rising
    // sequences: the identity and the reversal are equally extreme (both sides of the mean).
    const std::string name = s["name"];
    if (name == "duplicates") continue;
    const bool two = name == "inversions" || name == "rising sequences";
    const double floor = exact(std::string(two ? "2 * " : "") + "F(1, 40320) ** 1000");
    if (two) {
      // The normal approximation stays above their floor here: never below it.
      EXPECT_GE(s["log10_p"].get<double>(), floor - 1e-6) << name;
    } else {
      // Only the identity reaches these sums: the floor is their exact p.
      EXPECT_TRUE(s["bound"].get<bool>()) << name;
      EXPECT_NEAR(s["log10_p"].get<double>(), floor, 1e-6) << name;
    }
  }
}

// An outcome next to the most extreme one whose approximation falls below the floor: the floor is
// then a lower bound on the exact p, and the report adds an upper bound that needs no
// approximation; both bracket the exact p, which Python computes from exact rationals (12
// permutations of 3, eleven identities and one transposition: the table's X² by enumerating
// every count vector, the fixed points' two-sided tail by convolution). Verdicts decide on the
// upper bound.
TEST(E2eEdges, BoundsBelowTheFloorBracketTheExactP) {
  std::string input = "1 3 2\n";
  for (int k = 0; k < 11; ++k) input += "1 2 3\n";
  const auto r = run_shufl({"bias", "--input", "-", "--format", "json"}, input);
  ASSERT_EQ(r.status, 0) << r.err;
  const json res = json::parse(r.out)["results"][0];
  const auto exact = run_shell(
      "python3 -c '\n"
      "from fractions import Fraction as F\nimport itertools, math\n"
      "T, k = 12, 6\n"
      "def comps(t, parts):\n"
      "    if parts == 1:\n        yield (t,)\n        return\n"
      "    for c in range(t + 1):\n        for rest in comps(t - c, parts - 1): yield (c,) + rest\n"
      "x2 = lambda c: F(k, T) * sum(v * v for v in c) - T\n"
      "obs = x2((11, 1, 0, 0, 0, 0))\n"
      "p = sum(F(math.factorial(T), math.prod(math.factorial(v) for v in c)) * F(1, k ** T) for c in comps(T, k) if x2(c) >= obs)\n"
      "law = {0: F(1)}\n"
      "for _ in range(T):\n"
      "    nxt = {}\n"
      "    for s, q in law.items():\n"
      "        for f, w in ((0, F(2, 6)), (1, F(3, 6)), (3, F(1, 6))): nxt[s + f] = nxt.get(s + f, 0) + q * w\n"
      "    law = nxt\n"
      "fp = sum(q for s, q in law.items() if abs(s - T) >= abs(3 * 11 + 1 - T))\n"
      "print(math.log(p.numerator) - math.log(p.denominator), math.log(fp.numerator) - math.log(fp.denominator))'");
  ASSERT_EQ(exact.status, 0) << exact.err;
  double ln_table = 0, ln_fixed = 0;
  std::istringstream(exact.out) >> ln_table >> ln_fixed;
  EXPECT_NEAR(ln_table, std::log(366.0) - 12 * std::log(6.0), 1e-9);  // 6 + 360 count vectors' worth
  const json& x2 = res["chi_squared"];
  ASSERT_TRUE(x2["bound"].get<bool>());
  EXPECT_LE(x2["ln_p"].get<double>(), ln_table);
  EXPECT_GE(x2["ln_p_upper"].get<double>(), ln_table - 1e-9);
  EXPECT_LT(x2["ln_p_upper"].get<double>(), ln_table + 0.01);  // the largest-cell bound is tight here
  for (const auto& s : res["secondary"]) {
    if (s["name"] != "fixed points") continue;
    ASSERT_TRUE(s["bound"].get<bool>());
    EXPECT_LE(s["ln_p"].get<double>(), ln_fixed);
    EXPECT_GE(s["ln_p_upper"].get<double>(), ln_fixed);
  }
  const auto text = run_shufl({"bias", "--input", "-"}, input);
  EXPECT_NE(text.out.find("X2 = 49.0000, df = 5, 2.756e-09 <= p <= 1.682e-07 (ln p from -19.71 to -15.59"),
            std::string::npos)
      << text.out;
}

// --- Hostile text in every output format ----------------------------------------------------

// The same hostile strings as a seed, as an algorithm name and definition read from a counts
// file, and as items and labels, through every output: text and error messages show control
// characters quoted (no ESC, no BEL reaches the terminal), JSON round-trips them, CSV is RFC 4180
// with formulas defused (Python's csv module), SVG is well-formed XML (Python's parser), HTML has
// no C0 control and no raw markup from them.
TEST(E2eEdges, HostileTextInEveryOutputFormat) {
  test::temp_dir dir;
  const std::string seed = "tab\t\x01" "ctl\x1b]0;pwned\x07\x1b[2J</script><b>&\"'";
  const std::string algo = "=HYPERLINK(\"http://x\",\"y\"),\r\n\x1b]0;t\x07";
  const std::string saved = dir.file("c.json");
  ASSERT_EQ(run_shufl({"bias", "--n", "3", "--trials", "6000", "--algo", "naive", "--seed", seed, "--save-counts",
                       saved}).status, 0);
  json counts = json::parse(test::read_file(saved));
  counts["results"][0]["algorithm"] = algo;
  counts["results"][0]["definition"] = "-2+3 \x1b[31mred\x1b[0m";
  const std::string hostile = dir.write("hostile.json", counts.dump());
  const auto merge = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"bias", "--merge", hostile};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_shufl(args);
  };
  const auto no_controls = [](const std::string& what, const std::string& text, bool allow_tab) {
    for (const char c : text) {
      const auto b = static_cast<unsigned char>(c);
      if ((b < 0x20 && c != '\n' && !(allow_tab && (c == '\t' || c == '\r'))) || b == 0x7f) {
        ADD_FAILURE() << what << ": control byte " << int(b) << " in " << text.substr(0, 2000);
        return;
      }
    }
  };
  // Text report and its stderr.
  const auto text = merge({});
  ASSERT_EQ(text.status, 0) << text.err;
  no_controls("text", text.out, false);
  no_controls("text stderr", text.err, false);
  // The name as GNU's quotef shows it.
  EXPECT_NE(text.out.find("'=HYPERLINK(\"http://x\",\"y\"),'$'\\r\\n\\033'']0;t'$'\\a'"), std::string::npos) << text.out;
  // An error naming the algorithm: merged twice, its chunks repeat.
  const auto twice = run_shufl({"bias", "--merge", hostile, hostile});
  EXPECT_EQ(twice.status, 1);
  no_controls("error", twice.err, false);
  EXPECT_NE(twice.err.find("\\033]0;t\\a"), std::string::npos) << twice.err;
  // JSON: the strings round-trip.
  const auto j = merge({"--format", "json"});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_EQ(json::parse(j.out)["results"][0]["algorithm"], algo);
  // CSV, SVG, HTML checked by Python's parsers.
  const auto csv = merge({"--format", "csv", "--plot", dir.file("p.svg"), "--report", dir.file("r.html")});
  ASSERT_EQ(csv.status, 0) << csv.err;
  dir.write("out.csv", csv.out);
  const std::string script = R"PY(
import csv, sys, xml.etree.ElementTree as ET
d, algo = sys.argv[1], open(sys.argv[2], newline="").read()
rows = list(csv.reader(open(d + "/out.csv", newline="")))
assert rows[0][0] == "algorithm" and len(rows) > 2, rows
for row in rows[1:]:
    assert len(row) == 13, row
    assert row[0] == "'" + algo, (row[0], algo)
    float(row[2]); float(row[5])        # numbers stay numbers (ln p is negative: no quote added)
    assert not row[5].startswith("'"), row
for row in rows[1:]:
    for cell in row:
        assert not cell or cell[0] not in "=+@" , cell
ET.parse(d + "/p.svg")
html = open(d + "/r.html", encoding="utf-8").read()
bad = [c for c in html if ord(c) < 32 and c not in "\t\n\r"]
assert not bad, bad[:5]
assert "</script><b>" not in html
print("ok")
)PY";
  const auto checked = run_shell("python3 " + quoted(dir.write("check.py", script)) + " " + quoted(dir.path()) + " " +
                                 quoted(dir.write("algo.txt", algo)));
  EXPECT_EQ(checked.out, "ok\n") << checked.err;
  // The seed in a fresh run's picture and page (not a merge): SVG well-formed, HTML clean.
  ASSERT_EQ(run_shufl({"bias", "--n", "4", "--trials", "2400", "--seed", seed, "--plot", dir.file("s.svg"), "--report",
                       dir.file("s.html")}).status, 0);
  const auto svg = run_shell("python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1]); print(1)' " +
                             quoted(dir.file("s.svg")));
  EXPECT_EQ(svg.out, "1\n") << svg.err;
  no_controls("page", test::read_file(dir.file("s.html")), true);
  // trace: hostile items and seed in text (shown quoted), JSON (round trip), HTML (clean).
  const std::vector<std::string> items{"\x1b[2J", "=1+1", "</script>", "a\x01" "b"};
  std::vector<std::string> args{"trace", "--seed", seed, "--"};
  args.insert(args.end(), items.begin(), items.end());
  const auto tt = run_shufl(args);
  ASSERT_EQ(tt.status, 0) << tt.err;
  no_controls("trace text", tt.out, false);
  args.insert(args.begin() + 1, {"--format", "json"});
  const auto tj = run_shufl(args);
  ASSERT_EQ(tj.status, 0) << tj.err;
  EXPECT_EQ(json::parse(tj.out)["items"][0], items[0]);
  args[2] = "html";
  const auto th = run_shufl(args);
  ASSERT_EQ(th.status, 0) << th.err;
  no_controls("trace html", th.out, true);
  // deck: the seed in its text output.
  const auto deck = run_shufl({"deck", "--seed", seed, "--commit"});
  ASSERT_EQ(deck.status, 0) << deck.err;
  no_controls("deck", deck.out, false);
}

}  // namespace
}  // namespace shufl

namespace shufl {
namespace {

// `lines -o F F`: once F is truncated, Ctrl-C (or SIGTERM, SIGHUP) waits until F holds the whole
// output, then ends the run with 128 + signal. The window is the one where shufl catches SIGINT
// (it installs its handler just before truncating F); the test signals inside it and checks F is
// a permutation of the input, never cut short.
TEST(E2eEdges, SignalWhileWritingTheInputFileWaitsForTheWholeOutput) {
  constexpr int kLines = 1000000;
  std::string input;
  for (int i = 0; i < kLines; ++i) input += std::to_string(i) + '\n';
  test::temp_dir dir;
  int caught = 0;
  for (int attempt = 0; attempt < 10 && caught < 2; ++attempt) {
    const int sig = attempt % 2 == 0 ? SIGINT : SIGTERM;
    const std::string f = dir.write("f.txt", input);
    background_run child({"lines", "--seed", "1", "-o", f, f}, dir.file("out"), dir.file("err"));
    const bool in_window = poll_until([&] { return child.exited() || child.catches(sig); }, 60) && !child.exited();
    if (in_window) child.signal(sig);
    const int status = child.wait();
    if (!in_window) continue;  // finished before the write began: the run says nothing here
    ++caught;
    EXPECT_EQ(status, 128 + sig) << test::read_file(dir.file("err"));
    const std::string out = test::read_file(f);
    ASSERT_EQ(out.size(), input.size()) << "F was cut short by signal " << sig;
    // A permutation of 0..kLines-1, one per line: each number seen once.
    std::vector<bool> seen(kLines, false);
    int lines = 0;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line); ++lines) {
      const int v = std::stoi(line);
      ASSERT_TRUE(v >= 0 && v < kLines && !seen[v]) << line;
      seen[v] = true;
    }
    EXPECT_EQ(lines, kLines);
    EXPECT_NE(out, input);  // the shuffled output, not the untouched input
  }
  EXPECT_GE(caught, 1) << "never signalled inside the write window";
}

}  // namespace
}  // namespace shufl
