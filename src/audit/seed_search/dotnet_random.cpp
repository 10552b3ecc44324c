// The dotnet-random family's vectorised filter: new Random(seed)'s 55 words and four mixing passes
// in 32 lanes, then each lane's first draws (which read only seeded words) and the downward loop
// with early exit.
#include <cstddef>
#include <cstdint>

#include "dotnet_random.hpp"
#include "loops.hpp"

namespace shufl::audit::seeds {

namespace {

// Draw k ≤ 34 is a[k] − a[k + 21] of the seeded words: draw k writes a[k], which the second index
// reads again only from draw 56 − 21 = 35 on.
constexpr std::size_t dotnet_outputs = 34;

[[gnu::always_inline]] inline lane_mask dotnet_kernel(const kernel_args& k) noexcept {
  constexpr std::uint32_t big = 2147483647u;
  lane_words* a = k.mt->w;  // words 0..55 of every lane
  // C#'s wrapping int arithmetic as uint32 lanes; "if (x < 0) x += MBIG" on the sign bit.
#define SHUFL_DOTNET_FIX(x) ((x) + (((x) >> 31) * big))
  v8 mj[sets], mk[sets];
  for (std::size_t q = 0; q < sets; ++q) {
    v8 seed{};
    for (unsigned l = 0; l < 8; ++l) seed[l] = (k.base + static_cast<std::uint32_t>(q * 8 + l)) & 0x7fffffffu;
    mj[q] = static_cast<std::uint32_t>(dotnet_random::mseed) - seed;
    a[55].q[q] = mj[q];
    mk[q] = seed - seed + 1u;
  }
  for (std::uint32_t i = 1; i < 55; ++i) {
    const std::size_t ii = (21 * i) % 55;
    for (std::size_t q = 0; q < sets; ++q) {
      a[ii].q[q] = mk[q];
      const v8 d = mj[q] - mk[q];
      const v8 next = SHUFL_DOTNET_FIX(d);
      mj[q] = mk[q];
      mk[q] = next;
    }
  }
  for (int pass = 1; pass < 5; ++pass)
    for (std::size_t i = 1; i < 56; ++i) {
      const std::size_t other = 1 + (i + 30) % 55;
      for (std::size_t q = 0; q < sets; ++q) {
        const v8 d = a[i].q[q] - a[other].q[q];
        a[i].q[q] = SHUFL_DOTNET_FIX(d);
      }
    }
#undef SHUFL_DOTNET_FIX
  lane_mask candidates = 0;
  const log_view& log = *k.log;
  for (unsigned l = 0; l < k.count; ++l) {
    const std::uint32_t* words = reinterpret_cast<const std::uint32_t*>(a) + l;
    std::size_t n_out = 0;
    const bool keep = top_down_survives_restoring(log, k.scratch, k.scratch + log.n, [&](std::uint32_t bound) {
      if (n_out >= dotnet_outputs) return UINT32_MAX;
      ++n_out;
      std::uint32_t r = words[n_out * lanes] - words[(n_out + 21) * lanes];
      if (r == big) --r;
      r = static_cast<std::int32_t>(r) < 0 ? r + big : r;
      const double x = static_cast<double>(static_cast<std::int32_t>(r)) * (1.0 / 2147483647.0);
      return static_cast<std::uint32_t>(x * static_cast<double>(bound));
    });
    if (keep) candidates |= lane_mask{1} << l;
  }
  return candidates;
}

}  // namespace

#if defined(__x86_64__)
[[gnu::target("avx2")]] static lane_mask dotnet_kernel_avx2(const kernel_args& k) noexcept { return dotnet_kernel(k); }
#endif
static lane_mask dotnet_kernel_generic(const kernel_args& k) noexcept { return dotnet_kernel(k); }

lane_mask dotnet_random_lanes(const kernel_args& k) noexcept {
#if defined(__x86_64__)
  if (have_avx2()) return dotnet_kernel_avx2(k);
#endif
  return dotnet_kernel_generic(k);
}

}  // namespace shufl::audit::seeds
