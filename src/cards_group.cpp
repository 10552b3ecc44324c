// --group-by's field of a deck line (cards_group.hpp).
#include "cards_group.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "shufl/cards.hpp"

namespace shufl::cards {

namespace {

// As cards.cpp: space-like bytes; a tab separates on its own but is trimmed around an item.
bool is_space(char c) noexcept { return c == ' ' || c == '\r' || c == '\v' || c == '\f'; }
bool is_blank(char c) noexcept { return is_space(c) || c == '\t'; }

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string split_group_field(std::string_view t, std::size_t want, std::string_view name, std::uint64_t line_number,
                              std::string& group, std::string& rest) {
  const auto where = [&] { return fmt::format("{}: line {}", name, line_number); };
  const char sep = std::memchr(t.data(), '\t', t.size()) != nullptr ? '\t'
                   : std::memchr(t.data(), ',', t.size()) != nullptr ? ','
                                                                      : ' ';
  const std::size_t n = t.size();
  std::size_t begin = 0, end = 0, field = 0;
  if (sep == ' ') {
    for (std::size_t p = 0;;) {
      while (p < n && is_space(t[p])) ++p;
      if (p == n) break;
      begin = p;
      while (p < n && !is_space(t[p])) ++p;
      end = p;
      if (++field == want) break;
    }
  } else {
    for (std::size_t p = 0;;) {
      const std::size_t e = std::min(t.find(sep, p), n);
      begin = p;
      end = e;
      if (++field == want || e == n) break;
      p = e + 1;
    }
  }
  if (field != want) {
    return fmt::format("{}: no field {} (--group-by): the line has {} field{}", where(), want, field, field == 1 ? "" : "s");
  }
  const std::string_view text = trim(t.substr(begin, end - begin));
  if (text.empty()) return fmt::format("{}: field {} (--group-by, the group) is empty", where(), want);
  if (text.size() > max_group_bytes) {
    return fmt::format("{}: field {} (--group-by, the group) is longer than {} bytes", where(), want, max_group_bytes);
  }
  group.assign(text);
  const std::size_t cut_begin = end < n ? begin : (begin > 0 ? begin - 1 : begin);
  const std::size_t cut_end = end < n ? end + 1 : end;
  rest.assign(t.substr(0, cut_begin));
  rest.append(t.substr(cut_end));
  const std::string_view kept = trim(rest);
  const std::size_t lead = static_cast<std::size_t>(kept.data() - rest.data());
  rest.erase(lead + kept.size());
  rest.erase(0, lead);
  return {};
}

}  // namespace shufl::cards
