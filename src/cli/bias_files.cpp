// `shufl bias --input`, `--save-counts` and `--merge`: reading and writing files of permutations
// and counts.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>

#include "bias_report.hpp"
#include "shufl/error.hpp"
#include "shufl/json_text.hpp"
#include "shufl/permutation.hpp"
#include "shufl/text_input.hpp"

namespace shufl::cli {

std::string read_all(const std::string& path) {
  // The input-text convention (text_input.hpp): strerror in read errors, BOM dropped, UTF-8 checked.
  return read_text_file(path);
}

// --save-counts: the tallies of every result, with what is needed to merge them honestly.
std::string saved_counts(const bias_report& report) {
  const auto& o = report.options;
  nlohmann::ordered_json j;
  j["shufl_version"] = SHUFL_VERSION;
  j["format"] = "shufl-bias-counts-1";
  j["engine"] = engine_name(o.engine);
  j["seed"] = o.seed ? json_text(*o.seed) : nlohmann::ordered_json(nullptr);
  j["n"] = o.n;
  auto results = nlohmann::ordered_json::array();
  for (const auto& r : report.results) {
    if (r.exact) continue;
    nlohmann::ordered_json e;
    e["algorithm"] = json_text(r.label);
    e["test"] = r.test;
    e["trials"] = r.trials;
    e["table"] = r.counts;
    e["positions"] = r.position_counts;
    e["sums"] = {{"trials", r.sums.trials}, {"fixed_points", r.sums.fixed_points}, {"cycles", r.sums.cycles},
                 {"inversions", r.sums.inversions}, {"rising_sequences", r.sums.rising_sequences}};
    results.push_back(std::move(e));
  }
  j["results"] = std::move(results);
  return j.dump() + "\n";
}

// --merge: adds the saved tallies of several runs, per algorithm, and tests the sums. Runs with
// the same seed (and engine) repeat the same trials, so merging them is refused.
bias_report merge_saved(const std::vector<std::string>& files, bias_options o) {
  struct entry {
    bias_tallies tallies;
    std::string test;
  };
  std::vector<std::pair<std::string, entry>> merged;
  std::vector<std::string> seeds;
  std::size_t n = 0;
  std::string engine;
  std::vector<std::pair<std::string, std::string>> contents;  // (file, its results), to spot repeats
  for (const auto& file : files) {
    nlohmann::json j;
    const std::string text = read_all(file);  // "cannot open 'F'" when missing
    try {
      j = nlohmann::json::parse(text);
      if (j.at("format") != "shufl-bias-counts-1") throw error("");
    } catch (const std::exception&) {
      throw error(fmt::format("'{}' is not a file written by shufl bias --save-counts", file));
    }
    try {
      const std::size_t file_n = j.at("n");
      if (n != 0 && file_n != n) throw error(fmt::format("'{}' has n = {}, the others n = {}", file, file_n, n));
      n = file_n;
      if (!j.at("seed").is_null()) {
        const std::string seed = j.at("engine").get<std::string>() + "/" +
                                 text_from_json(j.at("seed"), fmt::format("'{}': seed", file));
        if (std::find(seeds.begin(), seeds.end(), seed) != seeds.end()) {
          throw error(fmt::format("'{}' was run with the same engine and seed as an earlier file: its trials "
                                  "repeat those and cannot be merged", file));
        }
        seeds.push_back(seed);
      }
      // An unseeded run has no seed to compare: refuse the same tallies twice (the same file, a
      // copy of it, or the same --input saved twice), which would double-count its trials.
      const std::string results = j.at("results").dump();
      for (const auto& [earlier, earlier_results] : contents) {
        if (earlier_results == results) {
          throw error(fmt::format("'{}' holds the same counts as '{}': the same run saved twice cannot be merged",
                                  file, earlier));
        }
      }
      contents.emplace_back(file, results);
      engine = j.at("engine");
      for (const auto& r : j.at("results")) {
        const std::string label = text_from_json(r.at("algorithm"), fmt::format("'{}': algorithm", file));
        auto it = std::find_if(merged.begin(), merged.end(), [&](const auto& m) { return m.first == label; });
        if (it == merged.end()) {
          entry fresh;
          fresh.tallies.n = n;
          fresh.test = r.at("test");
          fresh.tallies.positions.assign(n * n, 0);
          if (fresh.test == "table") fresh.tallies.table.assign(factorial(n), 0);
          merged.emplace_back(label, std::move(fresh));
          it = std::prev(merged.end());
        }
        auto& t = it->second.tallies;
        if (r.at("test") != it->second.test) throw error(fmt::format("'{}': {} was counted with another test", file, label));
        t.trials += r.at("trials").get<std::uint64_t>();
        const auto table = r.at("table").get<std::vector<std::uint64_t>>();
        const auto positions = r.at("positions").get<std::vector<std::uint64_t>>();
        if (table.size() != t.table.size() || positions.size() != t.positions.size()) {
          throw error(fmt::format("'{}': counts of {} have the wrong size", file, label));
        }
        for (std::size_t i = 0; i < table.size(); ++i) t.table[i] += table[i];
        for (std::size_t i = 0; i < positions.size(); ++i) t.positions[i] += positions[i];
        // Secondary sums add up too (a run without them contributes none: then none are used).
        const auto& sums = r.at("sums");
        permutation_sums add;
        add.trials = sums.at("trials");
        add.fixed_points = sums.at("fixed_points");
        add.cycles = sums.at("cycles");
        add.inversions = sums.at("inversions");
        add.rising_sequences = sums.at("rising_sequences");
        t.sums += add;
      }
    } catch (const nlohmann::json::exception&) {
      throw error(fmt::format("'{}' is not a valid file of counts from shufl bias --save-counts", file));
    }
  }
  o.n = n;
  o.engine = parse_engine(engine);
  o.seed.reset();
  bias_report report;
  for (auto& [label, e] : merged) {
    if (e.tallies.sums.trials != e.tallies.trials) e.tallies.sums = {};
    bias_result r = evaluate_tallies(e.tallies, o, e.test);
    r.label = label;
    r.definition = fmt::format("merged from {} files", files.size());
    o.trials = e.tallies.trials;
    report.results.push_back(std::move(r));
  }
  report.options = o;
  for (const auto& r : report.results) {
    if (r.correction == "holm") report.correction = "holm";
  }
  return report;
}


}  // namespace shufl::cli
