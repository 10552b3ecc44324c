#include "shufl/exact.hpp"

#include <fmt/format.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <map>

#include "shufl/error.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

namespace {

using rational = boost::multiprecision::cpp_rational;

std::string fraction_text(const rational& r) {
  if (r == 0) return "0";
  if (denominator(r) == 1) return numerator(r).str();
  return numerator(r).str() + "/" + denominator(r).str();
}

}  // namespace

exact_distribution enumerate_exact(const algorithm_spec& algorithm, std::size_t n,
                                   std::uint64_t max_paths) {
  if (n < 1 || n > 10) throw error(fmt::format("exact enumeration needs 1 <= n <= 10 (got {})", n));
  const std::uint64_t cells = factorial(n);

  // Paths grouped by their probability denominator Π s_k: integer counts per (denominator, rank),
  // so the common case (every path equally likely) costs one increment per path.
  std::map<std::uint64_t, std::vector<std::uint64_t>> by_denominator;
  std::map<std::uint64_t, std::vector<std::vector<std::uint64_t>>> position_by_denominator;
  std::vector<std::uint64_t> choices;
  std::vector<std::uint8_t> deck(n);
  scripted_engine engine({}, /*extend_with_zeros=*/true);
  std::uint64_t paths = 0;
  for (;;) {
    engine.reset(choices);
    for (std::size_t i = 0; i < n; ++i) deck[i] = static_cast<std::uint8_t>(i);
    algorithm.info->run_scripted(deck, engine, algorithm.parameter);
    if (engine.failed()) throw error("internal error: scripted path out of range");
    if (++paths > max_paths) {
      throw error(fmt::format("more than {} paths of random choices: too many to enumerate", max_paths));
    }
    const auto& bounds = engine.bounds();
    choices.resize(bounds.size(), 0);
    uint128 denominator = 1;
    for (const auto s : bounds) {
      denominator *= s;
      if (denominator > ~std::uint64_t{0}) throw error("path probability denominator overflows 64 bits");
    }
    auto& table = by_denominator[static_cast<std::uint64_t>(denominator)];
    if (table.empty()) table.assign(cells, 0);
    ++table[rank_permutation(std::span<const std::uint8_t>(deck))];
    auto& positions = position_by_denominator[static_cast<std::uint64_t>(denominator)];
    if (positions.empty()) positions.assign(n, std::vector<std::uint64_t>(n, 0));
    for (std::size_t p = 0; p < n; ++p) ++positions[deck[p]][p];

    // Odometer: advance the last draw that has room, drop everything after it.
    std::size_t k = bounds.size();
    while (k > 0 && choices[k - 1] + 1 >= bounds[k - 1]) --k;
    if (k == 0) break;
    ++choices[k - 1];
    choices.resize(k);
  }

  std::vector<rational> probability(cells, rational(0));
  std::vector<std::vector<rational>> position(n, std::vector<rational>(n, rational(0)));
  for (const auto& [den, table] : by_denominator) {
    for (std::uint64_t r = 0; r < cells; ++r) {
      if (table[r]) probability[r] += rational(table[r], den);
    }
    const auto& pos = position_by_denominator[den];
    for (std::size_t e = 0; e < n; ++e) {
      for (std::size_t p = 0; p < n; ++p) {
        if (pos[e][p]) position[e][p] += rational(pos[e][p], den);
      }
    }
  }

  exact_distribution out;
  out.n = n;
  out.paths = paths;
  rational tv(0);
  const rational uniform(1, cells);
  for (std::uint64_t r = 0; r < cells; ++r) {
    out.probability.push_back(fraction_text(probability[r]));
    out.probability_value.push_back(static_cast<double>(probability[r]));
    tv += abs(probability[r] - uniform);
  }
  tv /= 2;
  out.total_variation = fraction_text(tv);
  out.total_variation_value = static_cast<double>(tv);
  out.position_matrix.assign(n, std::vector<std::string>(n));
  for (std::size_t e = 0; e < n; ++e) {
    for (std::size_t p = 0; p < n; ++p) out.position_matrix[e][p] = fraction_text(position[e][p]);
  }
  return out;
}

}  // namespace shufl
