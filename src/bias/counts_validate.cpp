// Counts files, the validation: every field of a parsed file (version 2, and version 1 read
// where valid) checked with its path, and the consistency of each result's counts.
#include "shufl/bias_counts.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "counts_internal.hpp"
#include "shufl/json_text.hpp"
#include "shufl/error.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

namespace {

using json = nlohmann::json;
using detail::kMax64;
using detail::side_result;
using detail::u128_text;

// Field checks on the (small) DOM, with the field's path in every error.
class checker {
 public:
  checker(std::string_view name) : name_(name) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw error(fmt::format("'{}': {}: {}", name_, path, what));
  }

  const json& object(const json& v, const std::string& path, std::initializer_list<std::string_view> required,
                     std::initializer_list<std::string_view> optional = {}) const {
    if (!v.is_object()) fail(path, fmt::format("expected an object, found {}", v.type_name()));
    for (const auto& [k, x] : v.items()) {
      if (std::find(required.begin(), required.end(), k) == required.end() &&
          std::find(optional.begin(), optional.end(), k) == optional.end()) {
        fail(join(path, k), "unknown field");
      }
    }
    for (const auto k : required) {
      if (!v.contains(std::string(k))) fail(join(path, std::string(k)), "missing");
    }
    return v;
  }

  // A text under the JSON text rule: a string, or {"hex": "..."} for bytes that are not UTF-8.
  std::string text(const json& v, const std::string& path) const {
    try {
      return text_from_json(v, path);
    } catch (const error&) {
      fail(path, "expected a string or {\"hex\": \"...\"} (bytes as hex)");
    }
  }

  const std::string& string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, fmt::format("expected a string, found {}", v.type_name()));
    return v.get_ref<const std::string&>();
  }

  uint128 count(const json& v, const std::string& path, uint128 limit = kMax64) const {
    try {
      const uint128 c = detail::count128_of(v, name_);
      if (c > limit) fail(path, fmt::format("{} is out of range (at most {})", u128_text(c), u128_text(limit)));
      return c;
    } catch (const error& e) {
      // Re-say the reader's message with this path.
      const std::string m = e.what();
      const auto at = m.find(": top level: ");
      if (at != std::string::npos) fail(path, m.substr(at + 13));
      throw;
    }
  }

  const json& array(const json& v, const std::string& path) const {
    if (!v.is_array()) fail(path, fmt::format("expected an array, found {}", v.type_name()));
    return v;
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  chunk_set chunks(const json& v, const std::string& path, std::uint64_t run_trials) const {
    array(v, path);
    chunk_set s;
    const std::uint64_t limit = bias_chunk_count(run_trials);
    std::uint64_t previous_end = 0;
    bool first = true;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string p = fmt::format("{}[{}]", path, i);
      if (!v[i].is_array() || v[i].size() != 2) fail(p, "expected a chunk range [begin, end]");
      const auto b = static_cast<std::uint64_t>(count(v[i][0], p + "[0]"));
      const auto e = static_cast<std::uint64_t>(count(v[i][1], p + "[1]"));
      if (b >= e) fail(p, fmt::format("empty or reversed range [{}, {}]", b, e));
      if (e > limit) fail(p, fmt::format("chunk range [{}, {}] passes the run's {} chunks", b, e, limit));
      if (!first && b <= previous_end) fail(p, "chunk ranges must be sorted, disjoint and not touching");
      s.ranges.emplace_back(b, e);
      previous_end = e;
      first = false;
    }
    return s;
  }

 private:
  std::string name_;
};

