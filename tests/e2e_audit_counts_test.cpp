// End-to-end tests of `shufl audit --save-counts / --merge / --shard` (docs/scale.md): the merge
// of every shard is the unsharded run (the same JSON report but its "input"), the serial tests
// included (the pairs where shards meet are counted; separate files lose one pair each), and
// counts of another battery or the same decks twice are refused.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "support/run.hpp"
#include "support/test_rng.hpp"

namespace shufl::test {
namespace {

using rng64 = test_rng;  // support/test_rng.hpp


// `decks` 52-card decks; deck t+1 is deck t cut at a random place half of the time (a serial
// flaw: the cut keeps 50 of the 51 "card below" relations), else a fresh Fisher-Yates deck.
std::vector<std::string> cut_stream(std::size_t decks) {
  rng64 r{2024};
  std::vector<std::uint32_t> d(52);
  std::iota(d.begin(), d.end(), 0u);
  std::vector<std::string> lines;
  for (std::size_t t = 0; t < decks; ++t) {
    if (t == 0 || r.below(2) == 0) {
      for (std::size_t i = 52; i-- > 1;) std::swap(d[i], d[r.below(static_cast<std::uint32_t>(i + 1))]);
    } else {
      std::rotate(d.begin(), d.begin() + 1 + r.below(51), d.end());
    }
    std::string s;
    for (std::size_t i = 0; i < 52; ++i) s += (i ? " " : "") + code(d[i]);
    lines.push_back(s + "\n");
  }
  return lines;
}

std::string joined(const std::vector<std::string>& lines, std::size_t begin, std::size_t end) {
  std::string s;
  for (std::size_t i = begin; i < end; ++i) s += lines[i];
  return s;
}

nlohmann::json json_of(const run_result& r) {
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

nlohmann::json test_named(const nlohmann::json& j, const std::string& name) {
  for (const auto& t : j["tests"]) {
    if (t["name"] == name) return t;
  }
  return {};
}

TEST(E2eAuditCounts, FileShardsMergeToTheWholeRunSerialTestsIncluded) {
  temp_dir dir;
  const auto lines = cut_stream(1500);
  const std::string file = dir.write("decks.txt", joined(lines, 0, lines.size()));
  const nlohmann::json whole = json_of(run_shufl({"audit", file, "--format", "json"}));
  std::vector<std::string> parts;
  for (int i = 0; i < 3; ++i) {
    parts.push_back(dir.path() + fmt::format("/part-{}.json", i));
    const run_result r = run_shufl({"audit", file, "--shard", fmt::format("{}/3", i), "--save-counts", parts.back()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(fmt::format("shard {}/3", i)), std::string::npos) << r.err;
  }
  // Given in any order, the parts merge into the whole run's report.
  nlohmann::json merged = json_of(run_shufl({"audit", "--merge", parts[2], parts[0], parts[1], "--format", "json"}));
  EXPECT_EQ(merged["input"]["parts"], nlohmann::json::array({"shards 0..2/3 of '" + file + "'"}));
  nlohmann::json expected = whole;
  expected.erase("input");
  merged.erase("input");
  EXPECT_EQ(merged, expected);
  // Independent counts: every pair of consecutive decks (1499), and the planted cuts fail.
  const auto serial = test_named(merged, "serial-successions");
  EXPECT_EQ(serial["decks"], 1499);
  EXPECT_EQ(serial["result"], "fail");
  EXPECT_EQ(test_named(merged, "serial-position")["decks"], 1499);
  EXPECT_EQ(merged["decks"], 1500);
}

TEST(E2eAuditCounts, SeparateFilesLoseOnePairEachAndRefuseRepeats) {
  temp_dir dir;
  const auto lines = cut_stream(600);
  const std::string a = dir.write("a.txt", joined(lines, 0, 250));
  const std::string b = dir.write("b.txt", joined(lines, 250, 600));
  const std::string ca = dir.path() + "/a.json", cb = dir.path() + "/b.json";
  ASSERT_EQ(run_shufl({"audit", a, "--save-counts", ca}).status, 0);
  ASSERT_EQ(run_shufl({"audit", b, "--save-counts", cb}).status, 0);
  const nlohmann::json merged = json_of(run_shufl({"audit", "--merge", ca, cb, "--format", "json"}));
  EXPECT_EQ(merged["decks"], 600);
  EXPECT_EQ(test_named(merged, "serial-successions")["decks"], 598);  // 249 + 349: the pair across files is not counted
  EXPECT_EQ(test_named(merged, "card-position")["decks"], 600);
  // The same input twice.
  const run_result twice = run_shufl({"audit", "--merge", ca, cb, ca});
  EXPECT_EQ(twice.status, 1);
  EXPECT_NE(twice.err.find("the same decks cannot be counted twice"), std::string::npos) << twice.err;
  EXPECT_EQ(twice.out, "");
}

TEST(E2eAuditCounts, AlgoShardsMergeToTheWholeRun) {
  temp_dir dir;
  const std::vector<std::string> run = {"--algo", "riffle:4", "--trials", "70000", "--seed", "7"};
  std::vector<std::string> args = {"audit"};
  args.insert(args.end(), run.begin(), run.end());
  auto whole_args = args;
  whole_args.insert(whole_args.end(), {"--format", "json"});
  nlohmann::json whole = json_of(run_shufl(whole_args));
  std::vector<std::string> parts;
  for (int i = 0; i < 2; ++i) {  // 70000 decks are chunks 0 (65536 decks) and 1 (4464): one chunk a shard
    parts.push_back(dir.path() + fmt::format("/p{}.json", i));
    auto a = args;
    a.insert(a.end(), {"--shard", fmt::format("{}/2", i), "--save-counts", parts.back()});
    const run_result r = run_shufl(a);
    ASSERT_EQ(r.status, 0) << r.err;
  }
  // More shards than chunks: every shard refused alike, nothing saved.
  for (int i = 0; i < 3; ++i) {
    auto a = args;
    const std::string three = dir.path() + fmt::format("/three{}.json", i);
    a.insert(a.end(), {"--shard", fmt::format("{}/3", i), "--save-counts", three});
    const run_result r = run_shufl(a);
    EXPECT_EQ(r.status, 1) << i;
    EXPECT_NE(r.err.find(fmt::format("--shard {}/3: the run has only 2 chunks of 65536 decks: use at most 2 shards", i)),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(three)) << i;
  }
  // A missing shard: named, exit 5; --allow-partial: 0.
  const run_result partial = run_shufl({"audit", "--merge", parts[0]});
  EXPECT_EQ(partial.status, 5);
  EXPECT_NE(partial.err.find("chunks 1 of 2 are missing"), std::string::npos) << partial.err;
  EXPECT_EQ(run_shufl({"audit", "--merge", parts[0], "--allow-partial"}).status, 0);
  const std::string report = dir.write("merged.json", run_shufl({"audit", "--merge", parts[1], parts[0], "--format", "json"}).out);
  nlohmann::json merged = nlohmann::json::parse(std::ifstream(report));
  whole.erase("input");
  merged.erase("input");
  EXPECT_EQ(merged, whole);
  EXPECT_EQ(test_named(merged, "serial-successions")["decks"], 69999);
  // The merged report and a counts file against their schemas.
  const std::string script =
      "import json, sys, jsonschema\n"
      "for schema, f in zip(sys.argv[1::2], sys.argv[2::2]):\n"
      "    s = json.load(open(schema))\n"
      "    jsonschema.Draft7Validator.check_schema(s)\n"
      "    jsonschema.Draft7Validator(s).validate(json.load(open(f)))\n"
      "print('valid')\n";
  const std::string schemas = shufl::test::source_dir() + "/schema/";
  const run_result valid = run_shell("python3 '" + dir.write("check.py", script) + "' '" + schemas +
                                     "audit-report.schema.json' '" + report + "' '" + schemas +
                                     "audit-counts-2.schema.json' '" + parts[1] + "'");
  EXPECT_EQ(valid.status, 0) << valid.err;
  EXPECT_EQ(valid.out, "valid\n");
  // Another pack is another battery.
  const std::string piquet = dir.path() + "/piquet.json";
  ASSERT_EQ(run_shufl({"audit", "--algo", "riffle:4", "--trials", "100", "--seed", "7", "--pack", "piquet",
                       "--save-counts", piquet}).status, 0);
  const run_result mixed = run_shufl({"audit", "--merge", parts[0], piquet});
  EXPECT_EQ(mixed.status, 1);
  EXPECT_NE(mixed.err.find("holds another battery"), std::string::npos) << mixed.err;
  EXPECT_NE(mixed.err.find("piquet"), std::string::npos) << mixed.err;
}

TEST(E2eAuditCounts, ThreadsOverAFileReadAsOneReader) {
  // 14000 decks (2.2 MB): two ranges of more than 1 MiB, so --threads 2 cuts the file in two.
  temp_dir dir;
  const std::string file = dir.path() + "/decks.txt";
  ASSERT_EQ(run_shell("'" + shufl_binary() + "' deck --count 14000 --seed threads > '" + file + "'").status, 0);
  nlohmann::json mapped = json_of(run_shufl({"audit", file, "--threads", "2", "--format", "json"}));
  nlohmann::json streamed = json_of(run_shell("cat '" + file + "' | '" + shufl_binary() + "' audit - --threads 1 --format json"));
  EXPECT_EQ(mapped["input"]["sha256"], streamed["input"]["sha256"]);
  mapped.erase("input");
  streamed.erase("input");
  EXPECT_EQ(mapped, streamed);
  EXPECT_EQ(test_named(mapped, "serial-successions")["decks"], 13999);
  // A bad deck in the second range: the same message and line number as one reader's.
  const run_result bad = run_shell("sed '12000s/^../Zz/; 13000s/^../Yy/' '" + file + "' > '" + file + ".bad' && '" +
                                   shufl_binary() + "' audit '" + file + ".bad' --threads 2");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find(": line 12000, position 1: unknown card 'Zz'"), std::string::npos) << bad.err;
  nlohmann::json skipped = json_of(run_shufl({"audit", file + ".bad", "--threads", "2", "--skip-bad", "--format", "json"}));
  EXPECT_EQ(skipped["skipped"], 2);
  ASSERT_EQ(skipped["skip_reasons"].size(), 2u);
  EXPECT_NE(skipped["skip_reasons"][1].get<std::string>().find("line 13000, position 1: unknown card 'Yy'"),
            std::string::npos);
}

}  // namespace
}  // namespace shufl::test
