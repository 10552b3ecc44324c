// Counts files (`shufl-bias-counts-2`, and version 1 read where valid): a bounded streaming
// parse (nlohmann-json's parser callback diverts the big arrays out of the DOM and stops deep
// nesting), a strict validator, the writer, and the merge of many files.
#include "shufl/bias_counts.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include <algorithm>
#include <iterator>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>

#include "internal.hpp"
#include "shufl/json_text.hpp"
#include "shufl/error.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

namespace {

using json = nlohmann::json;
constexpr uint128 k2p53 = uint128{1} << 53;
constexpr uint128 kMax64 = ~std::uint64_t{0};

std::string u128_text(uint128 v) {
  if (v == 0) return "0";
  char buf[40];
  char* p = buf + sizeof buf;
  while (v != 0) {
    *--p = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  return std::string(p, static_cast<std::size_t>(buf + sizeof buf - p));
}

// A count as JSON: a number up to 2^53 (exact in every JSON reader), a decimal string above.
std::string count_json(uint128 v) { return v <= k2p53 ? u128_text(v) : "\"" + u128_text(v) + "\""; }

// Text under the JSON text rule (json_text.hpp): a string when UTF-8, else {"hex": "..."}.
std::string string_json(const std::string& s) { return json_text<json>(s).dump(); }

// What the parser keeps out of the DOM: the big arrays and the fingerprints, per result.
struct side_result {
  std::vector<std::uint64_t> table, positions;
  bool has_table = false, has_positions = false;
  std::map<std::uint64_t, std::vector<std::uint64_t>> fingerprints;  // by part index
};

class reader {
 public:
  explicit reader(std::string_view name) : name_(name) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw error(fmt::format("'{}': {}: {}", name_, path(), what));
  }

  bool operator()(int, json::parse_event_t event, json& parsed) {
    using E = json::parse_event_t;
    switch (event) {
      case E::object_start:
      case E::array_start: {
        if (frames_.size() >= static_cast<std::size_t>(counts_max_depth)) {
          throw error(fmt::format("'{}': {}: JSON nested deeper than {} levels (the limit for counts files)", name_,
                                  path(), counts_max_depth));
        }
        frame f;
        f.array = event == E::array_start;
        if (f.array) f.divert = divert_kind();
        frames_.push_back(std::move(f));
        return true;
      }
      case E::key: {
        // JSON leaves duplicate names to the reader (RFC 8259 §4: "SHOULD be unique"); nlohmann
        // keeps the last. A counts file is strict: each name once per object.
        auto& f = frames_.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second) {
          fail(fmt::format("the key {} appears twice in one object (each key may appear once)", parsed.dump()));
        }
        return true;
      }
      case E::object_end:
      case E::array_end:
        // A container is a value of its parent (there is no separate value event for it).
        frames_.pop_back();
        if (!frames_.empty() && frames_.back().array) {
          if (frames_.back().divert != 0) fail(fmt::format("expected a count, found {}", parsed.type_name()));
          ++frames_.back().index;
        }
        if (++values_ > counts_max_values) {
          fail(fmt::format("more than {} values in one file (the limit for counts files)", counts_max_values));
        }
        return true;
      case E::value:
        return value(parsed);
    }
    return true;
  }

  std::vector<side_result> side;

  // A count: a non-negative integer below 2^64 (a number, or a decimal string), else fail.
  static std::uint64_t count_of(const json& v, const reader& r, uint128 limit = kMax64) {
    const uint128 c = count128_of(v, r);
    if (c > limit) r.fail(fmt::format("{} is out of range (at most {})", u128_text(c), u128_text(limit)));
    return static_cast<std::uint64_t>(c);
  }

