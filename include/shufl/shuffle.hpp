// Shuffle algorithms — the correct ones and the classic broken ones — and their registry by name.
//
// Every algorithm is a function object `void operator()(std::span<T> a, Engine& e, std::uint64_t
// parameter, Observer&& observer = no_observer{}) const` that draws only through
// `uniform_below(e, s)` and reports each step to the observer. That one rule lets the same code run
// with a fast engine (bias trials; the no-op observer compiles away), ChaCha20 (lines, deck), a
// scripted engine (exact enumeration of every path of random choices, `trace --draws`) or a
// dynamic engine with a printing observer (`shufl trace`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shufl/permutation.hpp"
#include "shufl/random.hpp"

namespace shufl {

namespace detail {
struct replay_engine;
}

/// One step of a shuffle, as reported to an observer (what `shufl trace` prints). Fields that do
/// not apply to a step keep their defaults (`none`).
struct shuffle_step {
  static constexpr std::size_t none = ~std::size_t{0};
  std::string_view action;        ///< "swap", "compare", "cut", "drop", "key", "strike", "place", ...
  std::size_t cursor = none;      ///< The loop index i of the algorithm, if it has one.
  std::uint64_t draw = ~std::uint64_t{0};  ///< The value drawn for this step, if any ...
  std::uint64_t draw_lo = 0;      ///< ... and the inclusive range it was drawn from:
  std::uint64_t draw_hi = 0;      ///<     "j in [draw_lo, draw_hi]".
  std::size_t a = none, b = none; ///< Positions involved (swapped, compared, cut point, ...).
  bool outcome = false;           ///< Result of a coin or comparison, where the action has one.
  /// When nonzero, position b is not the draw itself but draw % modulus (modulo:B: j = r mod (i+1)).
  std::uint64_t modulus = 0;
  /// Whether position a was drawn too, from the same range as b (random transpositions: both
  /// positions are random and `cursor` only counts the transpositions).
  bool a_drawn = false;
  /// The finalized region after this step is [final_begin, final_end) (empty: none marked).
  std::size_t final_begin = 0, final_end = 0;
  /// The shelf or pile (from 0) a card went to or was taken from (shelf, pile), and where that
  /// shelf's or pile's cards lie after the step: [pile_begin, pile_end) (empty: none).
  std::size_t pile = none;
  std::size_t pile_begin = 0, pile_end = 0;
};

/// The observer that does nothing: the default for every algorithm, compiled away entirely.
struct no_observer {
  template <class T>
  void operator()(const shuffle_step&, std::span<const T>) const noexcept {}
};

/// Fisher–Yates shuffle in Durstenfeld's in-place form (R. Durstenfeld, CACM 7(7), 1964;
/// Knuth TAOCP vol. 2 §3.4.2 Algorithm P): for i from n−1 down to 1, j uniform in [0, i], swap
/// a[i] and a[j]. Every one of the n! orders has probability exactly 1/n!. n − 1 draws.
/// `observer(step, a)` is called after each swap; positions i..n−1 are then final.
template <class T, class Engine, class Observer = no_observer>
void fisher_yates(std::span<T> a, Engine& engine, Observer&& observer = {}) noexcept {
  for (std::size_t i = a.size(); i-- > 1;) {
    const auto j = static_cast<std::size_t>(uniform_below(engine, i + 1));
    using std::swap;
    swap(a[i], a[j]);
    observer(shuffle_step{.action = "swap", .cursor = i, .draw = j, .draw_lo = 0, .draw_hi = i,
                          .a = i, .b = j, .final_begin = i, .final_end = a.size()},
             std::span<const T>(a));
  }
}

/// The naive "swap with anyone" shuffle: for i from 0 up to n−1, j uniform in [0, n−1], swap
/// a[i] and a[j]. Biased for n ≥ 3: its n^n equally likely paths cannot split evenly over n!
/// orders (J. Atwood, "The Danger of Naïveté", 2007). n draws. No position is ever final.
template <class T, class Engine, class Observer = no_observer>
void naive_shuffle(std::span<T> a, Engine& engine, Observer&& observer = {}) noexcept {
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto j = static_cast<std::size_t>(uniform_below(engine, n));
    using std::swap;
    swap(a[i], a[j]);
    observer(shuffle_step{.action = "swap", .cursor = i, .draw = j, .draw_lo = 0, .draw_hi = n - 1,
                          .a = i, .b = j},
             std::span<const T>(a));
  }
}

