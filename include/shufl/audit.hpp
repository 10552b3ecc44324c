// `shufl audit` as a library: the battery of tests that test labs and regulators run on decks
// any shuffler produced (a casino machine, a dealing server, a game), its decision, and the runs
// over a deck file or over shufl's own algorithms. Returns plain values; the CLI formats them.
//
// Input: decks as FACE ids, read by the one card reader below the engines (shufl/cards.hpp; the
// names audit uses are in audit/deck_reader.hpp): face f = 0..F−1 in the pack's canonical order
// of first appearance, so for a pack of distinct cards face = canonical card index, which is also
// the "original order" of successions and guessing. Positions count from the top (dealt first).
//
// Engines: audit reaches `bias` only for its chunked streams (bias.hpp's bias_chunk_count and the
// trial loops of detail/bias_loops.hpp: `--algo` decks are bias's decks, chunk for chunk, in
// run.cpp, tally.cpp and the counts file's chunk ranges in counts.cpp); bias never includes audit.
//
// Each statistic is one small accumulator type (add a deck, merge two, report the observed total
// or table and the null law), so the batch battery, threads and later shards share them. The
// per-deck work is O(n) over flat arrays; nothing allocates per deck.
//
// Position tables (card-position, suit-position, rank-position, serial-position): every deck
// (or pair of consecutive decks) adds a table with both margins fixed by design — row i (a face,
// suit or rank) holds r_i of the N cards, every position holds exactly one card — and under the
// null that table is a uniformly random arrangement with those margins (the multiple
// hypergeometric law). Its cells then have Cov(X_ij, X_kl) = (δ_ik N − r_k) r_i (δ_jl N − c_l) c_j
// / (N²(N−1)), so over T independent decks the Pearson residuals Z_ij = (O_ij − E_ij)/√E_ij,
// E_ij = T r_i c_j / N, have covariance N/(N−1) times a projection of rank (I−1)(J−1): the
// Pearson X² times (N−1)/N tends to χ² with (I−1)(J−1) degrees of freedom. This holds for any
// margins, so the same scaling serves a single pack (card-position: df (n−1)², as `bias`'s
// position test), suits and ranks (df (c−1)(n−1)) and shoes (faces F with `copies` each:
// E = T·copies/N, df (F−1)(N−1)). With --dealt K only the first K positions are seen: the
// remaining N−K cards of each deck form one more column (its count is T·r_i minus the row's
// dealt counts, its margin N−K), which keeps the margins fixed, so df (I−1)·K.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/detail/huge_pages.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::audit {

/// --game: which game's hands are classified. poker: 5-card hands, the nine classes of
/// poker_class against their exact counts out of C(52,5) (a single standard pack); blackjack: the
/// two-card classes of blackjack_class_law for a shoe of standard packs.
enum class game_kind : std::uint8_t { none, poker, blackjack };

/// --game G --deal HxC: H hands (seats) of C cards dealt round the table from the top: card k
/// (0-based) goes to seat k mod H, so seat h holds cards h, h + H, ..., h + (C−1)·H. Defaults:
/// poker 1x5 (the first five cards), blackjack 2x2 (player then dealer: the player holds cards 1
/// and 3, the dealer 2 and 4).
struct game_deal {
  game_kind game = game_kind::none;
  std::size_t hands = 1;  ///< H ≥ 1.
  std::size_t cards = 5;  ///< C: 5 for poker, 2 for blackjack.
};

/// The values --game takes, in game_kind's order (poker, blackjack).
inline constexpr std::string_view game_names[] = {"poker", "blackjack"};

/// --game G and --deal HxC as given (nullopt: not given), checked: the game and its deal (a
/// default deal without --deal: poker 1x5, blackjack 2x2; game_kind::none without --game). Throws
/// shufl::error in the command line's words: "invalid value 'G' for --game: expected poker or
/// blackjack", "--deal applies to --game", "--deal takes HxC (hands x cards each), e.g. 6x5, not
/// 'D'", "invalid value 'X' for --deal: expected a non-negative decimal integer" (or ": too
/// large"), "--deal: the number of hands must be between 1 and 1024", "--deal: too many cards per
/// hand". The pack and the cards per hand are set_game's to check.
game_deal parse_game(std::optional<std::string_view> game, std::optional<std::string_view> deal);

