// The change detector of `shufl audit --follow` (docs/monitor.md, "The change detector"): an
// e-detector in the Shiryaev–Roberts form (S. Shin, A. Ramdas, A. Rinaldo, "E-detectors: a
// nonparametric framework for sequential change detection", New England Journal of Statistics
// in Data Science, 2023), whose alarm comes as fast after a long fair history as on the first
// deck, with a stated average run length to a false alarm.
//
// Per-deck e-values. Each component k of the monitor's predictors (shufl/audit/monitor.hpp: a
// predictor with one pair of mixing weights, other than the null's all-zero pair) gives for
// deck t the product e_{k,t} of its factors over the deck's cards. Every factor has conditional
// expectation 1 under the null given everything before it, so E0[e_{k,t} | decks before t] = 1.
// The learners (position, suit-rank) count only a sliding window of recent decks (two learner
// sets: the last 32 and the last 1,024 decks), and the guessing predictors (successor, repeat)
// learn nothing, so no bet is slowed down by a long fair history.
//
// Replays. A fifth predictor, `replay`, bets that the deck repeats one of the last 2^20 decks
// (whole decks, at any lag in the window): decks are kept as 64-bit SipHash-2-4 values (a ring of
// 2^20 values and an index of the distinct ones: 16 MiB when full, not saved in the state: a
// restart refills it). Under the null a hit has probability p <= K·(p_max + 2^−64), K the distinct
// decks in the window, p_max the largest probability of one deck (Π copies!/n! for a whole deck,
// a bound Π min(copies, n−t)/(n−t) for a deal of fewer cards), 2^−64 the chance that another deck has the same hash (the hash taken as a random
// function); the e-value (1 − w) + w·[hit]/p (w in {1/64, 1/2}) has conditional mean <= 1.
// The same predictor bets on runs (replay_runs.hpp): for decks of at least 6 cards, windows of
// L = min(10, floor(63/bits), floor(len/2)) cards; a hit (some window of the deck equals an
// aligned window of a deck in the window) has null probability at most p_r = S·m·p1 (S stored
// windows, m = len − L + 1 windows of the deck, p1 = Π_{t<L} min(copies, n−t)/(n−t)); when both
// bet, e = (1 − w) + w·(½[hit]/p + ½[run hit]/p_r), still of conditional mean <= 1. Runs of 2L
// cards (20 for 52-card decks) from any deck in the window are found.
//
// Statistic. Per component, M_{k,t} = e_{k,t} · (M_{k,t−1} + 1), M_{k,0} = 0 (Shiryaev–Roberts);
// the detector is the fixed-weight average M_t = Σ_k π_k M_{k,t} (π: 1/2 per learner set, 1/4
// per predictor, equal over a predictor's non-null components). Under the null each
// M_{k,t} − t is a martingale, hence so is M_t − t (E0[M_t] = t), and the alarm at the first t
// with M_t >= A has E0[τ] >= A (optional stopping at τ ∧ n, then n → ∞; Shin et al., 2023):
// the average run length to a false alarm is at least A decks. The bound holds for any deck
// length, pack or shoe, and across saved states (the statistic is restored exactly).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/audit/monitor.hpp"
#include "shufl/audit/replay_runs.hpp"

namespace shufl::audit {

/// The replay predictor's memory: the 64-bit hashes of the last `window` decks (a ring) and an
/// index of the distinct ones, each at its newest copy (newest_index, replay_runs.hpp: 4 bytes a
/// slot, at most 70 % full; 8 + 8 MiB for a full window of 2^20 decks). O(1) expected per deck
/// whatever the stream. One window may serve the detectors of several groups (--group-by): a
/// deck of any group is then looked up among the recent decks of every group.
class replay_window {
 public:
  /// The default window (decks).
  static constexpr std::size_t default_window = std::size_t{1} << 20;
  /// A window of the last `window` decks (0 < window < 2^32 − 1; the ring is allocated at the
  /// first deck). Throws shufl::error out of range.
  explicit replay_window(std::size_t window = default_window);
  /// What the window said of one deck.
  struct look {
    bool hit = false;          ///< the deck's hash is among the window's (before this deck)
    std::uint64_t lag = 0;     ///< decks back to its last copy (0: no hit)
    std::size_t distinct = 0;  ///< distinct hashes in the window before this deck
  };
  /// Looks `hash` up among the window's decks, then adds it (the oldest leaves a full window).
  look add(std::uint64_t hash);
  [[nodiscard]] std::uint64_t seen() const noexcept { return seen_; }
  [[nodiscard]] std::size_t window() const noexcept { return window_; }
  /// Looks the runs of `faces` up among the same window's decks, then adds the deck
  /// (shufl/audit/replay_runs.hpp; the run window is made at the first call, with its shape).
  run_window::look add_runs(std::span<const std::uint32_t> faces, unsigned length, unsigned bits, std::size_t slots);
  /// The run window (null before the first add_runs).
  [[nodiscard]] const run_window* runs() const noexcept { return runs_ ? &*runs_ : nullptr; }
  /// Bytes held by the whole-deck part now (ring capacity·8 + index slots·4).
  [[nodiscard]] std::size_t bytes() const noexcept { return ring_.capacity() * 8 + index_.size() * 4; }

 private:
  std::size_t window_;
  huge_vector<std::uint64_t> ring_;  // the hash of deck s at s mod window
  std::uint64_t seen_ = 0;
  newest_index index_;               // each distinct hash at its newest ring slot
  std::size_t distinct_ = 0;
  std::optional<run_window> runs_;
};

/// The Shiryaev–Roberts e-detector over the monitor's predictors with windowed learners and
/// the replay predictor.
class change_detector {
 public:
  /// The learner windows of the default detector (decks).
  static constexpr std::array<std::size_t, 2> default_windows = {32, 1024};

