// `shufl audit FILE --report PAGE --seed-search FAMILY ...`: the battery and the seed search run
// together, and the text, the JSON and the page (its result line, its section and the JSON it
// embeds) carry the search, so decks of glibc srand(12345) no longer read only "pass". Exit
// status: 3 when either finds what it looks for, else 4 when either is inconclusive, else 0.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "support/run.hpp"

namespace shufl::test {
namespace {

// 300 decks of the real glibc: srand(12345) once, the textbook loop (tests/reference/seed_search/
// c_rand.c), written as card numbers 1..52 (the canonical order shufl deck uses).
std::string srand_decks(const std::string& dir) {
  const auto built = run_shell("cc -O1 -o " + dir + "/c_rand " + source_dir() + "/tests/reference/seed_search/c_rand.c");
  EXPECT_EQ(built.status, 0) << built.err;
  const auto made = run_program(dir + "/c_rand", {"52", "300", "12345"});
  EXPECT_EQ(made.status, 0) << made.err;
  std::string out;
  for (const auto& row : lines(made.out)) {
    std::istringstream in(row);
    std::string line;
    for (int c = 0; in >> c;) line += (line.empty() ? "" : " ") + std::to_string(c + 1);
    out += line + "\n";
  }
  return out;
}

nlohmann::json embedded(const std::string& html) {
  const std::string open = "<script id=\"audit-data\" type=\"application/json\">";
  const auto a = html.find(open);
  const auto b = html.find("</script>", a);
  if (a == std::string::npos || b == std::string::npos) return nullptr;
  return nlohmann::json::parse(html.substr(a + open.size(), b - a - open.size()));
}

TEST(AuditReportSeedSearch, TheSrandDecksPassTheBatteryButThePageSaysPredictable) {
  char tmpl[] = "/tmp/shufl-report-seed-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string decks = dir + "/decks.txt", page = dir + "/r.html";
  std::ofstream(decks) << srand_decks(dir);
  const auto r = run_shufl({"audit", decks, "--report", page, "--check", "--seed-search", "c-rand", "--reseed", "once",
                            "--seeds", "12000..13000"});
  EXPECT_EQ(r.status, 3) << r.err;  // the battery passes; the search finds the seed
  EXPECT_NE(r.out.find("result: pass: no evidence of non-randomness in 300 decks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nSeed search: c-rand, seeds 12000..13000 (1,001 seeds), seeded once"), std::string::npos);
  EXPECT_NE(r.out.find("FOUND: seed 12345 reproduces all 300 logged deals (15600 cards)."), std::string::npos);
  const std::string html = read_file(page);
  EXPECT_NE(html.find("<p class=\"overall pass\" id=\"overall-0\">result: pass"), std::string::npos);
  // E = 1001 / (52!)^300: log10 by mpmath, -20368.994.
  EXPECT_NE(html.find("<p class=\"overall fail\" id=\"seed-search-0\">seed search: predictable: c-rand, E = 10^-20369.0 "
                      "(at most 0.001 to call it predictable)</p>"),
            std::string::npos);
  EXPECT_NE(html.find("<h3 id=\"seed-search-section-0\">Seed search</h3>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>seeds found</th><td>12345</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("seeds 12000..13000 (1001 seeds, integer seeds), seeded once"), std::string::npos);
  const auto data = embedded(html);
  ASSERT_TRUE(data.is_array());
  EXPECT_EQ(data[0]["result"], "pass");
  EXPECT_EQ(data[0]["seed_search"]["matches"][0]["seed"], 12345);
  EXPECT_NEAR(data[0]["seed_search"]["chance"]["expected_chance_matches"]["log10"].get<double>(), -20368.99408358395, 1e-6);

  // JSON on stdout: the audit document with its seed_search object.
  const auto j = run_shufl({"audit", decks, "--report", page, "--format", "json", "--seed-search", "c-rand", "--reseed",
                            "once", "--seeds", "12000..13000"});
  EXPECT_EQ(j.status, 3);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["result"], "pass");
  EXPECT_EQ(doc["seed_search"]["chance"]["verdict"], "predictable");
  {  // ... valid against schema/audit-report.schema.json
    std::ofstream(dir + "/doc.json") << j.out;
    const auto v = run_shell("python3 -c 'import json, sys, jsonschema; jsonschema.Draft7Validator(json.load(open(sys.argv[1])))"
                             ".validate(json.load(open(sys.argv[2]))); print(\"valid\")' '" +
                             source_dir() + "/schema/audit-report.schema.json' '" + dir + "/doc.json'");
    EXPECT_EQ(v.out, "valid\n") << v.err;
  }

  // Nothing found: exit 0 and the page says what was ruled out.
  const auto none = run_shufl({"audit", decks, "--report", page, "--seed-search", "c-rand", "--reseed", "once",
                               "--seeds", "0..100"});
  EXPECT_EQ(none.status, 0) << none.err;
  EXPECT_NE(read_file(page).find("<p class=\"overall pass\" id=\"seed-search-0\">seed search: not found: c-rand, E = "
                                 "10^-20370.0"),
            std::string::npos);
  // Found, but --max-chance 0 makes it inconclusive: 4, the worse of a passing battery (0) and 4.
  const auto chance = run_shufl({"audit", decks, "--report", page, "--check", "--seed-search", "c-rand", "--reseed",
                                 "once", "--seeds", "12000..13000", "--max-chance", "0"});
  EXPECT_EQ(chance.status, 4) << chance.err;
  EXPECT_NE(read_file(page).find("<p class=\"overall inconclusive\" id=\"seed-search-0\">seed search: consistent with "
                                 "chance: c-rand"),
            std::string::npos);
  for (const auto& f : {page, decks, dir + "/c_rand", dir + "/doc.json"}) std::remove(f.c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace shufl::test
