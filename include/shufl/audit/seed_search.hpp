// Seed search: given logged deals, find the seed of a weak generator that reproduces them.
//
// A family is a generator AND the shuffle code people write with it, re-implemented exactly
// (checked against the real library on this machine by tests). Convention: the list to shuffle
// holds the n cards in `shufl deck`'s canonical order (index c = canonical card c, deck.hpp),
// the family's shuffle runs on it, and the cards are dealt from index 0 (list[0] is the first
// card dealt). A logged deal is the first K ≥ 1 cards dealt, as canonical indices.
//
// Reseeding: `per_deal` — each deal is shuffled right after seeding (the ASF Software pattern:
// seed, fresh canonical list, shuffle); each logged deal is an independent search and gets its
// own seed. `once` — one seed, then the generator runs on: every deal shuffles a FRESH canonical
// list (as `deck = list(range(52)); random.shuffle(deck)` in a loop does) with the next outputs.
#pragma once

#include <cstddef>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shufl/deck.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {

/// The searchable generator + shuffle families.
enum class seed_family : std::uint8_t { python_random, c_rand, cpp_mt19937, java_random, asf_poker, glibc_rand_r,
                                         msvc_rand, php_mt_rand, php_mt_rand_legacy, go_math_rand, dotnet_random,
                                         node_math_random };

/// What a time window's instants become as seeds of a family.
enum class time_unit : std::uint8_t {
  unix_seconds,              ///< int(time.time()), time(NULL)
  unix_milliseconds,         ///< System.currentTimeMillis()
  milliseconds_since_midnight,  ///< Delphi's Randomize as ASF used it (clock time, 0..86,399,999)
  milliseconds_since_boot,      ///< .NET's Environment.TickCount (`uptime:` ranges; no time windows)
};

/// One family: its name, its one-line definition with the source, the seeds it accepts.
struct seed_family_info {
  seed_family family;
  std::string_view name;        ///< "python-random", ...
  std::string_view definition;  ///< One line: generator, shuffle code, source.
  std::uint64_t max_seed;       ///< Largest distinct seed (larger ones alias or are refused).
  time_unit unit;               ///< How a time window maps to seeds.
};

/// The families in documentation order.
std::span<const seed_family_info> seed_families() noexcept;
/// The family of a name; throws shufl::error with the closest name otherwise.
const seed_family_info& parse_seed_family(std::string_view name);
const seed_family_info& family_info(seed_family family) noexcept;

enum class reseed_mode : std::uint8_t { per_deal, once };

/// The shuffle loop a family's generator drives (draw(k) is the reduced draw in [0, k)):
/// down: for i = n−1 down to 1, swap(a[i], a[draw(i+1)]) (every family's default but asf-poker
/// and cpp-mt19937, which have their own); up: for i = 0 to n−2, swap(a[i], a[i + draw(n−i)]);
/// naive: for i = 0 to n−1, swap(a[i], a[draw(n)]); inside-out: for i = 0 to n−1 (i = 0 draws
/// too), j = draw(i+1), a[i] = a[j], a[j] = i (Go's Perm); sample: CPython 3.11's
/// random.sample(list, k) (python-random only): when n ≤ 21 + (k > 5 ? 4^⌈log4(3k)⌉ : 0), for i
/// = 0 to k−1: j = draw(n−i), deal pool[j], pool[j] = pool[n−i−1]; otherwise for i = 0 to k−1:
/// j = draw(n) drawn again while already dealt, deal list[j]. A sample deals k cards, not n.
/// pop (node-math-random only): down, then the cards dealt with pop() from the end of the list
/// (the last index first); sort (node-math-random only): deck.sort(() => Math.random() - 0.5) as
/// V8 sorts fewer than 64 elements.
enum class shuffle_loop : std::uint8_t { down, up, naive, inside_out, sample, pop, sort };
/// How a raw output becomes draw(k): native, the generator's own bounded draw (c-rand: rand() % k;
/// go-math-rand's down loop: Shuffle's own multiply, its other loops r.Intn(k)); div: rand() /
/// (RAND_MAX / k + 1) (c-rand, glibc-rand-r: RAND_MAX = 2^31 − 1); mod: go-math-rand's r.Intn(k)
/// in the down loop (a hand-written loop rather than r.Shuffle).
enum class draw_reduction : std::uint8_t { native, div, mod };
struct family_variant {
  shuffle_loop loop = shuffle_loop::down;
  draw_reduction reduce = draw_reduction::native;
  std::size_t sample_size = 0;  ///< sample: k, the cards random.sample deals (1..n)
  /// One list reshuffled every deal without refilling (deal d + 1 shuffles the list deal d left);
  /// only with reseed once. The first deal is unchanged, so standard() ignores it.
  bool carry_over = false;
  /// The family's own loop and draw (the fast filters apply).
  [[nodiscard]] bool standard() const noexcept { return loop == shuffle_loop::down && reduce == draw_reduction::native; }
};
/// Throws shufl::error when `family` has no such variant: --loop on cpp-mt19937, asf-poker or
/// php-mt-rand-legacy; sample on another family than python-random, or with carry_over; div on
/// another family than c-rand and glibc-rand-r; mod on another than go-math-rand, or with a loop
/// other than down.
void check_variant(seed_family family, const family_variant& variant);

