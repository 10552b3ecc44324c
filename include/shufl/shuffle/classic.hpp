// The Fisher–Yates family and its classic mistakes: every algorithm that swaps or places items
// one draw at a time. Included by shufl/shuffle.hpp (which defines shuffle_step and no_observer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "shufl/random.hpp"

namespace shufl {

/// Inside-out Fisher–Yates (Knuth TAOCP vol. 2 §3.4.2, the form that builds the shuffled copy
/// while reading the input): for i from 0 up to n−1, j uniform in [0, i]; b[i] = b[j],
/// b[j] = input[i]. Run in place (the output array is the input array) this is a swap of a[i] and
/// a[j]. Uniform; n − 1 draws (i = 0 draws from [0, 0] and is skipped). Steps: "place" (a = i,
/// b = j); no finalized region (later items can still move into the prefix).
struct inside_out_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    for (std::size_t i = 1; i < a.size(); ++i) {
      const auto j = static_cast<std::size_t>(uniform_below(engine, i + 1));
      using std::swap;
      swap(a[i], a[j]);
      observer(shuffle_step{.action = "place", .cursor = i, .draw = j, .draw_lo = 0, .draw_hi = i,
                            .a = i, .b = j},
               std::span<const T>(a));
    }
  }
};

/// Fisher and Yates' 1938 pencil-and-paper method ("Statistical Tables", example 12): write the
/// items down, draw k uniform among the unstruck ones, strike out the k-th unstruck item (counting
/// from the start) and write it at the end of the output list. In place: a[0, i) is the output,
/// a[i, n) the unstruck items in their original order; the struck item moves to position i.
/// Uniform; n − 1 draws. Steps: "strike" (draw = k, 0-based; a = struck position; b = output
/// position); a[0, i] is final.
struct pencil_and_paper_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const auto k = static_cast<std::size_t>(uniform_below(engine, n - i));
      T item = std::move(a[i + k]);
      for (std::size_t p = i + k; p > i; --p) a[p] = std::move(a[p - 1]);
      a[i] = std::move(item);
      observer(shuffle_step{.action = "strike", .cursor = i, .draw = k, .draw_lo = 0,
                            .draw_hi = n - i - 1, .a = i + k, .b = i, .final_begin = 0,
                            .final_end = i + 1},
               std::span<const T>(a));
    }
  }
};

/// The "two arrays" textbook program: copy the input to a second array, then repeatedly pick
/// index j uniform in the shrinking second array, append that item to the output and delete it
/// (closing the gap). Uniform, O(n²). In place: a[i, n) plays the second array. Steps: "pick"
/// (draw = j, the index in the shrinking array; a = picked position; b = output position);
/// a[0, i] is final.
struct two_array_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    for (std::size_t i = 0; i < n; ++i) {
      const auto j = static_cast<std::size_t>(uniform_below(engine, n - i));
      T item = std::move(a[i + j]);
      for (std::size_t p = i + j; p > i; --p) a[p] = std::move(a[p - 1]);
      a[i] = std::move(item);
      observer(shuffle_step{.action = "pick", .cursor = i, .draw = j, .draw_lo = 0,
                            .draw_hi = n - i - 1, .a = i + j, .b = i, .final_begin = 0,
                            .final_end = i + 1},
               std::span<const T>(a));
    }
  }
};

/// Sattolo's algorithm (S. Sattolo, Inf. Process. Lett. 22, 1986), also the classic off-by-one
/// in Fisher–Yates: for i from n−1 down to 1, j uniform in [0, i−1]; swap a[i], a[j]. Produces
/// only the (n−1)! cyclic permutations (one n-cycle), each with probability 1/(n−1)!.
struct sattolo_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    for (std::size_t i = a.size(); i-- > 1;) {
      const auto j = static_cast<std::size_t>(uniform_below(engine, i));
      using std::swap;
      swap(a[i], a[j]);
      observer(shuffle_step{.action = "swap", .cursor = i, .draw = j, .draw_lo = 0, .draw_hi = i - 1,
                            .a = i, .b = j, .final_begin = i, .final_end = a.size()},
               std::span<const T>(a));
    }
  }
};

