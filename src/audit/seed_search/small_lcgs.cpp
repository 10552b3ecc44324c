// The glibc-rand-r and msvc-rand families' filter: their seeding is free and their draws cheap, so
// a seed costs its few draws before the early exit, and the exit's mispredicted branch. Two seeds
// run side by side without branches (a rejected seed runs on, ignored) until both are out, so
// the two generator chains overlap and one branch decides two seeds (four or eight wait too long
// for their last seed).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "loops.hpp"
#include "small_lcgs.hpp"

namespace shufl::audit::seeds {

namespace {

constexpr std::size_t side_by_side = 2, max_cards = 64;

template <class Gen>
lane_mask lcg_lanes(const kernel_args& k) noexcept {
  const log_view& log = *k.log;
  const std::size_t n = log.n, logged = log.cards.size();
  lane_mask candidates = 0;
  if (n > max_cards) {  // larger decks: one seed at a time
    for (unsigned l = 0; l < k.count; ++l) {
      std::uint32_t g = k.base + l;
      if (top_down_survives_restoring(log, k.scratch, k.scratch + n, [&](std::uint32_t b) {
            return fast_mod(Gen::draw(g), b, k.mod_m[b]);
          }))
        candidates |= lane_mask{1} << l;
    }
    return candidates;
  }
  std::uint32_t a[side_by_side][max_cards];
  std::uint64_t logged_cards = 0;  // bit c: card c is logged
  for (const auto c : log.cards) logged_cards |= std::uint64_t{1} << c;
  for (unsigned first = 0; first < k.count; first += side_by_side) {
    std::uint32_t g[side_by_side];
    bool alive[side_by_side];
    bool any = true;
    for (std::size_t q = 0; q < side_by_side; ++q) {
      g[q] = k.base + first + static_cast<std::uint32_t>(q);
      alive[q] = first + q < k.count;
      for (std::size_t i = 0; i < n; ++i) a[q][i] = static_cast<std::uint32_t>(i);
    }
    std::size_t i = n;
    while (i-- > 1 && any) {
      const auto bound = static_cast<std::uint32_t>(i + 1);
      any = false;
      for (std::size_t q = 0; q < side_by_side; ++q) {
        const std::uint32_t j = fast_mod(Gen::draw(g[q]), bound, k.mod_m[bound]);
        const std::uint32_t c = a[q][j];
        a[q][j] = a[q][i];
        a[q][i] = c;
        alive[q] &= i < logged ? c == log.cards[i] : ((logged_cards >> c) & 1) == 0;
        any |= alive[q];
      }
    }
    for (std::size_t q = 0; q < side_by_side; ++q)
      if (alive[q] && (i != 0 || a[q][0] == log.cards[0])) candidates |= lane_mask{1} << (first + q);
  }
  return candidates;
}

// The generators' raw output as a step of a bare state word (the structs of small_lcgs.hpp).
struct rand_r_draws {
  static std::uint32_t draw(std::uint32_t& s) noexcept {
    glibc_rand_r g(s);
    const std::uint32_t r = g.next();
    s = g.state;
    return r;
  }
};
struct msvc_draws {
  static std::uint32_t draw(std::uint32_t& s) noexcept {
    msvc_rand g(s);
    const std::uint32_t r = g.rand15();
    s = g.state;
    return r;
  }
};

}  // namespace

lane_mask small_lcg_lanes(const kernel_args& k, bool rand_r) noexcept {
  return rand_r ? lcg_lanes<rand_r_draws>(k) : lcg_lanes<msvc_draws>(k);
}

}  // namespace shufl::audit::seeds
