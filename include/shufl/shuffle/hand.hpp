// Shuffles of real decks by machines and hands: the casino shelf shuffler (P. Diaconis, J. Fulman
// and S. Holmes, "Analysis of casino shelf shuffling machines", Ann. Appl. Probab. 23(4), 2013),
// Thorp's shuffle (E. Thorp 1973), the overhand shuffle (R. Pemantle, "Randomization time for the overhand shuffle", J. Theoret.
// Probab. 2, 1989), the pile shuffle, the cut, and a sequence of them on one deck
// (`riffle:3+cut`). Included by shufl/shuffle.hpp.
//
// All work in place by rotations (O(n²) moves at worst, no allocation), draw only through
// uniform_below, and draw from ranges that never depend on the values drawn (fixed_bounds), so
// every path of random choices has the same probability.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>

#include "shufl/random.hpp"

namespace shufl {

/// Two-part parameters ("shelf:10x2", "overhand:0.5x3"): the base in the low 32 bits, the number
/// of passes in the high 32 bits (0 is read as 1 pass).
constexpr std::uint64_t pack_passes(std::uint64_t base, std::uint64_t passes) noexcept {
  return (base & 0xffff'ffffu) | (passes << 32);
}
constexpr std::uint64_t parameter_base(std::uint64_t parameter) noexcept { return parameter & 0xffff'ffffu; }
constexpr std::uint64_t parameter_passes(std::uint64_t parameter) noexcept {
  return (parameter >> 32) == 0 ? 1 : parameter >> 32;
}

/// The overhand's Q is given in millionths (a decimal with at most 6 digits after the point).
inline constexpr std::uint64_t overhand_q_denominator = 1'000'000;

/// The largest M of shelf:M and K of pile:K (the stack arrays of pile sizes).
inline constexpr std::size_t max_piles = 255;

/// The casino shelf shuffler, P passes (parameter = pack_passes(M, P), 1 ≤ M ≤ 255). One pass:
/// the cards are fed one at a time from the bottom of the deck; each goes to one of M shelves and
/// on top of or under that shelf's pile, by one draw d uniform in [0, 2M−1]: shelf ⌊d/2⌋ + 1,
/// on top when d is even, under when odd; then the piles are stacked in shelf order, shelf 1's
/// pile on top of the deck. In place: the unfed cards are a[0, r) and the shelves' piles follow
/// in shelf order in a[r, n). Steps: "shelve" (cursor = the card's number in the pass, from 0;
/// draw = d; a = its position before, b = after; outcome = under; pile = its shelf from 0 and
/// [pile_begin, pile_end) where that shelf's pile lies now). n draws per pass, (2M)^n paths.
struct shelf_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t parameter,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    const std::size_t m = std::clamp<std::size_t>(parameter_base(parameter), 1, max_piles);
    for (std::uint64_t pass = 0; pass < parameter_passes(parameter); ++pass) {
      std::array<std::size_t, max_piles> size{};
      for (std::size_t r = n; r > 0; --r) {
        const std::uint64_t d = uniform_below(engine, 2 * m);
        const auto shelf = static_cast<std::size_t>(d / 2);
        const bool under = (d & 1) != 0;
        std::size_t before = 0;  // cards on the shelves above this one
        for (std::size_t s = 0; s < shelf; ++s) before += size[s];
        const std::size_t offset = before + (under ? size[shelf] : 0);
        // The card a[r-1] moves to a[r-1+offset]; the cards it passes move up one place.
        std::rotate(a.begin() + static_cast<std::ptrdiff_t>(r - 1), a.begin() + static_cast<std::ptrdiff_t>(r),
                    a.begin() + static_cast<std::ptrdiff_t>(r + offset));
        ++size[shelf];
        observer(shuffle_step{.action = "shelve", .cursor = n - r, .draw = d, .draw_lo = 0,
                              .draw_hi = 2 * m - 1, .a = r - 1, .b = r - 1 + offset, .outcome = under,
                              .pile = shelf, .pile_begin = r - 1 + before,
                              .pile_end = r - 1 + before + size[shelf]},
                 std::span<const T>(a));
      }
    }
  }
};

/// Pemantle's overhand shuffle, K times (parameter = pack_passes(Q in millionths, K)). One
/// shuffle: Q = p/q in lowest terms (q divides 10^6); each of the n−1 gaps between neighbouring
/// cards is a cut point when a draw uniform in [0, q−1] is below p (probability exactly Q;
/// no draw when Q = 1); the packets between cut points are taken from the top one by one and
/// each put on top of the new pile, so they end in reverse order, each keeping its own order.
/// Steps: "gap" (cursor = the gap's number from 0, below card cursor+1 of the deck before the
/// shuffle; draw; outcome = cut; when cut, the packet above it has just gone onto the new pile:
/// a = its first card's position before, [pile_begin, pile_end) = where it lies now), and a last
/// "packet" step (no draw) for the bottom packet. n−1 draws per shuffle, q^(n−1) paths.
struct overhand_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t parameter,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    const std::uint64_t millionths = std::clamp<std::uint64_t>(parameter_base(parameter), 1, overhand_q_denominator);
    const std::uint64_t g = std::gcd(millionths, overhand_q_denominator);
    const std::uint64_t p = millionths / g, q = overhand_q_denominator / g;
    const auto move_packet = [&](std::size_t built, std::size_t end) {
      // The packet a[built, end) goes on top of the new pile a[0, built).
      std::rotate(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(built), a.begin() + static_cast<std::ptrdiff_t>(end));
    };
    for (std::uint64_t round = 0; round < parameter_passes(parameter); ++round) {
      if (n == 0) return;
      std::size_t built = 0;  // the new pile is a[0, built); the packet being taken starts there
      for (std::size_t gap = 0; gap + 1 < n; ++gap) {
        std::uint64_t d = 0;
        bool cut = true;
        if (q > 1) {
          d = uniform_below(engine, q);
          cut = d < p;
        }
        shuffle_step step{.action = "gap", .cursor = gap, .a = built, .outcome = cut};
        if (q > 1) {
          step.draw = d;
          step.draw_hi = q - 1;
        }
        if (cut) {
          const std::size_t size = gap + 1 - built;
          move_packet(built, gap + 1);
          step.pile_begin = 0;
          step.pile_end = size;
          built = gap + 1;
        }
        observer(step, std::span<const T>(a));
      }
      move_packet(built, n);
      observer(shuffle_step{.action = "packet", .a = built, .pile_begin = 0, .pile_end = n - built},
               std::span<const T>(a));
    }
  }
};

