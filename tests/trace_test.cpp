// Unit tests of the trace library: recorded steps, the worked example, --draws errors, the
// counting argument and the wording of every action.
#include "shufl/trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "shufl/detail/algorithm_ops.hpp"
#include "shufl/error.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace shufl {
namespace {

trace_options options(std::string_view algo, std::size_t n) {
  trace_options o;
  o.algorithm = parse_algorithm_list(algo).front();
  o.n = n;
  return o;
}

std::string error_of(const trace_options& o) {
  try {
    (void)run_trace(o);
  } catch (const error& e) {
    return e.what();
  }
  return "(no error)";
}

const std::vector<std::string> kLetters = {"A", "B", "C", "D", "E"};

// The classic worked example: A B C D E, j = 2, 0, 2, 0 gives B D E A C.
TEST(Trace, WorkedExampleFisherYates) {
  auto o = options("fisher-yates", 5);
  o.draws = std::vector<std::uint64_t>{2, 0, 2, 0};
  const trace_result t = run_trace(o);
  EXPECT_EQ(t.result, (std::vector<std::uint8_t>{1, 3, 4, 0, 2}));  // B D E A C
  ASSERT_EQ(t.steps.size(), 4u);
  EXPECT_EQ(t.draws, 4u);
  EXPECT_TRUE(t.marks_final);
  const std::size_t cursors[] = {4, 3, 2, 1};
  const std::uint64_t js[] = {2, 0, 2, 0};
  for (std::size_t k = 0; k < 4; ++k) {
    const auto& r = t.steps[k];
    EXPECT_EQ(r.action, "swap");
    EXPECT_TRUE(r.step.action.empty());
    EXPECT_EQ(r.step.cursor, cursors[k]);
    EXPECT_EQ(r.step.draw, js[k]);
    EXPECT_EQ(r.step.draw_lo, 0u);
    EXPECT_EQ(r.step.draw_hi, cursors[k]);
    EXPECT_EQ(r.step.final_begin, cursors[k]);
    EXPECT_EQ(r.step.final_end, 5u);
    if (k > 0) {
      EXPECT_EQ(r.before, t.steps[k - 1].after);
    }
  }
  EXPECT_EQ(t.steps.front().before, (std::vector<std::uint8_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(t.steps[0].after, (std::vector<std::uint8_t>{0, 1, 4, 3, 2}));  // A B E D C
  EXPECT_EQ(t.steps.back().after, t.result);
  EXPECT_EQ(describe_step(t.steps[0], kLetters), "i = 4, j = 2 (j in [0, 4]): swap a[4] and a[2] (E and C)");
  EXPECT_EQ(describe_step(t.steps[2], kLetters), "i = 2, j = 2 (j in [0, 2]): a[2] stays where it is (E)");
  EXPECT_EQ(t.counting.kind, path_kind::equally_likely);
  EXPECT_EQ(t.counting.paths, "120");
  EXPECT_EQ(t.counting.paths_formula, "5 × 4 × 3 × 2");
  EXPECT_TRUE(t.counting.divisible);
  EXPECT_NE(t.counting.statement.find("not sufficient"), std::string::npos);
}

TEST(Trace, NaiveCountsNToTheN) {
  auto o = options("naive", 5);
  o.draws = std::vector<std::uint64_t>{0, 1, 2, 3, 4};
  const trace_result t = run_trace(o);
  EXPECT_EQ(t.result, (std::vector<std::uint8_t>{0, 1, 2, 3, 4}));
  EXPECT_FALSE(t.marks_final);
  EXPECT_EQ(t.counting.ranges, (std::vector<std::uint64_t>(5, 5)));
  EXPECT_EQ(t.counting.paths, "3125");
  EXPECT_EQ(t.counting.paths_formula, "5^5");
  EXPECT_EQ(t.counting.n_factorial, "120");
  EXPECT_FALSE(t.counting.divisible);
  EXPECT_NE(t.counting.statement.find("3125 is not divisible by 5! = 120"), std::string::npos)
      << t.counting.statement;
  EXPECT_NE(t.counting.statement.find("not uniform for n = 5"), std::string::npos);
}

TEST(Trace, DrawErrorsNameTheStepAndTheRange) {
  auto o = options("fisher-yates", 5);
  o.draws = std::vector<std::uint64_t>{2, 0, 3, 0};
  EXPECT_EQ(error_of(o), "--draws: 3 (value 3 of the list) is out of range for step 3, which draws from [0, 2]");
  o.draws = std::vector<std::uint64_t>{2, 0};
  EXPECT_EQ(error_of(o), "--draws: too few values: step 3 needs a value in [0, 2], but the list has only 2");
  o.draws = std::vector<std::uint64_t>{2, 0, 2, 0, 0, 1};
  EXPECT_EQ(error_of(o), "--draws: 2 values left over: fisher-yates on 5 items made 4 draws");
  o.draws = std::vector<std::uint64_t>{};
  EXPECT_EQ(error_of(o), "--draws: too few values: step 1 needs a value in [0, 4], but the list has only 0");
  auto one = options("fisher-yates", 1);
  one.draws = std::vector<std::uint64_t>{};
  EXPECT_EQ(run_trace(one).result, (std::vector<std::uint8_t>{0}));
}

TEST(Trace, RejectsBadSizes) {
  EXPECT_EQ(error_of(options("fisher-yates", 0)), "the number of items must be between 1 and 255 (got 0)");
  EXPECT_EQ(error_of(options("naive", 256)), "the number of items must be between 1 and 255 (got 256)");
  EXPECT_THROW((void)run_trace(trace_options{}), error);
}

// --seed S: ChaCha20 keyed by derive_key(key_from_seed(S), "trace", 0), as documented.
TEST(Trace, SeedKeyingIsAsDocumented) {
  for (const char* algo : {"fisher-yates", "naive"}) {
    auto o = options(algo, 9);
    o.seed.emplace("7");
    const trace_result t = run_trace(o);
    std::vector<std::uint8_t> deck(9);
    std::iota(deck.begin(), deck.end(), std::uint8_t{0});
    chacha20_engine engine(derive_key(key_from_seed("7"), "trace", 0), 0);
    dynamic_engine_for<chacha20_engine> dynamic(engine);
    o.algorithm.info->run_traced(deck, dynamic, 0, [](const shuffle_step&, std::span<const std::uint8_t>) {});
    EXPECT_EQ(t.result, deck) << algo;
    EXPECT_EQ(run_trace(o).result, t.result) << algo;  // deterministic
  }
}

// Every registered algorithm traces: the result is a permutation, each step's "after" chains into
// the next "before", draws are counted, and the counting argument names n!.
TEST(Trace, EveryRegisteredAlgorithmTraces) {
  for (const auto& info : algorithms()) {
    for (std::size_t n : {1, 2, 3, 6}) {
      trace_options o;
      o.algorithm = {&info, info.default_parameter};
      o.n = n;
      o.seed.emplace("every");
      const trace_result t = run_trace(o);
      std::vector<std::uint8_t> sorted = t.result;
      std::sort(sorted.begin(), sorted.end());
      std::vector<std::uint8_t> ident(n);
      std::iota(ident.begin(), ident.end(), std::uint8_t{0});
      EXPECT_EQ(sorted, ident) << info.name << " n=" << n;
      for (std::size_t k = 1; k < t.steps.size(); ++k) {
        EXPECT_EQ(t.steps[k].before, t.steps[k - 1].after);
      }
      EXPECT_EQ(t.counting.ranges.size(), t.draws);
      ASSERT_EQ(t.values.size(), t.draws);
      // The recorded values replay the run exactly.
      trace_options replay = o;
      replay.seed.reset();
      replay.draws = t.values;
      const trace_result again = run_trace(replay);
      EXPECT_EQ(again.result, t.result) << info.name << " n=" << n;
      EXPECT_EQ(again.steps.size(), t.steps.size());
      EXPECT_FALSE(t.counting.statement.empty());
      // What trace assumes about an algorithm's paths must survive its check against a second path.
      if (known_path_kind(info.name) != path_kind::unknown) {
        EXPECT_EQ(t.counting.kind, known_path_kind(info.name)) << info.name << " n=" << n;
      }
    }
  }
}

TEST(Trace, KnownPathKinds) {
  EXPECT_EQ(known_path_kind("fisher-yates"), path_kind::equally_likely);
  EXPECT_EQ(known_path_kind("sattolo"), path_kind::equally_likely);
  EXPECT_EQ(known_path_kind("modulo"), path_kind::equally_likely);
  EXPECT_EQ(known_path_kind("sort-coin"), path_kind::coin_flips);
  EXPECT_EQ(known_path_kind("sort-coin:insertion"), path_kind::coin_flips);
  EXPECT_EQ(known_path_kind("sort-coin:merge"), path_kind::coin_flips);
  // n(n-1)/2 coins in every run: equally likely paths.
  EXPECT_EQ(known_path_kind("sort-coin:bubble"), path_kind::equally_likely);
  EXPECT_EQ(known_path_kind("sort-coin:selection"), path_kind::equally_likely);
  EXPECT_EQ(known_path_kind("weak-seed"), path_kind::equally_likely);
  EXPECT_EQ(known_path_kind("riffle"), path_kind::riffle);
  EXPECT_EQ(known_path_kind("something-new"), path_kind::unknown);
}

TEST(Trace, CountingArgumentForEachKind) {
  // Sattolo on 5: ranges 4, 3, 2, 1 -> (n-1)! = 24 paths, not divisible by 120.
  auto c = make_counting_argument(path_kind::equally_likely, 5, std::vector<std::uint64_t>{4, 3, 2, 1}, "sattolo", 0);
  EXPECT_EQ(c.paths, "24");
  EXPECT_EQ(c.paths_formula, "4 × 3 × 2");
  EXPECT_FALSE(c.divisible);
  // modulo:8 on 5: four draws of 256 -> 2^32.
  c = make_counting_argument(path_kind::equally_likely, 5, std::vector<std::uint64_t>(4, 256), "modulo:8", 8);
  EXPECT_EQ(c.paths, "4294967296");
  EXPECT_EQ(c.paths_formula, "256^4");
  EXPECT_FALSE(c.divisible);
  // Divisible but not n!: naive on 2 -> 4 paths over 2 orders (necessary, not sufficient).
  c = make_counting_argument(path_kind::equally_likely, 2, std::vector<std::uint64_t>{2, 2}, "naive", 0);
  EXPECT_TRUE(c.divisible);
  EXPECT_NE(c.statement.find("necessary for a uniform shuffle, not sufficient"), std::string::npos);
  // Long descending runs are abbreviated; huge numbers are approximate.
  std::vector<std::uint64_t> fy52;
  for (std::uint64_t s = 52; s >= 2; --s) fy52.push_back(s);
  c = make_counting_argument(path_kind::equally_likely, 52, fy52, "fisher-yates", 0);
  EXPECT_EQ(c.paths_formula, "52 × 51 × ... × 2");
  EXPECT_TRUE(c.divisible);
  EXPECT_EQ(c.paths, c.n_factorial);
  EXPECT_NE(c.statement.find("about 8.07e67"), std::string::npos) << c.statement;
  // Inside-out draws ascend: 1 drops out.
  c = make_counting_argument(path_kind::equally_likely, 8, std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7, 8},
                             "inside-out", 0);
  EXPECT_EQ(c.paths_formula, "2 × 3 × ... × 8");
  EXPECT_EQ(c.paths, "40320");
  // Coin flips: powers of 1/2 cannot make 1/n! for n >= 3 ...
  c = make_counting_argument(path_kind::coin_flips, 3, std::vector<std::uint64_t>(3, 2), "sort-coin:insertion", 0);
  EXPECT_NE(c.statement.find("3 random draws (coin flips)"), std::string::npos) << c.statement;
  EXPECT_NE(c.statement.find("varies from run to run"), std::string::npos);
  EXPECT_NE(c.statement.find("1/3! = 1/6 is not (3 divides 6)"), std::string::npos) << c.statement;
  // ... but can for n = 2.
  c = make_counting_argument(path_kind::coin_flips, 2, std::vector<std::uint64_t>{2}, "sort-coin:merge", 0);
  EXPECT_NE(c.statement.find("does not rule out"), std::string::npos) << c.statement;
  c = make_counting_argument(path_kind::riffle, 5, std::vector<std::uint64_t>{2, 2, 6}, "riffle:7", 7);
  EXPECT_NE(c.statement.find("1/2^(7·5)"), std::string::npos) << c.statement;
  EXPECT_NE(c.statement.find("Gilbert-Shannon-Reeds"), std::string::npos);
  c = make_counting_argument(path_kind::unknown, 4, std::vector<std::uint64_t>{4, 4}, "mystery", 0);
  EXPECT_NE(c.statement.find("no conclusion"), std::string::npos) << c.statement;
  EXPECT_NE(c.statement.find("4^2 = 16 paths"), std::string::npos) << c.statement;
}

// Algorithms the registry does not have yet, written to the observer protocol, to show that trace
// needs no change when they land: Sattolo's cyclic shuffle and an insertion sort with a coin as
// its comparator.
struct test_sattolo {
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t, Observer&& observer = {}) const {
    for (std::size_t i = a.size(); i-- > 1;) {
      const auto j = static_cast<std::size_t>(uniform_below(engine, i));
      std::swap(a[i], a[j]);
      observer(shuffle_step{.action = "swap", .cursor = i, .draw = j, .draw_lo = 0, .draw_hi = i - 1, .a = i,
                            .b = j, .final_begin = i, .final_end = a.size()},
               std::span<const T>(a));
    }
  }
};
struct test_coin_insertion_sort {
  template <class T, class Engine, class Observer = no_observer>
  void operator()(std::span<T> a, Engine& engine, std::uint64_t, Observer&& observer = {}) const {
    for (std::size_t i = 1; i < a.size(); ++i) {
      for (std::size_t k = i; k > 0; --k) {
        const bool less = uniform_below(engine, 2) == 1;  // "is a[k-1] < a[k]?"
        observer(shuffle_step{.action = "compare", .draw = less ? 1u : 0u, .draw_lo = 0, .draw_hi = 1, .a = k - 1,
                              .b = k, .outcome = less},
                 std::span<const T>(a));
        if (less) break;
        std::swap(a[k - 1], a[k]);
        observer(shuffle_step{.action = "swap", .a = k - 1, .b = k}, std::span<const T>(a));
      }
    }
  }
};

template <class Algorithm>
algorithm_info test_info(std::string_view name) {
  algorithm_info info;
  info.name = name;
  info.definition = "a test algorithm";
  info.run_scripted = &detail::algorithm_ops<Algorithm>::run_scripted;
  info.run_traced = &detail::algorithm_ops<Algorithm>::run_traced;
  return info;
}

TEST(Trace, FutureAlgorithmsNeedNoChange) {
  const algorithm_info sattolo = test_info<test_sattolo>("sattolo");
  trace_options o;
  o.algorithm = {&sattolo, 0};
  o.n = 5;
  o.seed.emplace("s");
  trace_result t = run_trace(o);
  EXPECT_EQ(t.draws, 4u);
  EXPECT_EQ(t.counting.kind, path_kind::equally_likely);
  EXPECT_EQ(t.counting.paths, "24");
  EXPECT_EQ(t.counting.paths_formula, "4 × 3 × 2");
  EXPECT_FALSE(t.counting.divisible);
  for (std::size_t k = 0; k < 5; ++k) EXPECT_NE(t.result[k], k);  // one cycle: no fixed point

  const algorithm_info coin_sort = test_info<test_coin_insertion_sort>("sort-coin");
  o.algorithm = {&coin_sort, 0};
  o.n = 3;
  o.seed.reset();
  o.draws = std::vector<std::uint64_t>{0, 1};  // B < A? no: swap; then C after A? yes
  t = run_trace(o);
  EXPECT_EQ(t.result, (std::vector<std::uint8_t>{1, 0, 2}));
  ASSERT_EQ(t.steps.size(), 3u);
  EXPECT_EQ(describe_step(t.steps[0], kLetters),
            "compare a[0] = A with a[1] = B: should A come first? a coin says no (drew 0 from [0, 1])");
  EXPECT_EQ(describe_step(t.steps[1], kLetters), "swap a[0] and a[1] (A and B)");
  EXPECT_EQ(t.counting.kind, path_kind::coin_flips);
  EXPECT_NE(t.counting.statement.find("2 random draws (coin flips) in this run"), std::string::npos)
      << t.counting.statement;
  EXPECT_NE(t.counting.statement.find("no order can have probability exactly 1/3!"), std::string::npos);

  // A name trace believes draws from fixed ranges, on an algorithm that does not: the check
  // against the all-zeros path catches it and trace claims nothing.
  const algorithm_info impostor = test_info<test_coin_insertion_sort>("two-array");
  o.algorithm = {&impostor, 0};
  o.draws = std::vector<std::uint64_t>{1, 1};
  EXPECT_EQ(run_trace(o).counting.kind, path_kind::unknown);
  // And an unknown name: the generic statement.
  const algorithm_info mystery = test_info<test_sattolo>("mystery");
  o.algorithm = {&mystery, 0};
  o.draws = std::vector<std::uint64_t>{1, 0};
  t = run_trace(o);
  EXPECT_EQ(t.counting.kind, path_kind::unknown);
  EXPECT_NE(t.counting.statement.find("no conclusion"), std::string::npos);
}

trace_record record(std::string action, shuffle_step s, std::vector<std::uint8_t> before,
                    std::vector<std::uint8_t> after) {
  trace_record r;
  r.action = std::move(action);
  r.step = s;
  r.before = std::move(before);
  r.after = std::move(after);
  return r;
}

// The wording of every action the algorithms report, including ones not registered yet.
TEST(Trace, DescribesEveryAction) {
  const std::vector<std::uint8_t> abcde = {0, 1, 2, 3, 4};
  EXPECT_EQ(describe_step(record("swap", {.action = {}, .draw = 3, .draw_lo = 0, .draw_hi = 4, .a = 1, .b = 3}, abcde,
                                 {0, 3, 2, 1, 4}),
                          kLetters),
            "drew 3 from [0, 4]: swap a[1] and a[3] (B and D)");
  EXPECT_EQ(describe_step(record("compare", {.action = {}, .draw = 1, .draw_lo = 0, .draw_hi = 1, .a = 0, .b = 1, .outcome = true},
                                 abcde, abcde),
                          kLetters),
            "compare a[0] = A with a[1] = B: should A come first? a coin says yes (drew 1 from [0, 1])");
  EXPECT_EQ(describe_step(record("compare", {.action = {}, .a = 2, .b = 4, .outcome = false}, abcde, abcde), kLetters),
            "compare a[2] = C with a[4] = E: should C come first? a coin says no");
  EXPECT_EQ(describe_step(record("cut", {.action = {}, .a = 2}, abcde, abcde), kLetters),
            "cut: the first 2 items form the left pile, the other 3 the right pile");
  EXPECT_EQ(describe_step(record("drop", {.action = {}, .draw = 1, .draw_lo = 0, .draw_hi = 4, .outcome = true}, abcde, abcde),
                          kLetters),
            "drop the next item from the left pile (drew 1 from [0, 4])");
  EXPECT_EQ(describe_step(record("drop", {.action = {}, .outcome = false}, abcde, abcde), kLetters),
            "drop the next item from the right pile");
  EXPECT_EQ(describe_step(record("key", {.action = {}, .draw = 183, .draw_lo = 0, .draw_hi = 255, .a = 2}, abcde, abcde), kLetters),
            "give a[2] = C the random key 183 (from [0, 255])");
  EXPECT_EQ(describe_step(record("sort", {}, abcde, {4, 3, 2, 1, 0}), kLetters),
            "sort by key (a stable sort: items with equal keys keep their order)");
  EXPECT_EQ(describe_step(record("strike", {.action = {}, .draw = 1, .draw_lo = 0, .draw_hi = 3, .a = 2, .b = 4}, abcde,
                                 {0, 1, 3, 4, 2}),
                          kLetters),
            "k = 1 (k in [0, 3]): strike out the 2nd of the 4 items not yet struck (C, position 2) and write "
            "it at position 4");
  EXPECT_EQ(describe_step(record("place", {.action = {}, .draw = 1, .draw_lo = 0, .draw_hi = 3, .a = 3, .b = 1},
                                 {0, 1, 2, 0}, {0, 3, 2, 1}),
                          kLetters),
            "i = 3, j = 1 (j in [0, 3]): move a[1] (B) to a[3], and put the new item D in a[1]");
  EXPECT_EQ(describe_step(record("place", {.action = {}, .draw = 2, .draw_lo = 0, .draw_hi = 2, .a = 2, .b = 2}, {0, 1, 0},
                                 {0, 1, 2}),
                          kLetters),
            "i = 2, j = 2 (j in [0, 2]): the new item C goes to a[2]");
  EXPECT_EQ(describe_step(record("pick", {.action = {}, .draw = 2, .draw_lo = 0, .draw_hi = 3, .b = 1}, abcde, {4, 2, 2, 3, 4}),
                          kLetters),
            "pick index 2 of the 4 items left (index in [0, 3]): C goes to position 1");
  EXPECT_EQ(describe_step(record("frobnicate", {.action = {}, .cursor = 2, .draw = 1, .draw_lo = 0, .draw_hi = 2, .a = 0},
                                 abcde, abcde),
                          kLetters),
            "frobnicate: i = 2, drew 1 from [0, 2], a = 0, outcome no");
  // Without a draw, the drawn-value actions fall back to their fields.
  EXPECT_EQ(describe_step(record("key", {.action = {}, .a = 1}, abcde, abcde), kLetters), "give a[1] = B a random key");
  EXPECT_EQ(describe_step(record("pick", {.action = {}, .b = 1}, abcde, abcde), kLetters), "pick: b = 1, outcome no");
  // Positions outside the deck never crash the wording.
  EXPECT_EQ(describe_step(record("swap", {.action = {}, .a = 9, .b = 0}, abcde, abcde), kLetters),
            "swap a[9] and a[0] (? and A)");
}

trace_result trace_of(std::string_view algo, std::size_t n, std::vector<std::uint64_t> draws) {
  trace_options o;
  o.algorithm = parse_algorithm_list(algo).at(0);
  o.n = n;
  o.draws = std::move(draws);
  return run_trace(o);
}

// Random transpositions draw both positions; the cursor only counts the swaps.
TEST(Trace, WordsTranspositions) {
  const trace_result t = trace_of("transpositions:2", 4, {2, 0, 1, 1});
  ASSERT_EQ(t.steps.size(), 2u);
  EXPECT_TRUE(t.steps[0].step.a_drawn);
  EXPECT_EQ(describe_step(t.steps[0], kLetters),
            "transposition 1: p = 2, q = 0 (each uniform in [0, 3]): swap a[2] and a[0] (C and A)");
  // Here p = 1 equals the cursor (1) and q: still two draws, not Fisher-Yates's "i = 1, j = 1".
  EXPECT_EQ(describe_step(t.steps[1], kLetters),
            "transposition 2: p = 1, q = 1 (each uniform in [0, 3]): a[1] stays where it is (B)");
  // Likewise p = 0 with cursor 0 and q = 3.
  const trace_result u = trace_of("transpositions:1", 4, {0, 3});
  EXPECT_EQ(describe_step(u.steps[0], kLetters),
            "transposition 1: p = 0, q = 3 (each uniform in [0, 3]): swap a[0] and a[3] (A and D)");
}

// modulo:B draws a raw r and reduces it: both are shown, with the reduction.
TEST(Trace, WordsModulo) {
  const trace_result t = trace_of("modulo:3", 4, {1, 5, 5});
  ASSERT_EQ(t.steps.size(), 3u);
  EXPECT_EQ(describe_step(t.steps[0], kLetters),
            "i = 3: r = 1 (r in [0, 7]), j = r % (i + 1) = 1 % 4 = 1: swap a[3] and a[1] (D and B)");
  EXPECT_EQ(describe_step(t.steps[1], kLetters),
            "i = 2: r = 5 (r in [0, 7]), j = r % (i + 1) = 5 % 3 = 2: a[2] stays where it is (C)");
  EXPECT_EQ(t.result, (std::vector<std::uint8_t>{0, 3, 2, 1}));
}

// weak-seed: one real draw, the seed; the Fisher-Yates j's come from the seeded generator.
TEST(Trace, WordsWeakSeed) {
  const trace_result t = trace_of("weak-seed", 4, {788390941});
  ASSERT_EQ(t.steps.size(), 4u);
  EXPECT_EQ(describe_step(t.steps[0], kLetters),
            "seed a 32-bit generator with 788390941 (one of 2^32 seeds, drawn from [0, 4294967295]); "
            "every later draw follows from it");
  EXPECT_FALSE(t.steps[0].seeded);
  for (std::size_t k = 1; k < 4; ++k) {
    EXPECT_TRUE(t.steps[k].seeded);
    EXPECT_NE(describe_step(t.steps[k], kLetters).find(", from the seeded generator): "), std::string::npos)
        << describe_step(t.steps[k], kLetters);
  }
  EXPECT_EQ(t.counting.kind, path_kind::equally_likely);
  EXPECT_EQ(t.counting.paths_formula, "2^32");
  EXPECT_NE(t.counting.statement.find("2^32 = 4294967296 equally likely paths"), std::string::npos)
      << t.counting.statement;
  EXPECT_NE(t.counting.statement.find("not divisible by 4! = 24"), std::string::npos);
  // n = 13: 13! = 6227020800 > 2^32, so most orders can never occur.
  const trace_result big = trace_of("weak-seed", 13, {1});
  EXPECT_NE(big.counting.statement.find("4294967296 paths can reach at most 4294967296 of the 6227020800 "
                                        "orders"),
            std::string::npos)
      << big.counting.statement;
  // Fisher-Yates's own steps say nothing of a seeded generator.
  const trace_result fy = trace_of("fisher-yates", 3, {1, 0});
  EXPECT_FALSE(fy.steps[0].seeded);
}

// A coin sort acts after the comparison it reports: each step shows the comparison, then what it
// led to, and the next step compares the items really in those positions.
TEST(Trace, CoinSortStepsSeeTheirDeck) {
  const trace_result t = trace_of("sort-coin:insertion", 4, {0, 1, 1, 0});
  ASSERT_EQ(t.steps.size(), 4u);
  EXPECT_EQ(describe_step(t.steps[1], kLetters),
            "compare a[1] = B with a[2] = C: should B come first? a coin says no (drew 1 from [0, 1]); "
            "then swap a[1] and a[2] (B and C)");
  EXPECT_EQ(describe_step(t.steps[2], kLetters),
            "compare a[0] = A with a[1] = C: should A come first? a coin says no (drew 1 from [0, 1]); "
            "then swap a[0] and a[1] (A and C)");
  EXPECT_EQ(t.steps.back().after, t.result);
  const trace_result m = trace_of("sort-coin:merge", 4, {0, 1, 1, 0, 0});
  EXPECT_EQ(describe_step(m.steps[2], kLetters),
            "compare a[0] = A with a[2] = D: should A come first? a coin says no (drew 1 from [0, 1]); "
            "then D moves from a[2] to a[0]");
  const trace_result b = trace_of("sort-coin:bubble", 4, {0, 0, 0, 0, 0, 0});
  EXPECT_EQ(b.counting.kind, path_kind::equally_likely);
  EXPECT_EQ(b.counting.paths_formula, "2^6");
}

TEST(Trace, CountingNamesUnreachableOrders) {
  // Sattolo on 4: 6 paths for 24 orders.
  const auto c = make_counting_argument(path_kind::equally_likely, 4, std::vector<std::uint64_t>{3, 2, 1}, "sattolo", 0);
  EXPECT_NE(c.statement.find("6 paths can reach at most 6 of the 24 orders"), std::string::npos) << c.statement;
  // random-keys:16 on 3: (2^16)^3 paths, more than 3!: no such clause.
  const auto k = make_counting_argument(path_kind::equally_likely, 3, std::vector<std::uint64_t>(3, 65536), "random-keys:16", 16);
  EXPECT_EQ(k.paths_formula, "(2^16)^3");
  EXPECT_EQ(k.statement.find("at most"), std::string::npos) << k.statement;
}

// The riffle shows its draws: the cut's coin flips as bits, each drop's d against the left pile.
TEST(Trace, WordsRiffleDraws) {
  const trace_result t = trace_of("riffle:1", 5, {5, 3, 2, 0, 0});
  ASSERT_EQ(t.steps.size(), 5u);
  EXPECT_EQ(describe_step(t.steps[0], kLetters),
            "cut: drew 5 from [0, 31], 00101 in binary: 5 coin flips, 2 heads, so the first 2 items form "
            "the left pile, the other 3 the right pile");
  EXPECT_EQ(describe_step(t.steps[1], kLetters),
            "drop the next item from the right pile (drew 3 from [0, 4]: not below 2, the left pile's "
            "size): C");
  EXPECT_EQ(describe_step(t.steps[3], kLetters),
            "drop the next item from the left pile (drew 0 from [0, 2]: below the left pile's size): A");
  EXPECT_EQ(t.result, (std::vector<std::uint8_t>{2, 3, 0, 1, 4}));
}

}  // namespace
}  // namespace shufl
