// A fixed-capacity scripted engine for exact enumeration: replays a prefix of draws, then returns
// 0 for every further draw, recording each bound. No allocation per path.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace shufl::detail {

struct replay_engine {
  static constexpr std::size_t capacity = 4096;  ///< Longest path of draws enumerated.
  std::array<std::uint64_t, capacity> draws{};   ///< The path: draws[0, prefix) replayed.
  std::array<std::uint64_t, capacity> bounds{};  ///< The bound of each draw of the last run.
  std::size_t prefix = 0;                        ///< Draws to replay; later draws return 0.
  std::size_t used = 0;                          ///< Draws made in the last run.
  bool overflow = false;                         ///< More than `capacity` draws were made.

  void restart() noexcept {
    used = 0;
  }
  friend std::uint64_t uniform_below(replay_engine& e, std::uint64_t s) noexcept {
    if (e.used >= capacity) {
      e.overflow = true;
      return 0;
    }
    const std::size_t k = e.used++;
    e.bounds[k] = s;
    if (k < e.prefix) return e.draws[k];
    e.draws[k] = 0;
    return 0;
  }
};

}  // namespace shufl::detail
