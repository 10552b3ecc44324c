// End-to-end tests of shufl bias counts files (shufl-bias-counts-2): --save-counts, --merge,
// --shard, --resume; the validator's one-line errors (F01), 128-bit totals (F02), provenance in
// the merge header (S08), and the duplicates test surviving a merge (issue 11 item 10).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

#include "support/run.hpp"

namespace shufl {
namespace {

using json = nlohmann::json;
using test::run_shell;
using test::run_shufl;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

json load(const std::string& path) { return json::parse(test::read_file(path)); }

void save(const std::string& path, const json& j) {
  std::ofstream f(path, std::ios::binary);
  f << j.dump();
}

// The JSON report without the documented provenance fields of a merge (threads, merged).
json comparable(const std::string& text) {
  json j = json::parse(text);
  j.erase("threads");
  j.erase("merged");
  return j;
}

// A version-1 file (what shufl wrote before shufl-bias-counts-2) with the same counts.
json to_v1(const json& v2) {
  json v1;
  v1["shufl_version"] = "0.1.0";
  v1["format"] = "shufl-bias-counts-1";
  v1["engine"] = v2["runs"][0]["engine"];
  v1["seed"] = v2["runs"][0]["seed"];
  v1["n"] = v2["n"];
  v1["results"] = json::array();
  for (const auto& r : v2["results"]) {
    v1["results"].push_back({{"algorithm", r["algorithm"]}, {"test", r["test"]}, {"trials", r["trials"]},
                             {"table", r["table"]}, {"positions", r["positions"]}, {"sums", r["sums"]}});
  }
  return v1;
}

// The error must be one line naming the file and the field, with nothing on stdout.
void expect_field_error(const std::string& file, const std::string& field, const std::string& what) {
  const auto r = run_shufl({"bias", "--merge", file});
  EXPECT_EQ(r.status, 1) << what << "\n" << r.out;
  EXPECT_EQ(r.out, "") << what;
  EXPECT_EQ(r.err.rfind("shufl: '" + file + "': " + field, 0), 0u) << what << ": " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": " << r.err;
}

// F01: every edit of the case list, in a table-test file and a position-test file, in both
// format versions: a one-line error naming the file and the field, nothing on stdout, no crash
// or hang (the ASan build runs this too).
TEST(E2eBiasCounts, F01EveryCorruptFieldIsOneLineNamingTheField) {
  test::temp_dir dir;
  const std::string table = dir.file("table.json"), position = dir.file("position.json");
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--trials", "6000", "--algo", "naive", "--save-counts", table}).status, 0);
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--n", "6", "--trials", "3000", "--test", "position", "--algo", "naive",
                       "--save-counts", position}).status, 0);
  struct variant {
    std::string what, field;
    std::function<void(json&, bool)> edit;  // (file, is_v1)
  };
  const std::vector<variant> variants = {
      {"n = -1", "n:", [](json& j, bool) { j["n"] = -1; }},
      {"n = 0", "n:", [](json& j, bool) { j["n"] = 0; }},
      {"n = 300", "n:", [](json& j, bool) { j["n"] = 300; }},
      {"n = 4294967296", "n:", [](json& j, bool) { j["n"] = 4294967296ull; }},
      {"count -100", "results[0].table[0]", [](json& j, bool) { j["results"][0]["table"][0] = -100; }},
      {"trials -1", "results[0].trials", [](json& j, bool) { j["results"][0]["trials"] = -1; }},
      {"count 1e30", "results[0].table[0]", [](json& j, bool) { j["results"][0]["table"][0] = 1e30; }},
      {"table sum != trials", "results[0].table",
       [](json& j, bool) { j["results"][0]["table"][0] = j["results"][0]["table"][0].get<std::uint64_t>() + 1; }},
      {"position count -100", "results[0].positions[3]", [](json& j, bool) { j["results"][0]["positions"][3] = -100; }},
      {"position count 1e30", "results[0].positions[3]", [](json& j, bool) { j["results"][0]["positions"][3] = 1e30; }},
      {"position count +1", "results[0].positions",
       [](json& j, bool) { j["results"][0]["positions"][0] = j["results"][0]["positions"][0].get<std::uint64_t>() + 1; }},
      {"fixed points != diagonal", "results[0].sums.fixed_points",
       [](json& j, bool) { j["results"][0]["sums"]["fixed_points"] = j["results"][0]["sums"]["fixed_points"].get<std::uint64_t>() + 1; }},
      {"sums.trials != trials", "results[0].sums.trials", [](json& j, bool) { j["results"][0]["sums"]["trials"] = 1; }},
      {"inversions impossible", "results[0].sums.inversions",
       [](json& j, bool) { j["results"][0]["sums"]["inversions"] = "99999999999999999999"; }},
      {"table of strings", "results[0].table[1]", [](json& j, bool) { j["results"][0]["table"][1] = "x"; }},
      {"nested table", "results[0].table[0]", [](json& j, bool) { j["results"][0]["table"][0] = json::array({1}); }},
      {"unknown field", "results[0].extra", [](json& j, bool) { j["results"][0]["extra"] = 1; }},
      {"no results", "results", [](json& j, bool) { j["results"] = json::array(); }},
      {"engine", "", [](json& j, bool v1) { (v1 ? j["engine"] : j["runs"][0]["engine"]) = "rand"; }},
  };
  int count = 0;
  for (const bool v1 : {false, true}) {
    for (const auto& source : {table, position}) {
      const bool is_table = source == table;
      for (const auto& v : variants) {
        json j = load(source);
        if (v1) j = to_v1(j);
        if (!is_table && contains(v.field, "table")) continue;  // position files: the matrix variants below
        v.edit(j, v1);
        if (!is_table && contains(v.what, "n = ")) {
          // Arrays resized to match the edited n (what let n * n wrap before).
          const auto n = j["n"].is_number_unsigned() ? std::min<std::uint64_t>(j["n"].get<std::uint64_t>(), 300) : 0;
          j["results"][0]["positions"] = json(std::vector<std::uint64_t>(n * n, 1));
        }
        std::string name = "v";
        name += std::to_string(++count);
        name += ".json";
        const std::string file = dir.file(name);
        save(file, j);
        const std::string field = v.field.empty() ? (v1 ? "engine" : "runs[0].engine") : v.field;
        expect_field_error(file, field, (v1 ? "v1 " : "v2 ") + std::string(is_table ? "table: " : "position: ") + v.what);
      }
    }
  }
  // Version-2 only: runs and parts.
  json j = load(table);
  j["runs"][0]["trials"] = -1;
  save(dir.file("runtrials.json"), j);
  expect_field_error(dir.file("runtrials.json"), "runs[0].trials", "run trials -1");
  j = load(table);
  j["results"][0]["parts"][0]["chunks"] = json::array({json::array({0, 5})});
  save(dir.file("chunks.json"), j);
  expect_field_error(dir.file("chunks.json"), "results[0].parts[0].chunks[0]", "chunks past the run");
  j = load(position);
  j["results"][0]["parts"][0]["fingerprints"] = "zz";
  save(dir.file("fp.json"), j);
  expect_field_error(dir.file("fp.json"), "results[0].parts[0].fingerprints", "bad fingerprints");
}

