// Glue that turns an algorithm function object into the function pointers of an algorithm_info
// entry, instantiating the trial loops once per (algorithm, engine) pair so nothing is virtual in
// them.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "shufl/detail/replay_engine.hpp"
#include "shufl/permutation.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::detail {

/// Wraps an engine and folds every draw into a mixed-radix path code: code = code · s + draw.
/// For an algorithm whose draw bounds never depend on the values drawn, the code of a trial
/// identifies its path of random choices, and the permutation is a function of the code. Counting
/// codes instead of ranking each permutation makes small-n trials cost little more than the draws.
template <class Engine>
struct path_coder {
  Engine& engine;
  std::uint64_t code = 0;
  friend std::uint64_t uniform_below(path_coder& c, std::uint64_t s) noexcept {
    const std::uint64_t r = uniform_below(c.engine, s);
    c.code = c.code * s + r;
    return r;
  }
};

template <class Algorithm>
struct algorithm_ops {
  static void run_scripted(std::span<std::uint8_t> deck, scripted_engine& engine,
                           std::uint64_t parameter) {
    Algorithm{}(deck, engine, parameter);
  }

  static void run_replay(std::span<std::uint8_t> deck, replay_engine& engine,
                         std::uint64_t parameter) noexcept {
    Algorithm{}(deck, engine, parameter);
  }

  static void run_traced(std::span<std::uint8_t> deck, dynamic_engine& engine,
                         std::uint64_t parameter, const step_callback& on_step) {
    Algorithm{}(deck, engine, parameter, on_step);
  }

  static void count_table(engine_kind kind, const seed_key& key, std::uint64_t stream,
                          std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                          std::uint64_t* counts) {
    with_engine(kind, key, stream, [&](auto& engine) noexcept {
      std::array<std::uint8_t, max_rank_n> deck{};
      const std::span<std::uint8_t> d(deck.data(), n);
      const std::span<const std::uint8_t> cd(deck.data(), n);
      for (std::uint64_t t = 0; t < trials; ++t) {
        for (std::size_t i = 0; i < n; ++i) deck[i] = static_cast<std::uint8_t>(i);
        Algorithm{}(d, engine, parameter);
        ++counts[rank_permutation(cd)];
      }
    });
  }

  /// Like count_table, but adds 1 to counts[code] for the path code of each trial (see
  /// path_coder). Only for algorithms with fixed_bounds; the deck is not reset between trials
  /// since the draws do not depend on it.
  static void count_paths(engine_kind kind, const seed_key& key, std::uint64_t stream,
                          std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                          std::uint64_t* counts) {
    with_engine(kind, key, stream, [&](auto& engine) noexcept {
      std::array<std::uint8_t, 256> deck{};
      const std::span<std::uint8_t> d(deck.data(), n);
      path_coder<std::remove_reference_t<decltype(engine)>> coder{engine};
      for (std::uint64_t t = 0; t < trials; ++t) {
        coder.code = 0;
        Algorithm{}(d, coder, parameter);
        ++counts[coder.code];
      }
    });
  }

  static void count_positions(engine_kind kind, const seed_key& key, std::uint64_t stream,
                              std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                              std::uint64_t* positions, permutation_sums* stats,
                              std::uint64_t* hashes, std::uint64_t hash_count) {
    with_engine(kind, key, stream, [&](auto& engine) noexcept {
      std::array<std::uint8_t, 256> deck{};
      const std::span<std::uint8_t> d(deck.data(), n);
      const std::span<const std::uint8_t> cd(deck.data(), n);
      for (std::uint64_t t = 0; t < trials; ++t) {
        for (std::size_t i = 0; i < n; ++i) deck[i] = static_cast<std::uint8_t>(i);
        Algorithm{}(d, engine, parameter);
        for (std::size_t p = 0; p < n; ++p) ++positions[deck[p] * n + p];
        if (stats != nullptr) stats->add(cd);
        if (t < hash_count) hashes[t] = permutation_fingerprint(cd);
      }
    });
  }
};

}  // namespace shufl::detail
