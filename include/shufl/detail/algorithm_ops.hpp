// Glue that turns an algorithm function object into the registry's function pointers: the ways
// of running one algorithm that other layers need through a name (scripted, replayed, traced).
// The bias trial loops are not here: src/bias/ binds algorithms to its own loops
// (src/bias/bindings.cpp), so the algorithm layer knows nothing of bias.
#pragma once

#include <cstdint>
#include <span>

#include "shufl/detail/replay_engine.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::detail {

/// The registry's entry points for `Algorithm` (see algorithm_info for each).
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
};

}  // namespace shufl::detail
