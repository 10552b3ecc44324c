// The c-rand family's vectorised filter: glibc srand seeding in 32 lanes, the first outputs as
// precomputed linear sums of the seeded words, the top-down loop lane by lane.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "loops.hpp"

namespace shufl::audit::seeds {

namespace {

// glibc: r[344 + k] = Σ_m C[k][m]·r[m] (mod 2^32) over the 31 seeded words, since r[31..33] =
// r[0..2] and r[i] = r[i−3] + r[i−31] is linear.
constexpr std::size_t glibc_outputs = 160;
struct glibc_coefficients {
  std::array<std::array<std::uint32_t, 31>, glibc_outputs> c{};
  glibc_coefficients() {
    std::vector<std::array<std::uint32_t, 31>> r(344 + glibc_outputs);
    for (std::size_t m = 0; m < 31; ++m) r[m][m] = 1;
    for (std::size_t i = 31; i < 34; ++i) r[i] = r[i - 31];
    for (std::size_t i = 34; i < r.size(); ++i)
      for (std::size_t m = 0; m < 31; ++m) r[i][m] = r[i - 3][m] + r[i - 31][m];
    for (std::size_t k = 0; k < glibc_outputs; ++k) c[k] = r[344 + k];
  }
};
const glibc_coefficients& glibc_table() {
  static const glibc_coefficients table;
  return table;
}

// Outputs of all lanes computed by the vector part; the scalar part computes later ones lane by lane.
constexpr std::size_t glibc_vector_outputs = 16;

[[gnu::always_inline]] inline lane_mask c_rand_kernel(const kernel_args& k) noexcept {
  constexpr std::uint32_t m31 = 2147483647u;
  const auto& table = glibc_table();
  lane_words* r = k.mt->w;  // r[0..30]; r[31..31+glibc_vector_outputs) hold the outputs
  for (std::size_t q = 0; q < sets; ++q) {
    v8 s = {};
    for (unsigned l = 0; l < 8; ++l) s[l] = k.base + static_cast<std::uint32_t>(q * 8 + l);
    const v8 zero = s - s;
    const v8 big = zero + m31;
    s = s + ((v8)(s == zero) & 1u);  // seed 0 is seed 1
    r[0].q[q] = s;
    // (int32)s mod M: s for s < 2^31, s − 2^32 ≡ s − 2 otherwise; reduced below M.
    v8 x = s - ((s >> 31) << 1);
    x = x - ((v8)(x >= big) & m31);
    // 16807·x mod M in 32-bit lanes: x = a·2^16 + b; a·16807·2^16 folded with 2^31 ≡ 1.
    for (std::size_t i = 1; i < 31; ++i) {
      const v8 u = (x >> 16) * 16807u;
      v8 t = ((u & 0x7fffu) << 16) + (u >> 15);
      t = t + (x & 0xffffu) * 16807u;
      t = (t & m31) + (t >> 31);
      x = t - ((v8)(t >= big) & m31);
      r[i].q[q] = x;
    }
  }
  for (std::size_t o = 0; o < glibc_vector_outputs; ++o) {
    v8 acc[sets];
    for (std::size_t q = 0; q < sets; ++q) acc[q] = r[0].q[q] * table.c[o][0];
    for (std::size_t m = 1; m < 31; ++m)
      for (std::size_t q = 0; q < sets; ++q) acc[q] += r[m].q[q] * table.c[o][m];
    for (std::size_t q = 0; q < sets; ++q) r[31 + o].q[q] = acc[q] >> 1;
  }
  lane_mask candidates = 0;
  const log_view& log = *k.log;
  for (unsigned l = 0; l < k.count; ++l) {
    std::size_t n_out = 0;
    const bool keep = top_down_survives_restoring(log, k.scratch, k.scratch + log.n, [&](std::uint32_t bound) {
      std::uint32_t o;
      if (n_out < glibc_vector_outputs) {
        o = r[31 + n_out].lane(l);
      } else if (n_out < glibc_outputs) {
        std::uint32_t acc = 0;
        for (std::size_t m = 0; m < 31; ++m) acc += table.c[n_out][m] * r[m].lane(l);
        o = acc >> 1;
      } else {
        return UINT32_MAX;
      }
      ++n_out;
      return fast_mod(o, bound, k.mod_m[bound]);
    });
    if (keep) candidates |= lane_mask{1} << l;
  }
  return candidates;
}

}  // namespace

#if defined(__x86_64__)
[[gnu::target("avx2")]] static lane_mask c_rand_kernel_avx2(const kernel_args& k) noexcept { return c_rand_kernel(k); }
#endif
static lane_mask c_rand_kernel_generic(const kernel_args& k) noexcept { return c_rand_kernel(k); }

lane_mask c_rand_lanes(const kernel_args& k) noexcept {
#if defined(__x86_64__)
  if (have_avx2()) return c_rand_kernel_avx2(k);
#endif
  return c_rand_kernel_generic(k);
}

void prepare_c_rand_table() { (void)glibc_table(); }

}  // namespace shufl::audit::seeds
