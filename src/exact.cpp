#include "shufl/exact.hpp"

#include <fmt/format.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <array>
#include <memory>

#include "shufl/detail/replay_engine.hpp"
#include "shufl/error.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

namespace {

using rational = boost::multiprecision::cpp_rational;
using big_int = boost::multiprecision::cpp_int;

std::string fraction_text(const rational& r) {
  if (r == 0) return "0";
  if (denominator(r) == 1) return numerator(r).str();
  return numerator(r).str() + "/" + denominator(r).str();
}

// Fills every field of `out` from exact per-rank probabilities (n ≤ exact_max_n).
void fill_from_probabilities(exact_distribution& out, const std::vector<rational>& probability) {
  const std::size_t n = out.n;
  const std::uint64_t cells = probability.size();
  const rational uniform(1, cells);
  rational tv(0);
  std::uint64_t most = 0, least = 0;
  std::vector<std::vector<rational>> position(n, std::vector<rational>(n, rational(0)));
  out.probability.reserve(cells);
  out.probability_value.reserve(cells);
  for (std::uint64_t r = 0; r < cells; ++r) {
    const rational& p = probability[r];
    out.probability.push_back(fraction_text(p));
    out.probability_value.push_back(static_cast<double>(p));
    tv += abs(p - uniform);
    if (p > probability[most]) most = r;
    if (p < probability[least]) least = r;
    if (p != 0) {
      const auto perm = unrank_permutation(r, n);
      for (std::size_t pos = 0; pos < n; ++pos) position[perm[pos]][pos] += p;
    }
  }
  tv /= 2;
  out.total_variation = fraction_text(tv);
  out.total_variation_value = static_cast<double>(tv);
  out.most_likely = deck_label(unrank_permutation(most, n));
  out.least_likely = deck_label(unrank_permutation(least, n));
  out.most_likely_probability = out.probability[most];
  out.least_likely_probability = out.probability[least];
  out.most_likely_value = out.probability_value[most];
  out.least_likely_value = out.probability_value[least];
  out.position_matrix.assign(n, std::vector<std::string>(n));
  for (std::size_t e = 0; e < n; ++e) {
    for (std::size_t p = 0; p < n; ++p) out.position_matrix[e][p] = fraction_text(position[e][p]);
  }
}

}  // namespace

exact_distribution enumerate_exact(const algorithm_spec& algorithm, std::size_t n,
                                   std::uint64_t max_paths) {
  if (n < 1 || n > exact_max_n) {
    throw error(fmt::format("exact enumeration needs 1 <= n <= {} (got {})", exact_max_n, n));
  }
  if (algorithm.info->weak_seed) {
    throw error(fmt::format("{} draws a 32-bit seed: 2^32 paths, too many to enumerate", algorithm.label()));
  }
  const std::uint64_t cells = factorial(n);

  // Integer counts per (path probability denominator Π s_k, rank). Most algorithms have a single
  // denominator (every path equally likely); sorts with coins have one per path length.
  struct group {
    uint128 denominator;
    std::vector<std::uint64_t> counts;
  };
  std::vector<group> groups;
  std::size_t last = 0;
  auto engine = std::make_unique<detail::replay_engine>();
  std::array<std::uint8_t, 256> deck{};
  const std::span<std::uint8_t> d(deck.data(), n);
  const std::span<const std::uint8_t> cd(deck.data(), n);
  std::uint64_t paths = 0;
  for (;;) {
    engine->restart();
    for (std::size_t i = 0; i < n; ++i) deck[i] = static_cast<std::uint8_t>(i);
    algorithm.info->run_replay(d, *engine, algorithm.parameter);
    if (engine->overflow) throw error("a path of random choices is too long to enumerate");
    if (++paths > max_paths) {
      throw error(fmt::format("more than {} paths of random choices: too many to enumerate", max_paths));
    }
    const std::size_t used = engine->used;
    uint128 denominator = 1;
    for (std::size_t k = 0; k < used; ++k) {
      denominator *= engine->bounds[k];
      if (denominator >> 64) throw error("path probability denominator overflows 64 bits");
    }
    // Fixed bounds: the first path's denominator is the number of paths; refuse at once.
    if (paths == 1 && algorithm.info->fixed_bounds && denominator > max_paths) {
      throw error(fmt::format("{} paths of random choices: more than {}, too many to enumerate",
                              static_cast<std::uint64_t>(denominator), max_paths));
    }
    if (last >= groups.size() || groups[last].denominator != denominator) {
      last = 0;
      while (last < groups.size() && groups[last].denominator != denominator) ++last;
      if (last == groups.size()) groups.push_back({denominator, std::vector<std::uint64_t>(cells, 0)});
    }
    ++groups[last].counts[rank_permutation(cd)];

    // Odometer: advance the last draw that has room; later draws restart at 0 on the next run.
    std::size_t k = used;
    while (k > 0 && engine->draws[k - 1] + 1 >= engine->bounds[k - 1]) --k;
    if (k == 0) break;
    ++engine->draws[k - 1];
    engine->prefix = k;
  }

  std::vector<rational> probability(cells, rational(0));
  for (const auto& g : groups) {
    const big_int den(static_cast<std::uint64_t>(g.denominator));
    for (std::uint64_t r = 0; r < cells; ++r) {
      if (g.counts[r]) probability[r] += rational(big_int(g.counts[r]), den);
    }
  }
  exact_distribution out;
  out.n = n;
  out.paths = paths;
  out.method = "enumeration";
  fill_from_probabilities(out, probability);
  return out;
}

