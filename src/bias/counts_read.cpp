// Counts files, the reading: a bounded streaming parse (nlohmann-json's parser callback diverts
// the big arrays out of the DOM and stops deep nesting), then the validator (counts_validate.cpp).
#include "shufl/bias_counts.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>

#include "counts_internal.hpp"
#include "shufl/error.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

namespace {

using json = nlohmann::json;
using detail::kMax64;
using detail::side_result;
using detail::u128_text;

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
  return detail::counts_of_dom(root, r.side, name);
}

}  // namespace

uint128 detail::count128_of(const json& v, std::string_view name) {
  const reader r(name);
  return reader::count128_of(v, r);
}

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

}  // namespace shufl
