// The audit battery: every accumulator of one shape, fed by blocks of decks, and the evaluation
// of each test against its null law (position tables: scaled Pearson X², see audit.hpp; totals:
// exact per-deck laws summed over decks by total_tails; duplicates: Poisson, as `bias`).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

#include "shufl/audit.hpp"
#include "shufl/audit/batches.hpp"
#include "shufl/audit/laws.hpp"
#include "shufl/audit/pairs.hpp"
#include "shufl/audit/serial.hpp"
#include "shufl/error.hpp"
#include "shufl/stats.hpp"

// add_block is built twice where GCC can (target_clones, chosen once at load time): for
// x86-64-v3 (AVX2 lanes for the per-deck pass) and for the baseline; both count the same.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define SHUFL_AUDIT_BLOCK_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SHUFL_AUDIT_BLOCK_CLONES
#endif

namespace shufl::audit {

namespace {

// Rows of the suit (what = 0) or rank (what = 1) table: one per suit or rank, plus one "other"
// row for faces without (jokers, tarot trumps) when there are any.
std::pair<std::vector<std::uint32_t>, std::size_t> group_rows(const battery_shape& s, bool ranks) {
  const std::size_t groups = ranks ? s.ranks : 4;
  std::vector<std::uint32_t> row(s.faces());
  bool other = false;
  for (std::size_t f = 0; f < s.faces(); ++f) {
    const std::int8_t g = ranks ? s.rank_of[f] : s.suit_of[f];
    if (g < 0 || static_cast<std::size_t>(g) >= groups) {
      row[f] = static_cast<std::uint32_t>(groups);
      other = true;
    } else {
      row[f] = static_cast<std::uint32_t>(g);
    }
  }
  return {row, groups + other};
}

bool suits_and_ranks(const battery_shape& s) noexcept {
  return s.ranks != 0 && s.suit_of.size() == s.faces() && s.rank_of.size() == s.faces();
}

// The per-deck permutation statistics need whole decks of distinct cards with an exact law.
bool permutation_tests(const battery_shape& s) noexcept {
  return s.distinct() && s.whole() && s.cards >= 2 && s.cards <= max_law_cards;
}

test_report not_applicable(std::string_view name, std::uint64_t decks, std::string note) {
  test_report r;
  r.name = std::string(name);
  r.decks = decks;
  r.result = test_outcome::not_applicable;
  r.note = std::move(note);
  return r;
}

// A total over decks against T copies of an exact per-deck law.
test_report total_test(std::string_view name, const deck_total& acc, const std::vector<double>& pmf, bool upper,
                       std::string_view law) {
  test_report r;
  r.name = std::string(name);
  r.decks = acc.decks;
  r.tail = upper ? "upper" : "two-sided";
  const total_tail t = total_tails(pmf, acc.decks, acc.total);
  r.observed = static_cast<double>(acc.total);
  r.expected = t.mean;
  r.statistic = t.variance > 0 ? (r.observed - t.mean) / std::sqrt(t.variance) : 0;
  // No p below the probability of the least likely total: every total in the support has
  // probability at least (smallest positive per-deck probability)^T.
  double ln_min = 0;
  for (const double q : pmf) {
    if (q > 0) ln_min = std::min(ln_min, std::log(q));
  }
  test_result p;
  p.ln_p = std::min(upper ? t.ln_upper : t.ln_two_sided(), 0.0);
  if (std::isnan(p.ln_p)) p.ln_p = 0;
  p.p_value = std::exp(p.ln_p);
  apply_floor(p, static_cast<double>(acc.decks) * ln_min);
  r.ln_p = p.ln_p;
  r.p = p.p_value;
  r.p_bound = p.bound;
  const char* decks_noun = acc.decks == 1 ? "deck" : "decks";  // render::count_noun's rule
  r.law = t.exact ? fmt::format("{}; the total of {} {} by exact convolution", law, acc.decks, decks_noun)
                  : fmt::format("{}; the total of {} {} by the Lugannani-Rice saddlepoint (relative error <= {:.2g})",
                                law, acc.decks, decks_noun, t.relative_error_bound);
  r.result = test_outcome::pass;  // decide() sets pass/fail
  return r;
}

// ln of the number of distinct decks (orders of the multiset, or dealt prefixes of distinct cards).
double ln_orders(const battery_shape& s) {
  double v = std::lgamma(static_cast<double>(s.cards) + 1);
  if (!s.whole()) return v - std::lgamma(static_cast<double>(s.cards - s.positions) + 1);
  for (const auto c : s.copies) v -= std::lgamma(static_cast<double>(c) + 1);
  return v;
}

}  // namespace

battery_shape make_shape(const audit_pack& pack, std::optional<std::size_t> dealt) {
  battery_shape s;
  s.cards = pack.size();
  s.positions = dealt.value_or(s.cards);
  if (s.positions == 0 || s.positions > s.cards) {
    throw error(fmt::format("--dealt {}: a deck of this pack has {} cards", s.positions, s.cards));
  }
  s.copies = pack.copies;
  s.suit_of = pack.suit_of;
  s.rank_of = pack.rank_of;
  s.ranks = pack.ranks;
  return s;
}

std::string_view outcome_name(test_outcome o) noexcept {
  switch (o) {
    case test_outcome::pass: return "pass";
    case test_outcome::fail: return "fail";
    case test_outcome::not_valid: return "not-valid";
    case test_outcome::not_applicable: return "not-applicable";
  }
  return "not-applicable";
}

battery::battery(const battery_shape& shape) : shape_(shape) {
  const std::size_t F = shape.faces(), K = shape.positions;
  std::vector<std::uint32_t> identity(F);
  std::iota(identity.begin(), identity.end(), 0u);
  card_position = position_table(identity, F, K);
  if (suits_and_ranks(shape)) {
    auto [suit_rows, suits] = group_rows(shape, false);
    suit_position = position_table(std::move(suit_rows), suits, K);
    auto [rank_rows, ranks] = group_rows(shape, true);
    rank_position = position_table(std::move(rank_rows), ranks, K);
  }
  if (shape.whole()) serial_position = serial_table(F, K);
  game_hands.assign(shape.game.hands * game_class_count(shape.game.game), 0);
  where_.assign(shape.cards, 0);
  below_.assign(shape.cards, 0);
  unseen_.assign((shape.cards + 63) / 64, 0);
  position_cells_.assign(F * K, 0);
  if (shape.whole()) {
    serial_cells_.assign(F * F, 0);
    position_repeats.assign(K, 0);
  }
  if (position_pairs_apply(shape)) {
    check_pair_cells(shape);  // before the tables are allocated
    position_pairs.assign(shape.lags * F * F, 0);
  }
  coupon_groups suits = coupon_groups_of(shape, false), ranks = coupon_groups_of(shape, true);
  if (!suits.sizes.empty()) {
    gap_counts.assign(suits.sizes.size() * shape.cards, 0);
    suit_group_ = std::move(suits.group_of);
    all_suits_ = suits.full;
  }
  if (!ranks.sizes.empty()) {
    rank_group_ = std::move(ranks.group_of);
    all_ranks_ = ranks.full;
  }
  batches.size = shape.batch_size;
  if (permutation_tests(shape)) {
    successor_repeats.assign(F, 0);
    successor_table.assign(F * F, 0);
    successor_cells_.assign(F * F, 0);
  }
}

void battery::add_serial_pair(const std::uint32_t* prev, const std::uint32_t* next) noexcept {
  if (!shape_.whole()) return;
  serial_position.add_pair(prev, next);
  for (std::size_t p = 0; p < shape_.positions; ++p) position_repeats[p] += prev[p] == next[p];
  if (permutation_tests(shape_)) {
    const std::size_t n = shape_.cards;
    for (std::size_t p = 0; p < n; ++p) where_[next[p]] = static_cast<std::uint32_t>(p);
    serial_successions.add(serial_successor_repeats(prev, n, where_.data(), successor_repeats.data()));
  }
}

SHUFL_AUDIT_BLOCK_CLONES void battery::add_block(const std::uint32_t* decks, std::size_t count, const std::uint32_t* previous,
                        std::uint64_t first_index) {
  const std::size_t n = shape_.cards, K = shape_.positions, F = shape_.faces();
  const bool permutations = permutation_tests(shape_);
  const bool whole = shape_.whole();
  if (first_index < duplicate_finder::limit) duplicates.reserve_more(count);
  // A long block counts positions and serial pairs in 32-bit cells (faces × K and faces ×
  // faces: half the cache of the tables) and adds them to the tables once at its end (the suit
  // and rank tables from the faces' cells); a short one adds to the tables directly.
  const bool cells = count >= kCellBlock && count <= std::numeric_limits<std::uint32_t>::max() / K;
  const bool groups = suits_and_ranks(shape_);
  std::uint32_t* const position = position_cells_.data();
  std::uint32_t* const serial = serial_cells_.data();
  std::uint32_t* const successor_cells = successor_cells_.data();
  std::uint64_t* const successor_counts = successor_table.data();
  std::uint64_t* const repeats = position_repeats.data();
  std::uint64_t* const successor_repeat = successor_repeats.data();
  // The totals of the block, in locals (the tables' stores cannot alias them).
  std::uint64_t fixed = 0, succ = 0, adj = 0, desc = 0, runs = 0, rising = 0, guess = 0, shelf = 0, serial_succ = 0,
                pairs = 0, coupon_s = 0, coupon_r = 0;
  const std::size_t lags = position_pairs.empty() ? 0 : shape_.lags;
  std::uint64_t* const pair_counts = position_pairs.data();
  const std::uint8_t* const suit_group = suit_group_.data();
  const std::uint8_t* const rank_group = rank_group_.data();
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t* d = decks + i * K;
    const std::uint32_t* prev = i > 0 ? d - K : previous;
    if (cells) {
      for (std::size_t p = 0; p < K; ++p) ++position[d[p] * K + p];
      if (whole && prev != nullptr) {
        for (std::size_t p = 0; p < K; ++p) ++serial[prev[p] * F + d[p]];
      }
    } else {
      if (groups) {
        position_table::add_three(card_position, suit_position, rank_position, d);
      } else {
        card_position.add(d);
      }
      if (whole && prev != nullptr) serial_position.add_pair(prev, d);
    }
    if (whole && prev != nullptr) {
      for (std::size_t p = 0; p < K; ++p) repeats[p] += prev[p] == d[p];
    }
    if (permutations) {
      // fixed_points_of, successions_of, adjacent_pairs_of, descents_of and runs_up_down_of in
      // one pass over the deck (n ≥ 2 here), each step on three neighbours and no carried
      // state, so the compiler can run it in vector lanes.
      std::uint32_t deck_fixed = d[0] == 0, deck_succ = 0, deck_adj = 0, deck_desc = d[1] < d[0], turns = 0;
      deck_fixed += d[1] == 1;
      deck_succ += d[1] == d[0] + 1;
      deck_adj += ((d[1] - d[0] + 1) | 2u) == 2u;
      for (std::size_t p = 1; p + 1 < n; ++p) {
        const std::uint32_t z = d[p - 1], a = d[p], b = d[p + 1];
        deck_fixed += b == p + 1;
        deck_succ += b == a + 1;
        deck_adj += ((b - a + 1) | 2u) == 2u;
        deck_desc += b < a;
        turns += (b > a) != (a > z);
      }
      // Knuth's permutation test: disjoint triples and quadruples of positions.
      for (std::size_t p = 0; p + 3 <= n; p += 3) ++permutation3[permutation_pattern3(d[p], d[p + 1], d[p + 2])];
      for (std::size_t p = 0; p + 4 <= n; p += 4) {
        ++permutation4[permutation_pattern4(d[p], d[p + 1], d[p + 2], d[p + 3])];
      }
      // position-pairs: (card at p, card at p + k) per lag; lag 1 of a long block comes from the
      // successor cells at its end (the same pairs).
      for (std::size_t k = cells ? 2 : 1; k <= lags; ++k) {
        std::uint64_t* const table = pair_counts + (k - 1) * n * n;
        for (std::size_t p = 0; p + k < n; ++p) ++table[d[p] * n + d[p + k]];
      }
      // The successor table: card d[p+1] right below d[p]; the bottom card below itself.
      if (cells) {
        for (std::size_t p = 0; p + 1 < n; ++p) ++successor_cells[d[p] * n + d[p + 1]];
        ++successor_cells[d[n - 1] * n + d[n - 1]];
      } else {
        for (std::size_t p = 0; p + 1 < n; ++p) ++successor_counts[d[p] * n + d[p + 1]];
        ++successor_counts[d[n - 1] * n + d[n - 1]];
      }
      fixed += deck_fixed;
      succ += deck_succ;
      adj += deck_adj;
      desc += deck_desc;
      runs += 1 + turns;
      if (n <= 64) {
        // Guesses and rising sequences for the whole block after the loop; the serial
        // successions need the deck's inverse.
        if (prev != nullptr) {
          for (std::size_t p = 0; p < n; ++p) where_[d[p]] = static_cast<std::uint32_t>(p);
          serial_succ += serial_successor_repeats(prev, n, where_.data(), successor_repeat);
        }
      } else {
        rising += rising_sequences_of(d, n, where_.data());  // leaves where_ = the deck's inverse
        guess += guesses_of(d, n, unseen_.data());
        shelf += shelf_guesses_of(d, n, unseen_.data());
        if (prev != nullptr) serial_succ += serial_successor_repeats(prev, n, where_.data(), successor_repeat);
      }
    }
    if (suit_group != nullptr) {
      coupon_s += coupon_collector_of(d, K, suit_group, all_suits_);
      // gap: the cards between consecutive cards of each suit; the last position of each of the
      // (at most 4) suits in 16 bits of one register (0xffff: none yet), not in memory.
      std::uint64_t last = ~std::uint64_t{0};
      std::uint64_t* const gaps = gap_counts.data();
      for (std::size_t p = 0; p < K; ++p) {
        const std::uint8_t g = suit_group[d[p]];
        if (g >= 4) continue;
        const unsigned shift = 16u * g;
        const std::uint64_t before = (last >> shift) & 0xffffu;
        if (before != 0xffffu) ++gaps[g * n + (p - before - 1)];
        last = (last & ~(std::uint64_t{0xffff} << shift)) | (static_cast<std::uint64_t>(p) << shift);
      }
    }
    if (rank_group != nullptr) coupon_r += coupon_collector_of(d, K, rank_group, all_ranks_);
    pairs += prev != nullptr;
    duplicates.add(first_index + i, deck_fingerprint(d, K));
    if (!game_hands.empty()) add_game_hands(shape_, d, game_hands.data());
  }
  if (cells) {
    card_position.add_cells(position, count);
    if (groups) {
      suit_position.add_cells(position, count);
      rank_position.add_cells(position, count);
    }
    std::fill(position_cells_.begin(), position_cells_.end(), 0u);
    if (whole) {
      serial_position.add_cells(serial, pairs);
      std::fill(serial_cells_.begin(), serial_cells_.end(), 0u);
    }
    if (permutations) {
      if (lags > 0) {
        for (std::size_t i = 0; i < n * n; ++i) pair_counts[i] += i % (n + 1) == 0 ? 0 : successor_cells[i];
      }
      for (std::size_t i = 0; i < successor_table.size(); ++i) successor_counts[i] += successor_cells[i];
      std::fill(successor_cells_.begin(), successor_cells_.end(), 0u);
    }
  }
  if (permutations && n <= 64) {
    const guess_rising_sums g = guess_rising_sums_of(decks, count, n);
    guess = g.successor;
    shelf = g.shelf;
    rising = g.rising;
  }
  if (permutations) {
    for (auto [acc, sum] : {std::pair{&fixed_points, fixed}, std::pair{&successions, succ},
                            std::pair{&adjacent_pairs, adj}, std::pair{&descents, desc},
                            std::pair{&runs_up_down, runs}, std::pair{&rising_sequences, rising},
                            std::pair{&guessing, guess}, std::pair{&guessing_shelf, shelf}}) {
      acc->add_sum(sum, count);
    }
    serial_successions.add_sum(serial_succ, pairs);
  }
  if (suit_group != nullptr) coupon_suits.add_sum(coupon_s, count);
  if (rank_group != nullptr) coupon_ranks.add_sum(coupon_r, count);
  if (batches.size > 0) add_batch_decks(batches, shape_, decks, count, first_index);
  decks_ += count;
}

