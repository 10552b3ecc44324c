#include "shufl/permutation.hpp"

#include <fmt/format.h>

#include <cmath>

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

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__) && !defined(__SANITIZE_ADDRESS__)
#define SHUFL_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define SHUFL_POPCNT_CLONES
#endif

SHUFL_POPCNT_CLONES
void add_permutation_sums(permutation_sums& sums, std::span<const std::uint8_t> perm) noexcept {
  const std::size_t n = perm.size();
  ++sums.trials;
  sums.fixed_points += fixed_points(perm);
  sums.cycles += cycle_count(perm);
  sums.rising_sequences += rising_sequences(perm);
  if (n > 64) {
    sums.inversions += inversions(perm);
    return;
  }
  // __builtin_popcountll is the popcnt instruction in the popcnt clone.
  std::uint64_t mask = 0;
  std::uint64_t total = 0;
  for (const auto value : perm) {
    const unsigned v = value;
    total += static_cast<std::uint64_t>(__builtin_popcountll(v == 63 ? 0 : mask >> (v + 1)));
    mask |= std::uint64_t{1} << v;
  }
  sums.inversions += total;
}

std::string scientific_from_log10(double log10_value) {
  double exponent = std::floor(log10_value);
  double mantissa = std::pow(10.0, log10_value - exponent);
  if (mantissa >= 9.995) {  // would print as "10.00"
    mantissa /= 10;
    exponent += 1;
  }
  return fmt::format("{:.2f}e{}", mantissa, static_cast<long long>(exponent));
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
