// Path-code counting of four xoshiro256++ chunks at once in AVX2 lanes (see
// include/shufl/detail/path_lanes.hpp).
#include "shufl/detail/path_lanes.hpp"

#include <array>
#include <cstring>

#include "shufl/random.hpp"
#include "trial_loops.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SHUFL_PATH_LANES_X86 1
#endif

namespace shufl::detail {

namespace {

using state4 = xoshiro_state;

// One trial of one lane, exactly as path_coder<inline_engine> makes it: Lemire's draw below each
// bound with its rejection loop, code = code · s + draw. Returns the code; advances `s`.
std::uint64_t scalar_trial(state4& s, std::span<const std::uint64_t> bounds) noexcept {
  auto engine = xoshiro256pp_engine::from_state(s);
  std::uint64_t code = 0;
  for (const std::uint64_t bound : bounds) code = code * bound + inline_below(engine, bound);
  s = engine.state();
  return code;
}

#if SHUFL_PATH_LANES_X86

__attribute__((target("avx2"))) inline __m256i rotl4(__m256i x, int k) noexcept {
  return _mm256_or_si256(_mm256_slli_epi64(x, k), _mm256_srli_epi64(x, 64 - k));
}

// Four xoshiro256++ states in AVX2 registers: lane l of si is word si of the l-th state.
struct vector_states {
  __m256i s0, s1, s2, s3;
};

__attribute__((target("avx2"))) inline vector_states load_states(const std::array<state4, 4>& lanes) noexcept {
  alignas(32) std::array<std::array<std::uint64_t, 4>, 4> words{};
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t l = 0; l < 4; ++l) words[i][l] = lanes[l][i];
  }
  return {_mm256_load_si256(reinterpret_cast<const __m256i*>(words[0].data())),
          _mm256_load_si256(reinterpret_cast<const __m256i*>(words[1].data())),
          _mm256_load_si256(reinterpret_cast<const __m256i*>(words[2].data())),
          _mm256_load_si256(reinterpret_cast<const __m256i*>(words[3].data()))};
}

__attribute__((target("avx2"))) inline void store_states(const vector_states& v, std::array<state4, 4>& lanes) noexcept {
  alignas(32) std::array<std::array<std::uint64_t, 4>, 4> words{};
  _mm256_store_si256(reinterpret_cast<__m256i*>(words[0].data()), v.s0);
  _mm256_store_si256(reinterpret_cast<__m256i*>(words[1].data()), v.s1);
  _mm256_store_si256(reinterpret_cast<__m256i*>(words[2].data()), v.s2);
  _mm256_store_si256(reinterpret_cast<__m256i*>(words[3].data()), v.s3);
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t l = 0; l < 4; ++l) lanes[l][i] = words[i][l];
  }
}

// One xoshiro256++ step in each lane (xoshiro256pp_engine::operator(), lane by lane): the four words.
__attribute__((target("avx2"))) inline __m256i next_words(vector_states& v) noexcept {
  const __m256i x = _mm256_add_epi64(rotl4(_mm256_add_epi64(v.s0, v.s3), 23), v.s0);
  const __m256i shifted = _mm256_slli_epi64(v.s1, 17);
  v.s2 = _mm256_xor_si256(v.s2, v.s0);
  v.s3 = _mm256_xor_si256(v.s3, v.s1);
  v.s1 = _mm256_xor_si256(v.s1, v.s2);
  v.s0 = _mm256_xor_si256(v.s0, v.s3);
  v.s2 = _mm256_xor_si256(v.s2, shifted);
  v.s3 = rotl4(v.s3, 45);
  return x;
}

// The four lanes' trials in lockstep. Each draw below s (s < 2^32) takes x · s from two 32 × 32-bit
// products: x · s = mid · 2^32 + (x_lo · s mod 2^32) with mid = x_hi · s + ⌊x_lo · s / 2^32⌋, so
// the draw is ⌊mid / 2^32⌋ and the low word is (mid mod 2^32) · 2^32 + (x_lo · s mod 2^32).
// Lemire's test (low < s) can hold only when mid mod 2^32 = 0; a trial where some lane saw that is redone for the
// lane by scalar_trial from the lane's state at the trial's start (so rejections, and the extra
// words they take, follow the scalar loop exactly).
__attribute__((target("avx2"))) void lanes_avx2(std::array<state4, 4>& lanes, std::span<const std::uint64_t> bounds,
                                                std::uint64_t trials, std::uint64_t* counts) noexcept {
  vector_states v = load_states(lanes);
  const __m256i zero = _mm256_setzero_si256();
  alignas(32) std::array<std::uint64_t, 4> codes{};
  for (std::uint64_t t = 0; t < trials; ++t) {
    const vector_states begin = v;  // the states at the trial's start
    __m256i code = zero, suspect = zero;
    for (const std::uint64_t bound : bounds) {
      const __m256i x = next_words(v);
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
      std::array<state4, 4> start{}, end{};
      store_states(begin, start);
      store_states(v, end);
      for (std::size_t l = 0; l < 4; ++l) {
        if (((bad >> l) & 1) == 0) continue;
        end[l] = start[l];
        codes[l] = scalar_trial(end[l], bounds);
      }
      v = load_states(end);
    }
    ++counts[codes[0]];
    ++counts[codes[1]];
    ++counts[codes[2]];
    ++counts[codes[3]];
  }
  store_states(v, lanes);
}

