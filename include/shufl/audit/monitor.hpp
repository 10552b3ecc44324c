// The monitor of `shufl audit --follow`: a test martingale (e-process) over a stream of decks,
// whose alarm at 1/alpha stays valid however often one looks and whenever one stops.
//
// Null: each deck is a uniformly random order of the pack, independent of earlier decks. Then,
// given everything dealt before it (earlier decks, earlier cards of this deck), the next card is
// uniform over the cards not yet dealt in this deck: face f has probability
// p0(f) = left[f] / cards_left (for a shoe, proportional to the copies left).
// For any distribution q over the faces still possible that is computed from the past alone, the
// factor q(card)/p0(card) has conditional expectation Σ_f p0(f)·q(f)/p0(f) = Σ_f q(f) = 1, so the
// running product of factors is a non-negative martingale with expectation 1 (a test
// martingale), and so is any average of such products. Ville's inequality then gives
// P(sup_t E_t >= 1/alpha) <= alpha: the chance that the monitor EVER alarms under the null is at
// most alpha, at whatever times one looks (G. Shafer, V. Vovk, "Game-Theoretic Foundations for
// Probability and Finance", 2019; A. Ramdas, P. Grünwald, V. Vovk, G. Shafer, "Game-theoretic
// statistics and safe anytime-valid inference", Statistical Science 38(4), 2023).
//
// Predictors (each is one e-process; docs/monitor.md explains them; src/audit/monitor.cpp has
// the argument for each beside its code):
//   position    Krichevsky–Trofimov (Dirichlet(1/2)) counts of face × position in earlier decks
//   successor   the `guessing` strategy's card (the original successor of the last card)
//   repeat      the face that followed this card in the previous deck (partial repeats)
//   suit-rank   KT counts of suit × position and rank × position
// Each predictor's q is mixed with the null: q_w = (1 − w)·p0 + w·q_pred, for every w of a fixed
// grid (for the single-card predictors, w also depends on whether the predictor's previous guess
// in this deck hit); the predictor's e-process is the average over the grid, the mixture the
// average over the predictors. The grid holds w = 0, so no predictor's e-value falls below
// 1/(grid size), whatever the decks.
//
// Values are kept as natural logarithms in doubles (no overflow); per deck each component's
// factors are multiplied in a double that is folded into its logarithm when it leaves
// [1e-150, 1e150]. Cost: O(n) per card for the KT predictors, O(1) amortised for the others; no
// allocation per deck after the first.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "shufl/audit/deck_reader.hpp"

namespace shufl::audit {

/// The e-process of `audit --follow` over decks of one pack.
class e_process {
 public:
  /// What the monitor shows after each deck.
  struct status {
    std::uint64_t decks = 0;                              ///< Decks added.
    std::vector<std::pair<std::string, double>> log10_e;  ///< Per predictor: log10 of its e-value.
    double log10_mixture = 0;        ///< log10 of the mixture (average of the predictors' e-values).
    double max_log10_mixture = 0;    ///< Largest log10_mixture after any deck so far (0 at start).
    double anytime_p = 1;            ///< min(1, 1 / max mixture so far): the anytime-valid p-value.
    std::string leader;              ///< Predictor with the largest e-value now.
    std::string evidence;            ///< What the leader found (a position and card, a hit rate).
  };

  /// The predictors' names, in the order of status::log10_e.
  static std::span<const std::string_view> predictor_names() noexcept;

  /// Monitors decks of `pack`. With `window` > 0 the learners (position, suit-rank) count only
  /// the last `window` decks (a sliding window, window × cards face ids kept), so a long fair
  /// history does not slow their bets after a change (the change detector's learners); 0 counts
  /// every deck (the since-the-start e-process). With a window, status::max_log10_mixture and
  /// anytime_p are not kept up (0 and 1: only the since-the-start process has them). Throws
  /// shufl::error for an empty pack.
  explicit e_process(const audit_pack& pack, std::size_t window = 0);

