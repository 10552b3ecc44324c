#include "shufl/trace.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <bit>
#include <charconv>
#include <cmath>
#include <algorithm>
#include <numeric>

#include "shufl/error.hpp"
#include "shufl/permutation.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace shufl {

namespace {

using big = boost::multiprecision::cpp_int;

constexpr std::size_t none = shuffle_step::none;

// Wraps the real source of draws and remembers, for each draw, its number of choices and the
// step it belongs to (the step reported next), so that a bad --draws value can be named.
class recording_engine final : public dynamic_engine {
 public:
  recording_engine(dynamic_engine& inner, const std::vector<trace_record>& steps) noexcept
      : inner_(inner), steps_(steps) {}
  std::uint64_t below(std::uint64_t s) override {
    bounds.push_back(s);
    step_of.push_back(steps_.size() + 1);
    values.push_back(inner_.below(s));
    return values.back();
  }
  std::vector<std::uint64_t> bounds;
  std::vector<std::uint64_t> values;
  std::vector<std::size_t> step_of;

 private:
  dynamic_engine& inner_;
  const std::vector<trace_record>& steps_;
};

std::vector<std::uint8_t> identity(std::size_t n) {
  std::vector<std::uint8_t> deck(n);
  std::iota(deck.begin(), deck.end(), std::uint8_t{0});
  return deck;
}

void run_into(const trace_options& o, dynamic_engine& engine, trace_result& out) {
  std::vector<std::uint8_t> deck = identity(o.n);
  std::vector<std::uint8_t> before = deck;
  std::uint64_t steps = 0;
  const std::uint64_t max_steps = std::max<std::uint64_t>(1, max_trace_cells / o.n);
  const step_callback on_step = [&](const shuffle_step& step, std::span<const std::uint8_t> now) {
    // The algorithms are noexcept: past the limit, stop recording and refuse once they return.
    if (++steps > max_steps) return;
    trace_record r;
    r.action = std::string(step.action);
    r.step = step;
    r.step.action = {};
    r.after.assign(now.begin(), now.end());
    if (r.action == "compare") {
      // A comparison is reported before the algorithm acts on it (the coin sorts swap or move
      // items after it without another step): the deck now is the deck before this step, and
      // whatever changed since the previous step belongs to that step.
      if (!out.steps.empty()) out.steps.back().after = r.after;
      r.before = r.after;
    } else {
      r.before = before;
    }
    before = r.after;
    out.steps.push_back(std::move(r));
  };
  o.algorithm.info->run_traced(deck, engine, o.algorithm.parameter, on_step);
  if (steps > max_steps) {
    throw error(fmt::format("trace: {} takes {} steps on {} items; a trace records at most {} steps x items "
                            "({} steps here): use a smaller --n or parameter",
                            o.algorithm.label(), steps, o.n, max_trace_cells, max_steps));
  }
  // Moves made after the last reported step (a coin sort acting on its last comparison).
  if (!out.steps.empty()) out.steps.back().after = deck;
  out.result = deck;
}

// Marks the steps that report a value no draw from the source was made for (step_of: the 1-based
// step each source draw belongs to): their value came from a generator seeded earlier.
void mark_seeded(std::vector<trace_record>& steps, const std::vector<std::size_t>& step_of) {
  std::vector<bool> drew(steps.size() + 2, false);
  for (const auto k : step_of) {
    if (k < drew.size()) drew[k] = true;
  }
  for (std::size_t k = 0; k < steps.size(); ++k) {
    steps[k].seeded = steps[k].has_draw() && !drew[k + 1];
  }
}

// The draws a run makes when every draw returns 0: a second path, to check that an algorithm
// trace believes draws from fixed ranges really does.
std::vector<std::uint64_t> ranges_of_zero_path(const trace_options& o) {
  scripted_engine zeros({}, /*extend_with_zeros=*/true);
  std::vector<std::uint8_t> deck = identity(o.n);
  o.algorithm.info->run_scripted(deck, zeros, o.algorithm.parameter);
  return zeros.bounds();
}

big big_factorial(std::size_t n) {
  big f = 1;
  for (std::size_t k = 2; k <= n; ++k) f *= k;
  return f;
}

std::string decimal(const big& v) { return v.str(); }

// A number for a sentence: exact up to 30 digits, "about 8.07e67" beyond.
std::string readable(const std::string& digits, double log10_value) {
  if (digits.size() <= 30) return digits;
  return "about " + scientific_from_log10(log10_value);
}

// Π s written compactly: runs of equal factors as s^k, runs stepping by one as "9 × 8 × ... × 2"
// (1s drop out: a draw with one choice adds no path).
std::string product_formula(std::span<const std::uint64_t> ranges) {
  std::vector<std::uint64_t> f;
  for (const auto s : ranges) {
    if (s > 1) f.push_back(s);
  }
  if (f.empty()) return "1";
  // A large power of two reads better as one: 2^32 (weak-seed), (2^16)^4 (random-keys:16).
  const auto factor = [](std::uint64_t s) {
    if (s >= (std::uint64_t{1} << 16) && std::has_single_bit(s)) return fmt::format("2^{}", std::countr_zero(s));
    return fmt::format("{}", s);
  };
  const auto is_power_term = [](std::uint64_t s) { return s >= (std::uint64_t{1} << 16) && std::has_single_bit(s); };
  std::vector<std::string> terms;
  std::size_t i = 0;
  while (i < f.size()) {
    std::size_t j = i + 1;
    while (j < f.size() && f[j] == f[i]) ++j;
    if (is_power_term(f[i])) {
      terms.push_back(j - i > 1 ? fmt::format("({})^{}", factor(f[i]), j - i) : factor(f[i]));
      i = j;
      continue;
    }
    if (j - i > 1) {
      terms.push_back(fmt::format("{}^{}", f[i], j - i));
      i = j;
      continue;
    }
    // A run stepping by +1 or -1.
    j = i + 1;
    if (j < f.size() && (f[j] == f[i] + 1 || f[j] + 1 == f[i])) {
      const bool down = f[j] + 1 == f[i];
      while (j < f.size() && (down ? f[j] + 1 == f[j - 1] : f[j] == f[j - 1] + 1)) ++j;
    }
    if (j - i > 5) {
      terms.push_back(fmt::format("{} × {} × ... × {}", f[i], f[i + 1], f[j - 1]));
    } else {
      for (std::size_t k = i; k < j; ++k) terms.push_back(fmt::format("{}", f[k]));
    }
    i = j;
  }
  if (terms.size() > 12) return fmt::format("the product of the {} draw sizes", f.size());
  return fmt::format("{}", fmt::join(terms, " × "));
}

std::string draws_phrase(std::size_t d) {
  if (d == 0) return "no random draws";
  return fmt::format("{} random draw{}", d, d == 1 ? "" : "s");
}

std::string ordinal(std::uint64_t k) {
  const char* suffix = "th";
  if (k % 100 < 11 || k % 100 > 13) {
    if (k % 10 == 1) suffix = "st";
    if (k % 10 == 2) suffix = "nd";
    if (k % 10 == 3) suffix = "rd";
  }
  return fmt::format("{}{}", k, suffix);
}

// A plain statement of which orders the machine and hand shuffles reach (empty: none to make).
std::string reachable_orders(const algorithm_spec& algorithm, std::size_t n) {
  const std::string_view name = algorithm.info->name;
  const std::uint64_t p = algorithm.parameter;
  if (name == "pile") {
    const std::size_t k = std::min<std::size_t>(p, n);
    return fmt::format("Dealing into piles is the same permutation every time; only the order of gathering the {} "
                       "pile{} is random, so it reaches exactly {}! = {} of the {}! orders, each with probability 1/{}",
                       k, k == 1 ? "" : "s", k, decimal(big_factorial(k)), n, decimal(big_factorial(k)));
  }
  if (name == "cut") {
    return fmt::format("A cut is a rotation: it reaches exactly the {} rotations of the deck, each with probability "
                       "1/{}",
                       n, n);
  }
  if (name == "overhand" && parameter_passes(p) == 1 && n >= 2) {
    if (parameter_base(p) == overhand_q_denominator) {
      return "With Q = 1 every gap is a cut: the deck is reversed every time (1 order)";
    }
    return fmt::format("Each set of cut points gives a different order (cards i and i+1 stay together, in order, "
                       "exactly when the gap between them is not cut), so one overhand reaches exactly 2^{} = {} "
                       "of the {}! orders",
                       n - 1, decimal(big(1) << (n - 1)), n);
  }
  if (name == "thorp" && p == 1 && n >= 2) {
    return fmt::format("Each coin sets which card of its pair comes first, so one Thorp shuffle reaches exactly "
                       "2^{} = {} of the {}! orders, each with probability 1/{}",
                       n / 2, decimal(big(1) << (n / 2)), n, decimal(big(1) << (n / 2)));
  }
  if (name == "shelf" && n >= 2) {
    return fmt::format("After a pass every shelf's pile reads, from the top, the cards put on top of it in reverse "
                       "feed order, then the cards put under it in feed order; with {} shelves a pass draws from {}^{} "
                       "equally likely paths, and several paths can give the same order",
                       parameter_base(p), 2 * parameter_base(p), n);
  }
  return {};
}

}  // namespace

