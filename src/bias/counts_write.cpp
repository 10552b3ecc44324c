// Counts files, the writing: a report's counts as a `shufl-bias-counts-2` file (counts up to 2^53
// as JSON numbers, larger ones as decimal strings; text under the JSON text rule).
#include "shufl/bias_counts.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "counts_internal.hpp"
#include "shufl/json_text.hpp"
#include "shufl/version.hpp"

namespace shufl {

namespace {

using json = nlohmann::json;
using detail::u128_text;
constexpr uint128 k2p53 = uint128{1} << 53;

// A count as JSON: a number up to 2^53 (exact in every JSON reader), a decimal string above.
std::string count_json(uint128 v) { return v <= k2p53 ? u128_text(v) : "\"" + u128_text(v) + "\""; }

// Text under the JSON text rule (json_text.hpp): a string when UTF-8, else {"hex": "..."}.
std::string string_json(const std::string& s) { return json_text<json>(s).dump(); }

}  // namespace

bias_counts counts_of_report(const bias_report& report) {
  bias_counts out;
  out.shufl_version = SHUFL_VERSION;
  out.n = report.options.n;
  out.secondary = report.options.secondary;
  out.runs = report.runs;
  for (const auto& r : report.results) {
    if (r.exact) continue;
    bias_result c;
    c.label = r.label;
    c.definition = r.definition;
    c.test = r.test;
    c.n = r.n;
    c.trials = r.trials;
    c.counts = r.counts;
    c.position_counts = r.position_counts;
    c.sums = r.sums;
    c.parts = r.parts;
    out.results.push_back(std::move(c));
  }
  return out;
}

std::string write_counts_file(const bias_counts& counts) {
  std::string out = fmt::format(R"({{"format":"{}","shufl_version":{},"counting":"{}","n":{},"secondary":{},"runs":[)",
                                bias_counts_format, string_json(SHUFL_VERSION), counts.counting, counts.n,
                                counts.secondary ? "true" : "false");
  for (std::size_t i = 0; i < counts.runs.size(); ++i) {
    const auto& run = counts.runs[i];
    out += i ? "," : "";
    out += fmt::format(R"({{"seed":{},"run_id":{},"input":{},"engine":"{}","trials":{},"shards":[)",
                       run.seed ? string_json(*run.seed) : "null", run.run_id.empty() ? "null" : string_json(run.run_id),
                       run.input.empty() ? "null" : string_json(run.input), engine_name(run.engine),
                       count_json(run.trials));
    for (std::size_t k = 0; k < run.shards.size(); ++k) {
      out += fmt::format("{}[{},{}]", k ? "," : "", run.shards[k].first, run.shards[k].second);
    }
    out += "]}";
  }
  out += R"(],"results":[)";
  const auto counts_array = [](std::string& o, const std::vector<std::uint64_t>& v) {
    o += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) o += ',';
      o += count_json(v[i]);
    }
    o += ']';
  };
  for (std::size_t i = 0; i < counts.results.size(); ++i) {
    const auto& r = counts.results[i];
    out += i ? "," : "";
    out += fmt::format(R"({{"algorithm":{},"definition":{},"test":"{}","trials":{},"table":)", string_json(r.label),
                       string_json(r.definition), r.test, count_json(r.trials));
    counts_array(out, r.test == "table" ? r.counts : std::vector<std::uint64_t>{});
    out += R"(,"positions":)";
    counts_array(out, r.position_counts);
    out += fmt::format(R"(,"sums":{{"trials":{},"fixed_points":{},"cycles":{},"inversions":{},"rising_sequences":{}}},"parts":[)",
                       count_json(r.sums.trials), count_json(r.sums.fixed_points), count_json(r.sums.cycles),
                       count_json(r.sums.inversions), count_json(r.sums.rising_sequences));
    for (std::size_t k = 0; k < r.parts.size(); ++k) {
      const auto& p = r.parts[k];
      out += fmt::format(R"({}{{"run":{},"chunks":[)", k ? "," : "", p.run);
      for (std::size_t c = 0; c < p.chunks.ranges.size(); ++c) {
        out += fmt::format("{}[{},{}]", c ? "," : "", p.chunks.ranges[c].first, p.chunks.ranges[c].second);
      }
      out += R"(],"fingerprints":")";
      for (const auto f : p.fingerprints) out += fmt::format("{:016x}", f);
      out += "\"}";
    }
    out += "]}";
  }
  out += "]}\n";
  return out;
}

}  // namespace shufl
