// Private to src/bias/: the trial loops, instantiated per (algorithm, engine) by bindings.cpp.
// Each is flattened (the shuffle and the draws inlined) with the engine copy held by value so its
// state can live in registers.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "shufl/detail/bias_loops.hpp"
#include "shufl/detail/path_lanes.hpp"
#include "shufl/permutation.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::detail {

/// uniform_below's exact algorithm (Lemire, as detail::lemire_below<uint64_t, uint128>), forced
/// inline: in the trial loops the compiler otherwise keeps it out of line, and the call (with
/// the engine state spilled to memory) costs more than the draw. Same words, same results.
template <class Engine>
[[gnu::always_inline]] inline std::uint64_t inline_below(Engine& engine, std::uint64_t s) noexcept {
  uint128 m = static_cast<uint128>(engine()) * s;
  auto low = static_cast<std::uint64_t>(m);
  if (low < s) [[unlikely]] {
    const std::uint64_t threshold = (0 - s) % s;
    while (low < threshold) {
      m = static_cast<uint128>(engine()) * s;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

/// A copy of an engine whose uniform_below is inline_below (the hot loops run on it).
template <class Engine>
struct inline_engine {
  Engine engine;
  [[gnu::always_inline]] friend inline std::uint64_t uniform_below(inline_engine& e, std::uint64_t s) noexcept {
    return inline_below(e.engine, s);
  }
};

/// A copy of an engine that makes each draw below s < 2^32 from one 32-bit half of a 64-bit word
/// (Lemire's method at 32 bits: exactly uniform, and half the engine calls and a cheaper multiply
/// per draw); larger bounds use inline_below. Used by the position-matrix trial loop (large n),
/// where the draws dominate; the table loop keeps uniform_below's exact stream (golden counts).
template <class Engine>
struct half_word_engine {
  Engine engine;
  std::uint64_t buffer = 0;
  bool have_half = false;
  [[gnu::always_inline]] friend inline std::uint64_t uniform_below(half_word_engine& e, std::uint64_t s) noexcept {
    if (s >> 32) [[unlikely]] return inline_below(e.engine, s);
    const auto bound = static_cast<std::uint32_t>(s);
    std::uint64_t m = static_cast<std::uint64_t>(e.next_half()) * bound;
    auto low = static_cast<std::uint32_t>(m);
    if (low < bound) [[unlikely]] {
      const std::uint32_t threshold = static_cast<std::uint32_t>(0u - bound) % bound;
      while (low < threshold) {
        m = static_cast<std::uint64_t>(e.next_half()) * bound;
        low = static_cast<std::uint32_t>(m);
      }
    }
    return m >> 32;
  }

 private:
  [[gnu::always_inline]] std::uint32_t next_half() noexcept {
    if (have_half) {
      have_half = false;
      return static_cast<std::uint32_t>(buffer >> 32);
    }
    buffer = engine();
    have_half = true;
    return static_cast<std::uint32_t>(buffer);
  }
};

/// Draws made beforehand (by half_word_lanes), handed out in order: uniform_below returns the next
/// one, for the bound it was drawn below (a fixed-bounds algorithm asks for the same bounds in the
/// same order every trial).
struct draw_list {
  const std::uint32_t* next;
  [[gnu::always_inline]] friend inline std::uint64_t uniform_below(draw_list& d, std::uint64_t /*s*/) noexcept {
    return *d.next++;
  }
};

/// Draws per stream that count_positions_lanes makes at a time (a block of trials: 4 streams ·
/// 4 bytes · this = 8 KiB of draws, so they and the 52 × 52 matrix stay in a 32 KiB L1 cache;
/// measured faster at n = 52 than 2048, whose 32 KiB evict the matrix).
inline constexpr std::size_t kLaneBlockDraws = 512;

/// An item with no content: what path counting shuffles (see algorithm_ops::paths_loop).
struct phantom_item {};

/// Wraps an engine and folds every draw into a mixed-radix path code: code = code · s + draw.
/// For an algorithm whose draw bounds never depend on the values drawn, the code of a trial
/// identifies its path of random choices, and the permutation is a function of the code. Counting
/// codes instead of ranking each permutation makes small-n trials cost little more than the draws.
template <class Engine>
struct path_coder {
  Engine engine;
  std::uint64_t code = 0;
  [[gnu::always_inline]] friend inline std::uint64_t uniform_below(path_coder& c, std::uint64_t s) noexcept {
    const std::uint64_t r = inline_below(c.engine, s);
    c.code = c.code * s + r;
    return r;
  }
};

template <class Algorithm>
struct trial_loops {
  static void count_table(engine_kind kind, const seed_key& key, std::uint64_t stream,
                          std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                          std::uint64_t* counts) {
    with_engine(kind, key, stream, [&](auto& slow_engine) noexcept {
      table_loop(inline_engine<std::remove_reference_t<decltype(slow_engine)>>{slow_engine}, parameter, n,
                 trials, counts);
    });
  }

  /// The rank-counting loop, flattened (the shuffle and the draws inlined) with the engine copy
  /// held by value so its state can live in registers.
  template <class Engine>
  [[gnu::flatten]] static void table_loop(Engine engine, std::uint64_t parameter, std::size_t n,
                                          std::uint64_t trials, std::uint64_t* counts) noexcept {
    std::array<std::uint8_t, max_rank_n> deck{};
    const std::span<std::uint8_t> d(deck.data(), n);
    const std::span<const std::uint8_t> cd(deck.data(), n);
    for (std::uint64_t t = 0; t < trials; ++t) {
      for (std::size_t i = 0; i < n; ++i) deck[i] = static_cast<std::uint8_t>(i);
      Algorithm{}(d, engine, parameter);
      ++counts[rank_permutation(cd)];
    }
  }

  /// Like count_table, but adds 1 to counts[code] for the path code of each trial (see
  /// path_coder). Only for algorithms with fixed_bounds; the deck is not reset between trials
  /// since the draws do not depend on it.
  static void count_paths(engine_kind kind, const seed_key& key, std::uint64_t stream,
                          std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                          std::uint64_t* counts) {
    with_engine(kind, key, stream, [&](auto& slow_engine) noexcept {
      path_coder<std::remove_reference_t<decltype(slow_engine)>> coder{slow_engine};
      // A compile-time deck size for small decks lets the compiler unroll the whole shuffle.
      switch (n) {
        case 3: paths_loop<3>(coder, parameter, 3, trials, counts); break;
        case 4: paths_loop<4>(coder, parameter, 4, trials, counts); break;
        case 5: paths_loop<5>(coder, parameter, 5, trials, counts); break;
        case 6: paths_loop<6>(coder, parameter, 6, trials, counts); break;
        case 7: paths_loop<7>(coder, parameter, 7, trials, counts); break;
        case 8: paths_loop<8>(coder, parameter, 8, trials, counts); break;
        default: paths_loop<0>(coder, parameter, n, trials, counts); break;
      }
    });
  }

  /// The path-counting loop; N > 0 fixes the deck size at compile time, N = 0 uses n. The coder
  /// (engine state) is a by-value copy so it can live in registers.
  template <std::size_t N, class Coder>
  [[gnu::flatten]] static void paths_loop(Coder coder, std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                         std::uint64_t* counts) noexcept {
    // The draws of a fixed-bounds algorithm do not depend on the deck, so it shuffles a deck of
    // empty items: every move of an item compiles to nothing, only the draws remain.
    std::array<phantom_item, N ? N : 256> deck{};
    const std::span<phantom_item> d(deck.data(), N ? N : n);
    for (std::uint64_t t = 0; t < trials; ++t) {
      coder.code = 0;
      Algorithm{}(d, coder, parameter);
      ++counts[coder.code];
    }
  }

  static void count_positions(engine_kind kind, const seed_key& key, std::uint64_t stream,
                              std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                              std::uint64_t* positions, permutation_sums* stats,
                              std::uint64_t* hashes, std::uint64_t hash_count) {
    with_engine(kind, key, stream, [&](auto& slow_engine) noexcept {
      half_word_engine<std::remove_reference_t<decltype(slow_engine)>> engine{slow_engine};
      // 32-bit counters for the chunk (at most 2^32 − 1 trials per call, far above a chunk):
      // half the cache footprint of the 64-bit table, added to it at the end.
      std::vector<std::uint32_t> local(n * n, 0);
      // The 52-card deck gets a compile-time size (unrolled reset, constant strides).
      if (n == 52) {
        positions_loop<52>(engine, parameter, 52, trials, local.data(), stats, hashes, hash_count);
      } else {
        positions_loop<0>(engine, parameter, n, trials, local.data(), stats, hashes, hash_count);
      }
      for (std::size_t i = 0; i < n * n; ++i) positions[i] += local[i];
    });
  }

  /// count_positions for four chunks of `trials` trials each, with xoshiro256++ streams
  /// (key, lanes[l].stream), for a fixed-bounds algorithm whose draws are below `bounds` (each
  /// in [1, 2^32)): half_word_lanes makes each chunk's draws, a block of trials at a time, and
  /// the loop replays them (draw_list). The same draws, and so the same matrix, sums and
  /// fingerprints, as count_positions on each chunk.
  static void count_positions_lanes(const seed_key& key, const std::array<positions_lane, 4>& lanes,
                                    std::span<const std::uint64_t> bounds, std::uint64_t parameter,
                                    std::size_t n, std::uint64_t trials, std::uint64_t* positions) {
    std::array<xoshiro_state, 4> states;
    for (std::size_t l = 0; l < 4; ++l) states[l] = xoshiro256pp_engine(key, lanes[l].stream).state();
    half_word_lanes draws(states, bounds);
    const std::size_t d = bounds.size();
    // A multiple of 4 trials: positions_loop sums the secondary statistics four decks at a time.
    const std::uint64_t block = std::max<std::uint64_t>(4, (kLaneBlockDraws / d) & ~std::uint64_t{3});
    std::vector<std::uint32_t> local(n * n, 0), buffer(4 * block * d);
    std::array<std::uint32_t*, 4> out;
    for (std::size_t l = 0; l < 4; ++l) out[l] = buffer.data() + l * block * d;
    for (std::uint64_t begin = 0; begin < trials; begin += block) {
      const std::uint64_t count = std::min(block, trials - begin);
      draws.draw(count, out);
      for (std::size_t l = 0; l < 4; ++l) {
        const positions_lane& lane = lanes[l];
        const bool hashing = begin < lane.hash_count;
        std::uint64_t* hashes = hashing ? lane.hashes + begin : nullptr;
        const std::uint64_t hash_count = hashing ? std::min(count, lane.hash_count - begin) : 0;
        if (n == 52) {
          positions_loop<52>(draw_list{out[l]}, parameter, 52, count, local.data(), lane.stats, hashes, hash_count);
        } else {
          positions_loop<0>(draw_list{out[l]}, parameter, n, count, local.data(), lane.stats, hashes, hash_count);
        }
      }
    }
    for (std::size_t i = 0; i < n * n; ++i) positions[i] += local[i];
  }

  /// The decks of one chunk, in order: the same engine (half_word_engine over the chunk's
  /// stream) and the same reset to the identity before each trial as count_positions, so the
  /// decks are those it counts.
  static void generate_decks(engine_kind kind, const seed_key& key, std::uint64_t stream,
                             std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                             std::uint8_t* decks) {
    with_engine(kind, key, stream, [&](auto& slow_engine) noexcept {
      decks_loop(half_word_engine<std::remove_reference_t<decltype(slow_engine)>>{slow_engine}, parameter, n,
                 trials, decks);
    });
  }

  template <class Engine>
  [[gnu::flatten]] static void decks_loop(Engine engine, std::uint64_t parameter, std::size_t n,
                                          std::uint64_t trials, std::uint8_t* decks) noexcept {
    for (std::uint64_t t = 0; t < trials; ++t) {
      std::uint8_t* deck = decks + t * n;
      for (std::size_t i = 0; i < n; ++i) deck[i] = static_cast<std::uint8_t>(i);
      Algorithm{}(std::span<std::uint8_t>(deck, n), engine, parameter);
    }
  }

  /// The position-matrix loop; N > 0 fixes the deck size at compile time, N = 0 uses n. Takes
  /// every argument by value, the engine included, so that the counter writes cannot alias them:
  /// n would otherwise be reloaded on every increment and the engine state would round-trip
  /// through memory on every draw.
  template <std::size_t N, class Engine>
  [[gnu::flatten]] static void positions_loop(Engine engine, std::uint64_t parameter, std::size_t n,
                             std::uint64_t trials, std::uint32_t* matrix, permutation_sums* stats,
                             std::uint64_t* hashes, std::uint64_t hash_count) noexcept {
    const std::size_t size = N ? N : n;
    // With the secondary statistics, decks are kept in batches of kBatch for
    // add_permutation_sums, which walks the cycles of a batch together.
    constexpr std::size_t kBatch = 4;
    std::array<std::uint8_t, kBatch * 256> decks{};
    std::size_t filled = 0;
    for (std::uint64_t t = 0; t < trials; ++t) {
      std::uint8_t* deck = decks.data() + filled * size;
      for (std::size_t i = 0; i < size; ++i) deck[i] = static_cast<std::uint8_t>(i);
      Algorithm{}(std::span<std::uint8_t>(deck, size), engine, parameter);
      for (std::size_t p = 0; p < size; ++p) ++matrix[deck[p] * size + p];
      if (t < hash_count) hashes[t] = permutation_fingerprint(std::span<const std::uint8_t>(deck, size));
      if (stats != nullptr && ++filled == kBatch) {
        add_permutation_sums(*stats, decks.data(), kBatch, size);
        filled = 0;
      }
    }
    if (stats != nullptr && filled != 0) add_permutation_sums(*stats, decks.data(), filled, size);
  }
};

}  // namespace shufl::detail