path_kind known_path_kind(std::string_view name) noexcept {
  // Algorithms whose every run draws from the same sequence of ranges (the choices only decide
  // values, never how many draws follow or from what).
  constexpr std::string_view fixed[] = {"fisher-yates", "naive", "inside-out", "pencil-and-paper",
                                        "two-array", "sattolo", "asf-poker", "modulo",
                                        "random-keys", "transpositions", "weak-seed",
                                        "thorp", "shelf", "overhand", "pile", "cut",
                                        // Coin sorts with a fixed number of comparisons,
                                        // n(n-1)/2 coins whatever they say.
                                        "sort-coin:bubble", "sort-coin:selection"};
  for (const auto f : fixed) {
    if (name == f) return path_kind::equally_likely;
  }
  if (name.starts_with("sort-coin")) return path_kind::coin_flips;
  if (name == "riffle") return path_kind::riffle;
  return path_kind::unknown;
}

counting_argument make_counting_argument(path_kind kind, std::size_t n,
                                         std::span<const std::uint64_t> ranges,
                                         std::string_view algorithm_label,
                                         std::uint64_t parameter) {
  counting_argument c;
  c.kind = kind;
  c.n = n;
  c.ranges.assign(ranges.begin(), ranges.end());
  for (const auto s : ranges) c.log10_paths += std::log10(static_cast<double>(s));
  // Divisibility by n! from prime exponents (linear in the number of draws): n! divides Π s
  // exactly when, for every prime q ≤ n, Σ v_q(s) ≥ v_q(n!) (Legendre: Σ_i ⌊n/q^i⌋).
  std::vector<std::uint64_t> primes;
  for (std::uint64_t q = 2; q <= n; ++q) {
    if (std::all_of(primes.begin(), primes.end(), [q](std::uint64_t r) { return q % r != 0; })) primes.push_back(q);
  }
  std::vector<std::uint64_t> exponent(primes.size(), 0);
  for (auto s : ranges) {
    if (s < 2) continue;
    for (std::size_t i = 0; i < primes.size(); ++i) {
      while (s % primes[i] == 0) {
        s /= primes[i];
        ++exponent[i];
      }
    }
  }
  c.divisible = true;
  for (std::size_t i = 0; i < primes.size(); ++i) {
    std::uint64_t needed = 0;
    for (std::uint64_t power = primes[i]; power <= n; power *= primes[i]) needed += n / power;
    if (exponent[i] < needed) c.divisible = false;
  }
  const big nf = big_factorial(n);
  c.n_factorial = decimal(nf);
  double log10_nf = 0;
  for (std::size_t k = 2; k <= n; ++k) log10_nf += std::log10(static_cast<double>(k));
  // The exact product only while it is short enough to read (and to compute in linear time);
  // beyond 1000 digits it is given as "about 1.2e4817".
  const bool exact_paths = c.log10_paths < 1000;
  big paths = 1;
  if (exact_paths) {
    for (const auto s : ranges) paths *= s;
    c.paths = decimal(paths);
  } else {
    c.paths = scientific_from_log10(c.log10_paths);
  }
  c.paths_formula = product_formula(ranges);
  const bool paths_equal_nf = exact_paths && paths == nf;

  const std::string p = exact_paths ? readable(c.paths, c.log10_paths) : "about " + c.paths;
  const std::string f = readable(c.n_factorial, log10_nf);
  const std::string product = c.paths_formula == c.paths ? p : fmt::format("{} = {}", c.paths_formula, p);
  const std::string draws = draws_phrase(ranges.size());
  // For n >= 3, n! has the factor 3, so 1/n! is not a multiple of any power of 1/2.
  const std::string power_of_two_conclusion =
      n >= 3 ? fmt::format("1/{}! = 1/{} is not (3 divides {}), so no order can have probability "
                           "exactly 1/{}!: not uniform for n = {}",
                           n, f, f, n, n)
             : fmt::format("1/{}! = 1/{} is such a fraction, so this argument does not rule out a "
                           "uniform shuffle for n = {}",
                           n, f, n);
  switch (kind) {
    case path_kind::equally_likely:
      if (ranges.empty()) {
        c.statement = n == 1 ? std::string("no random draws: one path, and 1! = 1 order, so every run gives it")
                             : fmt::format("no random draws: one path, so every run gives the same one "
                                           "of the {}! orders: not uniform for n = {}",
                                           n, n);
      } else if (paths_equal_nf) {
        c.statement = fmt::format(
            "{}, from the same ranges in every run: {} equally likely paths, exactly {}!, one per "
            "order; divisible by {}!, so the paths can be shared evenly among the {}! orders "
            "(necessary for a uniform shuffle, not sufficient: every order must also be reached)",
            draws, product, n, n, n);
      } else if (c.divisible) {
        c.statement = fmt::format(
            "{}, from the same ranges in every run: {} equally likely path{}; {} is divisible by "
            "{}! = {}, so the paths can be shared evenly among the {}! orders (necessary for a "
            "uniform shuffle, not sufficient)",
            draws, product, (exact_paths && paths == 1) ? "" : "s", p, n, f, n);
      } else {
        c.statement = fmt::format(
            "{}, from the same ranges in every run: {} equally likely paths; {} is not divisible "
            "by {}! = {}, so the paths cannot be shared evenly among the {}! orders: an order "
            "reached by k paths has probability k/{}, never exactly 1/{}, so this shuffle is not "
            "uniform for n = {}{}",
            draws, product, p, n, f, n, p, f, n,
            (exact_paths ? paths < nf : c.log10_paths < log10_nf) ? fmt::format("; worse, {} paths can reach at most {} of the {} orders: the "
                                     "others can never occur",
                                     p, p, f)
                       : std::string());
      }
      break;
    case path_kind::coin_flips:
      c.statement = fmt::format(
          "{} (coin flips) in this run; the number of flips varies from run to run, so the paths "
          "are not equally likely: a path of k flips has probability 1/2^k, and every order's "
          "probability is a sum of such terms, a multiple of a power of 1/2; {}",
          draws, power_of_two_conclusion);
      break;
    case path_kind::riffle:
      c.statement = fmt::format(
          "{} in this run; the number and ranges of the draws vary from run to run, so the paths "
          "are not equally likely. {} is the Gilbert-Shannon-Reeds riffle, in which every order's "
          "probability is a multiple of 1/2^({}·{}) (Bayer and Diaconis, 1992); {}",
          draws, algorithm_label, parameter, n, power_of_two_conclusion);
      break;
    case path_kind::unknown:
    default:
      c.statement = fmt::format(
          "{} in this run, {} path{} of this shape; trace does not know whether every run of {} "
          "draws from the same ranges, so it draws no conclusion about uniformity",
          draws, product, (exact_paths && paths == 1) ? "" : "s", algorithm_label);
      break;
  }
  return c;
}

