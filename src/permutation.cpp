#include "shufl/permutation.hpp"

#include <fmt/format.h>

#include <array>
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
#define SHUFL_POPCNT_CLONES __attribute__((target_clones("arch=x86-64-v3", "popcnt", "default")))
#else
#define SHUFL_POPCNT_CLONES
#endif

namespace {

// Up to 4 permutations of 0..n-1 (n ≤ 64), perms[k * n ...]: adds their fixed points,
// inversions, rising sequences and cycles. One pass per permutation over a mask of the cards
// seen so far gives the fixed points, the inversions (earlier cards above this one: one popcount
// per card) and the rising sequences (card v+1 seen before card v: one bit per card). The cycle
// walks, whose loads form one dependency chain per permutation, run branch-free and interleaved, so the four chains overlap: each step marks the
// current card seen; when the next card is already seen (the cycle's start) the cycle closes and
// the walk jumps to the lowest unseen card (n steps visit every card once).
template <std::size_t Lanes>
[[gnu::always_inline]] inline void add_small(permutation_sums& sums, const std::uint8_t* perms, std::size_t n) noexcept {
  std::uint64_t fixed = 0, inv = 0, rising = 0, cycles = 0;
  for (std::size_t k = 0; k < Lanes; ++k) {
    const std::uint8_t* perm = perms + k * n;
    std::uint64_t seen = 0;  // bit c: card c lies at an earlier position
    for (std::size_t p = 0; p < n; ++p) {
      const unsigned v = perm[p];
      fixed += v == p;
      // Bit 0 of `later` is card v itself (not yet seen): its other bits are the earlier cards
      // above v (inversions), and bit 1 says card v+1 lies before card v (a new rising
      // sequence starts at v+1; for v = n−1 the bit is never set, as n ≤ 64).
      const std::uint64_t later = seen >> v;
      inv += static_cast<std::uint64_t>(__builtin_popcountll(later));
      rising += (later >> 1) & 1;
      seen |= std::uint64_t{1} << v;
    }
    rising += 1;
  }
  // Bit 63 stays set when n < 64, so the lowest unseen card is found without a test for none
  // (after the last step it is never used).
  std::array<std::uint64_t, Lanes> unseen;
  std::array<unsigned, Lanes> cur{};
  unseen.fill(n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1 + (std::uint64_t{1} << 63));
  for (std::size_t step = 0; step < n; ++step) {
    for (std::size_t k = 0; k < Lanes; ++k) {
      unseen[k] &= ~(std::uint64_t{1} << cur[k]);
      const unsigned next = perms[k * n + cur[k]];
      // Along a cycle every card is unseen but its start: a seen next card closes the cycle.
      const bool closed = ((unseen[k] >> next) & 1) == 0;
      cycles += closed;
      const auto fresh = static_cast<unsigned>(__builtin_ctzll(unseen[k] | (std::uint64_t{1} << 63)));
      cur[k] = closed ? fresh : next;
    }
  }
  sums.trials += Lanes;
  sums.fixed_points += fixed;
  sums.inversions += inv;
  sums.rising_sequences += rising;
  sums.cycles += cycles;
}

}  // namespace

SHUFL_POPCNT_CLONES
void add_permutation_sums(permutation_sums& sums, const std::uint8_t* perms, std::size_t count,
                          std::size_t n) noexcept {
  if (n > 64) {
    for (std::size_t t = 0; t < count; ++t) sums.add(std::span<const std::uint8_t>(perms + t * n, n));
    return;
  }
  std::size_t t = 0;
  for (; t + 4 <= count; t += 4) add_small<4>(sums, perms + t * n, n);
  for (; t < count; ++t) add_small<1>(sums, perms + t * n, n);
}

void add_permutation_sums(permutation_sums& sums, std::span<const std::uint8_t> perm) noexcept {
  add_permutation_sums(sums, perm.data(), 1, perm.size());
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

std::string scientific_from_log10_up(double log10_value) {
  double exponent = std::floor(log10_value);
  // Ceiled at two decimals; 1e-9 absorbs the rounding of pow so an exact 2.5 stays 2.50.
  double mantissa = std::ceil(std::pow(10.0, log10_value - exponent) * 100 - 1e-9) / 100;
  if (mantissa >= 10) {
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
