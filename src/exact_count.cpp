#include "shufl/exact_count.hpp"

#include <boost/multiprecision/cpp_int.hpp>
#include <fmt/format.h>

#include <utility>
#include <vector>

#include "shufl/error.hpp"

namespace shufl {

namespace {

using boost::multiprecision::cpp_int;

// Decimal digits of v ≥ 0, 18 at a time (cpp_int::str() trips GCC 12's -Wrestrict false positive,
// GCC bug 105329, when inlined here).
std::string digits_of(cpp_int v) {
  if (v == 0) return "0";
  const cpp_int base = std::uint64_t{1000000000000000000};
  std::vector<std::uint64_t> chunks;  // least significant first
  while (v > 0) {
    cpp_int q, r;
    boost::multiprecision::divide_qr(v, base, q, r);
    chunks.push_back(r.convert_to<std::uint64_t>());
    v = std::move(q);
  }
  std::string out = fmt::format("{}", chunks.back());
  for (std::size_t i = chunks.size() - 1; i-- > 0;) out += fmt::format("{:018}", chunks[i]);
  return out;
}

}  // namespace

std::string factorial_decimal(std::size_t n) {
  cpp_int f = 1;
  for (std::size_t k = 2; k <= n; ++k) f *= k;
  return digits_of(std::move(f));
}

std::string multinomial_decimal(std::uint64_t n, std::span<const std::uint64_t> parts) {
  // n! / ∏ k_i! = ∏_i C(rest_i, k_i), rest_i the items not yet given to an earlier part; each
  // binomial built as ∏_{j=1..k} (rest - k + j) / j, every partial quotient a whole number
  // (after step j it is C(rest - k + j, j)).
  cpp_int result = 1;
  std::uint64_t rest = n;
  for (const auto k : parts) {
    if (k > rest) throw error(fmt::format("multinomial: parts add up to more than {}", n));
    cpp_int c = 1;
    for (std::uint64_t j = 1; j <= k; ++j) {
      c *= rest - k + j;
      c /= j;
    }
    result *= c;
    rest -= k;
  }
  for (std::uint64_t j = 2; j <= rest; ++j) result *= j;  // the rest, in parts of 1: rest!
  return digits_of(std::move(result));
}

}  // namespace shufl
