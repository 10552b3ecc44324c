// The cpp-mt19937 family's vectorised filter: init_genrand in 32 lanes, then libstdc++'s
// std::shuffle lane by lane on the first outputs.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "loops.hpp"
#include "mt19937.hpp"

namespace shufl::audit::seeds {

namespace {

// std::mt19937(seed): init_genrand in all lanes up to word 397 + outputs, then libstdc++'s shuffle
// lane by lane on the first `outputs` outputs (< 227).
[[gnu::always_inline]] inline lane_mask mt19937_kernel(const kernel_args& k) noexcept {
  lane_words* mt = k.mt->w;
  mt_seed_lanes(k, 397 + k.outputs);
  lane_mask candidates = 0;
  const log_view& log = *k.log;
  std::uint32_t* a = k.scratch;
  for (unsigned l = 0; l < k.count; ++l) {
    identity({a, log.n});
    std::size_t n_out = 0;
    const bool done = libstdcxx_shuffle({a, log.n}, [&]() -> std::optional<std::uint32_t> {
      if (n_out >= k.outputs) return std::nullopt;
      const std::uint32_t y = mt_temper(mt_twist_word(mt[n_out].lane(l), mt[n_out + 1].lane(l), mt[n_out + 397].lane(l)));
      ++n_out;
      return y;
    });
    if (!done || prefix_matches(log, a)) candidates |= lane_mask{1} << l;
  }
  identity({a, log.n});
  return candidates;
}

}  // namespace

#if defined(__x86_64__)
[[gnu::target("avx2")]] static lane_mask mt19937_kernel_avx2(const kernel_args& k) noexcept { return mt19937_kernel(k); }
#endif
static lane_mask mt19937_kernel_generic(const kernel_args& k) noexcept { return mt19937_kernel(k); }

lane_mask cpp_mt19937_lanes(const kernel_args& k) noexcept {
#if defined(__x86_64__)
  if (have_avx2()) return mt19937_kernel_avx2(k);
#endif
  return mt19937_kernel_generic(k);
}

}  // namespace shufl::audit::seeds
