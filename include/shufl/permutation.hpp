// Permutations of 0..n-1: ranking and unranking (Lehmer code), n!, and writing a deck as text.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace shufl {

/// Largest n for which n! fits in 64 bits (20! ≈ 2.43e18); rank/unrank accept n ≤ this.
inline constexpr std::size_t max_rank_n = 20;

/// n! for n ≤ 20. Precondition: n ≤ max_rank_n.
constexpr std::uint64_t factorial(std::size_t n) noexcept {
  std::uint64_t f = 1;
  for (std::size_t i = 2; i <= n; ++i) f *= i;
  return f;
}

/// Writes 10^log10_value in scientific notation with three significant digits, "5.51e495", for
/// counts far outside the double range (52! ≈ 8.07e67, a 6-deck shoe's orders ≈ 5.51e495).
std::string scientific_from_log10(double log10_value);
/// The same, rounded up (the mantissa's last digit ceiled): for an upper bound, which rounding
/// to nearest could print below the value it bounds.
std::string scientific_from_log10_up(double log10_value);

/// Lexicographic rank of a permutation of 0..n-1 in [0, n!), via its Lehmer code
/// (D. H. Lehmer 1960; Knuth TAOCP vol. 2 §3.3.2, vol. 4A §7.2.1.2): rank = Σ c_i (n−1−i)!
/// where c_i counts later entries smaller than perm[i]. O(n²), allocation-free.
/// Precondition: `perm` is a permutation of 0..n-1 with n ≤ 20 (not checked).
/// The identity has rank 0; the reversal has rank n! − 1.
template <class T>
constexpr std::uint64_t rank_permutation(std::span<const T> perm) noexcept {
  const std::size_t n = perm.size();
  std::uint64_t rank = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t smaller_after = 0;
    for (std::size_t j = i + 1; j < n; ++j) smaller_after += perm[j] < perm[i];
    rank = rank * (n - i) + smaller_after;
  }
  return rank;
}

/// Number of fixed points (perm[i] == i). Under the uniform law: mean 1, variance 1 (n ≥ 2).
template <class T>
constexpr std::size_t fixed_points(std::span<const T> perm) noexcept {
  std::size_t f = 0;
  for (std::size_t i = 0; i < perm.size(); ++i) f += perm[i] == i;
  return f;
}

/// Number of cycles, fixed points included. Under the uniform law: mean H_n = Σ 1/k, variance
/// H_n − Σ 1/k² (Goncharov 1944). Precondition: a permutation of 0..n-1, n ≤ 256.
template <class T>
constexpr std::size_t cycle_count(std::span<const T> perm) noexcept {
  // Walk each cycle once from its first element, marking it; the walk stops on returning to the
  // start, so only the perm[j] loads form the dependency chain (the marks are never waited on).
  std::array<std::uint64_t, 4> seen{};
  std::size_t cycles = 0;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    if ((seen[i / 64] >> (i % 64)) & 1) continue;
    ++cycles;
    for (auto j = static_cast<std::size_t>(perm[i]); j != i; j = static_cast<std::size_t>(perm[j])) {
      seen[j / 64] |= std::uint64_t{1} << (j % 64);
    }
  }
  return cycles;
}

namespace detail {
/// Population count, inline everywhere: the popcnt instruction when the target has it, else the
/// SWAR bit trick (a generic x86-64 build would otherwise call libgcc's table-driven function).
constexpr unsigned popcount64(std::uint64_t x) noexcept {
#if defined(__POPCNT__)
  return static_cast<unsigned>(std::popcount(x));
#else
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<unsigned>((x * 0x0101010101010101ull) >> 56);
#endif
}
}  // namespace detail

/// Number of inversions (i < j with perm[i] > perm[j]), O(n) with bit masks. Under the uniform
/// law: mean n(n−1)/4, variance n(n−1)(2n+5)/72. Precondition: a permutation of 0..n-1, n ≤ 256.
template <class T>
constexpr std::size_t inversions(std::span<const T> perm) noexcept {
  std::size_t total = 0;
  if (perm.size() <= 64) {  // one word: the common case, no inner loop
    std::uint64_t mask = 0;
    for (const auto value : perm) {
      const auto v = static_cast<unsigned>(value);
      total += static_cast<std::size_t>(detail::popcount64(v == 63 ? 0 : mask >> (v + 1)));
      mask |= std::uint64_t{1} << v;
    }
    return total;
  }
  std::array<std::uint64_t, 4> seen{};
  for (const auto value : perm) {
    const auto v = static_cast<std::size_t>(value);
    const std::size_t w = v / 64, b = v % 64;
    // Earlier values greater than v: the higher bits of word w and all higher words.
    total += static_cast<std::size_t>(detail::popcount64(b == 63 ? 0 : seen[w] >> (b + 1)));
    for (std::size_t k = w + 1; k < 4; ++k) total += static_cast<std::size_t>(detail::popcount64(seen[k]));
    seen[w] |= std::uint64_t{1} << b;
  }
  return total;
}