/// Reference (exact, unoptimised) deals of a family: `deals` consecutive shuffles of a fresh
/// canonical list of n cards after seeding once with `seed` (per-deal reseeding is deals = 1 per
/// seed). Each result is the full list of n canonical indices, index 0 dealt first (with
/// --loop sample, the k cards dealt). n ≥ 1.
std::vector<std::vector<std::uint32_t>> family_deals(seed_family family, std::uint64_t seed, std::size_t n,
                                                     std::size_t deals, const family_variant& variant = {});

/// An inclusive range of seeds, with the text it came from.
struct seed_range {
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  bool from_time = false;  ///< A `time:` window (first/last already in the family's unit).
  std::string text;        ///< The range as given.
  [[nodiscard]] std::uint64_t count() const noexcept { return last - first + 1; }  ///< 0 means 2^64.
};

/// The most seeds one search covers: 2^48 (java-random's whole space).
inline constexpr std::uint64_t max_search_seeds = std::uint64_t{1} << 48;

/// Parses `A..B` (decimal, or `2^K`, `2^K-1`; A ≤ B ≤ the family's max_seed) or
/// `time:YYYY-MM-DDTHH:MM:SSZ..YYYY-MM-DDTHH:MM:SSZ` (UTC, both ends included) into seeds of
/// `family`: Unix seconds [t0, t1], Unix milliseconds [1000·t0, 1000·t1 + 999], or milliseconds
/// since midnight (the window's clock times; a window of a day or more, or one that crosses
/// midnight, is the whole day 0..86,399,999). Throws shufl::error naming `option` on bad syntax,
/// A > B, a seed above max_seed or more than max_search_seeds seeds, or when `text` is empty;
/// node-math-random takes no range (empty `text`: the range 0..0, the recovery; else an error).
seed_range parse_seed_range(std::string_view text, const seed_family_info& family,
                            std::string_view option = "--seeds");

/// Parses `YYYY-MM-DDTHH:MM:SSZ` into Unix seconds (proleptic Gregorian, UTC, 1970..9999).
std::optional<std::int64_t> parse_utc_time(std::string_view text) noexcept;

/// Shard `shard` of `shards` of a range: seeds [first + ⌊I·C/N⌋, first + ⌊(I+1)·C/N⌋), C = count;
/// nullopt when empty (N > C). Throws shufl::error when N = 0 or I ≥ N.
std::optional<seed_range> shard_of(const seed_range& range, std::uint64_t shard, std::uint64_t shards);

/// Progress: seeds tried so far of all seeds to try (summed over per-deal searches). Called from
/// worker threads, about every 2^16 seeds; must be thread-safe.
using seed_search_progress = std::function<void(std::uint64_t done, std::uint64_t total)>;