trace_result run_trace(const trace_options& o) {
  if (o.algorithm.info == nullptr || o.algorithm.info->run_traced == nullptr) {
    throw error("trace: no algorithm given");
  }
  if (o.n < 1 || o.n > max_trace_n) {
    throw error(fmt::format("the number of items must be between 1 and {} (got {})", max_trace_n, o.n));
  }
  const std::string label = o.algorithm.label();
  trace_result out;
  std::vector<std::uint64_t> bounds;
  if (o.draws) {
    const auto& script = *o.draws;
    scripted_engine scripted(script);
    dynamic_engine_for<scripted_engine> inner(scripted);
    recording_engine engine(inner, out.steps);
    run_into(o, engine, out);
    if (scripted.failed()) {
      for (std::size_t k = 0; k < engine.bounds.size(); ++k) {
        const std::uint64_t s = engine.bounds[k];
        if (k >= script.size()) {
          throw error(fmt::format(
              "--draws: too few values: step {} needs a value in [0, {}], but the list has only {}",
              engine.step_of[k], s - 1, script.size()));
        }
        if (script[k] >= s) {
          throw error(fmt::format(
              "--draws: {} (value {} of the list) is out of range for step {}, which draws from "
              "[0, {}]",
              script[k], k + 1, engine.step_of[k], s - 1));
        }
      }
      throw error("--draws: the scripted draws failed");  // not reached
    }
    if (scripted.left_over() > 0) {
      throw error(fmt::format("--draws: {} value{} left over: {} on {} item{} made {} draw{}",
                              scripted.left_over(), scripted.left_over() == 1 ? "" : "s", label,
                              o.n, o.n == 1 ? "" : "s", scripted.used(),
                              scripted.used() == 1 ? "" : "s"));
    }
    mark_seeded(out.steps, engine.step_of);
    bounds = std::move(engine.bounds);
    out.values = std::move(engine.values);
  } else {
    const seed_key key = o.seed ? derive_key(key_from_seed(*o.seed), "trace", 0) : key_from_os();
    chacha20_engine chacha(key, 0);
    dynamic_engine_for<chacha20_engine> inner(chacha);
    recording_engine engine(inner, out.steps);
    run_into(o, engine, out);
    mark_seeded(out.steps, engine.step_of);
    bounds = std::move(engine.bounds);
    out.values = std::move(engine.values);
  }
  out.draws = bounds.size();
  for (const auto& r : out.steps) out.marks_final = out.marks_final || r.has_final_region();

  path_kind kind = known_path_kind(o.algorithm.info->name);
  // Trust but verify: an algorithm listed as drawing from fixed ranges must draw the same ranges
  // on another path; coin sorts must draw only coins. Otherwise say nothing we cannot back.
  if (kind == path_kind::equally_likely && ranges_of_zero_path(o) != bounds) kind = path_kind::unknown;
  if (kind == path_kind::coin_flips) {
    for (const auto s : bounds) {
      if (s != 2) kind = path_kind::unknown;
    }
  }
  if (o.algorithm.info->parameter_form == algorithm_info::form::sequence) {
    // A sequence without a riffle draws from fixed ranges (verified on the zero path as above).
    const sequence_parts& parts = sequence_at(o.algorithm.parameter);
    bool fixed = true;
    for (std::size_t i = 0; i < parts.count; ++i) fixed = fixed && parts.parts[i].algorithm != composable::riffle;
    if (fixed && ranges_of_zero_path(o) == bounds) kind = path_kind::equally_likely;
  }
  out.counting = make_counting_argument(kind, o.n, bounds, label, o.algorithm.parameter);
  const std::string reach = reachable_orders(o.algorithm, o.n);
  if (!reach.empty()) out.counting.statement += ". " + reach;
  return out;
}

