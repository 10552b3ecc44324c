#include "shufl/error.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace shufl {

namespace {
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string closest_name(std::string_view name, std::span<const std::string_view> candidates) {
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const auto candidate : candidates) {
    const std::size_t d = edit_distance(name, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(candidate);
    }
  }
  return best;
}

error unknown_name_error(std::string_view what, std::string_view name,
                         std::span<const std::string_view> candidates) {
  std::string message = "unknown " + std::string(what) + " '" + std::string(name) + "'";
  if (const auto suggestion = closest_name(name, candidates); !suggestion.empty()) {
    message += "; did you mean '" + suggestion + "'?";
  }
  message += " (valid: ";
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (i) message += ", ";
    message += candidates[i];
  }
  message += ")";
  return error(message);
}

}  // namespace shufl