/// "poker-hands" or "blackjack-hands".
std::string_view game_test_name(game_kind game) noexcept;
/// Number of classes a hand of the game falls in (9 poker, 26 blackjack; 0 for none).
std::size_t game_class_count(game_kind game) noexcept;

/// What the battery counts with, from the pack and --dealt.
struct battery_shape {
  std::size_t cards = 0;                 ///< N: cards in a whole deck.
  std::size_t positions = 0;             ///< K: cards per deck seen (N, or --dealt K).
  std::vector<std::uint32_t> copies;     ///< Per face: how many of the N cards show it.
  std::vector<std::int8_t> suit_of;      ///< Per face: suit 0..3 or −1 (see audit_pack).
  std::vector<std::int8_t> rank_of;      ///< Per face: rank 0..ranks−1 or −1.
  std::size_t ranks = 0;                 ///< 0: the pack has no suits and ranks.
  /// --game: the hands dealt round the table and classified (game_kind::none: no game test).
  game_deal game;
  /// Packs in the shoe (the blackjack law depends on it).
  std::uint64_t shoe_decks = 1;
  /// --lags L: position-pairs looks at the cards k = 1..L positions apart.
  std::size_t lags = 2;
  /// --batch-size K: the batches test's samples of K consecutive decks (0: no batches test).
  std::uint64_t batch_size = 0;
  [[nodiscard]] std::size_t faces() const noexcept { return copies.size(); }
  /// Every card of the pack is distinct (no shoe, no repeated custom card).
  [[nodiscard]] bool distinct() const noexcept { return faces() == cards; }
  /// Each deck is whole (no --dealt K < N).
  [[nodiscard]] bool whole() const noexcept { return positions == cards; }
};

/// The shape of a pack seen `dealt` cards deep (nullopt: whole decks).
battery_shape make_shape(const audit_pack& pack, std::optional<std::size_t> dealt = std::nullopt);

// ---- Per-deck statistics of a deck of distinct cards 0..n−1 (n ≥ 1), top first. ----