// The half-word draws of `words` words of each lane: word w of lane l gives out[l][2w] (its low
// half, below pairs[k][0]) and out[l][2w + 1] (its high half, below pairs[k][1]), k = w mod
// pairs.size(), by Lemire's method at 32 bits: half · s = draw · 2^32 + low. Returns the mask of
// the lanes where some low part fell below its bound (a possible rejection, so these lanes' draws
// must be redone by the scalar method from the lanes' states at the call's start).
__attribute__((target("avx2"))) int halves_avx2(std::array<state4, 4>& lanes,
                                                std::span<const std::array<std::uint64_t, 2>> pairs,
                                                std::uint64_t words, const std::array<std::uint32_t*, 4>& out) noexcept {
  vector_states v = load_states(lanes);
  std::uint32_t* const o0 = out[0];
  std::uint32_t* const o1 = out[1];
  std::uint32_t* const o2 = out[2];
  std::uint32_t* const o3 = out[3];
  const std::array<std::uint64_t, 2>* const table = pairs.data();
  const std::size_t period = pairs.size();
  const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFF);
  __m256i suspect = _mm256_setzero_si256();
  std::size_t k = 0;
  for (std::uint64_t w = 0; w < words; ++w) {
    const __m256i x = next_words(v);
    const __m256i low_bound = _mm256_set1_epi64x(static_cast<long long>(table[k][0]));
    const __m256i high_bound = _mm256_set1_epi64x(static_cast<long long>(table[k][1]));
    if (++k == period) k = 0;
    const __m256i low_product = _mm256_mul_epu32(x, low_bound);
    const __m256i high_product = _mm256_mul_epu32(_mm256_srli_epi64(x, 32), high_bound);
    // Signed 64-bit compares of values below 2^32: exactly low part < bound.
    suspect = _mm256_or_si256(suspect, _mm256_cmpgt_epi64(low_bound, _mm256_and_si256(low_product, low32)));
    suspect = _mm256_or_si256(suspect, _mm256_cmpgt_epi64(high_bound, _mm256_and_si256(high_product, low32)));
    // Each lane: the low half's draw in its low 32 bits, the high half's in its high 32 bits.
    const __m256i draws = _mm256_blend_epi32(_mm256_srli_epi64(low_product, 32), high_product, 0xAA);
    const __m128i first = _mm256_castsi256_si128(draws);
    const __m128i second = _mm256_extracti128_si256(draws, 1);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o0 + 2 * w), first);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o1 + 2 * w), _mm_unpackhi_epi64(first, first));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o2 + 2 * w), second);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o3 + 2 * w), _mm_unpackhi_epi64(second, second));
  }
  store_states(v, lanes);
  return _mm256_movemask_pd(_mm256_castsi256_pd(suspect));
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
  for (std::size_t l = 0; l < 4; ++l) lanes[l] = xoshiro256pp_engine(key, streams[l]).state();
  count_paths_from_states(lanes, bounds, trials, counts);
}

half_word_lanes::half_word_lanes(const std::array<xoshiro_state, 4>& states, std::span<const std::uint64_t> bounds)
    : states_(states), bounds_(bounds.begin(), bounds.end()) {
  // Word k of a period takes halves 2k and 2k + 1 of the bound sequence (one trial's bounds,
  // repeated): a period is one trial's words when the trial has an even number of draws, else two trials'.
  const std::size_t d = bounds_.size();
  pairs_.resize(d % 2 == 0 ? d / 2 : d);
  for (std::size_t k = 0; k < pairs_.size(); ++k) pairs_[k] = {bounds_[(2 * k) % d], bounds_[(2 * k + 1) % d]};
}

void half_word_lanes::draw(std::uint64_t trials, const std::array<std::uint32_t*, 4>& out) noexcept {
  const std::uint64_t halves = trials * bounds_.size();
  const std::array<xoshiro_state, 4> start = states_;
  int redo = 0xF;
#if SHUFL_PATH_LANES_X86
  // The vector kernel starts every lane on a fresh word: lanes holding an unused half word (after
  // a rejection took an odd number of halves) go on alone.
  const bool fresh = !pending_[0] || !pending_[1] || !pending_[2] || !pending_[3];
  if (path_lanes_available() && halves % 2 == 0 && fresh) {
    redo = halves_avx2(states_, pairs_, halves / 2, out);
    for (std::size_t l = 0; l < 4; ++l) redo |= pending_[l] ? 1 << l : 0;
  }
#endif
  for (std::size_t l = 0; l < 4; ++l) {
    if (((redo >> l) & 1) == 0) continue;
    half_word_engine<xoshiro256pp_engine> engine{xoshiro256pp_engine::from_state(start[l]), halves_[l], pending_[l]};
    std::uint32_t* o = out[l];
    for (std::uint64_t t = 0; t < trials; ++t) {
      for (const std::uint64_t bound : bounds_) *o++ = static_cast<std::uint32_t>(uniform_below(engine, bound));
    }
    states_[l] = engine.engine.state();
    halves_[l] = engine.buffer;
    pending_[l] = engine.have_half;
  }
}

}  // namespace shufl::detail