// The consistency of one result's counts (both versions).
void check_result(const checker& c, const std::string& path, const bias_result& r, std::size_t n, bool secondary) {
  const uint128 trials = r.trials;
  uint128 sum = 0;
  for (const auto v : r.counts) sum += v;
  if (r.test == "table" && sum != trials) {
    c.fail(path + ".table", fmt::format("the counts add up to {}, not trials = {}", u128_text(sum), r.trials));
  }
  std::vector<uint128> rows(n, 0), columns(n, 0);
  uint128 diagonal = 0;
  for (std::size_t e = 0; e < n; ++e) {
    for (std::size_t p = 0; p < n; ++p) {
      const std::uint64_t v = r.position_counts[e * n + p];
      rows[e] += v;
      columns[p] += v;
      if (e == p) diagonal += v;
    }
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (rows[k] != trials) {
      c.fail(path + ".positions", fmt::format("row {} (card {}) adds up to {}, not trials = {}", k, k + 1,
                                              u128_text(rows[k]), r.trials));
    }
    if (columns[k] != trials) {
      c.fail(path + ".positions", fmt::format("column {} (position {}) adds up to {}, not trials = {}", k, k + 1,
                                              u128_text(columns[k]), r.trials));
    }
  }
  const auto& s = r.sums;
  const std::string sp = path + ".sums";
  if (!secondary) {
    if (s != bias_sums{}) c.fail(sp, "must be zero when secondary is false");
    return;
  }
  const uint128 nn = n;
  if (s.trials != trials) c.fail(sp + ".trials", fmt::format("{} differs from trials = {}", u128_text(s.trials), r.trials));
  if (s.fixed_points != diagonal) {
    c.fail(sp + ".fixed_points", fmt::format("{} differs from the position matrix's diagonal ({})",
                                             u128_text(s.fixed_points), u128_text(diagonal)));
  }
  if (s.cycles < trials || s.cycles > trials * nn) c.fail(sp + ".cycles", "outside [trials, n * trials]");
  if (s.rising_sequences < trials || s.rising_sequences > trials * nn) {
    c.fail(sp + ".rising_sequences", "outside [trials, n * trials]");
  }
  if (s.inversions > trials * (nn * (nn - 1) / 2)) c.fail(sp + ".inversions", "above n(n-1)/2 * trials");
}

// Table (n! cells, table test only) and positions (n × n) from the side storage.
void take_arrays(const checker& c, const std::string& path, const json& dom, side_result* side, bias_result& r,
                 std::size_t n) {
  if (side == nullptr || !side->has_table) {
    c.fail(path + ".table", dom.contains("table") ? "expected an array" : "missing");
  }
  if (!side->has_positions) c.fail(path + ".positions", dom.contains("positions") ? "expected an array" : "missing");
  if (r.test == "table") {
    if (n > bias_max_table_n) c.fail(path + ".test", fmt::format("the table test needs n <= {}", bias_max_table_n));
    if (side->table.size() != factorial(n)) {
      c.fail(path + ".table", fmt::format("{} counts, expected n! = {}", side->table.size(), factorial(n)));
    }
  } else if (!side->table.empty()) {
    c.fail(path + ".table", "must be empty for the position test");
  }
  if (side->positions.size() != n * n) {
    c.fail(path + ".positions", fmt::format("{} counts, expected n * n = {}", side->positions.size(), n * n));
  }
  r.counts = std::move(side->table);
  r.position_counts = std::move(side->positions);
}

bias_sums sums_of(const checker& c, const json& v, const std::string& path) {
  c.object(v, path, {"trials", "fixed_points", "cycles", "inversions", "rising_sequences"});
  bias_sums s;
  const uint128 all = ~uint128{0};
  s.trials = c.count(v["trials"], path + ".trials", all);
  s.fixed_points = c.count(v["fixed_points"], path + ".fixed_points", all);
  s.cycles = c.count(v["cycles"], path + ".cycles", all);
  s.inversions = c.count(v["inversions"], path + ".inversions", all);
  s.rising_sequences = c.count(v["rising_sequences"], path + ".rising_sequences", all);
  return s;
}

std::size_t n_of(const checker& c, const json& v) {
  if (v.is_number_integer() && (v.is_number_unsigned() ? v.get<std::uint64_t>() : 0) >= 2 &&
      v.get<std::uint64_t>() <= bias_max_n) {
    return static_cast<std::size_t>(v.get<std::uint64_t>());
  }
  if (v.is_number()) c.fail("n", fmt::format("{} is out of range (2 to {})", v.dump(), bias_max_n));
  c.fail("n", fmt::format("expected an integer from 2 to {}, found {}", bias_max_n, v.type_name()));
}

std::string definition_of(const std::string& label) {
  try {
    const auto specs = parse_algorithm_list(label);
    if (specs.size() == 1 && specs[0].label() == label) return std::string(specs[0].info->definition);
  } catch (const error&) {
  }
  return {};
}