/// #{p : d[p] = p}.
std::uint32_t fixed_points_of(const std::uint32_t* d, std::size_t n) noexcept;
/// #{p : d[p+1] = d[p] + 1}: card i+1 immediately below card i.
std::uint32_t successions_of(const std::uint32_t* d, std::size_t n) noexcept;
/// #{p : |d[p+1] − d[p]| = 1}: original neighbours adjacent, either order.
std::uint32_t adjacent_pairs_of(const std::uint32_t* d, std::size_t n) noexcept;
/// #{p : d[p] > d[p+1]}.
std::uint32_t descents_of(const std::uint32_t* d, std::size_t n) noexcept;
/// Bayer–Diaconis rising sequences: 1 + #{i : card i+1 lies above card i}. `where` is scratch
/// of n entries (it receives the position of each card).
std::uint32_t rising_sequences_of(const std::uint32_t* d, std::size_t n, std::uint32_t* where) noexcept;
/// Alternating runs: maximal monotone runs of d[0..n−1]; 1 + number of turning points (n ≥ 2),
/// 0 for n = 1.
std::uint32_t runs_up_down_of(const std::uint32_t* d, std::size_t n) noexcept;
/// Correct guesses with feedback, strategy "shelf" (after Diaconis, Fulman and Holmes's analysis
/// of shelf shufflers, whose piles are runs of the original order rising then falling): guess card
/// 0 first; after card c is shown, when c is above the card shown before it (or is the first card)
/// guess the smallest unseen card above c, else the largest unseen below c; when c is below the
/// card before it guess the largest unseen card below c, else the smallest unseen above c. Only
/// unseen cards are guessed: the null law is guessing_law. `unseen`: scratch of (n + 63) / 64 words.
std::uint32_t shelf_guesses_of(const std::uint32_t* d, std::size_t n, std::uint64_t* unseen) noexcept;
/// Correct guesses of the guessing game with feedback, strategy "original successor": guess
/// card 0 first; after card c is shown guess the smallest unseen card above c (c+1 when it is
/// unseen), else the largest unseen below c. Every guess is an unseen card, so under the null
/// guess k (k cards left) is right with probability 1/k, independently (guessing_law).
/// `unseen` is scratch of (n + 63) / 64 words.
std::uint32_t guesses_of(const std::uint32_t* d, std::size_t n, std::uint64_t* unseen) noexcept;
/// Both strategies' correct guesses (guesses_of, shelf_guesses_of) of one deck of n ≤ 64
/// cards, in one pass over a one-word set of unseen cards.
struct guess_counts {
  std::uint32_t successor = 0, shelf = 0;
};
guess_counts guess_counts_of(const std::uint32_t* d, std::size_t n) noexcept;
/// Sums over `count` decks (deck-major, n ids each, top first; each a permutation of 0..n−1,
/// 2 ≤ n ≤ 64) of guess_counts_of's two counts and of rising_sequences_of. Eight decks at a time
/// in AVX2 lanes when the CPU has AVX2 (x86-64), the rest one deck at a time; the same integers
/// either way. The lanes test each guess without finding it: after card c is shown, the next
/// card b was the successor strategy's guess iff no unseen card lies strictly between c and b
/// and, when b < c, none lies above c (mirrored for the shelf strategy's falling runs); card
/// c+1 lies above c iff it was seen before c.
struct guess_rising_sums {
  std::uint64_t successor = 0, shelf = 0, rising = 0;
};
guess_rising_sums guess_rising_sums_of(const std::uint32_t* decks, std::size_t count, std::size_t n) noexcept;
/// Serial successions of `next` after `prev`: #{p : next[p+1] lies immediately below next[p] in
/// prev}; `below` holds, per card x, the card below x in prev (n for the bottom card).
std::uint32_t serial_successions_of(const std::uint32_t* next, std::size_t n, const std::uint32_t* below) noexcept;
/// Fills below[x] (n entries) for deck `prev` as serial_successions_of reads it.
void fill_below(const std::uint32_t* prev, std::size_t n, std::uint32_t* below) noexcept;
/// The same count from the other side: #{q : prev[q+1] lies immediately below prev[q] in the
/// next deck}, given where_next[x], the position of card x in the next deck (as
/// rising_sequences_of leaves `where`).
std::uint32_t serial_successions_at(const std::uint32_t* prev, std::size_t n, const std::uint32_t* where_next) noexcept;
/// The relative order of t = 3 or 4 distinct values as its Lehmer code: Σ_i l_i·(t−1−i)!, l_i =
/// #{j > i : v[j] < v[i]}; 0 for increasing, t! − 1 for decreasing.
inline std::uint32_t permutation_pattern3(std::uint32_t a, std::uint32_t b, std::uint32_t c) noexcept {
  return ((a > b) + (a > c)) * 2u + (b > c);
}
inline std::uint32_t permutation_pattern4(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) noexcept {
  return ((a > b) + (a > c) + (a > d)) * 6u + ((b > c) + (b > d)) * 2u + (c > d);
}
/// A 64-bit fingerprint of a deck of face ids (distinct decks collide with probability about
/// 2^−64 per pair).
std::uint64_t deck_fingerprint(const std::uint32_t* d, std::size_t k) noexcept;

// ---- Accumulators ----