void battery::merge(const battery& other) {
  card_position.merge(other.card_position);
  suit_position.merge(other.suit_position);
  rank_position.merge(other.rank_position);
  for (auto [a, b] : {std::pair{&successions, &other.successions}, std::pair{&adjacent_pairs, &other.adjacent_pairs},
                      std::pair{&descents, &other.descents}, std::pair{&rising_sequences, &other.rising_sequences},
                      std::pair{&runs_up_down, &other.runs_up_down}, std::pair{&fixed_points, &other.fixed_points},
                      std::pair{&guessing, &other.guessing}, std::pair{&guessing_shelf, &other.guessing_shelf},
                      std::pair{&serial_successions, &other.serial_successions},
                      std::pair{&coupon_suits, &other.coupon_suits}, std::pair{&coupon_ranks, &other.coupon_ranks}}) {
    a->merge(*b);
  }
  serial_position.merge(other.serial_position);
  merge_batches(batches, other.batches);
  for (std::size_t i = 0; i < permutation3.size(); ++i) permutation3[i] += other.permutation3[i];
  for (std::size_t i = 0; i < permutation4.size(); ++i) permutation4[i] += other.permutation4[i];
  for (auto [a, b] : {std::pair{&position_repeats, &other.position_repeats},
                      std::pair{&successor_repeats, &other.successor_repeats},
                      std::pair{&successor_table, &other.successor_table},
                      std::pair{&position_pairs, &other.position_pairs},
                      std::pair{&gap_counts, &other.gap_counts}}) {
    if (a->size() != b->size()) throw error("audit: merging serial repeats of different shapes");
    for (std::size_t i = 0; i < a->size(); ++i) (*a)[i] += (*b)[i];
  }
  duplicates.merge(other.duplicates);
  for (std::size_t c = 0; c < game_hands.size(); ++c) game_hands[c] += other.game_hands[c];
  decks_ += other.decks_;
}

