// Non-negative numbers with binary64 precision and an exponent range no product or quotient of
// doubles can leave: the keys, jumps and totals of the weighted samplers (modes.hpp), whose
// weights may be anything from the smallest subnormal to the largest double.
#pragma once

#include <cmath>
#include <cstdint>

namespace shufl::lines::detmath {

/// The number m·2^e with m = 0 (the number 0) or m in [½, 1), e a 32-bit exponent. Every
/// operation works on the mantissas, whose results stay normal doubles, with one correctly
/// rounded + − × ÷ (and exact power-of-two scalings: frexp, and ldexp only where its result is
/// a normal double), so each result is the correctly rounded value (sums: the larger operand's
/// precision, as binary64 gives), never underflows or overflows, and is the same on every
/// platform. Where the binary64 result of the same operation on plain doubles is a normal
/// double, it is exactly that double, so values in the ordinary range compute (and compare)
/// exactly as plain doubles do.
struct scaled {
  double m = 0;     ///< 0, or the mantissa in [½, 1)
  std::int32_t e = 0;  ///< the binary exponent (0 when m is 0)

  /// The finite double x ≥ 0, exactly (subnormals included).
  static scaled of(double x) noexcept {
    int k = 0;
    const double m = std::frexp(x, &k);  // exact
    return {m, m == 0 ? 0 : static_cast<std::int32_t>(k)};
  }
  /// m·2^e for a positive finite m (any size a mantissa operation gives), normalised exactly.
  static scaled normal(double m, std::int64_t e) noexcept {
    if (m == 0) return {};
    int k = 0;
    const double f = std::frexp(m, &k);
    return {f, static_cast<std::int32_t>(e + k)};
  }
  bool zero() const noexcept { return m == 0; }
  /// Whether the value is a normal double or 0 (to_double is then exact).
  bool fits_double() const noexcept { return m == 0 || (e >= -1021 && e <= 1024); }
  /// The value as a double; exact when fits_double() (use it only then).
  double to_double() const noexcept { return m == 0 ? 0.0 : std::ldexp(m, e); }

  friend bool operator==(const scaled& a, const scaled& b) noexcept { return a.m == b.m && a.e == b.e; }
  friend bool operator<(const scaled& a, const scaled& b) noexcept {
    if (a.m == 0 || b.m == 0) return b.m != 0 && a.m == 0;
    return a.e != b.e ? a.e < b.e : a.m < b.m;
  }
  friend bool operator>=(const scaled& a, const scaled& b) noexcept { return !(a < b); }
  friend scaled operator*(const scaled& a, const scaled& b) noexcept {
    if (a.m == 0 || b.m == 0) return {};
    return normal(a.m * b.m, std::int64_t{a.e} + b.e);  // product in [¼, 1): normal
  }
  /// Precondition: b is not 0.
  friend scaled operator/(const scaled& a, const scaled& b) noexcept {
    if (a.m == 0) return {};
    return normal(a.m / b.m, std::int64_t{a.e} - b.e);  // quotient in (½, 2): normal
  }
  friend scaled operator+(const scaled& a, const scaled& b) noexcept {
    if (b.m == 0) return a;
    if (a.m == 0) return b;
    const scaled& big = b < a ? a : b;
    const scaled& small = b < a ? b : a;
    const std::int64_t d = std::int64_t{big.e} - small.e;
    if (d > 60) return big;  // below a quarter of big's last place: the rounded sum is big
    return normal(big.m + std::ldexp(small.m, static_cast<int>(-d)), big.e);  // the scaling is exact
  }
  /// a − b for a ≥ b (else 0).
  friend scaled operator-(const scaled& a, const scaled& b) noexcept {
    if (b.m == 0) return a;
    if (!(b < a)) return {};
    const std::int64_t d = std::int64_t{a.e} - b.e;
    if (d > 60) return a;  // as in +
    return normal(a.m - std::ldexp(b.m, static_cast<int>(-d)), a.e);
  }
};

}  // namespace shufl::lines::detmath
