// Private to src/bias/: what the counts files' reader (counts_read.cpp), validator
// (counts_validate.cpp) and writer (counts_write.cpp) share.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "shufl/bias_counts.hpp"
#include "shufl/random.hpp"

namespace shufl::detail {

constexpr uint128 k2p53 = uint128{1} << 53;
constexpr uint128 kMax64 = ~std::uint64_t{0};

inline std::string u128_text(uint128 v) {
  if (v == 0) return "0";
  char buf[40];
  char* p = buf + sizeof buf;
  while (v != 0) {
    *--p = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  return std::string(p, static_cast<std::size_t>(buf + sizeof buf - p));
}

// What the parser keeps out of the DOM: the big arrays and the fingerprints, per result.
struct side_result {
  std::vector<std::uint64_t> table, positions;
  bool has_table = false, has_positions = false;
  std::map<std::uint64_t, std::vector<std::uint64_t>> fingerprints;  // by part index
};

/// A count as the reader takes it: a non-negative integer below 2^128, a JSON number or a decimal
/// string; else an error "'NAME': top level: WHAT" (the validator re-says WHAT with its path).
uint128 count128_of(const nlohmann::json& v, std::string_view name);

/// The counts of a parsed file (version 1 or 2), every field and the consistency of the counts
/// checked: `root` is the small DOM, `side` the arrays the reader kept out of it. Errors name the
/// file (`name`) and the field's path.
bias_counts counts_of_dom(const nlohmann::json& root, std::vector<side_result>& side, std::string_view name);

}  // namespace shufl::detail