test_report table_test(std::string name, std::span<const std::uint64_t> counts, std::size_t rows, std::size_t columns,
                       std::span<const std::uint64_t> row_margin, std::span<const std::uint64_t> column_margin,
                       std::uint64_t units, double ln_floor) {
  test_report r;
  r.name = std::move(name);
  r.decks = units;
  r.tail = "upper";
  r.table.assign(counts.begin(), counts.end());
  r.table_rows = rows;
  r.table_columns = columns;
  const std::uint64_t N = std::accumulate(row_margin.begin(), row_margin.end(), std::uint64_t{0});
  std::size_t I = 0, J = 0;
  for (const auto m : row_margin) I += m > 0;
  for (const auto m : column_margin) J += m > 0;
  if (I < 2 || J < 2 || units == 0 || N < 2) {
    r.result = test_outcome::not_applicable;
    r.note = units == 0 ? "no decks" : "the table has fewer than two rows or columns";
    return r;
  }
  const double T = static_cast<double>(units), dN = static_cast<double>(N);
  double x2 = 0, min_expected = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < rows; ++i) {
    if (row_margin[i] == 0) continue;
    for (std::size_t j = 0; j < columns; ++j) {
      if (column_margin[j] == 0) continue;
      const double e = T * static_cast<double>(row_margin[i]) * static_cast<double>(column_margin[j]) / dN;
      const double diff = static_cast<double>(counts[i * columns + j]) - e;
      x2 += diff * diff / e;
      min_expected = std::min(min_expected, e);
    }
  }
  const double df = static_cast<double>((I - 1) * (J - 1));
  const double scaled = x2 * (dN - 1) / dN;
  test_result t = chi_squared_upper_tail(scaled, df);
  // A position table (one card per position and deck: each cell Binomial(T, r_i/N) under the
  // null; also serial-position of distinct cards, whose cells are Binomial(pairs, 1/n)) gets a
  // bound that needs no approximation: Σ O²/E = X² + ΣO, so some cell holds at least
  // E·(X² + ΣO)/ΣO, and p <= Σ over cells of P(Binomial >= that). Where the chi-squared
  // approximation falls below `ln_floor`, the probability of the most extreme outcomes (which no
  // exact p is below), it means nothing there: the report gives this bound ("p <= ...") instead.
  // Other tables (a shoe's serial-position) keep the floor itself.
  const bool positions = std::all_of(column_margin.begin(), column_margin.end(), [](std::uint64_t c) { return c <= 1; });
  if (positions && !(t.ln_p >= ln_floor)) {
    const double total = T * static_cast<double>(J);
    const double ratio = (x2 + total) / total;
    double top = -std::numeric_limits<double>::infinity();
    std::vector<double> terms;
    for (std::size_t i = 0; i < rows; ++i) {
      if (row_margin[i] == 0) continue;
      const double q = static_cast<double>(row_margin[i]) / dN;
      const double e = T * q;
      const double ln_cell = q < 1 ? ln_binomial_tail_upper_bound(T, q, std::ceil(e * ratio * (1 - 1e-12))) : 0.0;
      terms.push_back(ln_cell + std::log(static_cast<double>(J)));
      top = std::max(top, terms.back());
    }
    double sum = 0;
    for (const double l : terms) sum += std::exp(l - top);
    const double ln_upper = std::isfinite(top) ? std::min(0.0, top + std::log(sum)) : 0.0;
    t.ln_p = std::max(ln_upper, ln_floor);
    t.p_value = std::exp(t.ln_p);
    t.bound = true;
  } else {
    apply_floor(t, ln_floor);
  }
  r.statistic = scaled;
  r.observed = scaled;
  r.expected = df;
  r.df = df;
  r.p = t.p_value;
  r.ln_p = t.ln_p;
  r.p_bound = t.bound;
  r.law = fmt::format("chi-squared, {} df: Pearson X^2 x (N-1)/N for fixed margins (N = {}); smallest expected count {:.6g}",
                      df, N, min_expected);
  if (min_expected < 5) {
    r.result = test_outcome::not_valid;
    r.note = fmt::format("an expected count is {:.3g}, below 5: the chi-squared approximation needs more decks",
                         min_expected);
  } else {
    r.result = test_outcome::pass;
  }
  return r;
}