struct seed_search_options {
  seed_family family = seed_family::python_random;
  std::size_t n = 52;                                ///< Cards in the deck.
  std::vector<std::vector<std::uint32_t>> deals;     ///< Logged deals: first K cards, canonical indices.
  reseed_mode reseed = reseed_mode::per_deal;
  family_variant variant;                            ///< --loop, --reduce (checked by check_variant)
  seed_range range;                                  ///< The seeds to try (a shard of them already).
  unsigned threads = 1;
  /// The list's starting order: deck_order[i] = the canonical card at list index i (empty: the
  /// canonical order). Deals stay canonical cards; predictions come back as canonical cards.
  std::vector<std::uint32_t> deck_order;
  bool all = false;                                  ///< Every matching seed, not only the first.
  std::size_t max_matches = 1000;                    ///< With `all`: stop after this many per search.
  seed_search_progress progress;
  /// When given and set (by another thread), the workers stop at their next block of 2^16 seeds and
  /// the search returns what it has (the caller knows why: it set the flag).
  const std::atomic<bool>* stop = nullptr;
};

/// A seed that reproduces a deal (per_deal) or every deal (once).
struct seed_match {
  std::uint64_t seed = 0;
  std::size_t deal = 0;  ///< per_deal: the 0-based logged deal it reproduces; once: 0.
};

/// node-math-random: a V8 Math.random state (xorshift128+) and where the shuffles start in it.
struct xorshift_state {
  std::uint64_t state0 = 0;  ///< The 128-bit state before the refill of the cache block that serves
  std::uint64_t state1 = 0;  ///< the first draw of the first logged deal.
  unsigned offset = 0;       ///< Values of that block served before it (0..63: the calls made earlier, mod 64).
  bool double53 = false;     ///< ToDouble (state0 >> 11) / 2^53; false: ((state0 >> 12) | exponent of 1.0) − 1.
};

/// How node-math-random recovered (or failed to recover) the state from the logged cards.
struct state_recovery {
  std::size_t draws_seen = 0;    ///< Draws the logged cards reveal (j of Math.floor(Math.random() * k)).
  std::size_t equations = 0;     ///< Linear equations over GF(2) they give (known leading bits of state0).
  std::size_t best_rank = 0;     ///< The largest rank of a consistent system over the offsets tried (128: pinned down).
  std::size_t offsets_consistent = 0;  ///< Cache offsets (of 64) whose system was consistent.
  std::vector<xorshift_state> states;  ///< Every state that reproduces every logged card.
  double seconds = 0;            ///< CPU time of the recovery (wall clock of one thread).
};

struct seed_search_result {
  std::vector<seed_match> matches;   ///< Sorted by (deal, seed); without `all` the lowest seed per search.
  std::uint64_t seeds_tried = 0;     ///< Seeds examined over all searches (≤ range.count() × searches).
  std::size_t searches = 0;          ///< 1 (once) or the number of deals (per_deal).
  bool truncated = false;            ///< `all` stopped at max_matches.
  std::optional<state_recovery> recovery;  ///< node-math-random (matches: one {0, 0} per state found).
};

/// The node-math-random recovery (search_seeds calls it for that family; the deals in list
/// indices, dealt order). Method: each logged card of a loop that leaves it final when drawn
/// (down on whole decks, up, pop) reveals j = floor(u·k) of one Math.random() value u, i.e. the
/// leading bits that every u in [j/k, (j+1)/k) shares, and those are bits of state0, linear over
/// GF(2) in the 128-bit state; for each of the 64 cache offsets the equations are solved by
/// Gaussian elimination (up to 2^16 solutions of a short rank enumerated), and a state counts only
/// when it reproduces every logged card under one of the two ToDouble rules. Deals are
/// consecutive: n − 1 draws each, no other Math.random call between them.
state_recovery recover_node_state(const seed_search_options& options);

/// Deals made by Math.random from `state`: `deals` consecutive shuffles of a fresh canonical list
/// with `loop` (down, up, pop or sort), each in dealing order (pop: the list's last index first).
/// `values_used`, when given, receives the number of Math.random() values the deals took.
std::vector<std::vector<std::uint32_t>> node_deals(const xorshift_state& state, std::size_t n, std::size_t deals,
                                                   shuffle_loop loop, std::size_t* values_used = nullptr);
/// The Math.random() values `state` serves, from value `skip` (0: the first draw of the first
/// deal; each deal of n cards takes n − 1) on, `count` of them.
std::vector<double> node_values(const xorshift_state& state, std::size_t skip, std::size_t count);

