// End-to-end tests of `shufl audit --save-counts / --merge / --shard` (docs/scale.md): the merge
// of every shard is the unsharded run (the same JSON report but its "input"), the serial tests
// included (the pairs where shards meet are counted; separate files lose one pair each), and
// counts of another battery or the same decks twice are refused.
#include <fmt/format.h>
#include <fmt/ranges.h>
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

TEST(E2eAuditCounts, LagsArePartOfTheBattery) {
  // --lags 3 travels with the counts (a merge of lags-3 shards equals the lags-3 run; position-pairs
  // names three lags), and counts of another --lags are refused.
  temp_dir dir;
  const auto lines = cut_stream(400);
  const std::string a = dir.write("a.txt", joined(lines, 0, 400));
  const std::string ca = dir.path() + "/a3.json", cb = dir.path() + "/b3.json", c2 = dir.path() + "/a2.json";
  ASSERT_EQ(run_shufl({"audit", a, "--lags", "3", "--shard", "0/2", "--save-counts", ca}).status, 0);
  ASSERT_EQ(run_shufl({"audit", a, "--lags", "3", "--shard", "1/2", "--save-counts", cb}).status, 0);
  ASSERT_EQ(run_shufl({"audit", a, "--shard", "0/2", "--save-counts", c2}).status, 0);
  nlohmann::json merged = json_of(run_shufl({"audit", "--merge", ca, cb, "--format", "json"}));
  nlohmann::json whole = json_of(run_shufl({"audit", a, "--lags", "3", "--format", "json"}));
  const nlohmann::json pairs = test_named(whole, "position-pairs");
  EXPECT_NE(pairs["law"].get<std::string>().find("lag 3: W = "), std::string::npos) << pairs;
  EXPECT_EQ(test_named(merged, "position-pairs"), pairs);
  EXPECT_EQ(test_named(merged, "coupon-collector-ranks"), test_named(whole, "coupon-collector-ranks"));
  const run_result other = run_shufl({"audit", "--merge", c2, cb});
  EXPECT_EQ(other.status, 1);
  EXPECT_NE(other.err.find("--lags 3 against --lags 2"), std::string::npos) << other.err;
  EXPECT_EQ(other.out, "");
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

namespace shufl::test {
namespace {

// A file is its content and a part its bytes, whatever the names: the file whole and in shards,
// or cut with two N, is refused (it counted twice: 6,000 decks for 3,000, a false "fail"); a
// copy under another name is the same file; two files of one base name and size are two inputs.
TEST(E2eAuditCounts, PartsAreIdentifiedByContentAndBytesNotNames) {
  temp_dir dir;
  const auto lines = cut_stream(900);
  const std::string file = dir.write("decks.txt", joined(lines, 0, lines.size()));
  const auto save = [&](const std::string& input, const std::string& shard, const std::string& out) {
    std::vector<std::string> a = {"audit", input, "--save-counts", dir.file(out)};
    if (!shard.empty()) a.insert(a.end(), {"--shard", shard});
    const run_result r = run_shufl(a);
    EXPECT_EQ(r.status, 0) << r.err;
    return dir.file(out);
  };
  const std::string whole = save(file, "", "whole.json");
  const std::string a0 = save(file, "0/2", "a0.json"), a1 = save(file, "1/2", "a1.json");
  const std::string b0 = save(file, "0/3", "b0.json");
  std::filesystem::create_directory(dir.file("copy"));
  const std::string copy = dir.write("copy/renamed.txt", joined(lines, 0, lines.size()));
  const std::string c1 = save(copy, "1/2", "c1.json");
  for (const auto& files : std::vector<std::vector<std::string>>{{whole, a0}, {a0, a1, b0}, {b0, a0}, {a0, c1, a1}}) {
    std::vector<std::string> args = {"audit", "--merge"};
    args.insert(args.end(), files.begin(), files.end());
    const run_result r = run_shufl(args);
    EXPECT_EQ(r.status, 1) << fmt::format("{}", fmt::join(files, " ")) << ": " << r.out;
    EXPECT_NE(r.err.find("the same decks cannot be counted twice"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  // Shards of the copy complete the original's: one file, joined, the serial pair counted.
  const nlohmann::json joined_copy = json_of(run_shufl({"audit", "--merge", a0, c1, "--format", "json"}));
  EXPECT_EQ(joined_copy["decks"], 900);
  EXPECT_EQ(test_named(joined_copy, "serial-successions")["decks"], 899);
  // Cut with two N but not overlapping: b0 (a third) and a1 (the second half) leave a gap,
  // named by bytes.
  const run_result gap = run_shufl({"audit", "--merge", b0, a1, "--allow-partial", "--format", "json"});
  EXPECT_EQ(gap.status, 0) << gap.err;
  const run_result partial = run_shufl({"audit", "--merge", b0, a1});
  EXPECT_EQ(partial.status, 5) << partial.err;
  EXPECT_NE(partial.err.find("bytes "), std::string::npos) << partial.err;
  // Two different files with the same base name and size: two inputs, both counted.
  std::filesystem::create_directory(dir.file("x"));
  std::filesystem::create_directory(dir.file("y"));
  std::string other = joined(cut_stream(901), 1, 901);  // other decks, same length in bytes
  const std::string mine = joined(lines, 0, lines.size());
  ASSERT_EQ(other.size(), mine.size());
  const std::string x = save(dir.write("x/decks.txt", mine), "0/2", "x0.json");
  const std::string y = save(dir.write("y/decks.txt", other), "0/2", "y0.json");
  const std::string x1 = save(dir.file("x/decks.txt"), "1/2", "x1.json");
  const std::string y1 = save(dir.file("y/decks.txt"), "1/2", "y1.json");
  const nlohmann::json both = json_of(run_shufl({"audit", "--merge", x, y, x1, y1, "--format", "json"}));
  EXPECT_EQ(both["decks"], 1800);
  EXPECT_EQ(both["input"]["parts"].size(), 2u);
  // A part with its identity is valid against the schema.
  const nlohmann::json part = nlohmann::json::parse(read_file(a0))["parts"][0];
  EXPECT_EQ(part["bytes"][0], 0);
  EXPECT_EQ(part["file_id"].get<std::string>().size(), 64u);
  const std::string script =
      "import json, sys, jsonschema\n"
      "s = json.load(open(sys.argv[1]))\n"
      "jsonschema.Draft7Validator(s).validate(json.load(open(sys.argv[2])))\n"
      "print('valid')\n";
  const run_result valid = run_shell("python3 '" + dir.write("check.py", script) + "' '" + source_dir() +
                                     "/schema/audit-counts-2.schema.json' '" + a0 + "'");
  EXPECT_EQ(valid.out, "valid\n") << valid.err;
}

// A counts file's totals must cover every deck (or none) and stay within what a deck can add:
// successions at most N - 1 = 51 per 52-card deck, fixed points at most N.
TEST(E2eAuditCounts, TotalsAreCheckedAgainstTheDecksAndPerDeckMaxima) {
  temp_dir dir;
  const auto lines = cut_stream(100);
  const std::string file = dir.write("decks.txt", joined(lines, 0, lines.size()));
  const std::string counts = dir.file("c.json");
  ASSERT_EQ(run_shufl({"audit", file, "--save-counts", counts}).status, 0);
  const nlohmann::ordered_json good = nlohmann::ordered_json::parse(read_file(counts));
  ASSERT_EQ(good["totals"]["successions"][0], 100);
  const auto refused = [&](const char* key, std::uint64_t units, std::uint64_t total, const std::string& why) {
    nlohmann::ordered_json bad = good;
    bad["totals"][key] = {units, total};
    const std::string path = dir.write("bad.json", bad.dump() + "\n");
    const run_result r = run_shufl({"audit", "--merge", path});
    EXPECT_EQ(r.status, 1) << key << " " << units << " " << total;
    EXPECT_NE(r.err.find(fmt::format("totals.{}", key)), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  };
  refused("successions", 99, 0, "expected 0 or the decks (100)");
  refused("successions", 100, 5101, "is more than 5100");
  refused("fixed_points", 100, 5201, "is more than 5200");
  refused("descents", 0, 0, "the per-deck totals cover different decks");
  refused("serial_successions", 98, 0, "expected 0 or the serial pairs (99)");
  nlohmann::ordered_json most = good;
  most["totals"]["successions"] = {100, 5100};  // the bound itself is accepted
  EXPECT_EQ(run_shufl({"audit", "--merge", dir.write("most.json", most.dump() + "\n")}).status, 0);
}

}  // namespace
}  // namespace shufl::test