/// A position table: rows (faces, suits or ranks: row_of[face], or −1 to leave a face out is not
/// allowed — every face has a row) × K positions, counts[row · K + p].
class position_table {
 public:
  position_table() = default;
  position_table(std::vector<std::uint32_t> row_of_face, std::size_t rows, std::size_t positions);
  /// Adds one deck of K face ids.
  void add(const std::uint32_t* deck) noexcept {
    // Locals: the counts (unsigned long) could alias positions_ (size_t) for the compiler.
    const std::size_t K = positions_;
    const std::uint32_t* row = row_of_.data();
    std::uint64_t* c = counts_.data();
    for (std::size_t p = 0; p < K; ++p) ++c[row[deck[p]] * K + p];
    ++decks_;
  }
  /// Adds one deck to three tables of the same K positions in one pass: `faces`, whose rows
  /// are the faces themselves (row_of = identity, as the card-position table), and two grouped
  /// tables (suits, ranks).
  static void add_three(position_table& faces, position_table& a, position_table& b, const std::uint32_t* deck) noexcept {
    const std::size_t K = faces.positions_;
    std::uint64_t *cf = faces.counts_.data(), *ca = a.counts_.data(), *cb = b.counts_.data();
    const std::uint32_t *ra = a.row_of_.data(), *rb = b.row_of_.data();
    for (std::size_t p = 0; p < K; ++p) {
      const std::uint32_t f = deck[p];
      ++cf[f * K + p];
      ++ca[ra[f] * K + p];
      ++cb[rb[f] * K + p];
    }
    ++faces.decks_;
    ++a.decks_;
    ++b.decks_;
  }
  /// Adds `decks` decks counted by face: cells[face · K + p] decks have `face` at position p
  /// (each face's cells go to its row).
  void add_cells(const std::uint32_t* cells, std::uint64_t decks) noexcept {
    const std::size_t K = positions_, F = row_of_.size();
    std::uint64_t* c = counts_.data();
    for (std::size_t f = 0; f < F; ++f) {
      std::uint64_t* row = c + row_of_[f] * K;
      const std::uint32_t* from = cells + f * K;
      for (std::size_t p = 0; p < K; ++p) row[p] += from[p];
    }
    decks_ += decks;
  }
  void merge(const position_table& other);
  /// Adds saved counts (rows × K, as counts()) of `decks` decks; throws on a size mismatch.
  void add_counts(std::span<const std::uint64_t> counts, std::uint64_t decks);
  [[nodiscard]] std::uint64_t decks() const noexcept { return decks_; }
  [[nodiscard]] std::size_t rows() const noexcept { return rows_; }
  [[nodiscard]] std::size_t positions() const noexcept { return positions_; }
  [[nodiscard]] const std::vector<std::uint64_t>& counts() const noexcept { return counts_; }
  [[nodiscard]] const std::vector<std::uint32_t>& row_of() const noexcept { return row_of_; }

 private:
  std::vector<std::uint32_t> row_of_;
  std::size_t rows_ = 0, positions_ = 0;
  std::vector<std::uint64_t> counts_;
  std::uint64_t decks_ = 0;
};

/// The serial position table: counts[x · F + y] = #{(t, p) : face x at position p of deck t and
/// face y at position p of deck t+1}, pooled over p, over consecutive pairs of whole decks.
class serial_table {
 public:
  serial_table() = default;
  explicit serial_table(std::size_t faces, std::size_t positions);
  void add_pair(const std::uint32_t* prev, const std::uint32_t* next) noexcept {
    const std::size_t K = positions_, F = faces_;
    std::uint64_t* c = counts_.data();
    for (std::size_t p = 0; p < K; ++p) ++c[prev[p] * F + next[p]];
    ++pairs_;
  }
  /// Adds `pairs` pairs counted in cells (F × F, as counts()).
  void add_cells(const std::uint32_t* cells, std::uint64_t pairs) noexcept {
    std::uint64_t* c = counts_.data();
    for (std::size_t i = 0; i < faces_ * faces_; ++i) c[i] += cells[i];
    pairs_ += pairs;
  }
  void merge(const serial_table& other);
  /// Adds saved counts (F × F, as counts()) of `pairs` pairs; throws on a size mismatch.
  void add_counts(std::span<const std::uint64_t> counts, std::uint64_t pairs);
  [[nodiscard]] std::uint64_t pairs() const noexcept { return pairs_; }
  [[nodiscard]] const std::vector<std::uint64_t>& counts() const noexcept { return counts_; }

 private:
  std::size_t faces_ = 0, positions_ = 0;
  std::vector<std::uint64_t> counts_;
  std::uint64_t pairs_ = 0;
};