/// The pile shuffle (parameter K, 1 ≤ K ≤ 255): deal the cards from the top round the table into
/// K piles (card i, from 0, on top of pile i mod K), then gather the piles in a uniformly random
/// order: with j piles left, a draw uniform in [0, j−1] picks the next one (counting the piles left
/// in dealing order), which goes under the piles gathered so far. Reaches exactly min(K, n)!
/// orders, equally likely. Steps: "deal" (cursor = i; a = the card's position before, b = after;
/// pile; [pile_begin, pile_end)), then "gather" (draw; pile = the pile taken; a = where it lay,
/// b = where it lies now; [pile_begin, pile_end)). min(K, n) − 1 draws.
struct pile_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t parameter,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    const std::size_t k = std::min<std::size_t>(std::clamp<std::size_t>(parameter, 1, max_piles), n);
    if (k == 0) return;
    std::array<std::size_t, max_piles> size{};
    // Deal: the piles lie in pile order in a[0, i), the undealt cards in a[i, n).
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t pile = i % k;
      std::size_t begin = 0;
      for (std::size_t s = 0; s < pile; ++s) begin += size[s];
      std::rotate(a.begin() + static_cast<std::ptrdiff_t>(begin), a.begin() + static_cast<std::ptrdiff_t>(i),
                  a.begin() + static_cast<std::ptrdiff_t>(i + 1));
      ++size[pile];
      observer(shuffle_step{.action = "deal", .cursor = i, .a = i, .b = begin, .pile = pile,
                            .pile_begin = begin, .pile_end = begin + size[pile]},
               std::span<const T>(a));
    }
    // Gather: a[0, done) holds the gathered piles; the others follow in dealing order.
    std::array<std::uint8_t, max_piles> left{};
    for (std::size_t s = 0; s < k; ++s) left[s] = static_cast<std::uint8_t>(s);
    std::size_t done = 0;
    for (std::size_t j = k; j > 1; --j) {
      const auto t = static_cast<std::size_t>(uniform_below(engine, j));
      std::size_t begin = done;
      for (std::size_t s = 0; s < t; ++s) begin += size[left[s]];
      const std::size_t pile = left[t];
      std::rotate(a.begin() + static_cast<std::ptrdiff_t>(done), a.begin() + static_cast<std::ptrdiff_t>(begin),
                  a.begin() + static_cast<std::ptrdiff_t>(begin + size[pile]));
      for (std::size_t s = t; s + 1 < j; ++s) left[s] = left[s + 1];
      observer(shuffle_step{.action = "gather", .cursor = k - j, .draw = t, .draw_lo = 0, .draw_hi = j - 1,
                            .a = begin, .b = done, .pile = pile, .pile_begin = done,
                            .pile_end = done + size[pile]},
               std::span<const T>(a));
      done += size[pile];
    }
  }
};