  static uint128 count128_of(const json& v, const reader& r) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer()) r.fail(fmt::format("{} is negative (counts are integers from 0)", v.dump()));
    if (v.is_number_float()) {
      r.fail(fmt::format("{} is not an integer count (integers up to 2^53 are numbers, larger ones decimal strings)",
                         v.dump()));
    }
    if (v.is_string()) {
      const auto& s = v.get_ref<const std::string&>();
      if (s.empty() || s.size() > 39 || (s.size() > 1 && s[0] == '0') ||
          !std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
        r.fail(fmt::format("{} is not a decimal count", json(s).dump()));
      }
      uint128 c = 0;
      for (const char ch : s) {
        const auto digit = static_cast<unsigned>(ch - '0');
        if (c > (~uint128{0} - digit) / 10) r.fail("count too large for 128 bits");
        c = c * 10 + digit;
      }
      return c;
    }
    r.fail(fmt::format("expected a count, found {}", v.type_name()));
  }

  // Path of the value being read ("results[0].table[3]"), or of a field below a DOM path.
  std::string path() const {
    std::string out;
    for (std::size_t k = 0; k < frames_.size(); ++k) {
      const auto& f = frames_[k];
      if (f.array) {
        out += fmt::format("[{}]", f.index);
      } else if (!f.key.empty()) {
        out += (out.empty() ? "" : ".") + f.key;
      }
    }
    return out.empty() ? "top level" : out;
  }

  std::string_view name() const noexcept { return name_; }

 private:
  struct frame {
    bool array = false;
    std::string key;
    std::set<std::string> keys;  // of an object: the keys seen so far
    std::uint64_t index = 0;
    int divert = 0;  // 1: results[i].table, 2: results[i].positions
  };

  bool in_result() const {
    return frames_.size() >= 3 && !frames_[0].array && frames_[0].key == "results" && frames_[1].array &&
           !frames_[2].array;
  }

  side_result& side_of(std::uint64_t i) {
    if (i >= 65536) fail("more than 65536 results");
    if (side.size() <= i) side.resize(i + 1);
    return side[i];
  }

  // Whether an array starting here is results[i].table (1) or .positions (2); sets its size
  // limit (n! or n·n when "n" came first, else the largest possible) and reserves it.
  int divert_kind() {
    if (frames_.size() != 3 || !in_result()) return 0;
    auto& s = side_of(frames_[1].index);
    if (frames_[2].key == "table") {
      if (s.has_table) fail("given twice");
      s.has_table = true;
      limit_ = known_n_ == 0 ? factorial(bias_max_table_n) : known_n_ <= bias_max_table_n ? factorial(known_n_) : 0;
      if (known_n_ != 0) s.table.reserve(limit_);
      return 1;
    }
    if (frames_[2].key == "positions") {
      if (s.has_positions) fail("given twice");
      s.has_positions = true;
      limit_ = known_n_ == 0 ? bias_max_n * bias_max_n : known_n_ * known_n_;
      if (known_n_ != 0) s.positions.reserve(limit_);
      return 2;
    }
    return 0;
  }

  bool value(json& parsed) {
    if (frames_.empty()) return true;  // the document itself
    frame& top = frames_.back();
    if (top.array && top.divert != 0) {
      const std::uint64_t v = count_of(parsed, *this);
      if (++cells_ > counts_max_cells) {
        fail(fmt::format("more than {} counts in one file (the limit for counts files)", counts_max_cells));
      }
      auto& s = side[frames_[1].index];
      auto& out = top.divert == 1 ? s.table : s.positions;
      if (out.size() >= limit_) {
        fail(fmt::format("more than {} counts ({})", limit_,
                         top.divert == 1 ? "n! for the table test, at most 10!" : "n * n, at most 255 * 255"));
      }
      out.push_back(v);
      ++top.index;
      return false;
    }
    if (!top.array && top.key == "fingerprints" && frames_.size() == 5 && in_result() && frames_[2].key == "parts" &&
        frames_[3].array && parsed.is_string()) {
      auto& s = side_of(frames_[1].index);
      auto& out = s.fingerprints[frames_[3].index];
      const auto& hex = parsed.get_ref<const std::string&>();
      if (hex.size() % 16 != 0) fail("fingerprints must be 16 hex digits each");
      fingerprints_ += hex.size() / 16;
      if (fingerprints_ > counts_max_fingerprints) {
        fail(fmt::format("more than {} fingerprints in one file (the limit for counts files)", counts_max_fingerprints));
      }
      out.reserve(hex.size() / 16);
      for (std::size_t i = 0; i < hex.size(); i += 16) {
        std::uint64_t v = 0;
        for (std::size_t k = 0; k < 16; ++k) {
          const char ch = hex[i + k];
          unsigned d = 0;
          if (ch >= '0' && ch <= '9') {
            d = static_cast<unsigned>(ch - '0');
          } else if (ch >= 'a' && ch <= 'f') {
            d = static_cast<unsigned>(ch - 'a' + 10);
          } else {
            fail(fmt::format("fingerprints must be lowercase hex digits (byte {})", i + k));
          }
          v = v << 4 | d;
        }
        out.push_back(v);
      }
      return false;
    }
    if (frames_.size() == 1 && top.key == "n") {
      // Checked at once: the sizes of the arrays that follow depend on it.
      if (!parsed.is_number_unsigned() || parsed.get<std::uint64_t>() < 2 || parsed.get<std::uint64_t>() > bias_max_n) {
        fail(fmt::format("{} is out of range (an integer from 2 to {})", parsed.dump(), bias_max_n));
      }
      known_n_ = static_cast<std::size_t>(parsed.get<std::uint64_t>());
    }
    if (top.array) ++top.index;
    if (++values_ > counts_max_values) {
      fail(fmt::format("more than {} values in one file (the limit for counts files)", counts_max_values));
    }
    return true;
  }

  std::string name_;
  std::vector<frame> frames_;
  std::uint64_t cells_ = 0, fingerprints_ = 0, values_ = 0;
  std::size_t known_n_ = 0;  // "n", when it came before the arrays (as shufl writes it)
  std::uint64_t limit_ = 0;  // size limit of the array being diverted
};

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
    reader r(name_);
    try {
      const uint128 c = reader::count128_of(v, r);
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

template <class Input>
bias_counts parse_any(Input&& input, std::string_view name) {
  reader r(name);
  json root;
  try {
    root = json::parse(std::forward<Input>(input), std::ref(r), true, false);
  } catch (const json::parse_error& e) {
    throw error(fmt::format("'{}' is not a counts file from shufl bias --save-counts: invalid JSON at byte {}", name, e.byte));
  } catch (const json::exception& e) {
    // Never the library's own text ("[json.exception.out_of_range.406] ..."): what it means.
    throw error(fmt::format("'{}' is not a counts file from shufl bias --save-counts: {}", name,
                            e.id == 406 ? "a number too large for a double" : "a value JSON cannot hold"));
  }
  const checker c(name);
  if (!root.is_object() || !root.contains("format") || !root["format"].is_string()) {
    throw error(fmt::format("'{}' is not a counts file from shufl bias --save-counts (no \"format\")", name));
  }
  const std::string& format = root["format"].get_ref<const std::string&>();
  if (format == "shufl-bias-counts-1") return parse_v1(c, root, r.side);
  if (format == bias_counts_format) return parse_v2(c, root, r.side);
  c.fail("format", fmt::format("\"{}\" is not a format this shufl reads ({} or shufl-bias-counts-1)", format,
                               bias_counts_format));
}

}  // namespace

