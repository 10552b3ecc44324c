#include "shufl/permutation.hpp"

#include <fmt/format.h>

#include "shufl/error.hpp"

namespace shufl {

std::vector<std::uint8_t> unrank_permutation(std::uint64_t rank, std::size_t n) {
  if (n > max_rank_n) throw error(fmt::format("cannot unrank a permutation of {} > 20 items", n));
  if (rank >= factorial(n)) throw error(fmt::format("rank {} is not below {}!", rank, n));
  // Peel off the factorial-base digits of the rank, then pick the digit-th unused item.
  std::vector<std::uint8_t> code(n);
  for (std::size_t i = n; i-- > 0;) {
    const std::uint64_t base = n - i;
    code[i] = static_cast<std::uint8_t>(rank % base);
    rank /= base;
  }
  std::vector<std::uint8_t> unused(n);
  for (std::size_t i = 0; i < n; ++i) unused[i] = static_cast<std::uint8_t>(i);
  std::vector<std::uint8_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) {
    perm[i] = unused[code[i]];
    unused.erase(unused.begin() + code[i]);
  }
  return perm;
}

bool is_permutation_of_iota(std::span<const std::uint8_t> values) noexcept {
  std::vector<bool> seen(values.size(), false);
  for (const auto v : values) {
    if (v >= values.size() || seen[v]) return false;
    seen[v] = true;
  }
  return true;
}

std::string deck_label(std::span<const std::uint8_t> perm) {
  std::string out;
  const bool commas = perm.size() >= 10;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    if (commas && i) out.push_back(',');
    out += fmt::format("{}", perm[i] + 1);
  }
  return out;
}

}  // namespace shufl