/// A total over decks (or pairs of decks) of one per-deck count whose per-deck null law is exact.
struct deck_total {
  std::uint64_t decks = 0;  ///< Values added.
  std::uint64_t total = 0;  ///< Their sum (at most 2^10 per deck: no overflow below 2^54 decks).
  void add(std::uint32_t value) noexcept {
    ++decks;
    total += value;
  }
  /// Adds `count` values whose sum is `sum`.
  void add_sum(std::uint64_t sum, std::uint64_t count) noexcept {
    decks += count;
    total += sum;
  }
  void merge(const deck_total& other) noexcept {
    decks += other.decks;
    total += other.total;
  }
};

/// Identical decks among the first audit_birthday_decks decks (the birthday test of `bias`).
/// Fingerprints are kept in input order.
class duplicate_finder {
 public:
  /// Keeps the fingerprint of deck number `index` (0-based in the input) when below the limit.
  void add(std::uint64_t index, std::uint64_t fingerprint) {
    if (index < limit) fingerprints_.push_back(fingerprint);
  }
  /// Makes room for `count` more fingerprints (called once per block, not per deck).
  void reserve_more(std::size_t count);
  /// Appends the fingerprints of `other`, whose decks follow this finder's, up to the limit.
  void merge(const duplicate_finder& other);
  /// Appends saved fingerprints (decks that follow this finder's), up to the limit.
  void append(std::span<const std::uint64_t> fingerprints);
  /// The fingerprints kept in [begin, end) of input order; throws shufl::error out of range.
  [[nodiscard]] std::span<const std::uint64_t> kept(std::size_t begin, std::size_t end) const;
  /// Every fingerprint kept, in input order (a copy).
  [[nodiscard]] std::vector<std::uint64_t> fingerprints() const;
  /// Decks looked at, and among them the number that repeat an earlier one.
  [[nodiscard]] std::uint64_t decks() const noexcept { return fingerprints_.size(); }
  /// `threads`: at most 2 are used (for 2^16 fingerprints or more).
  [[nodiscard]] std::uint64_t repeats(unsigned threads = 1) const;
  static constexpr std::uint64_t limit = std::uint64_t{1} << 20;

 private:
  // On huge pages when large (detail/huge_pages.hpp): a first touch of 8 MiB in 4 KiB pages
  // costs a fault each.
  std::vector<std::uint64_t, detail::huge_page_allocator<std::uint64_t>> fingerprints_;
};

/// The batches test's sums (audit/batches.hpp): per sample j of batch_size consecutive decks
/// (decks j·K .. j·K + K − 1 by their index in the input) and per per-deck statistic t,
/// sums[j · batch_statistics + t]; filled[j] the decks of sample j added so far. Indexed by the
/// decks' place in the input, so blocks merge in any order (but shards of a file do not know
/// their place: no counts file).
struct batch_sums {
  std::uint64_t size = 0;
  std::vector<std::uint64_t> sums;
  std::vector<std::uint64_t> filled;
};

/// Why --batch-size cannot go with --save-counts or --merge (audit/batches.hpp).
inline constexpr const char* batches_counts_refusal =
    "--batch-size cannot go with --save-counts or --merge: its samples are decks by their place in the whole "
    "input, which a shard does not know (audit the whole file with --batch-size instead)";

// ---- The battery ----

/// The tests of the battery, in report order.
inline constexpr std::string_view battery_test_names[] = {
    "card-position", "suit-position",  "rank-position",     "successions",     "adjacent-pairs",
    "descents",      "rising-sequences", "runs-up-down",    "fixed-points",    "guessing",
    "guessing-shelf", "permutation-3", "permutation-4", "position-pairs", "coupon-collector-suits",
    "coupon-collector-ranks", "gap", "batches", "serial-successions", "serial-position", "duplicates",
    "poker-hands", "blackjack-hands"};

/// A test's outcome. JSON/text words: "pass", "fail", "not-valid", "not-applicable".
enum class test_outcome { pass, fail, not_valid, not_applicable };
std::string_view outcome_name(test_outcome o) noexcept;