/// A uniformly random cut: c uniform in [0, n−1]; the top c cards go under the others (a
/// rotation; n orders, each with probability 1/n). Step: "cut" (draw = a = c).
struct cut_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    if (n == 0) return;
    const auto c = static_cast<std::size_t>(uniform_below(engine, n));
    std::rotate(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(c), a.end());
    observer(shuffle_step{.action = "cut", .draw = c, .draw_lo = 0, .draw_hi = n - 1, .a = c,
                          .outcome = true},
             std::span<const T>(a));
  }
};

/// Thorp's shuffle, K times (E. Thorp, "Nonrandom shuffling with applications to the game of
/// Faro", J. Amer. Statist. Assoc. 68, 1973; as stated by B. Morris, "Improved mixing time bounds
/// for the Thorp shuffle", 2013): cut the deck exactly in half; then for i = 1, 2, ..., a fair coin
/// decides whether the i-th card of the top half or the i-th card of the bottom half comes first,
/// the other following it; the pairs are stacked in order, pair 1 on top. So the cards alternate
/// between the halves in packets of 1 or 2. For odd n (outside Thorp's definition) the top half has
/// the extra card, which ends at the bottom. One draw in [0, 1] per pair (1: the bottom half's card
/// first), ⌊n/2⌋ per shuffle, 2^⌊n/2⌋ paths. Steps: "pair" (cursor = i from 0; draw; outcome =
/// bottom half's card first; a = its position before, b = after).
struct thorp_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t k,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    const std::size_t h = (n + 1) / 2;  // the top half a[0, h), the bottom half a[h, n)
    for (std::uint64_t round = 0; round < k; ++round) {
      // Before pair i: the pairs so far lie in a[0, 2i), the top half's cards left in
      // a[2i, h+i), the bottom half's in a[h+i, n).
      for (std::size_t i = 0; i < n / 2; ++i) {
        const bool bottom_first = uniform_below(engine, 2) == 1;
        const std::size_t to = bottom_first ? 2 * i : 2 * i + 1;
        std::rotate(a.begin() + static_cast<std::ptrdiff_t>(to), a.begin() + static_cast<std::ptrdiff_t>(h + i),
                    a.begin() + static_cast<std::ptrdiff_t>(h + i + 1));
        observer(shuffle_step{.action = "pair", .cursor = i, .draw = bottom_first ? 1u : 0u, .draw_lo = 0,
                              .draw_hi = 1, .a = h + i, .b = to, .outcome = bottom_first},
                 std::span<const T>(a));
      }
    }
  }
};

/// The algorithms a sequence may join, by index (sequence_part::algorithm).
enum class composable : std::uint8_t { riffle, thorp, shelf, overhand, pile, cut };

/// One part of a sequence: an algorithm and its parameter.
struct sequence_part {
  composable algorithm = composable::cut;
  std::uint64_t parameter = 0;
};

/// The largest number of parts of a sequence.
inline constexpr std::size_t max_sequence_parts = 8;

/// A sequence of parts, as parsed from "riffle:3+cut".
struct sequence_parts {
  std::array<sequence_part, max_sequence_parts> parts{};
  std::size_t count = 0;
};

/// The sequence a parameter of sequence_algorithm names (interned by parse_algorithm_list,
/// src/shuffle.cpp; never changed once interned, so threads may read it). An unknown handle
/// gives an empty sequence.
const sequence_parts& sequence_at(std::uint64_t handle) noexcept;

/// Runs the parts of a sequence in order on one deck (parameter = the handle of the interned
/// sequence). Each part reports its own steps.
struct sequence_algorithm {
  static constexpr bool fixed_bounds = false;  ///< A riffle part draws from value-dependent ranges.
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t handle,
                  Observer&& observer = {}) const noexcept {
    const sequence_parts& s = sequence_at(handle);
    for (std::size_t i = 0; i < s.count; ++i) {
      const std::uint64_t p = s.parts[i].parameter;
      switch (s.parts[i].algorithm) {
        case composable::riffle: riffle_algorithm{}(a, engine, p, observer); break;
        case composable::thorp: thorp_algorithm{}(a, engine, p, observer); break;
        case composable::shelf: shelf_algorithm{}(a, engine, p, observer); break;
        case composable::overhand: overhand_algorithm{}(a, engine, p, observer); break;
        case composable::pile: pile_algorithm{}(a, engine, p, observer); break;
        case composable::cut: cut_algorithm{}(a, engine, p, observer); break;
      }
    }
  }
};

}  // namespace shufl