  /// Adds one deck: face ids (0..faces()−1), top card first; pack.size() cards, or fewer for a
  /// partial deal (then every deck of the stream must have that length). Throws shufl::error
  /// (and changes nothing) for an unknown face, a face more often than the pack has it, or a
  /// length different from the first deck's.
  void add_deck(std::span<const std::uint32_t> faces) { add_deck(faces, nullptr); }

  /// The guessing predictors' (successor, repeat) work on one deck, which learns nothing: the
  /// same for every e-process of a stream that saw the same previous deck. The first add_deck
  /// given one with `ready` false computes it and fills it in; the next ones (same deck, same
  /// previous deck) take it instead of computing it again: the same doubles added in the same
  /// order. Set `ready` to false before each new deck.
  struct shared_guesses {
    bool ready = false;
    std::vector<std::uint32_t> previous;          // the previous deck it was computed after
    std::array<std::uint64_t, 2> guesses{}, hits{};
    std::array<std::vector<double>, 2> expected;  // Σ p0(guess) terms, in order
    std::vector<std::pair<std::uint32_t, double>> folds;  // (component, ln) added mid-deck, in order
    std::vector<double> misses;                   // per component: the misses' ln, added next
    std::vector<double> last;                     // per component: ln of the deck's rest (NaN: none)
  };
  /// add_deck, sharing the guessing predictors' work through `shared` (may be null).
  void add_deck(std::span<const std::uint32_t> faces, shared_guesses* shared);

  /// The most e-processes add_deck_together takes in one pass.
  static constexpr std::size_t max_together = 4;
  /// add_deck(faces, shared) for each of `processes` (e-processes of one stream: the same pack,
  /// at the same deck), in one pass over the deck: the deck is checked, dealt and its guessing
  /// predictors' work done once, and each process's learners read their own counts. The same
  /// doubles as one add_deck after the other. Throws as add_deck, before any process changes.
  /// Processes that are not at the same point of one stream (another previous deck, length or
  /// pack), or more than max_together, are taken one after the other.
  static void add_deck_together(std::span<e_process* const> processes, std::span<const std::uint32_t> faces,
                                shared_guesses* shared);

  [[nodiscard]] std::uint64_t decks() const noexcept { return decks_; }
  [[nodiscard]] status current() const;
  /// true once the mixture has reached 1/alpha after some deck (Ville: probability <= alpha under
  /// the null). Precondition 0 < alpha < 1.
  [[nodiscard]] bool crossed(double alpha) const noexcept;

  /// The whole state as JSON text (for --state): pack identity, predictor set, counts and the
  /// components' logarithms (doubles written to round-trip exactly).
  [[nodiscard]] std::string serialize() const;
  /// Restores a state written by serialize() for the same pack. Throws shufl::error
  /// "state file: ..." when the text is not such a state, was written for another pack
  /// ("state file: written for pack P, this stream is pack Q") or another predictor set.
  void deserialize(std::string_view json_text);

  /// Every component (predictor × weight pair) in a fixed order: its predictor's index (in the
  /// order of predictor_names()) and whether it is the null itself (all weights 0: factor 1).
  struct component_info {
    std::size_t predictor = 0;
    bool null = false;
  };
  [[nodiscard]] std::vector<component_info> components() const;
  /// ln of each component's e-value (same order as components()); between decks.
  void component_logs(std::vector<double>& out) const;
  /// What a predictor found (see status::evidence), over the decks its learners count.
  [[nodiscard]] std::string evidence(std::size_t predictor) const { return evidence_of(predictor); }

 private:
  struct component {
    double w_cold = 0;   // weight when the predictor's previous guess in this deck missed
    double w_hot = 0;    // weight after a hit (single-card predictors only)
    double log_e = 0;    // ln of this component's e-value
    double scale = 1;    // factors of the current deck not yet folded into log_e
    double log_keep_cold = 0;  // ln(1 − w_cold): a miss's factor (single-card predictors)
    double log_keep_hot = 0;   // ln(1 − w_hot)
  };
  struct predictor_state {
    std::vector<component> comps;
    std::uint64_t hits = 0;        // single-card predictors: guesses that hit
    std::uint64_t guesses = 0;     // guesses made on a possible card
    double expected_hits = 0;      // Σ p0(guess): hits expected under the null
  };