std::vector<test_report> battery::evaluate(unsigned threads) const {
  const battery_shape& s = shape_;
  const std::size_t F = s.faces(), K = s.positions, N = s.cards;
  std::vector<test_report> out;

  // Column margins: one card per position, and with --dealt the N − K cards not dealt.
  std::vector<std::uint64_t> columns(K, 1);
  if (!s.whole()) columns.push_back(N - K);
  const auto position_test = [&](std::string_view name, const position_table& table) {
    const std::size_t rows = table.rows();
    std::vector<std::uint64_t> margin(rows, 0);
    for (std::size_t f = 0; f < F; ++f) margin[table.row_of()[f]] += s.copies[f];
    std::vector<std::uint64_t> counts;
    if (s.whole()) {
      counts = table.counts();
    } else {
      counts.assign(rows * (K + 1), 0);
      for (std::size_t i = 0; i < rows; ++i) {
        std::uint64_t dealt = 0;
        for (std::size_t p = 0; p < K; ++p) {
          counts[i * (K + 1) + p] = table.counts()[i * K + p];
          dealt += table.counts()[i * K + p];
        }
        counts[i * (K + 1) + K] = decks_ * margin[i] - dealt;
      }
    }
    // The most extreme outcomes: one pattern of rows (one order of the cards, one sequence of
    // suits, ...) in every deck: patterns · (1/patterns)^T, patterns = N! / Π margin_i! (whole
    // decks; with --dealt this is below the true floor).
    double ln_patterns = std::lgamma(static_cast<double>(N) + 1);
    for (const auto m : margin) ln_patterns -= std::lgamma(static_cast<double>(m) + 1);
    const double table_floor = (1 - static_cast<double>(decks_)) * ln_patterns;
    return table_test(std::string(name), counts, rows, columns.size(), margin, columns, decks_, table_floor);
  };
  out.push_back(position_test("card-position", card_position));
  if (suits_and_ranks(s)) {
    out.push_back(position_test("suit-position", suit_position));
    out.push_back(position_test("rank-position", rank_position));
  } else {
    out.push_back(not_applicable("suit-position", decks_, "the pack has no suits"));
    out.push_back(not_applicable("rank-position", decks_, "the pack has no ranks"));
  }

  // Totals with exact per-deck laws. Two-sided unless noted: a machine can err either way
  // (gluing neighbours raises successions, one that spreads them apart lowers them).
  const bool permutations = permutation_tests(s);
  const std::string why = !s.whole()      ? "needs whole decks (--dealt gives only the first cards)"
                          : !s.distinct() ? "needs distinct cards (the pack repeats cards)"
                          : N < 2         ? "needs at least 2 cards"
                                          : fmt::format("exact laws are computed up to {} cards", max_law_cards);
  struct total_spec {
    std::string_view name;
    const deck_total* acc;
    std::vector<double> (*law)(std::size_t);
    bool upper;
    std::string_view text;
  };
  const total_spec totals[] = {
      {"successions", &successions, successions_law, false,
       "exact: C(n-1,k) A000255(n-1-k)/n! (Riordan)"},
      {"adjacent-pairs", &adjacent_pairs, adjacent_pairs_law, false, "exact: inclusion-exclusion over glued pairs"},
      {"descents", &descents, descents_law, false, "exact: Eulerian numbers A(n,k)/n!"},
      {"rising-sequences", &rising_sequences, rising_sequences_law, false,
       "exact: Eulerian numbers (Bayer-Diaconis rising sequences)"},
      {"runs-up-down", &runs_up_down, runs_up_down_law, false, "exact: David-Barton recursion (alternating runs)"},
      {"fixed-points", &fixed_points, fixed_points_law, false, "exact: rencontres numbers C(n,k) D(n-k)/n!"},
      // Upper tail: the strategy is meant to win against a flawed shuffler; fewer right guesses
      // than chance is no advantage to a player.
      {"guessing", &guessing, guessing_law, true,
       "exact: Poisson-binomial of Bernoulli(1/k), k = 1..n (strategy original successor)"},
      {"guessing-shelf", &guessing_shelf, guessing_law, true,
       "exact: Poisson-binomial of Bernoulli(1/k), k = 1..n (strategy shelf: follow rising and falling runs)"},
  };
  for (const auto& t : totals) {
    if (!permutations) {
      out.push_back(not_applicable(t.name, decks_, why));
    } else {
      out.push_back(total_test(t.name, *t.acc, t.law(N), t.upper, t.text));
    }
  }

  // permutation-3, permutation-4 (Knuth, TAOCP vol. 2, §3.3.2 C): in a uniform deck the relative
  // orders of disjoint sets of positions are independent and uniform over the t! orders, so the
  // ⌊n/t⌋·T patterns are iid uniform: the counts are exactly multinomial; Pearson's X², df t! − 1.
  for (const std::size_t t : {std::size_t{3}, std::size_t{4}}) {
    const std::string name = t == 3 ? "permutation-3" : "permutation-4";
    if (!permutations || N < t) {
      out.push_back(not_applicable(name, decks_, permutations ? fmt::format("needs at least {} cards", t) : why));
      continue;
    }
    std::vector<std::uint64_t> counts = t == 3 ? std::vector<std::uint64_t>(permutation3.begin(), permutation3.end())
                                               : std::vector<std::uint64_t>(permutation4.begin(), permutation4.end());
    const double k = static_cast<double>(counts.size()), tuples = static_cast<double>(N / t) * static_cast<double>(decks_);
    test_report r;
    r.name = name;
    r.decks = decks_;
    r.tail = "upper";
    test_result x = pearson_uniform(counts);
    // The most extreme outcome: every tuple in one pattern, k of them: k · k^−tuples.
    apply_floor(x, std::log(k) * (1 - tuples));
    r.statistic = x.statistic;
    r.observed = x.statistic;
    r.expected = k - 1;
    r.df = k - 1;
    r.p = x.p_value;
    r.ln_p = x.ln_p;
    r.p_bound = x.bound;
    r.law = fmt::format("chi-squared, {} df: the relative orders of {} disjoint {}-tuples of positions per deck, each "
                        "uniform over {} orders and independent (exactly multinomial)",
                        k - 1, N / t, t, counts.size());
    const double expected = tuples / k;
    if (expected < 5) {
      r.result = test_outcome::not_valid;
      r.note = fmt::format("each order expects {:.3g} tuples, below 5: the chi-squared approximation needs more decks",
                           expected);
    } else {
      r.result = test_outcome::pass;
    }
    out.push_back(std::move(r));
  }

  // position-pairs and the coupon collector (audit/pairs.hpp).
  if (position_pairs_apply(s)) {
    out.push_back(decks_ == 0 ? not_applicable("position-pairs", 0, "no decks")
                              : position_pairs_test(position_pairs, N, s.lags, decks_));
  } else {
    out.push_back(not_applicable("position-pairs", decks_,
                                 !permutations ? why : fmt::format("needs more than 2 x {} (--lags) cards", s.lags)));
  }
  for (const bool ranks : {false, true}) {
    const std::string_view name = ranks ? "coupon-collector-ranks" : "coupon-collector-suits";
    const coupon_groups g = coupon_groups_of(s, ranks);
    if (g.sizes.empty()) {
      out.push_back(not_applicable(name, decks_, !suits_and_ranks(s) ? "the pack has no suits and ranks"
                                                 : !s.whole()       ? "needs whole decks (--dealt gives only the first cards)"
                                                                    : "needs at least 2 groups"));
      continue;
    }
    const std::vector<double> law = coupon_collector_law(g.sizes, g.others);
    const std::string text = fmt::format("exact: cards dealt until every {} has appeared (inclusion over the {} groups)",
                                         ranks ? "rank" : "suit", g.sizes.size());
    out.push_back(total_test(name, ranks ? coupon_ranks : coupon_suits, law, false, text));
  }
  if (const coupon_groups g = coupon_groups_of(s, false); g.sizes.empty()) {
    out.push_back(not_applicable("gap", decks_, !suits_and_ranks(s) ? "the pack has no suits and ranks"
                                                                    : "needs whole decks (--dealt gives only the first cards)"));
  } else {
    out.push_back(gap_test(gap_counts, g, N, decks_));
  }
  if (s.batch_size > 0) out.push_back(batches_test(s, batches));

  // The serial tests test dependence only (audit/serial.hpp): each category's repeats from one
  // deck to the next against their exact permutation moments given the decks' own counts, so
  // decks that are independent but each biased pass them. serial-successions: per card, the card
  // right below it (itself at the bottom), counts from the successor table.
  if (!permutations) {
    out.push_back(not_applicable("serial-successions", serial_successions.decks, why));
  } else if (serial_successions.decks == 0) {
    out.push_back(not_applicable("serial-successions", 0, "needs at least 2 decks in order"));
  } else {
    out.push_back(serial_repeat_test("serial-successions", successor_table, N, N, successor_repeats, decks_,
                                     serial_successions.decks, "card"));
  }

  // serial-position: per position, the face there; its counts are the card-position table's
  // column (faces × K, transposed here to positions × faces).
  if (!s.whole()) {
    out.push_back(not_applicable("serial-position", 0, "needs whole decks (--dealt gives only the first cards)"));
  } else if (serial_position.pairs() == 0) {
    out.push_back(not_applicable("serial-position", 0, "needs at least 2 decks in order"));
  } else {
    std::vector<std::uint64_t> by_position(K * F);
    const auto& counts = card_position.counts();
    for (std::size_t f = 0; f < F; ++f) {
      for (std::size_t p = 0; p < K; ++p) by_position[p * F + f] = counts[f * K + p];
    }
    test_report r = serial_repeat_test("serial-position", by_position, K, F, position_repeats, decks_,
                                       serial_position.pairs(), "position");
    r.table = serial_position.counts();
    r.table_rows = F;
    r.table_columns = F;
    out.push_back(std::move(r));
  }

  // duplicates: identical decks among the first duplicate_finder::limit, against Poisson with
  // mean C(d, 2) · P(two decks match) (the birthday test of `bias`).
  const std::uint64_t d = duplicates.decks();
  if (!s.whole() && !s.distinct()) {
    out.push_back(not_applicable("duplicates", d, "dealt cards of a pack with repeated cards"));
  } else if (d < 2) {
    out.push_back(not_applicable("duplicates", d, "needs at least 2 decks"));
  } else {
    test_report r;
    r.name = "duplicates";
    r.decks = d;
    r.tail = "upper";
    const double orders = ln_orders(s);
    // A match: the same deck (1 / orders), or a fingerprint collision (2^-64).
    const double a = -orders, b = -64 * std::log(2.0);
    const double ln_match = std::max(a, b) + std::log1p(std::exp(std::min(a, b) - std::max(a, b)));
    const double dd = static_cast<double>(d);
    const double ln_lambda = std::log(dd * (dd - 1) / 2) + ln_match;
    const std::uint64_t k = duplicates.repeats(threads);
    test_result t = poisson_upper_tail_ln(static_cast<double>(k), ln_lambda);
    apply_floor(t, -static_cast<double>(k) * orders);
    r.observed = static_cast<double>(k);
    r.expected = std::exp(ln_lambda);
    r.statistic = r.observed;
    r.p = t.p_value;
    r.ln_p = t.ln_p;
    r.p_bound = t.bound;
    r.law = fmt::format("Poisson (birthday problem), mean C(d,2)/orders over the first {} decks", d);
    if (ln_lambda > 0) {
      r.result = test_outcome::not_valid;
      r.note = fmt::format("{:.3g} repeats expected: the Poisson approximation needs fewer decks than orders",
                           r.expected);
    } else {
      r.result = test_outcome::pass;
    }
    out.push_back(std::move(r));
  }
  if (s.game.game != game_kind::none) out.push_back(game_test(s, game_hands, decks_));
  return out;
}

}  // namespace shufl::audit
