// Glue that turns an algorithm function object into the function pointers of an algorithm_info
// entry, instantiating the trial loop once per (algorithm, engine) pair so nothing is virtual in it.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "shufl/permutation.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::detail {

template <class Algorithm>
struct algorithm_ops {
  static void run_scripted(std::span<std::uint8_t> deck, scripted_engine& engine,
                           std::uint64_t parameter) {
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
};

}  // namespace shufl::detail
