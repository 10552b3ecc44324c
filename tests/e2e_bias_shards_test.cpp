// End-to-end tests of bias runs beyond one machine (issue 15): a run stopped by SIGINT/SIGTERM
// saves its finished chunks as a valid part and `--resume` completes it to exactly the counts and
// report of an uninterrupted run; four shards run by GNU parallel merge into the single run.
// The reference is always the same seeded run done in one piece (the chunks' streams make every
// split of the work count the same trials).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "support/background.hpp"
#include "support/run.hpp"

namespace shufl {
namespace {

using json = nlohmann::json;
using test::background_run;
using test::poll_until;
using test::run_shell;
using test::run_shufl;

// The JSON report without its documented provenance fields (threads, merged).
json comparable(const std::string& text) {
  json j = json::parse(text);
  j.erase("threads");
  j.erase("merged");
  return j;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// CPU seconds (user + system) used by one finished run of `args` (the children's rusage).
double run_cpu_seconds(const std::vector<std::string>& args) {
  const double before = test::children_cpu_seconds();
  const auto r = run_shufl(args);
  EXPECT_EQ(r.status, 0) << r.err;
  return test::children_cpu_seconds() - before;
}

// When to signal a run of `args`: after the CPU seconds of its start-up plus `chunks` chunks,
// measured on this build from runs of one and of three chunks (a sanitizer build is tens of
// times slower than Release; CPU time, unlike wall time, does not grow with the machine's load).
double cpu_after_chunks(std::vector<std::string> args, double chunks) {
  args.insert(args.end(), {"--threads", "1", "--format", "json", "--trials", "65536"});
  const double one = run_cpu_seconds(args);
  args.back() = "196608";
  const double three = run_cpu_seconds(args);
  const double per_chunk = std::max((three - one) / 2, 1e-3);
  const double startup = std::max(one - per_chunk, 0.0);
  return startup + chunks * per_chunk;
}

struct interrupted {
  int status = -1;
  std::string out, err;
  json part;           // the saved file
  std::uint64_t saved = 0, total = 0;  // chunks saved, chunks in all (every algorithm)
};

// Runs `args` (which include --save-counts FILE) in the background, waits until it has installed
// its signal handler and used `cpu` seconds of CPU (so some chunks are finished, whatever the
// load: CPU time only grows while it counts), then sends `sig`. Polling, never fixed sleeps.
interrupted interrupt_run(const std::vector<std::string>& args, const std::string& file, int sig, double cpu,
                          const test::temp_dir& dir) {
  interrupted r;
  background_run child(args, dir.file("bg.out"), dir.file("bg.err"));
  EXPECT_TRUE(poll_until([&] { return child.exited() || child.catches(sig); }, 60)) << "no handler for signal " << sig;
  poll_until([&] { return child.exited() || child.cpu_seconds() >= cpu; }, 120);
  child.signal(sig);
  r.status = child.wait();
  r.out = test::read_file(dir.file("bg.out"));
  r.err = test::read_file(dir.file("bg.err"));
  if (r.status == 128 + sig) {
    r.part = json::parse(test::read_file(file));
    for (const auto& result : r.part["results"]) {
      for (const auto& part : result["parts"]) {
        for (const auto& range : part["chunks"]) r.saved += range[1].get<std::uint64_t>() - range[0].get<std::uint64_t>();
      }
    }
  }
  return r;
}

// The partial file is a valid counts file: strict validation by --merge (which names the missing
// chunks and exits 5), and the schema (python3-jsonschema).
void expect_valid_partial(const std::string& file, const std::string& seed) {
  const auto merged = run_shufl({"bias", "--merge", file, "--format", "json"});
  EXPECT_EQ(merged.status, 5) << merged.err;
  EXPECT_NE(merged.err.find("shufl: partial merge: missing from seed \"" + seed + "\""), std::string::npos) << merged.err;
  EXPECT_EQ(run_shufl({"bias", "--merge", file, "--allow-partial"}).status, 0);
  const auto schema = run_shell(
      "python3 -c 'import json, sys, jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))"
      ".validate(json.load(open(sys.argv[2]))); print(\"valid\")' " +
      quoted(shufl::test::source_dir() + "/schema/bias-counts-2.schema.json") + " " + quoted(file));
  EXPECT_EQ(schema.out, "valid\n") << schema.err;
}

// Issue 15 item 6: SIGINT during --save-counts saves the finished chunks (a valid part, exit
// 130); --resume with other --threads computes only the missing chunks and ends with the report
// and counts file of the uninterrupted run. Two algorithms, so the stop may fall in either.
TEST(E2eBiasShards, SigintThenResumeEqualsTheUninterruptedRun) {
  test::temp_dir dir;
  const std::string part = dir.file("part.json");
  // 16 chunks per algorithm; the signal comes after about 3 chunks' CPU time (calibrated on this
  // build), so it lands mid-run whatever the build and the load. Should a run still finish
  // first, or save nothing, the next attempt signals sooner or later.
  double cpu = cpu_after_chunks({"bias", "--n", "12", "--seed", "resume", "--algo", "fisher-yates"}, 3);
  const std::uint64_t trials = 16 * 65536;
  const std::vector<std::string> base{"bias", "--n", "12", "--trials", std::to_string(trials), "--seed", "resume",
                                      "--algo", "fisher-yates,naive", "--format", "json"};
  const std::uint64_t chunks = 2 * ((trials + 65535) / 65536);
  interrupted stop;
  for (int attempt = 0; attempt < 4; ++attempt) {
    auto args = base;
    args.insert(args.end(), {"--threads", "2", "--save-counts", part});
    stop = interrupt_run(args, part, SIGINT, cpu, dir);
    stop.total = chunks;
    if (stop.status == 130 && stop.saved > 0 && stop.saved < chunks) break;
    cpu = (stop.status == 130 && stop.saved == 0) ? cpu * 2 : cpu / 2;
  }
  ASSERT_EQ(stop.status, 130) << stop.err;
  ASSERT_GT(stop.saved, 0u);
  ASSERT_LT(stop.saved, stop.total) << "the run finished before the signal, even at " << cpu << " s of CPU";
  EXPECT_EQ(stop.out, "");
  EXPECT_EQ(stop.err, "shufl: interrupted by SIGINT: saved " + std::to_string(stop.saved) + " of " +
                          std::to_string(stop.total) + " chunks to '" + part + "'; finish with the same command and --resume " +
                          part + "\n");
  // Each result's trials are those of its saved chunks (the last chunk is whole: trials % 65536 == 0
  // is not needed, the file says which chunks it has).
  for (const auto& result : stop.part["results"]) {
    std::uint64_t saved_chunks = 0;
    for (const auto& p : result["parts"]) {
      for (const auto& range : p["chunks"]) saved_chunks += range[1].get<std::uint64_t>() - range[0].get<std::uint64_t>();
    }
    EXPECT_EQ(result["trials"].get<std::uint64_t>(), std::min(saved_chunks * 65536, trials)) << result["algorithm"];
  }
  expect_valid_partial(part, "resume");
  // Stopped before naive started: the partial merge reports fisher-yates and names naive.
  if (stop.part["results"][1]["trials"] == 0) {
    const auto merged = run_shufl({"bias", "--merge", part, "--format", "json", "--allow-partial"});
    ASSERT_EQ(merged.status, 0) << merged.err;
    EXPECT_EQ(json::parse(merged.out)["results"].size(), 1u);
    EXPECT_NE(run_shufl({"bias", "--merge", part}).err.find("shufl: partial merge: naive: no trials in the merged files (not reported)\n"),
              std::string::npos);
  }

  auto resume = base;
  resume.insert(resume.end(), {"--threads", "1", "--save-counts", part, "--resume", part});
  const auto resumed = run_shufl(resume);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  auto whole = base;
  whole.insert(whole.end(), {"--threads", "2", "--save-counts", dir.file("whole.json")});
  const auto direct = run_shufl(whole);
  ASSERT_EQ(direct.status, 0) << direct.err;
  EXPECT_EQ(comparable(resumed.out), comparable(direct.out));
  EXPECT_EQ(json::parse(test::read_file(part)), json::parse(test::read_file(dir.file("whole.json"))));
  EXPECT_EQ(json::parse(direct.out)["results"][1]["verdict"], "biased");  // naive at n = 12
}

// SIGTERM stops a shard (exit 143); the shard resumed, merged with the other shard, gives the
// unsharded run's report.
TEST(E2eBiasShards, SigtermOnAShardThenResumeMergesToTheSingleRun) {
  test::temp_dir dir;
  const std::string part = dir.file("part-1.json");
  const std::uint64_t trials = 32 * 65536;  // shard 1/2: chunks 16..31
  double cpu = cpu_after_chunks({"bias", "--n", "12", "--seed", "term", "--algo", "fisher-yates"}, 3);
  const std::vector<std::string> base{"bias", "--n", "12", "--trials", std::to_string(trials), "--seed", "term",
                                      "--algo", "fisher-yates"};
  interrupted stop;
  for (int attempt = 0; attempt < 4; ++attempt) {
    auto args = base;
    args.insert(args.end(), {"--shard", "1/2", "--threads", "2", "--save-counts", part});
    const std::uint64_t chunks = (trials + 65535) / 65536;
    stop = interrupt_run(args, part, SIGTERM, cpu, dir);
    stop.total = chunks - chunks / 2;  // shard 1/2: chunks floor(C/2) .. C-1
    if (stop.status == 143 && stop.saved > 0 && stop.saved < stop.total) break;
    cpu = (stop.status == 143 && stop.saved == 0) ? cpu * 2 : cpu / 2;
  }
  ASSERT_EQ(stop.status, 143) << stop.err;
  ASSERT_GT(stop.saved, 0u);
  ASSERT_LT(stop.saved, stop.total);
  EXPECT_EQ(stop.err, "shufl: interrupted by SIGTERM: saved " + std::to_string(stop.saved) + " of " +
                          std::to_string(stop.total) + " chunks to '" + part + "'; finish with the same command and --resume " +
                          part + "\n");
  EXPECT_EQ(stop.part["runs"][0]["shards"], json::parse("[[1,2]]"));
  // The saved chunks are the first ones of shard 1.
  const std::uint64_t first = ((trials + 65535) / 65536) / 2;
  EXPECT_EQ(stop.part["results"][0]["parts"][0]["chunks"], json::parse("[[" + std::to_string(first) + "," +
                                                                           std::to_string(first + stop.saved) + "]]"));
  auto resume = base;
  resume.insert(resume.end(), {"--shard", "1/2", "--threads", "1", "--save-counts", part, "--resume", part});
  const auto resumed = run_shufl(resume);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(resumed.out, "");
  auto shard0 = base;
  shard0.insert(shard0.end(), {"--shard", "0/2", "--save-counts", dir.file("part-0.json")});
  ASSERT_EQ(run_shufl(shard0).status, 0);
  const auto merged = run_shufl({"bias", "--merge", dir.file("part-0.json"), part, "--format", "json"});
  ASSERT_EQ(merged.status, 0) << merged.err;
  auto whole = base;
  whole.insert(whole.end(), {"--format", "json"});
  const auto direct = run_shufl(whole);
  ASSERT_EQ(direct.status, 0) << direct.err;
  EXPECT_EQ(comparable(merged.out), comparable(direct.out));
}

// Issue 15 item 5: four shards run by GNU parallel (the README's command line) merge into the
// single run's JSON report (but for the documented provenance fields).
TEST(E2eBiasShards, GnuParallelFourShardsEqualTheSingleRun) {
  if (run_shell("command -v parallel").status != 0) {
    FAIL() << "GNU parallel is not installed (scripts/setup.sh installs Debian's 'parallel')";
  }
  test::temp_dir dir;
  const std::string bin = test::shufl_binary();
  const std::string run = quoted(bin) + " bias --n 8 --trials 262144 --seed 7 --algo fisher-yates,sort-coin:merge";  // one chunk per shard
  const auto shards = run_shell("cd " + quoted(dir.path()) + " && parallel --will-cite -j 4 " + run +
                                " --shard {}/4 --threads 1 --save-counts part-{}.json ::: 0 1 2 3");
  ASSERT_EQ(shards.status, 0) << shards.err;
  for (int i = 0; i < 4; ++i) {
    EXPECT_NE(shards.err.find("shufl bias: shard " + std::to_string(i) + "/4: chunks "), std::string::npos) << shards.err;
  }
  const auto merged = run_shell("cd " + quoted(dir.path()) + " && " + quoted(bin) + " bias --merge part-*.json --format json");
  ASSERT_EQ(merged.status, 0) << merged.err;
  const auto direct = run_shell(run + " --format json");
  ASSERT_EQ(direct.status, 0) << direct.err;
  EXPECT_EQ(comparable(merged.out), comparable(direct.out));
  EXPECT_EQ(json::parse(merged.out)["merged"]["runs"][0]["shards"], json::parse("[[0,4],[1,4],[2,4],[3,4]]"));
  EXPECT_EQ(json::parse(direct.out)["results"][1]["verdict"], "biased");  // merge sort with coin flips
}

}  // namespace
}  // namespace shufl