/// One test of the battery, evaluated.
struct test_report {
  std::string name;            ///< One of battery_test_names.
  std::uint64_t decks = 0;     ///< Decks it looked at (pairs of consecutive decks for serial tests).
  /// Totals: the observed total and its null mean. Tables: the scaled X² and its null mean (df).
  /// Duplicates: repeated decks and their Poisson mean.
  double observed = 0;
  double expected = 0;
  /// Tables: Pearson X² × (N−1)/N. Totals: z = (observed − expected)/sd (for reading only; the
  /// p-value comes from the exact law). Duplicates: the count.
  double statistic = 0;
  std::optional<double> df;    ///< Tables only.
  double p = 1;                ///< Nearest double to the p-value (may underflow to 0).
  double ln_p = 0;             ///< ln p, finite.
  bool p_bound = false;        ///< ln_p is a floor (the most extreme outcome's probability).
  std::optional<double> holm_ln_p;  ///< Holm-adjusted ln p, for tests in the family.
  test_outcome result = test_outcome::not_applicable;
  std::string tail;            ///< "upper" or "two-sided" (empty when not applicable).
  std::string law;             ///< The null law and its source, in words.
  std::string note;            ///< Why not applicable / not valid; what was pooled; empty else.
  /// Tables: the observed counts, table_rows × table_columns (row-major; with --dealt the last
  /// column holds the cards not dealt). Empty for totals.
  std::vector<std::uint64_t> table;
  std::size_t table_rows = 0, table_columns = 0;
  /// Game tests: the label of each column of `table` (its classes); empty else.
  std::vector<std::string> columns;
};

/// Every accumulator of the battery for one shape. Not thread-safe: one per thread, merged.
class battery {
 public:
  explicit battery(const battery_shape& shape);
  /// Adds `count` decks (K face ids each, flattened) that are decks first_index, first_index+1,
  /// ... of the input. `previous` is the deck before the first one (K ids), or null when the
  /// block starts the input or its predecessor is added later with add_serial_pair.
  /// Precondition: every deck is valid for the shape. Allocation-free apart from the
  /// fingerprints' one reservation per block.
  void add_block(const std::uint32_t* decks, std::size_t count, const std::uint32_t* previous,
                 std::uint64_t first_index);
  /// Adds the serial tests' pair (prev, next) of consecutive decks only.
  void add_serial_pair(const std::uint32_t* prev, const std::uint32_t* next) noexcept;
  /// Adds another battery of the same shape.
  void merge(const battery& other);
  [[nodiscard]] std::uint64_t decks() const noexcept { return decks_; }
  /// Counts `count` more decks whose statistics were added to the accumulators directly (counts files).
  void add_deck_count(std::uint64_t count) noexcept { decks_ += count; }
  [[nodiscard]] const battery_shape& shape() const noexcept { return shape_; }
  /// Every test of battery_test_names evaluated, without the decision (see decide); `threads`
  /// for the duplicates test (duplicate_finder::repeats).
  [[nodiscard]] std::vector<test_report> evaluate(unsigned threads = 1) const;