  void deserialize_checked(std::string_view json_text);
  void check_deck(std::span<const std::uint32_t> faces);
  void fold(predictor_state& p) noexcept;
  void count_deck(std::span<const std::uint32_t> faces, int step) noexcept;
  std::string predictor_set_name() const;
  double mixture_log() const noexcept;
  [[nodiscard]] bool mixture_may_exceed(double level) const noexcept;
  double predictor_log(const predictor_state& p) const noexcept;
  std::string evidence_of(std::size_t predictor) const;
  std::string face_label(std::uint32_t face) const;
  void rebuild_weights();
  [[nodiscard]] std::uint32_t next_live(std::size_t from) const noexcept;
  [[nodiscard]] std::uint32_t previous_live(std::size_t x) const noexcept;
  void guess(std::size_t predictor, std::uint32_t g, std::uint32_t c, double R, bool& hot);
  void guessing_factors(shared_guesses* fill);
  [[nodiscard]] bool same_point(const e_process& other, std::size_t length) const noexcept;
  void finish_deck(std::span<const std::uint32_t> faces);
  void take_guesses(const shared_guesses& shared);

  audit_pack pack_;
  std::size_t n_ = 0;            // cards per pack
  std::size_t faces_ = 0;
  std::size_t length_ = 0;       // cards per deck in this stream (0 until the first deck)
  std::uint64_t decks_ = 0;
  double max_log_mixture_ = 0;
  std::vector<predictor_state> preds_;

  // Counts from earlier decks.
  std::vector<std::uint32_t> pos_count_;   // [position · faces + face]
  std::vector<double> pos_weight_;         // (count + 1/2) / copies[face], same layout
  std::size_t suits_ = 0, ranks_ = 0;      // classes (with one "none" class each)
  std::vector<std::uint32_t> suit_class_, rank_class_;      // per face
  std::vector<std::uint32_t> suit_count_, rank_count_;      // [position · classes + class]
  std::vector<std::uint32_t> suit_faces_, rank_faces_;      // copies per class in a pack
  std::vector<std::uint32_t> prev_;                         // previous deck (empty before deck 2)
  std::vector<std::uint32_t> prev_next_;   // [offset[f] + k]: face after the k-th f of prev_, or none
  std::vector<std::uint32_t> offset_;      // prefix sums of copies
  std::size_t window_ = 0;                 // learners count the last window_ decks (0: all)
  std::vector<std::uint32_t> ring_;        // the last window_ decks, deck d at slot d % window_

  // Scratch for one deck (sized once).
  std::array<std::uint64_t, 8> misses_{};  // [2 · predictor + hot]: misses in this deck
  std::vector<std::uint32_t> left_, live_, live_pos_, seen_copy_, suit_left_, rank_left_;
  std::vector<std::uint32_t> dead_class_;  // suit classes used up in this deck, then rank classes
  std::vector<std::uint64_t> live_bits_;   // bit f: face f still possible in this deck
  std::vector<double> ratio_pos_, ratio_sr_;  // per card: r(c) of position and suit-rank
  std::vector<double> den_pos_, den_sr_;      // per card: their denominators (divided in one loop)
  struct hit {
    std::size_t predictor = 0;
    bool hot = false;   // the predictor hit the card before in this deck
    double ratio = 0;   // R / left[g]
  };
  std::vector<hit> hits_;                  // the guessing predictors' hits in this deck, in order
  std::array<std::vector<double>, 2> expected_;  // the guessing predictors' p0(guess) in this deck
  std::array<std::uint64_t, 2> deck_hits_{};     // and their hits
  bool unit_copies_ = false;               // one copy of every face (no shoe)
  shared_guesses together_;                // scratch: the guessing work handed on in add_deck_together
};

}  // namespace shufl::audit