/// Runs the search. Throws shufl::error when the deals are empty, a deal is longer than n, has a
/// card ≥ n or repeats a card, or the range exceeds the family's seeds.
/// Method: every seed in the range is tried; for the families whose loop runs from the top index
/// down (python-random, c-rand, java-random) a position is final once placed, so each placed
/// card is checked against the log at once (a logged card placed at a final index ≥ K is a
/// mismatch too) and most seeds are rejected after a few draws; the seeding is vectorised across
/// 16 seeds (Mersenne Twister's init_by_array; glibc's 310 discarded outputs are a fixed linear
/// map of the 31 seeded words, precomputed). Candidates are confirmed by `family_deals`.
seed_search_result search_seeds(const seed_search_options& options);

/// A 52-card list's starting order from `suit-major[:SUITS[:RANKS]]` or `rank-major[:SUITS[:RANKS]]`
/// (SUITS a permutation of "shdc", RANKS of "A23456789TJQK"; canonical = suit-major:shdc:A23456789TJQK):
/// suit-major fills SUITS[0]'s RANKS, then SUITS[1]'s...; rank-major fills RANKS[0] in SUITS order,
/// then RANKS[1]... Returns deck_order (empty for the canonical order). Throws shufl::error naming
/// --deck-order on bad syntax or when n ≠ 52.
std::vector<std::uint32_t> parse_deck_order(std::string_view spec, std::size_t n);

/// The names --loop takes (in shuffle_loop order; sample also as sample:K) and --reduce takes.
inline constexpr std::array<std::string_view, 7> shuffle_loop_names{"down", "up", "naive", "inside-out", "sample", "pop", "sort"};
inline constexpr std::array<std::string_view, 3> draw_reduction_names{"native", "mod", "div"};

/// The variant of --loop LOOP (down, up, naive, inside-out, sample[:K]; sample without K deals the
/// most cards logged of a deal), --reduce RULE (empty: the family's own; native, mod, div) and
/// --carry-over. Throws shufl::error for an unknown name, sample:K with K not a positive whole
/// number, carry-over without reseed once, a combination check_variant refuses, or any of them
/// with `try_variants` (which tries them all).
family_variant parse_family_variant(const seed_family_info& family, std::string_view loop, std::string_view reduce,
                                    bool carry_over, bool try_variants, const seed_search_options& options);

/// Parses --shard I/N (0 ≤ I < N) into {I, N}; throws shufl::error otherwise.
std::pair<std::uint64_t, std::uint64_t> parse_shard(std::string_view text);

/// A deck order read from `in`: every card of `pack` once, in the list's starting order (list[0]
/// first), in any notation shufl deck prints, on one line or several; as deck_order (empty when
/// it is the canonical order). Throws shufl::error naming the line for a word that is no card of
/// the pack or a card given twice, and when cards are missing.
std::vector<std::uint32_t> read_deck_order(text_reader& in, const deck& pack);

/// One combination --try-variants tries: a loop and draw (and carry-over) with a deck order.
struct search_variant {
  family_variant variant;
  std::vector<std::uint32_t> deck_order;  ///< as seed_search_options::deck_order (empty: canonical)
  std::string deck_order_name;            ///< e.g. "rank-major:cdhs:23456789TJQKA" (empty: canonical)
};

/// Every variant of `options.family` --try-variants tries, the family's own first: each --loop it
/// takes (python-random: sample:K with K the most cards logged of a deal, and sample:n when n selects the
/// other method of random.sample) × each --reduce it takes (c-rand, glibc-rand-r: native, div;
/// go-math-rand's down loop: native, mod) × the 96 deck orders of a 52-card pack (suit-major and
/// rank-major × the 24 suit orders × aces low and high; only the canonical one for another pack;
/// options.deck_order, named `fixed_order_name`, when that is not empty) × carry-over off and on
/// (with reseed once and several deals).
std::vector<search_variant> family_variants(const seed_search_options& options, const std::string& fixed_order_name = {});

/// The search of several variants in turn: the first variant (in order) with a match, its result,
/// and the seeds tried over all variants searched. `variant` is variants.size() when none matches.
struct variant_search_result {
  std::size_t variant = 0;
  seed_search_result result;
  std::uint64_t seeds_tried = 0;
};

/// Runs search_seeds with each variant (its variant and deck_order put into `options`) until one
/// matches; `options` is left with the variant that matched (the first when none did).
variant_search_result search_variants(seed_search_options& options, const std::vector<search_variant>& variants);

