// Shuffle algorithms — the correct ones and the classic broken ones — and their registry by name.
//
// Every algorithm is a function object `void operator()(std::span<T> a, Engine& e, std::uint64_t
// parameter) const noexcept` that draws only through `uniform_below(e, s)`. That one rule lets the
// same code run with a fast engine (bias trials), ChaCha20 (lines, deck) or a scripted engine
// (exact enumeration of every path of random choices, `trace --draws`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shufl/random.hpp"

namespace shufl {

/// Fisher–Yates shuffle in Durstenfeld's in-place form (R. Durstenfeld, CACM 7(7), 1964;
/// Knuth TAOCP vol. 2 §3.4.2 Algorithm P): for i from n−1 down to 1, j uniform in [0, i], swap
/// a[i] and a[j]. Every one of the n! orders has probability exactly 1/n!. n − 1 draws.
template <class T, class Engine>
void fisher_yates(std::span<T> a, Engine& engine) noexcept {
  for (std::size_t i = a.size(); i-- > 1;) {
    const auto j = static_cast<std::size_t>(uniform_below(engine, i + 1));
    using std::swap;
    swap(a[i], a[j]);
  }
}

/// The naive "swap with anyone" shuffle: for i from 0 up to n−1, j uniform in [0, n−1], swap
/// a[i] and a[j]. Biased for n ≥ 3: its n^n equally likely paths cannot split evenly over n!
/// orders (J. Atwood, "The Danger of Naïveté", 2007). n draws.
template <class T, class Engine>
void naive_shuffle(std::span<T> a, Engine& engine) noexcept {
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto j = static_cast<std::size_t>(uniform_below(engine, n));
    using std::swap;
    swap(a[i], a[j]);
  }
}

/// Function-object forms used by the registry (the parameter is ignored by these two).
struct fisher_yates_algorithm {
  template <class T, class Engine>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/) const noexcept {
    fisher_yates(a, engine);
  }
};
struct naive_algorithm {
  template <class T, class Engine>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/) const noexcept {
    naive_shuffle(a, engine);
  }
};

/// An algorithm known by name: what `--algo`, `bias --list` and `trace` use.
struct algorithm_info {
  std::string_view name;        ///< CLI name, e.g. "fisher-yates".
  std::string_view definition;  ///< One-line definition, as `shufl bias --list` prints it.
  bool takes_parameter = false; ///< Whether it is written NAME:PARAM (e.g. "modulo:8").
  std::uint64_t default_parameter = 0;
  std::uint64_t min_parameter = 0, max_parameter = 0;  ///< Valid range when takes_parameter.
  /// Shuffles `deck` (n ≤ 255 items) with a scripted engine: exact enumeration, tests, trace.
  void (*run_scripted)(std::span<std::uint8_t> deck, scripted_engine& engine,
                       std::uint64_t parameter) = nullptr;
  /// Runs `trials` shuffles of the identity deck 0..n-1 (n ≤ 20) with an engine of `kind` keyed by
  /// (key, stream), adding 1 to counts[rank] for the lexicographic rank of each result.
  /// `counts` has n! entries. Allocation-free and noexcept.
  void (*count_table)(engine_kind kind, const seed_key& key, std::uint64_t stream,
                      std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                      std::uint64_t* counts) = nullptr;
};

/// An algorithm with its parameter, as parsed from one item of `--algo`.
struct algorithm_spec {
  const algorithm_info* info = nullptr;
  std::uint64_t parameter = 0;
  /// "fisher-yates", or "modulo:8" for parameterised algorithms.
  std::string label() const;
};

/// Every registered algorithm, in `bias --list` order.
std::span<const algorithm_info> algorithms() noexcept;

/// The algorithm named `name` (without parameter); throws shufl::error with a "did you mean"
/// suggestion when there is none.
const algorithm_info& find_algorithm(std::string_view name);

/// Parses a comma-separated algorithm list: "fisher-yates,naive", "modulo:8",
/// "riffle:1..10" (a parameter range expands to one entry per value). Throws shufl::error on an
/// unknown name, a missing, unexpected or out-of-range parameter, or an empty list.
std::vector<algorithm_spec> parse_algorithm_list(std::string_view list);

}  // namespace shufl