std::string describe_step(const trace_record& r, std::span<const std::string> labels) {
  const shuffle_step& s = r.step;
  const auto item = [&](const std::vector<std::uint8_t>& deck, std::size_t pos) -> std::string {
    if (pos == none || pos >= deck.size() || deck[pos] >= labels.size()) return "?";
    return labels[deck[pos]];
  };
  const auto range = [&] { return fmt::format("[{}, {}]", s.draw_lo, s.draw_hi); };
  // "drew 3 from [0, 6]"; empty without a draw.
  const auto drew = [&]() -> std::string {
    return r.has_draw() ? fmt::format("drew {} from {}", s.draw, range()) : std::string();
  };
  const auto suffix = [&](const std::string& text) { return text.empty() ? text : " (" + text + ")"; };
  const std::string& a = r.action;

  if (a == "swap") {
    const std::string what =
        s.a == s.b ? fmt::format("a[{}] stays where it is ({})", s.a, item(r.before, s.a))
                   : fmt::format("swap a[{}] and a[{}] ({} and {})", s.a, s.b, item(r.before, s.a),
                                 item(r.before, s.b));
    if (!r.has_draw()) return what;
    // Where the draw came from: the source, or a generator seeded by an earlier step.
    const std::string from = r.seeded ? ", from the seeded generator" : "";
    if (s.a_drawn) {
      // Both positions random (transpositions): the cursor only counts the swaps.
      const std::string head = s.cursor != none ? fmt::format("transposition {}: ", s.cursor + 1) : "";
      return fmt::format("{}p = {}, q = {} (each uniform in {}{}): {}", head, s.a, s.b, range(), from, what);
    }
    if (s.cursor != none && s.a == s.cursor && s.modulus != 0) {
      // The modulo mistake: a raw value r, reduced to a position.
      return fmt::format("i = {}: r = {} (r in {}{}), j = r % (i + 1) = {} % {} = {}: {}", s.cursor, s.draw,
                         range(), from, s.draw, s.modulus, s.b, what);
    }
    if (s.cursor != none && s.a == s.cursor && s.b == s.draw) {
      return fmt::format("i = {}, j = {} (j in {}{}): {}", s.cursor, s.draw, range(), from, what);
    }
    // Any other swap: the loop index (if any), the value drawn, and the two positions.
    std::string head = s.cursor != none ? fmt::format("i = {}, ", s.cursor) : "";
    head += r.seeded ? fmt::format("drew {} from {} (seeded generator)", s.draw, range()) : drew();
    return head + ": " + what;
  }
  if (a == "seed") {
    if (!r.has_draw()) return "seed a generator; every later draw follows from it";
    const std::uint64_t count = s.draw_hi - s.draw_lo + 1;  // 0 when the range is all 2^64 values
    const std::string seeds = count != 0 && std::has_single_bit(count)
                                  ? fmt::format("2^{}", std::countr_zero(count))
                                  : (count == 0 ? std::string("2^64") : fmt::format("{}", count));
    const std::string bits = count != 0 && std::has_single_bit(count)
                                 ? fmt::format("{}-bit ", std::countr_zero(count))
                                 : (count == 0 ? std::string("64-bit ") : std::string());
    return fmt::format("seed a {}generator with {} (one of {} seeds, drawn from {}); every later "
                       "draw follows from it",
                       bits, s.draw, seeds, range());
  }
  if (a == "compare") {
    // Reported before the algorithm acts: what it then did shows as the change before → after.
    std::string then;
    if (r.after.size() == r.before.size() && r.after != r.before) {
      std::vector<std::size_t> diff;
      for (std::size_t k = 0; k < r.before.size(); ++k) {
        if (r.before[k] != r.after[k]) diff.push_back(k);
      }
      const std::size_t lo = diff.front(), hi = diff.back();
      const bool swapped = diff.size() == 2 && r.before[lo] == r.after[hi] && r.before[hi] == r.after[lo];
      const bool moved_down = std::equal(r.before.begin() + static_cast<std::ptrdiff_t>(lo),
                                         r.before.begin() + static_cast<std::ptrdiff_t>(hi),
                                         r.after.begin() + static_cast<std::ptrdiff_t>(lo) + 1) &&
                              r.after[lo] == r.before[hi];
      const bool moved_up = std::equal(r.before.begin() + static_cast<std::ptrdiff_t>(lo) + 1,
                                       r.before.begin() + static_cast<std::ptrdiff_t>(hi) + 1,
                                       r.after.begin() + static_cast<std::ptrdiff_t>(lo)) &&
                            r.after[hi] == r.before[lo];
      if (swapped) {
        then = fmt::format("; then swap a[{}] and a[{}] ({} and {})", lo, hi, item(r.before, lo), item(r.before, hi));
      } else if (moved_down) {
        then = fmt::format("; then {} moves from a[{}] to a[{}]", item(r.before, hi), hi, lo);
      } else if (moved_up) {
        then = fmt::format("; then {} moves from a[{}] to a[{}]", item(r.before, lo), lo, hi);
      } else {
        then = "; then the order changes";
      }
    }
    return fmt::format("compare a[{}] = {} with a[{}] = {}: should {} come first? a coin says {}{}{}",
                       s.a, item(r.before, s.a), s.b, item(r.before, s.b), item(r.before, s.a),
                       s.outcome ? "yes" : "no", suffix(drew()), then);
  }
  // The cards of a shelf or pile after the step, top to bottom: "7 4 2".
  const auto pile_cards = [&]() {
    std::vector<std::string> cards;
    for (std::size_t k = s.pile_begin; k < s.pile_end && k < r.after.size(); ++k) cards.push_back(item(r.after, k));
    return fmt::format("{}", fmt::join(cards, " "));
  };
  if (a == "shelve" && s.pile != none) {
    const std::uint64_t shelves = (s.draw_hi + 1) / 2;
    const std::string how = r.has_draw() ? fmt::format("drew {} from {}: shelf {} = {}/2 + 1, {} as {} is {}; ", s.draw,
                                                       range(), s.pile + 1, s.draw, s.outcome ? "under" : "on top", s.draw,
                                                       s.outcome ? "odd" : "even")
                                         : std::string();
    return fmt::format("feed {} from the bottom of the deck to shelf {} of {}, {} its pile ({}shelf {} now holds {})",
                       item(r.after, s.b), s.pile + 1, shelves, s.outcome ? "under" : "on top of", how, s.pile + 1,
                       pile_cards());
  }
  if (a == "pair" && s.cursor != none && s.b != none) {
    const std::size_t first = 2 * s.cursor;
    return fmt::format("pair {}: {}the {} half's card first: {} then {}", s.cursor + 1,
                       r.has_draw() ? fmt::format("drew {} from {}, so ", s.draw, range()) : std::string(),
                       s.outcome ? "bottom" : "top", item(r.after, first), item(r.after, first + 1));
  }
  if (a == "gap" && s.cursor != none) {
    // A cut when the draw is below Q·q (Q = p/q): the step carries the outcome, not p.
    const std::string coin = r.has_draw() ? fmt::format("drew {} from {}, {} Q·{}, so ", s.draw, range(),
                                                        s.outcome ? "below" : "not below", s.draw_hi + 1)
                                          : std::string();
    if (!s.outcome) return fmt::format("gap {}: {}no cut here", s.cursor + 1, coin);
    return fmt::format("gap {}: {}cut: the packet above it goes on top of the new pile ({})", s.cursor + 1, coin,
                       pile_cards());
  }
  if (a == "packet") {
    return fmt::format("the last packet goes on top of the new pile ({})", pile_cards());
  }
  if (a == "deal" && s.pile != none) {
    return fmt::format("deal {} onto pile {} (pile {} now holds {})", item(r.after, s.b), s.pile + 1, s.pile + 1,
                       pile_cards());
  }
  if (a == "gather" && s.pile != none) {
    const std::uint64_t left = s.draw_hi - s.draw_lo + 1;
    const std::string how = r.has_draw() ? fmt::format("drew {} from {}: the {} of the {} piles left; ", s.draw, range(),
                                                       ordinal(s.draw + 1), left)
                                         : std::string();
    return fmt::format("gather pile {} ({}{}) under the piles gathered so far", s.pile + 1, how, pile_cards());
  }
  if (a == "cut" && s.outcome && s.cursor == none) {
    const std::size_t n = r.before.size();
    return fmt::format("cut: drew {} from {}: the top {} card{} go{} under the other {}", s.draw, range(), s.a,
                       s.a == 1 ? "" : "s", s.a == 1 ? "es" : "", n - s.a);
  }
  if (a == "cut") {
    const std::uint64_t k = s.a != none ? s.a : s.draw;
    const std::size_t n = r.before.size();
    if (k > n) return "cut" + suffix(drew());
    if (r.has_draw() && s.draw_lo == 0 && s.draw_hi + 1 == (std::uint64_t{1} << n) && s.a != none) {
      // The riffle's n coin flips as the bits of one draw: the number of heads is the cut.
      const std::string left = k == 1 ? std::string("the first item forms the left pile")
                                      : fmt::format("the first {} items form the left pile", k);
      return fmt::format("cut: drew {} from {}, {} in binary: {} coin flips, {} head{}, so {}, the "
                         "other {} the right pile",
                         s.draw, range(), fmt::format("{:0{}b}", s.draw, n), n, k, k == 1 ? "" : "s",
                         k == 0 ? std::string("the left pile is empty") : left, n - k);
    }
    const std::string left = k == 0   ? std::string("the left pile is empty")
                             : k == 1 ? std::string("the first item forms the left pile")
                                      : fmt::format("the first {} items form the left pile", k);
    const std::string right = n - k == 0   ? std::string("the right pile is empty")
                              : n - k == 1 ? std::string("the other item the right pile")
                                           : fmt::format("the other {} the right pile", n - k);
    return fmt::format("cut: {}, {}{}", left, right, suffix(drew()));
  }
  if (a == "drop") {
    if (r.has_draw() && s.a != none && s.b != none && !s.outcome && s.a >= s.b) {
      // From the right pile: its source position minus the output position is the left pile's size.
      return fmt::format("drop the next item from the right pile (drew {} from {}: not below {}, the "
                         "left pile's size): {}",
                         s.draw, range(), s.a - s.b, item(r.after, s.b));
    }
    if (r.has_draw() && s.outcome && s.b != none) {
      return fmt::format("drop the next item from the left pile (drew {} from {}: below the left "
                         "pile's size): {}",
                         s.draw, range(), item(r.after, s.b));
    }
    return fmt::format("drop the next item from the {} pile{}", s.outcome ? "left" : "right",
                       suffix(drew()));
  }
  if (a == "key") {
    if (!r.has_draw()) return fmt::format("give a[{}] = {} a random key", s.a, item(r.before, s.a));
    return fmt::format("give a[{}] = {} the random key {} (from {})", s.a, item(r.before, s.a), s.draw,
                       range());
  }
  if (a == "sort") {
    return "sort by key (a stable sort: items with equal keys keep their order)";
  }
  // The remaining actions are worded around their draw; without one, fall through to the plain
  // field-by-field form below.
  if (a == "strike" && r.has_draw()) {
    const std::uint64_t k = s.draw - s.draw_lo + 1;
    const std::uint64_t left = s.draw_hi - s.draw_lo + 1;
    return fmt::format("k = {} (k in {}): strike out the {} of the {} items not yet struck ({}, "
                       "position {}) and write it at position {}",
                       s.draw, range(), ordinal(k), left, item(r.after, s.b), s.a, s.b);
  }
  if (a == "place" && r.has_draw()) {
    if (s.a == s.b) {
      return fmt::format("i = {}, j = {} (j in {}): the new item {} goes to a[{}]", s.a, s.draw,
                         range(), item(r.after, s.a), s.a);
    }
    return fmt::format("i = {}, j = {} (j in {}): move a[{}] ({}) to a[{}], and put the new item "
                       "{} in a[{}]",
                       s.a, s.draw, range(), s.b, item(r.after, s.a), s.a, item(r.after, s.b), s.b);
  }
  if (a == "pick" && r.has_draw()) {
    const std::uint64_t left = s.draw_hi - s.draw_lo + 1;
    const std::size_t pos = s.b != none ? s.b : s.a;
    std::string text = fmt::format("pick index {} of the {} item{} left (index in {})", s.draw, left,
                                   left == 1 ? "" : "s", range());
    if (pos != none) text += fmt::format(": {} goes to position {}", item(r.after, pos), pos);
    return text;
  }
  // An action this version does not know: every field it reported, plainly.
  std::vector<std::string> parts;
  if (s.cursor != none) parts.push_back(fmt::format("i = {}", s.cursor));
  if (r.has_draw()) parts.push_back(drew());
  if (s.a != none) parts.push_back(fmt::format("a = {}", s.a));
  if (s.b != none) parts.push_back(fmt::format("b = {}", s.b));
  parts.push_back(fmt::format("outcome {}", s.outcome ? "yes" : "no"));
  return fmt::format("{}: {}", a.empty() ? "step" : a, fmt::join(parts, ", "));
}

std::vector<std::uint64_t> parse_draw_list(std::string_view text) {
  std::vector<std::uint64_t> out;
  if (text.empty()) return out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value, 10);
    if (item.empty() || ec == std::errc::invalid_argument || ptr != item.data() + item.size()) {
      throw error(fmt::format("invalid value '{}' for --draws: expected a non-negative decimal integer", item));
    }
    if (ec == std::errc::result_out_of_range) throw error(fmt::format("invalid value '{}' for --draws: too large", item));
    out.push_back(value);
    start = comma + 1;
  }
  return out;
}

}  // namespace shufl