  /// What the status shows.
  struct status {
    double log10_m = -1e300;          ///< log10 M_t (very negative before any deck)
    double log10_threshold = 9;       ///< log10 A
    std::uint64_t decks = 0;          ///< decks since the detector (re)started from 0
    std::string leader;               ///< the predictor (and window) with the largest share of M_t
    std::string evidence;             ///< what it found in its window
  };

  /// A detector for decks of `pack` with threshold `arl` (A > 1: the guaranteed average run
  /// length to a false alarm, in decks) and learner `windows` (each > 0). Throws shufl::error
  /// for an empty pack, arl <= 1 or a zero window.
  /// `replay`: the replay window to share (null: a window of its own, made at the first deck).
  change_detector(const audit_pack& pack, double arl,
                  std::span<const std::size_t> windows = default_windows,
                  std::shared_ptr<replay_window> replay = nullptr);

  /// Adds one deck (as e_process::add_deck; throws the same errors, changing nothing). The
  /// learners share their guessing predictors' work, also with others through `shared`
  /// (e_process::shared_guesses; null: within this detector only). `with` (may be null): an
  /// e-process of the same stream (the since-the-start one) that takes the deck in the same
  /// pass (e_process::add_deck_together), as with.add_deck(faces, shared) would.
  void add_deck(std::span<const std::uint32_t> faces, e_process::shared_guesses* shared = nullptr,
                e_process* with = nullptr);
  /// true when M_t >= A.
  [[nodiscard]] bool alarmed() const noexcept {
    // Below the bound, M_t < A for sure; else the exact ln M_t decides.
    if (stale_ && bound_ < log_threshold_) return false;
    return log_m() >= log_threshold_;
  }
  /// ln M_t (−inf before any deck and right after restart()).
  [[nodiscard]] double log_m() const noexcept {
    if (stale_) mixture();
    return log_m_;
  }
  /// Bets on replays in `replay` from now on (shared: copies of this detector share it too).
  void share_replay(std::shared_ptr<replay_window> replay) { replay_ = replay_ref(std::move(replay), false); }
  /// Starts the statistic again from M = 0 (the learners keep their windows).
  void restart() noexcept;
  [[nodiscard]] status current() const;

  /// The state as a JSON value's text (learners, statistics); the threshold is not part of it.
  [[nodiscard]] std::string serialize() const;
  /// Restores a state of serialize() for the same pack and windows; throws shufl::error
  /// "state file: ..." otherwise (and changes nothing).
  void deserialize(std::string_view json_text);

 private:
  void update_mixture() noexcept;
  void mixture() const noexcept;
  void add_replay(std::span<const std::uint32_t> faces);

  audit_pack pack_;
  std::vector<std::size_t> windows_;
  std::vector<e_process> learners_;
  std::vector<e_process::component_info> layout_;  // of one learner
  std::vector<double> weight_log_;                // ln π_k, per learner × component (−inf: null)
  std::vector<double> log_sr_;                    // ln M_{k,t}, same layout
  std::vector<double> before_, after_, first_;    // scratch
  std::vector<e_process*> procs_;                 // scratch: the learners (and `with`) of one deck
  e_process::shared_guesses shared_;             // scratch: the learners' guessing work
  // replay: the window of recent decks (maybe shared between groups)
  static constexpr std::array<double, 2> replay_weights = {1.0 / 64, 1.0 / 2};
  // A copy of a detector copies a window of its own (an enumeration of next decks over copies
  // must not see its siblings) and shares a shared one.
  struct replay_ref {
    std::shared_ptr<replay_window> window;
    bool owned = true;
    replay_ref() = default;
    replay_ref(std::shared_ptr<replay_window> w, bool own) : window(std::move(w)), owned(own) {}
    replay_ref(const replay_ref& o)
        : window(o.owned && o.window ? std::make_shared<replay_window>(*o.window) : o.window), owned(o.owned) {}
    replay_ref& operator=(const replay_ref& o) {
      if (this != &o) *this = replay_ref(o);
      return *this;
    }
    replay_ref(replay_ref&&) noexcept = default;
    replay_ref& operator=(replay_ref&&) noexcept = default;
    ~replay_ref() = default;
    replay_window* operator->() const noexcept { return window.get(); }
  };
  replay_ref replay_;
  std::uint64_t replay_seen_ = 0;                // decks this detector looked up
  std::size_t replay_distinct_ = 0;              // distinct decks in the window at the last look
  bool have_p_max_ = false;
  double log_p_max_ = 0;                         // ln of the largest null probability of one deck
  std::array<double, 2> replay_sr_{};            // ln M of the replay components
  std::uint64_t last_hit_lag_ = 0;               // lag of the last replay hit (0: none)
  // runs (replay_runs.hpp): windows of run_length_ cards, bet on when run_length_ >= 3
  unsigned run_length_ = 0, run_bits_ = 0;
  std::size_t run_slots_ = 0;
  double log_run_p1_ = 0;                        // ln of the largest null probability of one window
  std::uint64_t last_run_lag_ = 0;               // lag of the last run hit (0: none)
  // ln M_t, computed (log-sum-exp over the components) only when a decision or a status needs
  // it: after a deck only the largest term is found, and bound_ = that term + ln(number of
  // terms) + 1e-6 is above ln M_t, so a deck whose bound is below ln A cannot alarm.
  mutable double log_m_ = 0;
  mutable bool stale_ = false;
  double bound_ = 0;
  std::size_t bound_terms_ = 0;  // the number of terms whose ln (+ 1e-6) is log_terms_
  double log_terms_ = 0;
  double log_threshold_ = 0;
  double log10_threshold_ = 0;
  std::uint64_t decks_ = 0;
};

}  // namespace shufl::audit
