// The python-random family's vectorised filter: init_by_array in 32 lanes, then the first
// outputs twisted lane by lane and CPython's shuffle with early exit.
#include <bit>
#include <cstddef>
#include <cstdint>

#include "loops.hpp"
#include "mt19937.hpp"

namespace shufl::audit::seeds {

namespace {

// Python: init_by_array for one-word keys in all lanes, then the first outputs twisted lane by
// lane (output k < 227 needs only pre-twist words k, k + 1 and k + 397).
constexpr std::size_t mt_lazy_outputs = 227;
constexpr std::size_t python_vector_outputs = 12;

[[gnu::always_inline]] inline lane_mask python_kernel(const kernel_args& k) noexcept {
  lane_words* mt = k.mt->w;
  v8 key[sets], prev[sets];
  for (std::size_t q = 0; q < sets; ++q) {
    key[q] = v8{} ;
    for (unsigned l = 0; l < 8; ++l) key[q][l] = k.base + static_cast<std::uint32_t>(q * 8 + l);
    prev[q] = (key[q] - key[q]) + k.genrand[0];
  }
  for (std::size_t i = 1; i < 624; ++i) {
    const std::uint32_t g = k.genrand[i];
    for (std::size_t q = 0; q < sets; ++q) {
      prev[q] = ((key[q] - key[q] + g) ^ ((prev[q] ^ (prev[q] >> 30)) * 1664525u)) + key[q];
      mt[i].q[q] = prev[q];
    }
  }
  // The wrap: mt[0] = mt[623], then i = 1 once more (prev holds mt[623]).
  for (std::size_t q = 0; q < sets; ++q) {
    prev[q] = (mt[1].q[q] ^ ((prev[q] ^ (prev[q] >> 30)) * 1664525u)) + key[q];
    mt[1].q[q] = prev[q];
  }
  for (std::uint32_t i = 2; i < 624; ++i)
    for (std::size_t q = 0; q < sets; ++q) {
      prev[q] = (mt[i].q[q] ^ ((prev[q] ^ (prev[q] >> 30)) * 1566083941u)) - i;
      mt[i].q[q] = prev[q];
    }
  for (std::size_t q = 0; q < sets; ++q) {
    mt[1].q[q] = (mt[1].q[q] ^ ((prev[q] ^ (prev[q] >> 30)) * 1566083941u)) - 1u;
    mt[0].q[q] = (key[q] - key[q]) + 0x80000000u;
  }
  // The first outputs of every lane, twisted and tempered in vectors.
  lane_words out[python_vector_outputs];
  for (std::size_t o = 0; o < python_vector_outputs; ++o)
    for (std::size_t q = 0; q < sets; ++q) {
      const v8 y = (mt[o].q[q] & mt_upper) | (mt[o + 1].q[q] & mt_lower);
      v8 v = mt[o + 397].q[q] ^ (y >> 1) ^ ((0u - (y & 1u)) & mt_matrix);
      v ^= v >> 11;
      v ^= (v << 7) & 0x9d2c5680u;
      v ^= (v << 15) & 0xefc60000u;
      out[o].q[q] = v ^ (v >> 18);
    }
  lane_mask candidates = 0;
  const log_view& log = *k.log;
  for (unsigned l = 0; l < k.count; ++l) {
    std::size_t n_out = 0;
    // Lane l's words, lanes apart (lane_words holds one word of every lane).
    const std::uint32_t* words = reinterpret_cast<const std::uint32_t*>(mt) + l;
    const std::uint32_t* first = reinterpret_cast<const std::uint32_t*>(out) + l;
    const bool keep = top_down_survives_restoring(log, k.scratch, k.scratch + log.n, [&](std::uint32_t bound) {
      const int shift = std::countl_zero(bound);
      for (;;) {
        std::uint32_t y;
        if (n_out < python_vector_outputs)
          y = first[n_out * lanes];
        else if (n_out < mt_lazy_outputs)
          y = mt_temper(mt_twist_word(words[n_out * lanes], words[(n_out + 1) * lanes], words[(n_out + 397) * lanes]));
        else
          return UINT32_MAX;
        ++n_out;
        if ((y >> shift) < bound) return y >> shift;
      }
    });
    if (keep) candidates |= lane_mask{1} << l;
  }
  return candidates;
}

}  // namespace

#if defined(__x86_64__)
[[gnu::target("avx2")]] static lane_mask python_kernel_avx2(const kernel_args& k) noexcept { return python_kernel(k); }
#endif
static lane_mask python_kernel_generic(const kernel_args& k) noexcept { return python_kernel(k); }

lane_mask python_random_lanes(const kernel_args& k) noexcept {
#if defined(__x86_64__)
  if (have_avx2()) return python_kernel_avx2(k);
#endif
  return python_kernel_generic(k);
}

}  // namespace shufl::audit::seeds