/// The ASF Software online-poker flaw (Arkin, Hill, Marks, Schmid, Walls, McGraw, "How We Learned
/// to Cheat at Online Poker", 1999): for i from 0 up to n−1, j uniform in [0, n−2]; swap a[i],
/// a[j]. The last position is never drawn, and n^(n−1)... paths cannot split evenly. n draws.
struct asf_poker_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    if (n < 2) return;
    for (std::size_t i = 0; i < n; ++i) {
      const auto j = static_cast<std::size_t>(uniform_below(engine, n - 1));
      using std::swap;
      swap(a[i], a[j]);
      observer(shuffle_step{.action = "swap", .cursor = i, .draw = j, .draw_lo = 0, .draw_hi = n - 2,
                            .a = i, .b = j},
               std::span<const T>(a));
    }
  }
};

/// Fisher–Yates with the modulo mistake on a BITS-bit generator: for i from n−1 down to 1,
/// r uniform in [0, 2^BITS − 1], j = r mod (i + 1); swap a[i], a[j]. Biased whenever i + 1 does
/// not divide 2^BITS (small j are favoured). BITS = parameter in [1, 63]. Steps: "swap" (draw = r,
/// the raw value; b = j; modulus = i + 1); positions i..n−1 are then final.
struct modulo_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t bits,
                  Observer&& observer = {}) const noexcept {
    const std::uint64_t range = std::uint64_t{1} << bits;
    for (std::size_t i = a.size(); i-- > 1;) {
      const std::uint64_t r = uniform_below(engine, range);
      const auto j = static_cast<std::size_t>(r % (i + 1));
      using std::swap;
      swap(a[i], a[j]);
      observer(shuffle_step{.action = "swap", .cursor = i, .draw = r, .draw_lo = 0,
                            .draw_hi = range - 1, .a = i, .b = j, .modulus = i + 1,
                            .final_begin = i, .final_end = a.size()},
               std::span<const T>(a));
    }
  }
};

/// K random transpositions (P. Diaconis and M. Shahshahani, 1981): K times, x and y independently
/// uniform in [0, n−1] (equal allowed), swap a[x], a[y]. Needs about ½ n ln n swaps to mix.
/// Steps: "swap" (cursor = t, the transposition's number from 0; a = x and b = y, both drawn:
/// a_drawn; draw = y).
struct transpositions_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t k,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    if (n == 0) return;
    for (std::uint64_t t = 0; t < k; ++t) {
      const auto x = static_cast<std::size_t>(uniform_below(engine, n));
      const auto y = static_cast<std::size_t>(uniform_below(engine, n));
      using std::swap;
      swap(a[x], a[y]);
      observer(shuffle_step{.action = "swap", .cursor = static_cast<std::size_t>(t), .draw = y,
                            .draw_lo = 0, .draw_hi = n - 1, .a = x, .b = y, .a_drawn = true},
               std::span<const T>(a));
    }
  }
};

/// Fisher–Yates on an engine seeded with 32 bits: one draw of a seed in [0, 2^32), then
/// Fisher–Yates driven by SplitMix64 (G. Steele, D. Lea, C. Flood, OOPSLA 2014) started from that
/// seed. At most 2^32 orders are reachable (a 52-card deck has 2^225.6): the duplicate-permutation
/// (birthday) test sees it. Steps: "seed" (draw = the seed), then Fisher–Yates's "swap"s.
struct weak_seed_algorithm {
  static constexpr bool fixed_bounds = true;
  struct splitmix64 {
    std::uint64_t state;
    std::uint64_t operator()() noexcept {
      std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      return z ^ (z >> 31);
    }
  };
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    const std::uint64_t seed = uniform_below(engine, std::uint64_t{1} << 32);
    observer(shuffle_step{.action = "seed", .draw = seed, .draw_lo = 0, .draw_hi = (std::uint64_t{1} << 32) - 1},
             std::span<const T>(a));
    splitmix64 weak{seed};
    for (std::size_t i = a.size(); i-- > 1;) {
      const auto j = static_cast<std::size_t>(uniform_below(weak, i + 1));
      using std::swap;
      swap(a[i], a[j]);
      observer(shuffle_step{.action = "swap", .cursor = i, .draw = j, .draw_lo = 0, .draw_hi = i,
                            .a = i, .b = j, .final_begin = i, .final_end = a.size()},
               std::span<const T>(a));
    }
  }
};

}  // namespace shufl
