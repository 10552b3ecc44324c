// The riffle shuffle under the Gilbert–Shannon–Reeds model (E. Gilbert 1955; J. Reeds 1981;
// D. Bayer and P. Diaconis, "Trailing the Dovetail Shuffle to its Lair", Ann. Appl. Probab. 1992).
// Included by shufl/shuffle.hpp.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "shufl/random.hpp"

namespace shufl {

/// K Gilbert–Shannon–Reeds riffles. Each riffle cuts the deck after c cards, c binomial(n, ½)
/// (the popcount of n fair bits, drawn 32 at a time as uniform integers below 2^32 or 2^rest),
/// then drops cards one at a time: with L cards left in the left pile and R in the right, the next
/// card comes from the left pile with probability L / (L + R) (a draw d uniform in [0, L+R), left
/// when d < L); once a pile is empty the other follows without draws. Seven riffles of 52 cards
/// leave a total variation distance of 0.334 from uniform (Bayer–Diaconis). Merged in place by
/// rotation. Steps: "cut" (a = cut size c; for n <= 32 also draw = the n coin bits, whose
/// popcount is c), then "drop" (draw = d in [0, L+R-1]; outcome true = from the left pile, d < L;
/// a = the source position of the dropped card, b = its output position).
struct riffle_algorithm {
  static constexpr bool fixed_bounds = false;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t k,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    for (std::uint64_t round = 0; round < k; ++round) {
      std::size_t cut = 0;
      std::uint64_t coins = 0;  // the one draw of n coins when n <= 32 (what the cut step shows)
      for (std::size_t left = n; left > 0;) {
        const std::size_t bits = left < 32 ? left : 32;
        coins = uniform_below(engine, std::uint64_t{1} << bits);
        cut += static_cast<std::size_t>(std::popcount(coins));
        left -= bits;
      }
      shuffle_step cut_step{.action = "cut", .cursor = static_cast<std::size_t>(round), .a = cut};
      if (n > 0 && n <= 32) {
        cut_step.draw = coins;
        cut_step.draw_hi = (std::uint64_t{1} << n) - 1;
      }
      observer(cut_step, std::span<const T>(a));
      std::size_t out = 0, l = cut, r = n - cut;  // left pile a[out, out+l), right a[out+l, n)
      while (l > 0 && r > 0) {
        const std::uint64_t d = uniform_below(engine, l + r);
        const bool from_left = d < l;
        const std::size_t source = from_left ? out : out + l;
        if (from_left) {
          --l;
        } else {
          T item = std::move(a[source]);
          for (std::size_t p = source; p > out; --p) a[p] = std::move(a[p - 1]);
          a[out] = std::move(item);
          --r;
        }
        observer(shuffle_step{.action = "drop", .cursor = static_cast<std::size_t>(round), .draw = d,
                              .draw_lo = 0, .draw_hi = l + r,  // l + r before this drop, minus one
                              .a = source, .b = out, .outcome = from_left},
                 std::span<const T>(a));
        ++out;
      }
    }
  }
};

}  // namespace shufl