/// Function-object forms used by the registry: `algo(a, engine, parameter, observer)`. Every
/// registered algorithm has this shape (the parameter is ignored by these two).
struct fisher_yates_algorithm {
  static constexpr bool fixed_bounds = true;  ///< The bounds of the draws never depend on their values.
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    fisher_yates(a, engine, observer);
  }
};
struct naive_algorithm {
  static constexpr bool fixed_bounds = true;
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t /*parameter*/,
                  Observer&& observer = {}) const noexcept {
    naive_shuffle(a, engine, observer);
  }
};

}  // namespace shufl

#include "shufl/shuffle/classic.hpp"
#include "shufl/shuffle/riffle.hpp"
#include "shufl/shuffle/hand.hpp"
#include "shufl/shuffle/sorts.hpp"

namespace shufl {

/// A type-erased source of bounded draws for cold paths (`shufl trace`): wraps any engine.
class dynamic_engine {
 public:
  virtual ~dynamic_engine() = default;
  /// A draw in [0, s), s ≥ 1.
  virtual std::uint64_t below(std::uint64_t s) = 0;
};

/// Wraps a concrete engine (a word engine or a scripted_engine) as a dynamic_engine.
template <class Engine>
class dynamic_engine_for final : public dynamic_engine {
 public:
  explicit dynamic_engine_for(Engine& engine) noexcept : engine_(engine) {}
  std::uint64_t below(std::uint64_t s) override { return uniform_below(engine_, s); }

 private:
  Engine& engine_;
};

/// `uniform_below` on a dynamic engine: forwards to the wrapped engine.
inline std::uint64_t uniform_below(dynamic_engine& engine, std::uint64_t s) { return engine.below(s); }

/// Observer callback for traced runs on a deck of card indices.
using step_callback = std::function<void(const shuffle_step&, std::span<const std::uint8_t>)>;

/// An algorithm known by name: what `--algo`, `bias --list` and `trace` use. Entries are
/// algorithms().data()[i] for the i-th of registered_algorithms (shufl/shuffle/registered.hpp);
/// layers above bind their own code to algorithms through that list (bias: its trial loops).
struct algorithm_info {
  std::string_view name;        ///< CLI name, e.g. "fisher-yates".
  std::string_view definition;  ///< One-line definition, as `shufl bias --list` prints it.
  bool takes_parameter = false; ///< Whether it is written NAME:PARAM (e.g. "modulo:8").
  std::uint64_t default_parameter = 0;
  std::uint64_t min_parameter = 0, max_parameter = 0;  ///< Valid range when takes_parameter.
  /// How the parameter is written: a count ("modulo:8"), a count with passes ("shelf:10x2":
  /// pack_passes(M, P)), a decimal with passes ("overhand:0.5x3": pack_passes(Q in millionths,
  /// K)), or a sequence ("riffle:3+cut": an interned handle, see sequence_at).
  enum class form : std::uint8_t { count, count_passes, decimal_passes, sequence };
  form parameter_form = form::count;
  std::string_view parameter_name;  ///< What `--list` calls the parameter: "BITS", "K", "M", "Q".
  /// Shuffles `deck` (n ≤ 255 items) with a scripted engine: exact enumeration, tests, trace.
  void (*run_scripted)(std::span<std::uint8_t> deck, scripted_engine& engine,
                       std::uint64_t parameter) = nullptr;
  /// Shuffles `deck` with any engine, reporting every step to `on_step` (`shufl trace`).
  void (*run_traced)(std::span<std::uint8_t> deck, dynamic_engine& engine, std::uint64_t parameter,
                     const step_callback& on_step) = nullptr;
  /// Shuffles `deck` replaying a path of draws (exact enumeration; allocation-free).
  void (*run_replay)(std::span<std::uint8_t> deck, detail::replay_engine& engine,
                     std::uint64_t parameter) = nullptr;
  /// Whether the bounds of the draws never depend on the values drawn (then every path has the
  /// same probability, and bias can count trials by path).
  bool fixed_bounds = false;
  /// Whether only a seed of 32 bits is drawn (exact enumeration is refused: 2^32 paths).
  bool weak_seed = false;
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

/// The parameter as written after "NAME:" ("8", "10x2", "0.5x3"; a sequence: its parts).
std::string parameter_text(const algorithm_info& info, std::uint64_t parameter);

/// Parses a comma-separated algorithm list: "fisher-yates,naive", "modulo:8",
/// "riffle:1..10" (a parameter range expands to one entry per value; "shelf:10x1..4" and
/// "overhand:0.5x1..10" expand the passes), "riffle:3+cut" (a sequence: parts of riffle, shelf,
/// overhand, pile and cut joined by '+', run in order on one deck). Throws shufl::error on an
/// unknown name, a missing, unexpected or out-of-range parameter, or an empty list.
std::vector<algorithm_spec> parse_algorithm_list(std::string_view list);

}  // namespace shufl