bias_counts parse_v1(const checker& c, const json& root, std::vector<side_result>& side) {
  c.object(root, "", {"shufl_version", "format", "engine", "seed", "n", "results"});
  bias_counts out;
  out.version = 1;
  out.shufl_version = c.string(root["shufl_version"], "shufl_version");
  out.n = n_of(c, root["n"]);
  const std::size_t n = out.n;
  bias_run run;
  try {
    run.engine = parse_engine(c.string(root["engine"], "engine"));
  } catch (const error&) {
    c.fail("engine", fmt::format("unknown engine {}", root["engine"].dump()));
  }
  if (!root["seed"].is_null()) run.seed = c.text(root["seed"], "seed");
  const auto& results = c.array(root["results"], "results");
  if (results.empty()) c.fail("results", "no results");
  std::set<std::string> labels;
  std::string content;  // what names an unseeded run: its counts
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::string path = fmt::format("results[{}]", i);
    const auto& e = c.object(results[i], path, {"algorithm", "test", "trials", "table", "positions", "sums"});
    bias_result r;
    r.label = c.text(e["algorithm"], path + ".algorithm");
    if (r.label.empty() || !labels.insert(r.label).second) c.fail(path + ".algorithm", "empty or repeated");
    r.definition = definition_of(r.label);
    r.test = c.string(e["test"], path + ".test");
    if (r.test != "table" && r.test != "position") c.fail(path + ".test", "expected \"table\" or \"position\"");
    r.n = n;
    r.trials = static_cast<std::uint64_t>(c.count(e["trials"], path + ".trials", bias_max_trials));
    if (r.trials == 0) c.fail(path + ".trials", "must be at least 1");
    if (run.trials == 0) run.trials = r.trials;
    if (r.trials != run.trials) c.fail(path + ".trials", "differs from the other results' trials");
    take_arrays(c, path, e, i < side.size() ? &side[i] : nullptr, r, n);
    r.sums = sums_of(c, e["sums"], path + ".sums");
    if (i == 0) out.secondary = r.sums.trials != 0;
    check_result(c, path, r, n, out.secondary);
    r.parts.push_back({0, chunk_set::all_of(r.trials), {}});
    content += r.label + '\0';
    content.append(reinterpret_cast<const char*>(r.counts.data()), r.counts.size() * 8);
    content.append(reinterpret_cast<const char*>(r.position_counts.data()), r.position_counts.size() * 8);
    out.results.push_back(std::move(r));
  }
  if (!run.seed) run.run_id = "v1" + to_hex(key_from_seed(content)).substr(0, 30);
  out.runs.push_back(std::move(run));
  return out;
}