/// Number of rising sequences of the deck (maximal runs of consecutive cards v, v+1, ... lying at
/// increasing positions): 1 + #{v : card v+1 lies before card v}. The riffle shuffle's statistic
/// (Bayer and Diaconis 1992). Under the uniform law: mean (n+1)/2, variance (n+1)/12 (n ≥ 2).
/// Precondition: a permutation of 0..n-1, 1 ≤ n ≤ 256.
template <class T>
constexpr std::size_t rising_sequences(std::span<const T> perm) noexcept {
  std::array<std::uint8_t, 256> where;  // every entry read is written first
  for (std::size_t p = 0; p < perm.size(); ++p) where[static_cast<std::size_t>(perm[p])] = static_cast<std::uint8_t>(p);
  std::size_t r = 1;
  for (std::size_t v = 0; v + 1 < perm.size(); ++v) r += where[v + 1] < where[v];
  return r;
}

/// Sums of the per-permutation statistics over many trials (for the secondary z-tests).
struct permutation_sums {
  std::uint64_t trials = 0;
  std::uint64_t fixed_points = 0;
  std::uint64_t cycles = 0;
  std::uint64_t inversions = 0;
  std::uint64_t rising_sequences = 0;
  /// Adds one permutation.
  template <class T>
  constexpr void add(std::span<const T> perm) noexcept {
    ++trials;
    fixed_points += shufl::fixed_points(perm);
    cycles += cycle_count(perm);
    inversions += shufl::inversions(perm);
    rising_sequences += shufl::rising_sequences(perm);
  }
  /// Adds another set of sums.
  constexpr permutation_sums& operator+=(const permutation_sums& o) noexcept {
    trials += o.trials;
    fixed_points += o.fixed_points;
    cycles += o.cycles;
    inversions += o.inversions;
    rising_sequences += o.rising_sequences;
    return *this;
  }
};

/// permutation_sums::add for `count` byte decks of n ≤ 256 cards stored one after another in
/// perms[0, count · n): the same sums, computed in one pass per deck over a 64-bit mask of the
/// cards seen so far (fixed points; inversions by a popcount per card; rising sequences by one
/// bit per card: card v+1 seen before card v) with the cycle walks of four decks interleaved
/// branch-free (n ≤ 64; larger decks use permutation_sums::add). Compiled three times on x86-64
/// (GCC target_clones, chosen once at load time): for x86-64-v3 (BMI2 shifts by any register,
/// popcnt, tzcnt), with the popcnt instruction where the CPU has it (every x86-64 since about
/// 2008), else generic. The bias trial loops call it every few trials.
/// Allocation-free.
void add_permutation_sums(permutation_sums& sums, const std::uint8_t* perms, std::size_t count,
                          std::size_t n) noexcept;

/// add_permutation_sums for one deck.
void add_permutation_sums(permutation_sums& sums, std::span<const std::uint8_t> perm) noexcept;

/// A 64-bit fingerprint of a permutation: its rank when n ≤ 20 (exact), else a hash (distinct
/// permutations collide with probability about 2^−64 per pair).
template <class T>
constexpr std::uint64_t permutation_fingerprint(std::span<const T> perm) noexcept {
  if (perm.size() <= max_rank_n) return rank_permutation(perm);
  // Eight items per word, two independent multiply lanes: the hash costs a few ns at n = 52.
  std::uint64_t a = 0x9E3779B97F4A7C15ull ^ perm.size(), b = 0xD1B54A32D192ED03ull;
  std::size_t i = 0;
  for (; i + 8 <= perm.size(); i += 8) {
    std::uint64_t w = 0;
    for (std::size_t k = 0; k < 8; ++k) w |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(perm[i + k])) << (8 * k);
    if ((i / 8) % 2 == 0) {
      a = (a ^ w) * 0xFF51AFD7ED558CCDull;
      a ^= a >> 32;
    } else {
      b = (b ^ w) * 0xC4CEB9FE1A85EC53ull;
      b ^= b >> 29;
    }
  }
  for (; i < perm.size(); ++i) b = (b ^ static_cast<std::uint64_t>(perm[i])) * 0x100000001B3ull;
  std::uint64_t h = (a ^ (b >> 17) ^ (b << 47)) * 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 32);
}

/// The permutation of 0..n-1 with the given lexicographic rank (inverse of rank_permutation).
/// Throws shufl::error if n > 20 or rank ≥ n!.
std::vector<std::uint8_t> unrank_permutation(std::uint64_t rank, std::size_t n);

/// Whether `values` is a permutation of 0..n-1 (n = values.size()).
bool is_permutation_of_iota(std::span<const std::uint8_t> values) noexcept;

/// The deck written as cards 1..n in their shuffled order, as the reference files and the bias
/// report write it: "231" for n < 10, "2,3,1" (comma-separated) for n ≥ 10. `perm` holds 0-based
/// cards.
std::string deck_label(std::span<const std::uint8_t> perm);

}  // namespace shufl