exact_distribution riffle_exact(std::size_t n, std::uint64_t k) {
  if (n < 1 || n > 255) throw error(fmt::format("the riffle closed form needs 1 <= n <= 255 (got {})", n));
  if (k < 1 || k > 1000) throw error(fmt::format("the riffle closed form needs 1 <= k <= 1000 (got {})", k));
  // The probabilities are fractions over 2^(k·n): beyond this many bits the exact arithmetic takes
  // more than a few seconds (quadratic in k·n), so refuse at once (issue 11).
  if (k * n > riffle_exact_max_bits) {
    throw error(fmt::format("the riffle closed form needs K x n <= {} (its probabilities are fractions over "
                            "2^(K x n)); riffle:{} with n = {} has {}",
                            riffle_exact_max_bits, k, n, k * n));
  }
  // Eulerian numbers A(n, m), m = 0..n-1: A(i, m) = (i − m) A(i−1, m−1) + (m + 1) A(i−1, m).
  std::vector<big_int> eulerian(n, big_int(0));
  eulerian[0] = 1;
  for (std::size_t i = 2; i <= n; ++i) {
    for (std::size_t m = i - 1; m > 0; --m) {
      eulerian[m] = big_int(i - m) * eulerian[m - 1] + big_int(m + 1) * eulerian[m];
    }
  }
  big_int n_factorial = 1;
  for (std::size_t i = 2; i <= n; ++i) n_factorial *= i;
  const big_int two_k = big_int(1) << static_cast<unsigned>(k);
  const big_int denominator = big_int(1) << static_cast<unsigned>(k * n);
  // P(r) = C(2^k + n − r, n) / 2^(kn) for r = 1..n (0 when 2^k + n − r < n).
  std::vector<rational> by_rising(n + 1, rational(0));
  for (std::size_t r = 1; r <= n; ++r) {
    const big_int top = two_k + n - r;
    if (top < n) continue;
    big_int c = 1;
    for (std::size_t i = 0; i < n; ++i) c = c * (top - i) / (i + 1);  // exact at every step
    by_rising[r] = rational(c, denominator);
  }
  exact_distribution out;
  out.n = n;
  out.method = "closed form (rising sequences)";
  if (n <= exact_max_n) {
    std::vector<rational> probability(factorial(n));
    for (std::uint64_t rank = 0; rank < probability.size(); ++rank) {
      const auto perm = unrank_permutation(rank, n);
      probability[rank] = by_rising[rising_sequences(std::span<const std::uint8_t>(perm))];
    }
    fill_from_probabilities(out, probability);
    return out;
  }
  const rational uniform(big_int(1), n_factorial);
  rational tv(0);
  for (std::size_t r = 1; r <= n; ++r) tv += rational(eulerian[r - 1]) * abs(by_rising[r] - uniform);
  tv /= 2;
  out.total_variation = fraction_text(tv);
  out.total_variation_value = static_cast<double>(tv);
  // Most likely: the identity (1 rising sequence); least likely: the reversal (n of them).
  std::vector<std::uint8_t> identity(n), reversal(n);
  for (std::size_t i = 0; i < n; ++i) {
    identity[i] = static_cast<std::uint8_t>(i);
    reversal[i] = static_cast<std::uint8_t>(n - 1 - i);
  }
  out.most_likely = deck_label(identity);
  out.least_likely = deck_label(reversal);
  out.most_likely_probability = fraction_text(by_rising[1]);
  out.least_likely_probability = fraction_text(by_rising[n]);
  out.most_likely_value = static_cast<double>(by_rising[1]);
  out.least_likely_value = static_cast<double>(by_rising[n]);
  return out;
}

void check_exact_law(const algorithm_spec& algorithm, std::size_t n, std::uint64_t max_paths) {
  if (algorithm.info->name == "riffle") {
    const std::uint64_t k = algorithm.parameter;
    if (n < 1 || n > 255 || k < 1 || k > 1000 || k * n > riffle_exact_max_bits) (void)riffle_exact(n, k);  // its error
    return;
  }
  if (n < 1 || n > exact_max_n) {
    throw error(fmt::format("exact enumeration needs 1 <= n <= {} (got {})", exact_max_n, n));
  }
  if (algorithm.info->weak_seed) {
    throw error(fmt::format("{} draws a 32-bit seed: 2^32 paths, too many to enumerate", algorithm.label()));
  }
  if (!algorithm.info->fixed_bounds) return;  // known only by enumerating (max_paths stops it)
  auto engine = std::make_unique<detail::replay_engine>();
  std::array<std::uint8_t, 256> deck{};
  for (std::size_t i = 0; i < n; ++i) deck[i] = static_cast<std::uint8_t>(i);
  algorithm.info->run_replay(std::span<std::uint8_t>(deck.data(), n), *engine, algorithm.parameter);
  if (engine->overflow) throw error("a path of random choices is too long to enumerate");
  uint128 paths = 1;
  for (std::size_t k = 0; k < engine->used; ++k) {
    paths *= engine->bounds[k];
    if (paths > max_paths) {
      // The whole product when it fits in 64 bits, as enumerate_exact words it.
      uint128 all = 1;
      for (std::size_t j = 0; j < engine->used && !(all >> 64); ++j) all *= engine->bounds[j];
      if (all >> 64) throw error("path probability denominator overflows 64 bits");
      throw error(fmt::format("{}: {} paths of random choices: more than {}, too many to enumerate",
                              algorithm.label(), static_cast<std::uint64_t>(all), max_paths));
    }
  }
}

exact_distribution exact_law(const algorithm_spec& algorithm, std::size_t n) {
  if (algorithm.info->name == "riffle") return riffle_exact(n, algorithm.parameter);
  return enumerate_exact(algorithm, n);
}

}  // namespace shufl
