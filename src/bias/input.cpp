// `shufl bias --input`: permutations produced by any other program, as text.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "shufl/bias.hpp"
#include "shufl/error.hpp"

namespace shufl {

namespace {

std::vector<std::string_view> split_items(std::string_view line) {
  std::vector<std::string_view> items;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == ',' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != ',' && line[i] != '\r') ++i;
    if (i > start) items.push_back(line.substr(start, i - start));
  }
  if (items.size() == 1 && items[0].size() > 1 && line.find_first_of(" \t,") == std::string_view::npos) {
    const std::string_view word = items[0];
    items.clear();
    for (std::size_t k = 0; k < word.size(); ++k) items.push_back(word.substr(k, 1));
  }
  return items;
}

bool as_number(std::string_view s, std::uint64_t& value) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, 10);
  return ec == std::errc{} && ptr == s.data() + s.size();
}

}  // namespace

permutation_list parse_permutations(std::string_view text) {
  permutation_list out;
  std::map<std::string, std::uint8_t, std::less<>> index;
  std::size_t line_number = 0;
  std::size_t pos = 0;
  std::vector<bool> seen;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    const auto items = split_items(line);
    if (items.empty() || items[0][0] == '#') continue;
    if (out.n == 0) {
      if (items.size() < 2 || items.size() > bias_max_n) {
        throw error(fmt::format("input line {}: {} items; permutations of 2 to {} items are needed",
                                line_number, items.size(), bias_max_n));
      }
      std::vector<std::string_view> order(items.begin(), items.end());
      const bool numeric = std::all_of(order.begin(), order.end(), [](auto s) {
        std::uint64_t v;
        return as_number(s, v);
      });
      std::sort(order.begin(), order.end(), [&](auto a, auto b) {
        if (numeric) {
          std::uint64_t x = 0, y = 0;
          as_number(a, x);
          as_number(b, y);
          return x < y;
        }
        return a < b;
      });
      if (std::adjacent_find(order.begin(), order.end()) != order.end()) {
        throw error(fmt::format("input line {}: an item appears twice", line_number));
      }
      out.n = items.size();
      for (std::size_t k = 0; k < order.size(); ++k) {
        index.emplace(std::string(order[k]), static_cast<std::uint8_t>(k));
        out.symbols.emplace_back(order[k]);
      }
      seen.assign(out.n, false);
    }
    if (items.size() != out.n) {
      throw error(fmt::format("input line {}: {} items, expected {} like the first line",
                              line_number, items.size(), out.n));
    }
    std::fill(seen.begin(), seen.end(), false);
    for (const auto item : items) {
      const auto it = index.find(item);
      if (it == index.end()) {
        throw error(fmt::format("input line {}: '{}' is not an item of the first line", line_number, item));
      }
      if (seen[it->second]) throw error(fmt::format("input line {}: '{}' appears twice", line_number, item));
      seen[it->second] = true;
      out.perms.push_back(it->second);
    }
  }
  if (out.n == 0) throw error("no permutations in the input");
  return out;
}

}  // namespace shufl
