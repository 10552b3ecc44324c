// Shuffling by sorting: sorts driven by a fair coin instead of a comparison, and sorting by random
// keys. Our own sort code: std::sort with a random comparator is undefined behaviour (the
// comparator must be a strict weak order). Included by shufl/shuffle.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "shufl/random.hpp"

namespace shufl {

namespace detail {
/// One fair coin for a comparison of positions `first` and `second`: reports a "compare" step
/// whose outcome is true when the coin says `first` goes first (keep the order), and returns it.
template <class T, class Engine, class Observer>
bool coin_compare(std::span<T> a, Engine& engine, Observer& observer, std::size_t cursor,
                  std::size_t first, std::size_t second) noexcept {
  const auto draw = uniform_below(engine, 2);
  const bool keep = draw == 0;
  observer(shuffle_step{.action = "compare", .cursor = cursor, .draw = draw, .draw_lo = 0,
                        .draw_hi = 1, .a = first, .b = second, .outcome = keep},
           std::span<const T>(a));
  return keep;
}
}  // namespace detail

/// Insertion sort with a fair coin as comparator: for i from 1 to n−1, key = a[i], j = i − 1;
/// while j ≥ 0 and the coin says "key before a[j]": a[j+1] = a[j], j −= 1; then a[j+1] = key.
/// Heavily biased towards the input order (each item moves k places with probability 2^−(k+1)).
/// Steps: "compare" (a = j, b = j + 1 holding the key's slot; outcome true = stop, keep a[j] first).
struct sort_coin_insertion_algorithm {
  static constexpr bool fixed_bounds = false;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    for (std::size_t i = 1; i < a.size(); ++i) {
      std::size_t j = i;  // the key's current slot; compared with j − 1
      while (j > 0) {
        if (detail::coin_compare(a, engine, observer, i, j - 1, j)) break;
        using std::swap;
        swap(a[j - 1], a[j]);
        --j;
      }
    }
  }
};

/// Top-down merge sort (split at ⌊n/2⌋) whose merge takes the left head when a fair coin says so,
/// else the right head; a run left over when the other is empty is copied without coins. The merge
/// is done in place by rotation (allocation-free). Steps: "compare" (a = left head, b = right head;
/// outcome true = left first).
struct sort_coin_merge_algorithm {
  static constexpr bool fixed_bounds = false;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    sort(a, engine, observer, 0, a.size());
  }

 private:
  template <class T, class Engine, class Observer>
  static void sort(std::span<T> a, Engine& engine, Observer& observer, std::size_t lo,
                   std::size_t hi) noexcept {
    if (hi - lo < 2) return;
    const std::size_t mid = lo + (hi - lo) / 2;
    sort(a, engine, observer, lo, mid);
    sort(a, engine, observer, mid, hi);
    std::size_t l = lo, m = mid;
    while (l < m && m < hi) {
      if (!detail::coin_compare(a, engine, observer, l, l, m)) {
        T item = std::move(a[m]);
        for (std::size_t p = m; p > l; --p) a[p] = std::move(a[p - 1]);
        a[l] = std::move(item);
        ++m;
      }
      ++l;
    }
  }
};

/// Bubble sort with a fair coin: for pass i from 0 to n−2, for j from 0 to n−2−i, swap a[j] and
/// a[j+1] when the coin says a[j+1] goes first. n(n−1)/2 coins.
struct sort_coin_bubble_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    for (std::size_t i = 0; i + 1 < n; ++i) {
      for (std::size_t j = 0; j + 1 < n - i; ++j) {
        if (!detail::coin_compare(a, engine, observer, i, j, j + 1)) {
          using std::swap;
          swap(a[j], a[j + 1]);
        }
      }
    }
  }
};

/// Selection sort with a fair coin: for i from 0 to n−2, m = i; for j from i+1 to n−1, m = j when
/// the coin says a[j] goes before a[m]; then swap a[i], a[m]. n(n−1)/2 coins; the last items are
/// strongly favoured for the front.
struct sort_coin_selection_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size();
    for (std::size_t i = 0; i + 1 < n; ++i) {
      std::size_t m = i;
      for (std::size_t j = i + 1; j < n; ++j) {
        if (!detail::coin_compare(a, engine, observer, i, m, j)) m = j;
      }
      using std::swap;
      swap(a[i], a[m]);
    }
  }
};

/// Sorting by random keys: each position gets a key uniform in [0, 2^BITS − 1], then the items are
/// stably sorted by key. Ties (likely with few bits: the birthday problem) keep the input order,
/// which biases the result towards it. BITS = parameter in [1, 63]. Precondition: n ≤ 256 (the
/// keys live in a fixed array; larger inputs are shuffled only in their first 256 items).
/// Steps: "key" (a = position, draw = key) for each position, then one "sort".
struct random_keys_algorithm {
  static constexpr bool fixed_bounds = true;
  static constexpr std::size_t max_n = 256;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t bits,
                  Observer&& observer = {}) const noexcept {
    const std::size_t n = a.size() < max_n ? a.size() : max_n;
    const std::uint64_t range = std::uint64_t{1} << bits;
    std::array<std::uint64_t, max_n> keys;
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = uniform_below(engine, range);
      observer(shuffle_step{.action = "key", .cursor = i, .draw = keys[i], .draw_lo = 0,
                            .draw_hi = range - 1, .a = i},
               std::span<const T>(a));
    }
    // Stable insertion sort by key: strict < keeps equal keys in input order.
    for (std::size_t i = 1; i < n; ++i) {
      for (std::size_t j = i; j > 0 && keys[j] < keys[j - 1]; --j) {
        using std::swap;
        swap(keys[j], keys[j - 1]);
        swap(a[j], a[j - 1]);
      }
    }
    observer(shuffle_step{.action = "sort"}, std::span<const T>(a));
  }
};

}  // namespace shufl
