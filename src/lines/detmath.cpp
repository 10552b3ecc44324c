// Deterministic logarithms for seeded sampling decisions (see detmath in sampling.hpp): only
// + − × ÷ on binary64, evaluated exactly as written. This file must be compiled without
// floating-point contraction (CMakeLists.txt adds -ffp-contract=off to the library), so that no
// compiler fuses a multiply and an add into an FMA on one platform and not on another.
#include <bit>
#include <cfloat>
#include <cstdint>
#include <limits>

#include "shufl/lines/sampling.hpp"

static_assert(FLT_EVAL_METHOD == 0, "binary64 arithmetic must be evaluated in binary64");
static_assert(std::numeric_limits<double>::is_iec559, "IEEE-754 binary64 is required");

namespace shufl::lines::detmath {

double log(double x) noexcept {
  if (!(x > 0)) return x == 0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  int scale = 0;
  if (x < DBL_MIN) {  // subnormal: make it normal, exactly
    x *= 0x1p64;
    scale = -64;
  }
  const auto bits = std::bit_cast<std::uint64_t>(x);
  int e = static_cast<int>((bits >> 52) & 0x7FF) - 1023 + scale;
  // m in [1, 2), exactly: the mantissa with a zero exponent.
  double m = std::bit_cast<double>((bits & 0x000FFFFFFFFFFFFFULL) | 0x3FF0000000000000ULL);
  if (m > 0x1.6A09E667F3BCDp+0) {  // √2: bring m into [√½, √2)
    m *= 0.5;
    ++e;
  }
  const double f = m - 1.0;  // exact (Sterbenz)
  const double s = f / (2.0 + f);
  const double z = s * s;  // ≤ 0.02944
  // atanh(s)/s = 1 + z/3 + z²/5 + ... ; 13 terms: the next is below 0.02944^13/27 < 2^-71.
  double p = 1.0 / 25.0;
  p = p * z + 1.0 / 23.0;
  p = p * z + 1.0 / 21.0;
  p = p * z + 1.0 / 19.0;
  p = p * z + 1.0 / 17.0;
  p = p * z + 1.0 / 15.0;
  p = p * z + 1.0 / 13.0;
  p = p * z + 1.0 / 11.0;
  p = p * z + 1.0 / 9.0;
  p = p * z + 1.0 / 7.0;
  p = p * z + 1.0 / 5.0;
  p = p * z + 1.0 / 3.0;
  // ln m = 2s + 2s·z·p: the small correction added last keeps the error near one ulp.
  const double two_s = 2.0 * s;
  const double ln_m = two_s + two_s * (z * p);
  // ln 2 split so that e·kLn2Hi is exact for |e| < 2^11 (kLn2Hi has 33 significant bits).
  constexpr double kLn2Hi = 0x1.62E42FEFp-1;
  constexpr double kLn2Lo = 0x1.473DE6AF278EDp-34;
  const double de = static_cast<double>(e);
  return de * kLn2Hi + (ln_m + de * kLn2Lo);
}

double log1m(double p) noexcept {
  const double u = 1.0 - p;
  if (u == 1.0) return -p;
  return (log(u) * -p) / (u - 1.0);
}

std::uint64_t geometric_skip(double u, double p) noexcept {
  if (p >= 1.0) return 0;
  const double x = log(u) / log1m(p);  // both negative: x >= 0
  if (!(x < 0x1p64)) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(x);  // truncation = floor for x >= 0
}

}  // namespace shufl::lines::detmath