bias_counts parse_counts_file(std::string_view text, std::string_view name) {
  if (text.size() > counts_max_bytes) {
    throw error(fmt::format("'{}': {} bytes, more than the {} MiB a counts file may have", name, text.size(),
                            counts_max_bytes >> 20));
  }
  return parse_any(text, name);
}

bias_counts read_counts_file(const std::string& path) {
  const std::string name = path == "-" ? "standard input" : path;
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw error(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(f, path == "-" ? [](std::FILE*) { return 0; } : &std::fclose);
  struct stat st {};
  if (fstat(fileno(f), &st) != 0) throw error(fmt::format("cannot read '{}': {}", name, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw error(fmt::format("cannot read '{}': {}", name, std::strerror(EISDIR)));
  if (S_ISREG(st.st_mode)) {
    if (static_cast<std::uint64_t>(st.st_size) > counts_max_bytes) {
      throw error(fmt::format("'{}': {} bytes, more than the {} MiB a counts file may have", name, st.st_size,
                              counts_max_bytes >> 20));
    }
    try {
      return parse_any(f, name);  // streamed: the file is never held in memory
    } catch (const error&) {
      if (std::ferror(f)) throw error(fmt::format("cannot read '{}': {}", name, std::strerror(errno)));
      throw;
    }
  }
  std::string text;
  char buf[65536];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) {
    text.append(buf, got);
    if (text.size() > counts_max_bytes) {
      throw error(fmt::format("'{}': more than the {} MiB a counts file may have", name, counts_max_bytes >> 20));
    }
  }
  if (std::ferror(f)) throw error(fmt::format("cannot read '{}': {}", name, std::strerror(errno)));
  return parse_any(std::string_view(text), name);
}

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

// ---- merge ----

void bias_merge::add(const bias_counts& counts, const std::string& name) {
  const auto fail = [&](const std::string& what) { throw error(fmt::format("'{}' {}", name, what)); };
  const bool first = names_.empty();
  if (first) {
    n_ = counts.n;
    secondary_ = counts.secondary;
    counting_ = counts.counting;
    shufl_version_ = counts.shufl_version;
    for (const auto& r : counts.results) {
      order_.push_back(r.label);
      total t;
      t.definition = r.definition;
      t.test = r.test;
      t.positions.assign(n_ * n_, 0);
      if (r.test == "table") t.table.assign(factorial(n_), 0);
      totals_.emplace(r.label, std::move(t));
    }
  } else {
    if (counts.counting != counting_) fail(fmt::format("was counted by another scheme ({}, not {})", counts.counting, counting_));
    if (counts.n != n_) fail(fmt::format("has n = {}, the other files n = {}: not one experiment", counts.n, n_));
    if (counts.secondary != secondary_) {
      fail("differs from the other files in the secondary statistics (--no-secondary): not one experiment");
    }
    if (counts.results.size() != order_.size()) {
      fail(fmt::format("has {} algorithms, the other files {}: not one experiment", counts.results.size(), order_.size()));
    }
    for (const auto& r : counts.results) {
      auto it = totals_.find(r.label);
      if (it == totals_.end()) fail(fmt::format("has algorithm {}, the other files do not: not one experiment", r.label));
      if (!r.definition.empty() && !it->second.definition.empty() && r.definition != it->second.definition) {
        fail(fmt::format("defines {} differently from the other files (another shufl version?)", r.label));
      }
      if (r.test != it->second.test) fail(fmt::format("tests {} with the {} test, the other files with the {} test", r.label, r.test, it->second.test));
    }
  }
  // Runs: the same run must be the same experiment; all runs one engine.
  std::optional<engine_kind> engine;
  for (const auto& [k, run] : runs_) {
    if (run.input.empty()) engine = run.engine;
  }
  for (const auto& run : counts.runs) {
    if (run.input.empty()) {
      if (engine && *engine != run.engine) {
        fail(fmt::format("was run with engine {}, the other files with {}: not one experiment", engine_name(run.engine),
                         engine_name(*engine)));
      }
      engine = run.engine;
    }
    auto it = runs_.find(run.key());
    if (it != runs_.end() && (it->second.trials != run.trials || it->second.input != run.input)) {
      fail(fmt::format("holds {} with {} trials, another file the same seed with {}: not one experiment", run.describe(),
                       run.trials, it->second.trials));
    }
  }
  // Before any addition: no chunk of a run counted twice, and totals that fit in 64 bits.
  for (const auto& r : counts.results) {
    const auto& t = totals_.at(r.label);
    for (const auto& p : r.parts) {
      const auto& run = counts.runs[p.run];
      auto c = t.chunks.find(run.key());
      if (c != t.chunks.end() && c->second.overlaps(p.chunks)) {
        const chunk_set both = p.chunks.minus(p.chunks.minus(c->second));
        fail(fmt::format("repeats chunks {} of {} for {}, already merged: the same trials cannot be counted twice",
                         both.text(), run.describe(), r.label));
      }
    }
    if (uint128{t.trials} + r.trials > kMax64) {
      fail(fmt::format("brings the total trials of {} past 2^64 - 1: the total cannot be represented", r.label));
    }
  }
  names_.push_back(name);
  for (const auto& run : counts.runs) {
    auto [it, fresh] = runs_.emplace(run.key(), run);
    if (!fresh) {
      // Both lists are sorted and distinct (the reader checks it): their union in one pass.
      auto& mine = it->second.shards;
      std::vector<std::pair<std::uint64_t, std::uint64_t>> both;
      both.reserve(mine.size() + run.shards.size());
      std::set_union(mine.begin(), mine.end(), run.shards.begin(), run.shards.end(), std::back_inserter(both));
      mine.swap(both);
    }
  }
  for (const auto& r : counts.results) {
    auto& t = totals_.at(r.label);
    if (t.definition.empty()) t.definition = r.definition;
    t.trials += r.trials;
    for (std::size_t i = 0; i < r.counts.size() && i < t.table.size(); ++i) t.table[i] += r.counts[i];
    for (std::size_t i = 0; i < r.position_counts.size(); ++i) t.positions[i] += r.position_counts[i];
    t.sums += r.sums;
    for (const auto& p : r.parts) {
      const auto& run = counts.runs[p.run];
      const std::string key = run.key();
      t.chunks[key].add(p.chunks);
      // The part's fingerprints, chunk by chunk (the first birthday trials of the run).
      const std::uint64_t limit = std::min(run.trials, bias_birthday_trials);
      std::size_t at = 0;
      std::uint64_t expected = 0;
      for (const auto& [b, e] : p.chunks.ranges) {
        for (std::uint64_t c = b; c < e && c * bias_chunk_trials < limit; ++c) {
          const std::uint64_t size = std::min(bias_chunk_trials, limit - c * bias_chunk_trials);
          expected += size;
          const std::size_t take = std::min<std::size_t>(size, p.fingerprints.size() - at);
          if (take == 0) continue;
          auto& slot = t.fingerprints[{key, c}];
          slot.assign(p.fingerprints.begin() + static_cast<std::ptrdiff_t>(at),
                      p.fingerprints.begin() + static_cast<std::ptrdiff_t>(at + take));
          at += take;
          t.fingerprint_count += take;
        }
      }
      if (r.test == "position" && p.fingerprints.size() < expected) t.fingerprints_incomplete = true;
      // Keep the first bias_birthday_trials fingerprints in (run, chunk) order.
      while (t.fingerprint_count > bias_birthday_trials) {
        auto last = std::prev(t.fingerprints.end());
        const std::uint64_t excess = t.fingerprint_count - bias_birthday_trials;
        if (last->second.size() <= excess) {
          t.fingerprint_count -= last->second.size();
          t.fingerprints.erase(last);
        } else {
          last->second.resize(last->second.size() - excess);
          t.fingerprint_count -= excess;
        }
      }
    }
  }
}

bias_counts bias_merge::merged() const {
  bias_counts out;
  out.shufl_version = shufl_version_;
  out.counting = counting_;
  out.n = n_;
  out.secondary = secondary_;
  std::map<std::string, std::size_t> index;
  for (const auto& [key, run] : runs_) {
    index[key] = out.runs.size();
    out.runs.push_back(run);
  }
  for (const auto& label : order_) {
    const auto& t = totals_.at(label);
    bias_result r;
    r.label = label;
    r.definition = t.definition;
    r.test = t.test;
    r.n = n_;
    r.trials = t.trials;
    r.counts = t.table;
    r.position_counts = t.positions;
    r.sums = t.sums;
    for (const auto& [key, chunks] : t.chunks) {
      bias_part p;
      p.run = index.at(key);
      p.chunks = chunks;
      for (auto it = t.fingerprints.lower_bound({key, 0}); it != t.fingerprints.end() && it->first.first == key; ++it) {
        p.fingerprints.insert(p.fingerprints.end(), it->second.begin(), it->second.end());
      }
      r.parts.push_back(std::move(p));
    }
    out.results.push_back(std::move(r));
  }
  return out;
}

std::vector<std::string> bias_merge::missing() const {
  std::vector<std::string> out;
  for (const auto& entry : runs_) {
    const auto& key = entry.first;
    const auto& run = entry.second;  // a plain reference: C++17 lambdas cannot capture a structured binding
    if (!run.seed) continue;
    const chunk_set all = chunk_set::all_of(run.trials);
    chunk_set lacking;
    for (const auto& [label, t] : totals_) {
      auto it = t.chunks.find(key);
      lacking.add(it == t.chunks.end() ? all : all.minus(it->second));
    }
    if (lacking.empty()) continue;
    std::string shards;
    const bool one_count = !run.shards.empty() && std::all_of(run.shards.begin(), run.shards.end(), [&](const auto& s) {
      return s.second == run.shards.front().second;
    });
    if (one_count) {
      const std::uint64_t count = run.shards.front().second;
      // The shards holding the lacking chunks, found from the chunks (a run may have far more
      // shards than chunks, most of them empty): at most 21 names, whatever the count.
      std::vector<std::uint64_t> names;
      for (const auto& [b, e] : lacking.ranges) {
        for (std::uint64_t c = b; c < e && names.size() <= 20;) {
          const std::uint64_t i = bias_shard_of_chunk(run.trials, c, count);
          names.push_back(i);
          c = bias_shard_chunks(run.trials, i, count).ranges.back().second;  // past shard i's chunks
        }
        if (names.size() > 20) break;
      }
      std::string list;
      for (std::size_t k = 0; k < names.size() && k < 20; ++k) list += fmt::format("{}{}/{}", k ? ", " : "", names[k], count);
      if (names.size() > 20) list += ", ...";
      shards = fmt::format("shard{} {} ", names.size() == 1 ? "" : "s", list);
    }
    out.push_back(fmt::format("{}missing from {} (chunks {} of {}, {} of {} trials)", shards, run.describe(),
                              lacking.text(), bias_chunk_count(run.trials), lacking.trials_in(run.trials), run.trials));
  }
  return out;
}

bias_report bias_merge::report(bias_options o) const {
  if (names_.empty()) throw error("no counts files to merge");
  const bias_counts all = merged();
  bias_report rep;
  o.n = n_;
  o.secondary = secondary_;
  std::vector<const bias_run*> seeded;
  for (const auto& run : all.runs) {
    if (run.input.empty()) o.engine = run.engine;
    if (run.seed) seeded.push_back(&run);
  }
  o.seed.reset();
  if (all.runs.size() == 1 && seeded.size() == 1) o.seed = seeded[0]->seed;
  const seed_key key = o.seed ? key_from_seed(*o.seed) : key_from_os();
  o.trials = 0;
  rep.missing = missing();
  for (const auto& c : all.results) {
    const auto& t = totals_.at(c.label);
    if (c.trials == 0) {
      // A partial merge (a run stopped before this algorithm, its shards not all there) reports
      // on the algorithms it has and names this one among what is missing.
      if (rep.missing.empty()) throw error(fmt::format("the merged files hold no trials of {}", c.label));
      rep.missing.push_back(fmt::format("{}: no trials in the merged files (not reported)", c.label));
      continue;
    }
    bias_tallies tallies;
    tallies.n = n_;
    tallies.trials = c.trials;
    tallies.table = c.counts;
    tallies.positions = c.position_counts;
    tallies.sums = c.sums;
    for (const auto& p : c.parts) {
      tallies.fingerprints.insert(tallies.fingerprints.end(), p.fingerprints.begin(), p.fingerprints.end());
    }
    tallies.birthday_trials = tallies.fingerprints.size();
    std::vector<std::uint64_t> sorted = tallies.fingerprints;
    tallies.duplicates = detail::count_repeats(sorted);
    bias_result r = test_tallies(tallies, o, c.test, key);
    r.label = c.label;
    r.definition = c.definition;
    r.parts = c.parts;
    if (t.fingerprints_incomplete) {
      r.warnings.push_back(fmt::format(
          "some merged files carry no birthday fingerprints (version 1 files): the duplicates test covers {} trials",
          tallies.birthday_trials));
    }
    o.trials = std::max(o.trials, c.trials);
    rep.results.push_back(std::move(r));
  }
  rep.options = o;
  rep.runs = all.runs;
  rep.merged_files = names_;
  if (rep.results.empty()) throw error("the merged files hold no trials");
  for (const auto& r : rep.results) {
    if (r.correction == "holm") rep.correction = "holm";
  }
  return rep;
}

}  // namespace shufl