  // The accumulators, for tests and reports.
  position_table card_position, suit_position, rank_position;
  deck_total successions, adjacent_pairs, descents, rising_sequences, runs_up_down, fixed_points,
      guessing, guessing_shelf, serial_successions;
  serial_table serial_position;
  /// The serial tests' repeats (audit/serial.hpp), whole decks only: position_repeats[p] counts
  /// the pairs of consecutive decks with the same face at position p; for distinct cards (else
  /// empty) successor_repeats[x] the pairs where card x has the same card right below it in both
  /// decks (or is at the bottom of both), and successor_table[x · n + y] the decks where card y
  /// lies right below card x (y = x: x at the bottom).
  std::vector<std::uint64_t> position_repeats, successor_repeats, successor_table;
  /// Knuth's permutation test: the relative order of the cards in each of the ⌊n/t⌋ disjoint
  /// t-tuples of consecutive positions (0..t−1, t..2t−1, ...), counted by its Lehmer code
  /// (permutation_pattern); whole decks of distinct cards (else zeros).
  std::array<std::uint64_t, 6> permutation3{};
  std::array<std::uint64_t, 24> permutation4{};
  /// position-pairs (audit/pairs.hpp): lags tables of n × n, lag k's at (k−1)·n², cell a·n + b the
  /// (deck, i) with card a at position i and card b at i + k (empty where the test does not apply).
  std::vector<std::uint64_t> position_pairs;
  /// The cards dealt until every suit (rank) has appeared, summed over whole decks of a pack with
  /// suits and ranks (audit/pairs.hpp's coupon_collector_of).
  deck_total coupon_suits, coupon_ranks;
  /// gap: per suit (the coupon collector's suit groups) n counts, gap_counts[g·n + j] the gaps of
  /// j cards between consecutive cards of suit g (empty where the test does not apply).
  std::vector<std::uint64_t> gap_counts;
  duplicate_finder duplicates;
  /// --game: hands by seat and class, seat-major (hands × game_class_count entries).
  std::vector<std::uint64_t> game_hands;
  /// --batch-size: the batches test's per-sample sums (empty unless shape.batch_size > 0).
  batch_sums batches;

 private:
  battery_shape shape_;
  std::uint64_t decks_ = 0;
  // add_block's scratch; its 32-bit cells (positions F × K, serial pairs F × F) serve blocks of
  // kCellBlock decks or more.
  static constexpr std::size_t kCellBlock = 64;
  std::vector<std::uint32_t> where_, below_, position_cells_, serial_cells_, successor_cells_;
  std::vector<std::uint64_t> unseen_;
  // The coupon collector's group of each face (255: none) and the bits of every group.
  std::vector<std::uint8_t> suit_group_, rank_group_;
  std::uint64_t all_suits_ = 0, all_ranks_ = 0;
};

/// Tests a table of counts (rows × columns, row-major) whose every unit (deck or pair of decks)
/// is a random arrangement with fixed margins: row i holds row_margin[i] of the N cards, column j
/// column_margin[j] (Σ = N each). Expected T·r_i·c_j/N; statistic Pearson X² × (N−1)/N; df
/// (I−1)(J−1) over the rows and columns with a positive margin. `not-valid` when an expected
/// count is below 5. `ln_floor`: ln of the least likely outcome (see apply_floor).
test_report table_test(std::string name, std::span<const std::uint64_t> counts, std::size_t rows,
                       std::size_t columns, std::span<const std::uint64_t> row_margin,
                       std::span<const std::uint64_t> column_margin, std::uint64_t units, double ln_floor);

/// Checks --game/--deal against the pack and the cards seen per deck (`positions`), and sets the
/// shape's game. Throws shufl::error naming what is wrong.
void set_game(battery_shape& shape, const audit_pack& pack, const game_deal& deal);

/// Adds the hands of one deck (K ≥ H·C face ids) to counts (hands × classes, seat-major).
void add_game_hands(const battery_shape& shape, const std::uint32_t* deck, std::uint64_t* counts) noexcept;

/// The game's hands test over `decks` decks: per seat, Pearson X² of the classes against their
/// exact law (rare classes pooled, see docs/audit.md), df = pools − 1; one seat's hands over
/// decks are independent (a multinomial), hands of one deck are not, so with H > 1 seats the p is
/// Bonferroni's H · min over seats (capped at 1), and the statistic the largest seat's X².
test_report game_test(const battery_shape& shape, std::span<const std::uint64_t> counts, std::uint64_t decks);

// ---- Decision and runs ----

/// The battery's decision: Holm over the tests that are applicable and valid, at `alpha`.
struct audit_decision {
  double alpha = 0.01;
  bool pass = true;
  std::size_t family = 0;        ///< Tests in Holm's family.
  std::string summary;           ///< "no evidence of non-randomness in T decks at alpha A", or
                                 ///< "evidence of non-randomness in T decks at alpha A: TESTS failed".
};

/// Sets every test's holm_ln_p and result (pass/fail for the family; not-valid and
/// not-applicable tests keep theirs) and returns the overall decision. A test fails when its
/// Holm-adjusted p is below alpha (compared as ln p < ln alpha).
audit_decision decide(std::vector<test_report>& tests, std::uint64_t decks, double alpha);

