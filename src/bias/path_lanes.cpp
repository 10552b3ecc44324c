// Path-code counting of four xoshiro256++ chunks at once in AVX2 lanes (see
// include/shufl/detail/path_lanes.hpp).
#include "shufl/detail/path_lanes.hpp"

#include <array>
#include <cstring>
#include <type_traits>

#include "shufl/random.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SHUFL_PATH_LANES_X86 1
#endif

namespace shufl::detail {

namespace {

using state4 = xoshiro_state;

// The engine's state words s0..s3, as it holds them (the engine is a plain array of four words).
state4 engine_state(const seed_key& key, std::uint64_t stream) noexcept {
  static_assert(sizeof(xoshiro256pp_engine) == sizeof(state4) && std::is_trivially_copyable_v<xoshiro256pp_engine>);
  const xoshiro256pp_engine e(key, stream);
  state4 s;
  std::memcpy(s.data(), &e, sizeof s);
  return s;
}

// One xoshiro256++ step on a state (the engine's operator(), word for word).
inline std::uint64_t scalar_next(state4& s) noexcept {
  const auto rotl = [](std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  const std::uint64_t result = rotl(s[0] + s[3], 23) + s[0];
  const std::uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

// One trial of one lane, exactly as path_coder<inline_engine> makes it: Lemire's draw below each
// bound with its rejection loop, code = code · s + draw. Returns the code; advances `s`.
std::uint64_t scalar_trial(state4& s, std::span<const std::uint64_t> bounds) noexcept {
  std::uint64_t code = 0;
  for (const std::uint64_t bound : bounds) {
    auto m = static_cast<uint128>(scalar_next(s)) * bound;
    auto low = static_cast<std::uint64_t>(m);
    if (low < bound) {
      const std::uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        m = static_cast<uint128>(scalar_next(s)) * bound;
        low = static_cast<std::uint64_t>(m);
      }
    }
    code = code * bound + static_cast<std::uint64_t>(m >> 64);
  }
  return code;
}

#if SHUFL_PATH_LANES_X86

__attribute__((target("avx2"))) inline __m256i rotl4(__m256i x, int k) noexcept {
  return _mm256_or_si256(_mm256_slli_epi64(x, k), _mm256_srli_epi64(x, 64 - k));
}

// The four lanes' trials in lockstep. Each draw below s (s < 2^32) takes x · s from two 32 × 32-bit
// products: x · s = mid · 2^32 + (x_lo · s mod 2^32) with mid = x_hi · s + ⌊x_lo · s / 2^32⌋, so
// the draw is ⌊mid / 2^32⌋ and the low word is (mid mod 2^32) · 2^32 + (x_lo · s mod 2^32).
// Lemire's test (low < s) can hold only when mid mod 2^32 = 0; a trial where some lane saw that is redone for the
// lane by scalar_trial from the lane's state at the trial's start (so rejections, and the extra
// words they take, follow the scalar loop exactly).
__attribute__((target("avx2"))) void lanes_avx2(std::array<state4, 4>& lanes, std::span<const std::uint64_t> bounds,
                                                std::uint64_t trials, std::uint64_t* counts) noexcept {
  // Lane l of word i is lanes[l][i].
  alignas(32) std::array<std::array<std::uint64_t, 4>, 4> words{};
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t l = 0; l < 4; ++l) words[i][l] = lanes[l][i];
  }
  __m256i s0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(words[0].data()));
  __m256i s1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(words[1].data()));
  __m256i s2 = _mm256_load_si256(reinterpret_cast<const __m256i*>(words[2].data()));
  __m256i s3 = _mm256_load_si256(reinterpret_cast<const __m256i*>(words[3].data()));
  const __m256i zero = _mm256_setzero_si256();
  alignas(32) std::array<std::uint64_t, 4> codes{};
  for (std::uint64_t t = 0; t < trials; ++t) {
    const __m256i b0 = s0, b1 = s1, b2 = s2, b3 = s3;  // the states at the trial's start
    __m256i code = zero, suspect = zero;
    for (const std::uint64_t bound : bounds) {
      const __m256i x = _mm256_add_epi64(rotl4(_mm256_add_epi64(s0, s3), 23), s0);
      const __m256i shifted = _mm256_slli_epi64(s1, 17);
      s2 = _mm256_xor_si256(s2, s0);
      s3 = _mm256_xor_si256(s3, s1);
      s1 = _mm256_xor_si256(s1, s2);
      s0 = _mm256_xor_si256(s0, s3);
      s2 = _mm256_xor_si256(s2, shifted);
      s3 = rotl4(s3, 45);
      const __m256i sv = _mm256_set1_epi64x(static_cast<long long>(bound));
      const __m256i lo = _mm256_mul_epu32(x, sv);
      const __m256i hi = _mm256_mul_epu32(_mm256_srli_epi64(x, 32), sv);
      const __m256i mid = _mm256_add_epi64(hi, _mm256_srli_epi64(lo, 32));
      suspect = _mm256_or_si256(suspect, _mm256_cmpeq_epi64(_mm256_slli_epi64(mid, 32), zero));
      code = _mm256_add_epi64(_mm256_mul_epu32(code, sv), _mm256_srli_epi64(mid, 32));
    }
    _mm256_store_si256(reinterpret_cast<__m256i*>(codes.data()), code);
    const int bad = _mm256_movemask_pd(_mm256_castsi256_pd(suspect));
    if (bad != 0) [[unlikely]] {
      // Some lane may have hit Lemire's rejection: redo those lanes one by one.
      alignas(32) std::array<std::array<std::uint64_t, 4>, 4> start{}, end{};
      _mm256_store_si256(reinterpret_cast<__m256i*>(start[0].data()), b0);
      _mm256_store_si256(reinterpret_cast<__m256i*>(start[1].data()), b1);
      _mm256_store_si256(reinterpret_cast<__m256i*>(start[2].data()), b2);
      _mm256_store_si256(reinterpret_cast<__m256i*>(start[3].data()), b3);
      _mm256_store_si256(reinterpret_cast<__m256i*>(end[0].data()), s0);
      _mm256_store_si256(reinterpret_cast<__m256i*>(end[1].data()), s1);
      _mm256_store_si256(reinterpret_cast<__m256i*>(end[2].data()), s2);
      _mm256_store_si256(reinterpret_cast<__m256i*>(end[3].data()), s3);
      for (std::size_t l = 0; l < 4; ++l) {
        if (((bad >> l) & 1) == 0) continue;
        state4 s{start[0][l], start[1][l], start[2][l], start[3][l]};
        codes[l] = scalar_trial(s, bounds);
        for (std::size_t i = 0; i < 4; ++i) end[i][l] = s[i];
      }
      s0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(end[0].data()));
      s1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(end[1].data()));
      s2 = _mm256_load_si256(reinterpret_cast<const __m256i*>(end[2].data()));
      s3 = _mm256_load_si256(reinterpret_cast<const __m256i*>(end[3].data()));
    }
    ++counts[codes[0]];
    ++counts[codes[1]];
    ++counts[codes[2]];
    ++counts[codes[3]];
  }
  _mm256_store_si256(reinterpret_cast<__m256i*>(words[0].data()), s0);
  _mm256_store_si256(reinterpret_cast<__m256i*>(words[1].data()), s1);
  _mm256_store_si256(reinterpret_cast<__m256i*>(words[2].data()), s2);
  _mm256_store_si256(reinterpret_cast<__m256i*>(words[3].data()), s3);
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t l = 0; l < 4; ++l) lanes[l][i] = words[i][l];
  }
}

#endif

}  // namespace

bool path_lanes_available() noexcept {
#if SHUFL_PATH_LANES_X86
  static const bool avx2 = __builtin_cpu_supports("avx2") != 0;
  return avx2;
#else
  return false;
#endif
}

void count_paths_from_states(std::array<xoshiro_state, 4>& lanes, std::span<const std::uint64_t> bounds,
                             std::uint64_t trials, std::uint64_t* counts) noexcept {
#if SHUFL_PATH_LANES_X86
  if (path_lanes_available()) {
    lanes_avx2(lanes, bounds, trials, counts);
    return;
  }
#endif
  for (auto& s : lanes) {
    for (std::uint64_t t = 0; t < trials; ++t) ++counts[scalar_trial(s, bounds)];
  }
}

void count_paths_xoshiro_lanes(const seed_key& key, const std::array<std::uint64_t, 4>& streams,
                               std::span<const std::uint64_t> bounds, std::uint64_t trials,
                               std::uint64_t* counts) noexcept {
  std::array<xoshiro_state, 4> lanes;
  for (std::size_t l = 0; l < 4; ++l) lanes[l] = engine_state(key, streams[l]);
  count_paths_from_states(lanes, bounds, trials, counts);
}

}  // namespace shufl::detail