/// Seeds per second of one thread for this search, measured by running its first `sample` seeds
/// (fewer when the range is smaller) once, on one thread; the whole search's time is then about
/// range.count() × searches / (rate × threads). 0 when the sample ran too fast to time.
/// With `as`, the search of that variant and deck order instead.
double measure_seed_rate(const seed_search_options& options, std::uint64_t sample = std::uint64_t{1} << 17,
                         const search_variant* as = nullptr);

/// A positive number as mantissa·2^exponent, so that products of many small probabilities (a
/// deal of 52 cards is 1/52! ≈ 10^-67.9) never underflow. Zero is mantissa 0.
struct scaled_number {
  double mantissa = 0.5;      ///< In [0.5, 1), or 0 for zero (default: 1 = 0.5·2^1).
  std::int64_t exponent = 1;  ///< Power of two.
  static scaled_number of(double v) noexcept;
  scaled_number& operator*=(const scaled_number& b) noexcept;
  scaled_number& operator+=(const scaled_number& b) noexcept;
  [[nodiscard]] bool at_most(double v) const noexcept;  ///< this ≤ v (v ≥ 0, finite)
  [[nodiscard]] double value() const noexcept;          ///< As a double (0 or HUGE_VAL out of range).
  [[nodiscard]] double log10() const noexcept;          ///< -inf for 0.
};

/// The expected number of chance matches of a search, and what it makes of the matches found.
enum class seed_verdict : std::uint8_t {
  not_found,     ///< No seed reproduces the deals.
  chance,        ///< Matches, but E > max_chance: chance explains them (exit 4).
  predictable,   ///< Matches with E ≤ max_chance (exit 3).
};

struct seed_chance {
  std::uint64_t states = 0;     ///< S: distinct generator states in the whole --seeds range (0 = 2^64).
  std::uint64_t variants = 1;   ///< H: families × variants tried.
  /// E = H·S·Π_d 1/(n)_{K_d} (once) or H·Π_d min(1, S/(n)_{K_d}) (per-deal), over every logged deal.
  scaled_number expected;
  std::vector<scaled_number> per_deal;  ///< per-deal: E_d = H·S/(n)_{K_d}; once: empty.
  /// The E the verdict is taken on: `expected`, except per-deal with r < D deals reproduced:
  /// H·e_r(q_1..q_D), q_d = min(1, S/(n)_{K_d}), the expected number of r-sets of deals that all
  /// match by chance (e_r the elementary symmetric polynomial).
  scaled_number verdict_expected;
  seed_verdict verdict = seed_verdict::not_found;
  double max_chance = 1e-3;
  /// With `chance`: logging this many more cards of every deal (up to n) would bring the verdict's
  /// E to max_chance or below; nullopt when even whole decks would not (more deals are needed).
  std::optional<std::size_t> more_cards;
  bool suggest_once = false;  ///< per-deal, several deals, only the first reproduced: try --reseed once.
};

/// Distinct generator states among a family's seeds in `range` (c-rand: seeds 0 and 1 are one).
std::uint64_t distinct_states(seed_family family, const seed_range& range) noexcept;

/// The chance accounting of a finished search (`states` from distinct_states of the WHOLE range,
/// not of a shard). Throws shufl::error when max_chance is not a finite number ≥ 0.
seed_chance assess_chance(const seed_search_options& options, const seed_search_result& result,
                          std::uint64_t states, double max_chance, std::uint64_t variants = 1);

/// What a found seed predicts: the rest of the last logged deal (cards K+1..n of it, canonical
/// indices) and, with `once`, the next deal (n cards). Nothing when no seed made the last deal.
/// With several seeds, only the cards every one of them agrees on: the others are unknown_card.
inline constexpr std::uint32_t unknown_card = UINT32_MAX;
struct seed_prediction {
  bool made_last_deal = false;
  std::size_t seeds = 0;  ///< Seeds the prediction rests on.
  std::vector<std::uint32_t> rest_of_last_deal;
  std::vector<std::uint32_t> next_deal;  ///< `once` only
};

/// The prediction of every found seed that made the last logged deal (family_deals run on): the
/// cards they all agree on, unknown_card where they differ.
seed_prediction predict_deals(const seed_search_options& options, const seed_search_result& result);

}  // namespace shufl::audit