bias_counts parse_v2(const checker& c, const json& root, std::vector<side_result>& side) {
  c.object(root, "", {"format", "shufl_version", "counting", "n", "secondary", "runs", "results"});
  bias_counts out;
  out.shufl_version = c.string(root["shufl_version"], "shufl_version");
  out.counting = c.string(root["counting"], "counting");
  if (out.counting != bias_counting_scheme) {
    c.fail("counting", fmt::format("\"{}\" is not this shufl's counting scheme (\"{}\"): its trials cannot be merged "
                                   "with these", out.counting, bias_counting_scheme));
  }
  out.n = n_of(c, root["n"]);
  const std::size_t n = out.n;
  if (!root["secondary"].is_boolean()) c.fail("secondary", "expected true or false");
  out.secondary = root["secondary"].get<bool>();
  const auto& runs = c.array(root["runs"], "runs");
  if (runs.empty()) c.fail("runs", "no runs");
  std::set<std::string> keys;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string path = fmt::format("runs[{}]", i);
    const auto& e = c.object(runs[i], path, {"seed", "run_id", "input", "engine", "trials", "shards"});
    bias_run run;
    if (!e["seed"].is_null()) run.seed = c.text(e["seed"], path + ".seed");
    if (!e["input"].is_null()) run.input = c.text(e["input"], path + ".input");
    if (!e["run_id"].is_null()) {
      run.run_id = c.string(e["run_id"], path + ".run_id");
      if (run.run_id.size() != 32 ||
          !std::all_of(run.run_id.begin(), run.run_id.end(), [](char ch) { return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || ch == 'v'; })) {
        c.fail(path + ".run_id", "expected 32 lowercase hex digits");
      }
    }
    if (run.seed && (!run.run_id.empty() || !run.input.empty())) c.fail(path, "a seeded run has no run_id or input");
    if (!run.seed && run.run_id.empty()) c.fail(path + ".run_id", "an unseeded run needs its run_id");
    try {
      run.engine = parse_engine(c.string(e["engine"], path + ".engine"));
    } catch (const error&) {
      c.fail(path + ".engine", fmt::format("unknown engine {}", e["engine"].dump()));
    }
    run.trials = static_cast<std::uint64_t>(c.count(e["trials"], path + ".trials", bias_max_trials));
    if (run.trials == 0) c.fail(path + ".trials", "must be at least 1");
    const auto& shards = c.array(e["shards"], path + ".shards");
    for (std::size_t k = 0; k < shards.size(); ++k) {
      const std::string sp = fmt::format("{}.shards[{}]", path, k);
      if (!shards[k].is_array() || shards[k].size() != 2) c.fail(sp, "expected [index, count]");
      const auto index = static_cast<std::uint64_t>(c.count(shards[k][0], sp + "[0]"));
      const auto count = static_cast<std::uint64_t>(c.count(shards[k][1], sp + "[1]"));
      if (count == 0 || index >= count) c.fail(sp, fmt::format("shard {}/{} does not exist", index, count));
      if (!run.shards.empty() && run.shards.back() >= std::make_pair(index, count)) c.fail(sp, "shards must be sorted and distinct");
      run.shards.emplace_back(index, count);
    }
    if (!keys.insert(run.key()).second) c.fail(path, "the same run twice");
    out.runs.push_back(std::move(run));
  }
  const auto& results = c.array(root["results"], "results");
  if (results.empty()) c.fail("results", "no results");
  std::set<std::string> labels;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::string path = fmt::format("results[{}]", i);
    const auto& e = c.object(results[i], path,
                             {"algorithm", "definition", "test", "trials", "table", "positions", "sums", "parts"});
    bias_result r;
    r.label = c.text(e["algorithm"], path + ".algorithm");
    if (r.label.empty() || !labels.insert(r.label).second) c.fail(path + ".algorithm", "empty or repeated");
    r.definition = c.text(e["definition"], path + ".definition");
    r.test = c.string(e["test"], path + ".test");
    if (r.test != "table" && r.test != "position") c.fail(path + ".test", "expected \"table\" or \"position\"");
    r.n = n;
    r.trials = static_cast<std::uint64_t>(c.count(e["trials"], path + ".trials"));
    side_result* s = i < side.size() ? &side[i] : nullptr;
    take_arrays(c, path, e, s, r, n);
    r.sums = sums_of(c, e["sums"], path + ".sums");
    const auto& parts = c.array(e["parts"], path + ".parts");
    uint128 part_trials = 0;
    std::set<std::size_t> seen;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const std::string pp = fmt::format("{}.parts[{}]", path, k);
      const auto& pe = c.object(parts[k], pp, {"run", "chunks"}, {"fingerprints"});
      bias_part part;
      part.run = static_cast<std::size_t>(c.count(pe["run"], pp + ".run", runs.size() - 1));
      if (!seen.insert(part.run).second) c.fail(pp + ".run", "the same run twice in one result");
      const auto& run = out.runs[part.run];
      part.chunks = c.chunks(pe["chunks"], pp + ".chunks", run.trials);
      part_trials += part.chunks.trials_in(run.trials);
      if (s != nullptr && s->fingerprints.count(k) != 0) {
        part.fingerprints = std::move(s->fingerprints[k]);
      } else if (pe.contains("fingerprints")) {
        c.fail(pp + ".fingerprints", "expected a string of hex digits");
      }
      const std::uint64_t possible = part.chunks.trials_in(std::min(run.trials, bias_birthday_trials));
      if (part.fingerprints.size() > possible || (r.test == "table" && !part.fingerprints.empty())) {
        c.fail(pp + ".fingerprints", fmt::format("{} fingerprints, but its chunks hold {} of the run's first {} trials",
                                                 part.fingerprints.size(), r.test == "table" ? 0 : possible,
                                                 bias_birthday_trials));
      }
      if (n <= max_rank_n) {
        const std::uint64_t cells = factorial(n);
        for (const auto f : part.fingerprints) {
          if (f >= cells) c.fail(pp + ".fingerprints", fmt::format("{} is not a rank below n! = {}", f, cells));
        }
      }
      r.parts.push_back(std::move(part));
    }
    if (part_trials != r.trials) {
      c.fail(path + ".trials", fmt::format("{} differs from the {} trials of the chunks in its parts", r.trials,
                                           u128_text(part_trials)));
    }
    check_result(c, path, r, n, out.secondary);
    out.results.push_back(std::move(r));
  }
  return out;
}

}  // namespace

bias_counts detail::counts_of_dom(const json& root, std::vector<side_result>& side, std::string_view name) {
  const checker c(name);
  if (!root.is_object() || !root.contains("format") || !root["format"].is_string()) {
    throw error(fmt::format("'{}' is not a counts file from shufl bias --save-counts (no \"format\")", name));
  }
  const std::string& format = root["format"].get_ref<const std::string&>();
  if (format == "shufl-bias-counts-1") return parse_v1(c, root, side);
  if (format == bias_counts_format) return parse_v2(c, root, side);
  c.fail("format", fmt::format("\"{}\" is not a format this shufl reads ({} or shufl-bias-counts-1)", format,
                               bias_counts_format));
}

}  // namespace shufl