// Issue 11 item 10: the merge of a run's own counts applies every test the run applies (the
// duplicates test included: the fingerprints travel in the file), and so does the merge of its
// four shards: the same JSON except the documented provenance fields.
TEST(E2eBiasCounts, MergeKeepsTheDuplicatesTestAndEqualsTheRun) {
  test::temp_dir dir;
  const std::vector<std::string> run = {"bias", "--n", "52", "--trials", "200000", "--seed", "1", "--algo", "weak-seed",
                                        "--format", "json"};
  auto args = run;
  args.insert(args.end(), {"--save-counts", dir.file("all.json")});
  const auto direct = run_shufl(args);
  ASSERT_EQ(direct.status, 0) << direct.err;
  const json d = comparable(direct.out);
  EXPECT_EQ(d["results"][0]["verdict"], "biased");
  bool duplicates = false;
  for (const auto& s : d["results"][0]["secondary"]) duplicates |= s["name"] == "duplicates";
  EXPECT_TRUE(duplicates);
  const auto merged = run_shufl({"bias", "--merge", dir.file("all.json"), "--format", "json"});
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(comparable(merged.out), d);
  std::vector<std::string> merge = {"bias", "--format", "json", "--merge"};
  for (int i = 0; i < 4; ++i) {
    std::string name = "part-";
    name += std::to_string(i);
    name += ".json";
    const std::string part = dir.file(name);
    auto shard = run;
    shard.resize(shard.size() - 2);  // no --format json: a shard prints no report
    shard.insert(shard.end(), {"--shard", std::to_string(i) + "/4", "--threads", std::to_string(i + 1), "--save-counts", part});
    const auto r = run_shufl(shard);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(contains(r.err, "shufl bias: shard " + std::to_string(i) + "/4: chunks " + std::to_string(i) + " of 4")) << r.err;
    merge.push_back(part);
  }
  const auto sharded = run_shufl(merge);
  ASSERT_EQ(sharded.status, 0) << sharded.err;
  EXPECT_EQ(comparable(sharded.out), d);
  const json m = json::parse(sharded.out)["merged"];
  EXPECT_EQ(m["files"].size(), 4u);
  EXPECT_EQ(m["runs"][0]["seed"], "1");
  EXPECT_EQ(m["runs"][0]["shards"], json::parse("[[0,4],[1,4],[2,4],[3,4]]"));
  // A merged file merged again with one of its parts counts those trials twice: refused.
  merge.insert(merge.end(), {"--save-counts", dir.file("merged.json")});
  ASSERT_EQ(run_shufl(merge).status, 0);
  auto r = run_shufl({"bias", "--merge", dir.file("merged.json"), dir.file("part-2.json")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "shufl: '" + dir.file("part-2.json") + "' repeats chunks 2 of seed \"1\" (xoshiro256pp) for weak-seed, "
                   "already merged: the same trials cannot be counted twice\n");
  // The merged file equals the unsharded run's counts file but for the shards it records.
  json whole = load(dir.file("all.json")), parts = load(dir.file("merged.json"));
  EXPECT_EQ(parts["runs"][0]["shards"].size(), 4u);
  parts["runs"][0]["shards"] = json::array();
  EXPECT_TRUE(whole == parts);
}

// F02: two n = 255 files of 6.12e14 uniform trials each: the inversion sums pass 2^64 (and
// each is above 2^53). The merge is exact (128-bit totals), never a wrapped "biased". Expected
// values by hand: every cell T/255 = 2.4e12; inversion total 2·T·255·254/4 = 19819620000000000000.
TEST(E2eBiasCounts, F02TotalsPast2To64AreExact) {
  test::temp_dir dir;
  const std::uint64_t trials = 612'000'000'000'000;
  const std::uint64_t chunks = trials / 65536 + (trials % 65536 != 0);
  for (const std::string seed : {"A", "B"}) {
    json j;
    j["format"] = "shufl-bias-counts-2";
    j["shufl_version"] = "0.1.0";
    j["counting"] = "chunks-65536-blake2b-streams-1";
    j["n"] = 255;
    j["secondary"] = true;
    j["runs"] = json::array({{{"seed", seed}, {"run_id", nullptr}, {"input", nullptr}, {"engine", "xoshiro256pp"},
                              {"trials", trials}, {"shards", json::array()}}});
    json r;
    r["algorithm"] = "fisher-yates";
    r["definition"] = "i from n-1 down to 1: j uniform in [0, i]; swap a[i], a[j]";
    r["test"] = "position";
    r["trials"] = trials;
    r["table"] = json::array();
    r["positions"] = json(std::vector<std::uint64_t>(255 * 255, trials / 255));
    // Means exactly uniform: fixed points 1, inversions n(n-1)/4, rising sequences (n+1)/2;
    // cycles T·H_255 rounded (Python: round(T * sum(Fraction(1, k) for k in range(1, 256))),
    // H_255 = 6.12043871...).
    r["sums"] = {{"trials", trials}, {"fixed_points", trials}, {"cycles", "3745708492244176"},
                 {"inversions", std::to_string(trials / 4 * 255 * 254)}, {"rising_sequences", std::to_string(trials * 128)}};
    r["parts"] = json::array({{{"run", 0}, {"chunks", json::array({json::array({0, chunks})})}, {"fingerprints", ""}}});
    j["results"] = json::array({r});
    save(dir.file(seed + ".json"), j);
  }
  const auto out = run_shufl({"bias", "--merge", dir.file("A.json"), dir.file("B.json"), "--format", "json",
                              "--save-counts", dir.file("AB.json")});
  ASSERT_EQ(out.status, 0) << out.err;
  const json j = json::parse(out.out);
  EXPECT_EQ(j["trials"], 2 * trials);
  EXPECT_NE(j["results"][0]["verdict"], "biased");
  for (const auto& s : j["results"][0]["secondary"]) {
    if (s["name"] == "inversions" || s["name"] == "fixed points" || s["name"] == "rising sequences") {
      EXPECT_EQ(s["statistic"].get<double>(), 0.0) << s;
    }
  }
  const json saved = load(dir.file("AB.json"));
  EXPECT_EQ(saved["results"][0]["sums"]["inversions"], "19819620000000000000");
  EXPECT_EQ(saved["results"][0]["trials"], 1224000000000000u);  // below 2^53: a number
  EXPECT_EQ(saved["results"][0]["sums"]["rising_sequences"], "156672000000000000");  // above 2^53: a string
}

// S08: a merge of seeds A and B says so (seeds and engines), with the real number of files.
TEST(E2eBiasCounts, S08MergeHeaderListsSeedsAndEngines) {
  test::temp_dir dir;
  ASSERT_EQ(run_shufl({"bias", "--seed", "A", "--trials", "6000", "--save-counts", dir.file("a.json")}).status, 0);
  ASSERT_EQ(run_shufl({"bias", "--seed", "B", "--trials", "3000", "--save-counts", dir.file("b.json")}).status, 0);
  const auto r = run_shufl({"bias", "--merge", dir.file("a.json"), dir.file("b.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto first = r.out.substr(0, r.out.find("Each algorithm"));
  EXPECT_EQ(first,
            "shufl bias --merge: n = 3, 9000 trials per algorithm, merged from 2 files\n"
            "2 runs: seed \"A\" (xoshiro256pp), 6000 trials; seed \"B\" (xoshiro256pp), 3000 trials "
            "(independent runs, counts added)\n");
  EXPECT_FALSE(contains(r.out, "none (from the OS)"));
  EXPECT_FALSE(contains(r.out, "merged from 1 files"));
  // Different engines, n or algorithms are not one experiment.
  ASSERT_EQ(run_shufl({"bias", "--seed", "C", "--trials", "6000", "--rng", "chacha20", "--save-counts", dir.file("c.json")}).status, 0);
  ASSERT_EQ(run_shufl({"bias", "--seed", "D", "--n", "4", "--trials", "6000", "--save-counts", dir.file("d.json")}).status, 0);
  ASSERT_EQ(run_shufl({"bias", "--seed", "E", "--algo", "naive", "--save-counts", dir.file("e.json")}).status, 0);
  ASSERT_EQ(run_shufl({"bias", "--seed", "A", "--trials", "7000", "--save-counts", dir.file("a7.json")}).status, 0);
  for (const auto& [other, message] : std::vector<std::pair<std::string, std::string>>{
           {"c.json", "was run with engine chacha20, the other files with xoshiro256pp: not one experiment"},
           {"d.json", "has n = 4, the other files n = 3: not one experiment"},
           {"e.json", "has 1 algorithms, the other files 2: not one experiment"},
           {"a7.json", "holds seed \"A\" (xoshiro256pp) with 7000 trials, another file the same seed with 6000: not one experiment"}}) {
    const auto m = run_shufl({"bias", "--merge", dir.file("a.json"), dir.file(other)});
    EXPECT_EQ(m.status, 1) << other;
    EXPECT_EQ(m.out, "");
    EXPECT_EQ(m.err, "shufl: '" + dir.file(other) + "' " + message + "\n");
  }
}

// Version-1 files stay readable where valid; their seed still guards against double counting.
TEST(E2eBiasCounts, Version1FilesStayReadable) {
  test::temp_dir dir;
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--trials", "6000", "--save-counts", dir.file("a.json")}).status, 0);
  save(dir.file("a1.json"), to_v1(load(dir.file("a.json"))));
  const auto direct = run_shufl({"bias", "--seed", "1", "--trials", "6000", "--format", "json"});
  const auto merged = run_shufl({"bias", "--merge", dir.file("a1.json"), "--format", "json"});
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(comparable(merged.out), comparable(direct.out));
  const auto twice = run_shufl({"bias", "--merge", dir.file("a1.json"), dir.file("a.json")});
  EXPECT_EQ(twice.status, 1);
  EXPECT_TRUE(contains(twice.err, "the same trials cannot be counted twice")) << twice.err;
}

// Issue 12 item 4 and 9: nesting depth and size are bounded and the error says so; a 40 MB
// hostile file of counts is refused at the documented count limit in bounded memory.
TEST(E2eBiasCounts, DepthSizeAndMemoryAreBounded) {
  test::temp_dir dir;
  const std::string deep = dir.write("deep.json", std::string(100000, '[') + std::string(100000, ']'));
  auto r = run_shufl({"bias", "--merge", deep});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: '" + deep + "': [0][0][0][0][0][0][0][0]: JSON nested deeper than 8 levels (the limit for counts files)\n");
  const std::string big = dir.file("big.json");
  ASSERT_EQ(run_shell("truncate -s 600M '" + big + "'").status, 0);  // sparse: nothing is written
  r = run_shufl({"bias", "--merge", big});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: '" + big + "': 629145600 bytes, more than the 512 MiB a counts file may have\n");
  // 20 million zeros in tables of unknown n: refused at 2^24 counts, in well under 1.7 GB.
  std::string text = R"({"format":"shufl-bias-counts-2","results":[)";
  for (int i = 0; i < 6; ++i) {
    text += i ? ",{\"table\":[0" : "{\"table\":[0";
    for (int k = 1; k < 3'500'000; ++k) text += ",0";
    text += "]}";
  }
  text += "]}";
  const std::string hostile = dir.write("hostile.json", text);
  r = run_shell("/usr/bin/time -f 'maxrss %M' '" + test::shufl_binary() + "' bias --merge '" + hostile + "'");
  EXPECT_TRUE(contains(r.err, "more than 16777216 counts in one file (the limit for counts files)")) << r.err;
  const auto at = r.err.find("maxrss ");
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_LT(std::stol(r.err.substr(at + 7)), 600'000) << "KiB";
}

// The counts files shufl writes validate against schema/bias-counts-2.schema.json (Debian's
// python3-jsonschema): table, position with fingerprints, a shard, an empty shard, a merge.
TEST(E2eBiasCounts, FilesValidateAgainstTheSchema) {
  test::temp_dir dir;
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--trials", "6000", "--save-counts", dir.file("t.json")}).status, 0);
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--n", "20", "--trials", "70000", "--algo", "riffle:3", "--save-counts",
                       dir.file("p.json")}).status, 0);
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--n", "20", "--trials", "70000", "--algo", "riffle:3", "--shard", "1/2",
                       "--save-counts", dir.file("s1.json")}).status, 0);
  ASSERT_EQ(run_shufl({"bias", "--seed", "1", "--n", "20", "--trials", "70000", "--algo", "riffle:3", "--shard", "0/2",
                       "--save-counts", dir.file("s0.json")}).status, 0);
  const auto e = run_shufl({"bias", "--seed", "1", "--trials", "6000", "--shard", "5/7", "--save-counts", dir.file("e.json")});
  ASSERT_EQ(e.status, 0) << e.err;
  EXPECT_EQ(e.err, "shufl bias: shard 5/7: chunks none of 1, 0 trials per algorithm, saved to '" + dir.file("e.json") + "'\n");
  ASSERT_EQ(run_shufl({"bias", "--merge", dir.file("s0.json"), dir.file("s1.json"), "--save-counts", dir.file("m.json")}).status, 0);
  const std::string script =
      "import json, sys, jsonschema\n"
      "schema = json.load(open(sys.argv[1]))\n"
      "jsonschema.Draft202012Validator.check_schema(schema)\n"
      "for f in sys.argv[2:]:\n"
      "    jsonschema.Draft202012Validator(schema).validate(json.load(open(f)))\n"
      "print('valid', len(sys.argv) - 2)\n";
  const std::string py = dir.write("check.py", script);
  std::string cmd = "python3 '" + py + "' '" + shufl::test::source_dir() + "/schema/bias-counts-2.schema.json'";
  for (const char* f : {"t.json", "p.json", "s0.json", "s1.json", "e.json", "m.json"}) cmd += " '" + dir.file(f) + "'";
  const auto r = run_shell(cmd);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "valid 6\n");
  // And the schema rejects what it can see (a negative count).
  json bad = load(dir.file("t.json"));
  bad["results"][0]["table"][0] = -1;
  save(dir.file("bad.json"), bad);
  EXPECT_NE(run_shell("python3 '" + py + "' '" + shufl::test::source_dir() + "/schema/bias-counts-2.schema.json' '" +
                      dir.file("bad.json") + "' 2>/dev/null").status, 0);
}

}  // namespace
}  // namespace shufl
