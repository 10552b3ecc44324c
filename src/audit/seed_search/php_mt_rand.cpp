// The php-mt-rand families' vectorised filter: init_genrand in 32 lanes up to the words the first
// outputs need, then each lane's outputs twisted on demand and shuffle()'s downward loop with
// early exit.
#include <cstddef>
#include <cstdint>

#include "loops.hpp"
#include "mt19937.hpp"
#include "php_mt_rand.hpp"

namespace shufl::audit::seeds {

namespace {

// Outputs a lane may use before it counts as a candidate (confirmed by the reference): output
// k < 227 needs only the seeded words k, k + 1 and k + 397.
constexpr std::size_t php_outputs = 64;

template <bool Legacy>
[[gnu::always_inline]] inline lane_mask php_kernel(const kernel_args& k) noexcept {
  lane_words* mt = k.mt->w;
  mt_seed_lanes(k, 397 + php_outputs);
  lane_mask candidates = 0;
  const log_view& log = *k.log;
  for (unsigned l = 0; l < k.count; ++l) {
    const std::uint32_t* words = reinterpret_cast<const std::uint32_t*>(mt) + l;
    std::size_t n_out = 0;
    bool spent = false;
    const auto next = [&]() -> std::uint32_t {
      if (n_out >= php_outputs) {
        spent = true;
        return 0;
      }
      const std::uint32_t a = words[n_out * lanes], b = words[(n_out + 1) * lanes], far = words[(n_out + 397) * lanes];
      ++n_out;
      return mt_temper(Legacy ? php_legacy_twist_word(a, b, far) : mt_twist_word(a, b, far));
    };
    const bool keep = top_down_survives_restoring(log, k.scratch, k.scratch + log.n, [&](std::uint32_t bound) {
      const std::uint32_t j = php_range32(next, bound);
      return spent ? UINT32_MAX : j;
    });
    if (keep) candidates |= lane_mask{1} << l;
  }
  return candidates;
}

}  // namespace

#if defined(__x86_64__)
[[gnu::target("avx2")]] static lane_mask php_kernel_avx2(const kernel_args& k) noexcept { return php_kernel<false>(k); }
[[gnu::target("avx2")]] static lane_mask php_legacy_kernel_avx2(const kernel_args& k) noexcept {
  return php_kernel<true>(k);
}
#endif
static lane_mask php_kernel_generic(const kernel_args& k) noexcept { return php_kernel<false>(k); }
static lane_mask php_legacy_kernel_generic(const kernel_args& k) noexcept { return php_kernel<true>(k); }

lane_mask php_mt_rand_lanes(const kernel_args& k, bool legacy) noexcept {
#if defined(__x86_64__)
  if (have_avx2()) return legacy ? php_legacy_kernel_avx2(k) : php_kernel_avx2(k);
#endif
  return legacy ? php_legacy_kernel_generic(k) : php_kernel_generic(k);
}

}  // namespace shufl::audit::seeds