/// A whole audit.
/// A named tier (--tier, audit/tier.hpp): the battery, α, batch size, lags and decks it fixes.
struct audit_tier {
  std::string name;             ///< "small", "standard" or "big".
  std::uint64_t decks = 0;      ///< Decks it tests: a file with fewer is an error, with more the first these.
  double alpha = 0.01;
  std::uint64_t batch_size = 0;
  std::size_t lags = 2;
};

struct audit_report {
  std::vector<test_report> tests;
  /// --tier: the tier, and whether the input had more decks than it uses (the rest not read on).
  std::optional<audit_tier> tier;
  bool tier_cut = false;
  audit_decision decision;
  std::uint64_t decks = 0;
  std::uint64_t skipped = 0;                  ///< Invalid decks skipped (--skip-bad).
  std::vector<std::string> skip_reasons;
  std::string pack;                           ///< The pack's name ("standard", "custom", ...).
  std::string pack_description;               ///< e.g. "standard 52-card deck".
  std::size_t cards = 0;                      ///< N.
  std::size_t positions = 0;                  ///< K (N unless --dealt).
  game_deal game;                             ///< --game and --deal (game_kind::none without --game).
  std::size_t lags = 2;                       ///< --lags of position-pairs.
  /// Per planned test, the effect it detects with power about 0.9 at these decks (audit/plan.hpp's
  /// detectable_effects: the name, δ, the model in words).
  struct detectable {
    std::string name;
    double effect = 0;
    std::string model;
  };
  std::vector<detectable> detectable;
};

struct audit_options {
  double alpha = 0.01;     ///< Family-wise level, in (0, 1).
  unsigned threads = 1;    ///< Worker threads (≥ 1); never changes the result.
  /// audit_decks: called once the first deck fixed the pack, before the rest is read (the CLI
  /// prints the reader's inference note then).
  std::function<void()> on_pack;
  /// --game: add the game's hands test (poker: a standard 52-card pack; blackjack: a shoe of
  /// standard packs; H·C cards dealt at most the cards per deck; else shufl::error).
  game_deal game;
  /// --lags: position-pairs tests lags 1..lags (1 to 64; the test needs more than 2·lags cards).
  std::size_t lags = 2;
  /// --batch-size K: the batches test on samples of K consecutive decks (0: none; else 10 to
  /// 10^7).
  std::uint64_t batch_size = 0;
  /// --tier (apply_tier): audit_decks uses exactly tier->decks decks (fewer: shufl::error), and
  /// audit_algorithm generates that many.
  std::optional<audit_tier> tier;
};

/// Decks per block handed to a worker thread.
inline constexpr std::size_t audit_block_decks = 4096;

/// The report of a battery's decks: its tests, Holm decision at `alpha`, the pack and shape, and
/// the effects detectable at its number of decks (plan.hpp). Every audit's report is made here.
audit_report battery_report(const battery& b, const audit_pack& pack, double alpha, unsigned threads);

/// Audits every deck `reader` yields: the reader runs on the calling thread, the battery on
/// options.threads workers (blocks of audit_block_decks decks; the result does not depend on
/// the number of threads). Throws the reader's shufl::error (no report) and "NAME: no decks".
audit_report audit_decks(deck_reader& reader, const audit_options& options);

/// Audits `trials` decks of a registered algorithm on the pack (at most 255 cards) in the streams
/// `shufl bias` uses: chunk c of bias_chunk_trials decks is stream c of `engine` keyed by
/// derive_key(key, "bias/" + label, 0), each deck the algorithm run on the canonical order
/// 0..N−1 (the very decks `bias --n N` counts in its position matrix). Decks are taken in chunk
/// order; the serial tests see the pair at each chunk boundary too.
audit_report audit_algorithm(const algorithm_spec& algorithm, const audit_pack& pack, std::uint64_t trials,
                             engine_kind engine, const seed_key& key, const audit_options& options);

}  // namespace shufl::audit
