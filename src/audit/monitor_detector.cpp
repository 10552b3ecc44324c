// The change detector (include/shufl/audit/detector.hpp; docs/monitor.md).
//
// Per deck: every learner (an e_process with a window) takes the deck; each component's ln
// e-value moves by ln e_{k,t}, the log of the product of its factors over this deck (every
// component is folded between decks, so the difference is exact up to rounding). Then
// ln M_{k,t} = ln e_{k,t} + ln(1 + M_{k,t−1}), computed as softplus(ln M_{k,t−1}) so nothing
// overflows, and ln M_t = ln Σ_k π_k M_{k,t} by log-sum-exp.
#include "shufl/audit/detector.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sodium.h>

#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

constexpr double minus_inf = -std::numeric_limits<double>::infinity();
constexpr double ln10 = 2.302585092994045684;

// ln(1 + e^x), exact enough for every x (x = −inf gives 0).
// Beyond |x| = 37, e^{−|x|} < 2^−53: ln(1 + e^x) is e^x (x < −37; 0 below −745, where e^x is 0)
// or x itself (x > 37, where e^{−x} is below half an ulp of x), with no call of log1p.
double softplus(double x) noexcept {
  if (x > 37) return x;
  if (x < -37) return x < -745.2 ? 0.0 : std::exp(x);
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// The guessing predictors learn nothing: their components are the same in every learner set.
bool learns(std::size_t predictor) noexcept { return predictor == 0 || predictor == 3; }

}  // namespace

namespace {

std::size_t checked_window(std::size_t window) {
  if (window == 0) throw shufl::error("change detector: a replay window of 0 decks");
  if (window >= std::size_t{0xffffffff}) throw shufl::error("change detector: a replay window too large");
  return window;
}

}  // namespace

replay_window::replay_window(std::size_t window) : window_(checked_window(window)), index_(window) {}

run_window::look replay_window::add_runs(std::span<const std::uint32_t> faces, unsigned length, unsigned bits,
                                         std::size_t slots) {
  if (!runs_) runs_.emplace(window_, length, bits, slots);
  return runs_->add(faces);
}

replay_window::look replay_window::add(std::uint64_t h) {
  look l;
  l.distinct = distinct_;
  const std::uint64_t m = newest_index::mix(h);
  const std::size_t slot = static_cast<std::size_t>(seen_ % window_);
  if (const std::size_t i = index_.find(h, m, ring_); i != newest_index::npos) {
    l.hit = true;
    const std::size_t back = (slot + window_ - index_.position(i)) % window_;
    l.lag = back == 0 ? window_ : back;
  }
  // Remember this deck; the one `window_` decks back leaves (from the index if it was its
  // hash's newest copy).
  if (ring_.empty()) ring_.assign(window_, 0);
  if (seen_ >= window_) {
    const std::uint64_t old = ring_[slot];
    const std::size_t i = index_.find(old, newest_index::mix(old), ring_);
    if (i != newest_index::npos && index_.position(i) == slot) {
      index_.erase(i, ring_);
      --distinct_;
    }
  }
  ring_[slot] = h;
  if (newest_index::slots_for(distinct_ + 1) > index_.size()) {
    // Rebuild with room, from the oldest deck to this one, so each hash ends at its newest copy.
    index_.reset(newest_index::slots_for(distinct_ + 1));
    const std::uint64_t first = seen_ >= window_ ? seen_ - window_ + 1 : 0;
    for (std::uint64_t s = first; s < seen_; ++s) {
      const std::size_t p = static_cast<std::size_t>(s % window_);
      index_.put(ring_[p], newest_index::mix(ring_[p]), p, ring_);
    }
  }
  if (index_.put(h, m, slot, ring_)) ++distinct_;
  ++seen_;
  return l;
}

change_detector::change_detector(const audit_pack& pack, double arl, std::span<const std::size_t> windows,
                                 std::shared_ptr<replay_window> replay)
    : pack_(pack), windows_(windows.begin(), windows.end()) {
  const bool own = !replay;
  replay_ = replay_ref(own ? std::make_shared<replay_window>() : std::move(replay), own);
  if (!(arl > 1) || !std::isfinite(arl)) throw shufl::error(fmt::format("--arl must be a number above 1, not {}", arl));
  if (windows_.empty()) throw shufl::error("change detector: no learner window");
  for (const std::size_t w : windows_) {
    if (w == 0) throw shufl::error("change detector: a learner window of 0 decks");
    learners_.emplace_back(pack, w);
  }
  log_threshold_ = std::log(arl);
  log10_threshold_ = std::log10(arl);
  layout_ = learners_.front().components();
  // π: 1/L per learner set, 1/P per predictor, equal over the predictor's non-null components.
  const std::size_t predictors = e_process::predictor_names().size();
  std::vector<std::size_t> live(predictors, 0);
  for (const auto& c : layout_)
    if (!c.null) ++live[c.predictor];
  const double l = static_cast<double>(learners_.size());
  for (std::size_t i = 0; i < learners_.size(); ++i)
    for (const auto& c : layout_)
      weight_log_.push_back(c.null ? minus_inf
                                   : std::log(0.8) - std::log(l * static_cast<double>(predictors) *
                                                              static_cast<double>(live[c.predictor])));
  replay_sr_.fill(minus_inf);
  if (sodium_init() < 0) throw shufl::error("libsodium failed to initialise");
  log_sr_.assign(weight_log_.size(), minus_inf);
  log_m_ = minus_inf;
}

void change_detector::add_deck(std::span<const std::uint32_t> faces, e_process::shared_guesses* shared,
                               e_process* with) {
  const std::size_t per = layout_.size();
  if (shared == nullptr) {
    shared = &shared_;
    shared_.ready = false;
  }
  // The learners (and `with`) take the deck in one pass; it is checked before anything changes.
  const std::size_t learners = learners_.size();
  procs_.clear();
  before_.resize(learners * per);
  for (std::size_t i = 0; i < learners; ++i) {
    procs_.push_back(&learners_[i]);
    learners_[i].component_logs(after_);
    std::copy(after_.begin(), after_.end(), before_.begin() + static_cast<std::ptrdiff_t>(i * per));
  }
  if (with != nullptr) procs_.push_back(with);
  e_process::add_deck_together(procs_, faces, shared);
  // The guessing predictors learn nothing: their components are the same in every learner set
  // (unless a state said otherwise), so the first set's new value is taken when the inputs of
  // the recursion are the same doubles (the same function of the same arguments).
  first_.resize(3 * per);
  for (std::size_t i = 0; i < learners; ++i) {
    const double* before = before_.data() + i * per;
    learners_[i].component_logs(after_);
    for (std::size_t k = 0; k < per; ++k) {
      double& s = log_sr_[i * per + k];
      if (layout_[k].null) continue;
      if (i == 0) {
        first_[3 * k] = before[k];
        first_[3 * k + 1] = after_[k];
        first_[3 * k + 2] = s;
      } else if (!learns(layout_[k].predictor) && first_[3 * k] == before[k] && first_[3 * k + 1] == after_[k] &&
                 first_[3 * k + 2] == s) {
        s = log_sr_[k];
        continue;
      }
      s = (after_[k] - before[k]) + softplus(s);
    }
  }
  add_replay(faces);
  ++decks_;
  update_mixture();
}

void change_detector::add_replay(std::span<const std::uint32_t> faces) {
  static const unsigned char key[crypto_shorthash_KEYBYTES] = {'s', 'h', 'u', 'f', 'l', ' ', 'r', 'e',
                                                               'p', 'l', 'a', 'y', ' ', 'k', 'e', 'y'};
  std::uint64_t h = 0;
  unsigned char out[crypto_shorthash_BYTES];
  crypto_shorthash(out, reinterpret_cast<const unsigned char*>(faces.data()), faces.size_bytes(), key);
  for (int i = 0; i < 8; ++i) h = (h << 8) | out[i];
  if (!have_p_max_) {  // the largest null probability of one deck of this length
    have_p_max_ = true;
    std::uint32_t most = 0;
    for (const std::uint32_t c : pack_.copies) most = std::max(most, c);
    const std::size_t n = pack_.size();
    log_p_max_ = 0;
    if (faces.size() == n) {  // a whole deck: every order of the faces has Π copies! / n!
      for (const std::uint32_t c : pack_.copies) log_p_max_ += std::lgamma(static_cast<double>(c) + 1);
      log_p_max_ -= std::lgamma(static_cast<double>(n) + 1);
    } else {  // a deal of L cards: at most Π_t min(copies, n − t) / (n − t)
      for (std::size_t t = 0; t < faces.size(); ++t)
        log_p_max_ += std::log(std::min<double>(most, static_cast<double>(n - t)) / static_cast<double>(n - t));
    }
    // Runs: faces packed `bits` bits each, windows of L cards (L >= 3, else no bet on runs).
    unsigned bits = 1;
    while ((std::size_t{1} << bits) < pack_.copies.size()) ++bits;
    run_bits_ = bits;
    run_length_ = static_cast<unsigned>(std::min<std::size_t>({10, 63 / bits, faces.size() / 2}));
    if (run_length_ >= 3) {
      run_slots_ = faces.size() / run_length_;
      log_run_p1_ = 0;
      for (std::size_t t = 0; t < run_length_; ++t)
        log_run_p1_ += std::log(std::min<double>(most, static_cast<double>(n - t)) / static_cast<double>(n - t));
    }
  }
  // The bet, from the window before this deck: P0(hit) <= K·(p_max + 2^−64). A shared window
  // holds decks of other groups too: under the null this deck is independent of all of them.
  const replay_window::look l = replay_->add(h);
  const double k = static_cast<double>(l.distinct);
  const double p = k * (std::exp(log_p_max_) + std::ldexp(1.0, -64));
  last_hit_lag_ = l.lag;
  replay_distinct_ = l.distinct;
  // Runs: P0(some window of this deck equals a stored one) <= S·m·p1 (union bound; exact keys).
  bool run_bets = false, run_hit = false;
  double p_r = 1;
  if (run_length_ >= 3 && faces.size() >= run_length_) {
    const run_window::look r = replay_->add_runs(faces, run_length_, run_bits_, run_slots_);
    p_r = static_cast<double>(r.stored) * static_cast<double>(faces.size() - run_length_ + 1) * std::exp(log_run_p1_);
    run_bets = r.stored > 0 && p_r < 1;
    run_hit = r.matches > 0;
    last_run_lag_ = r.lag;
  }
  const bool deck_bets = k > 0 && p < 1;
  // Mean <= 1 given the past: each indicator over its bound has mean <= 1, halves when both bet.
  const double share = deck_bets && run_bets ? 0.5 : 1.0;
  const double payoff = (deck_bets && l.hit ? share / p : 0.0) + (run_bets && run_hit ? share / p_r : 0.0);
  for (std::size_t i = 0; i < replay_weights.size(); ++i) {
    const double w = replay_weights[i];
    const double e = (deck_bets || run_bets) ? (1 - w) + w * payoff : 1.0;
    replay_sr_[i] = std::log(e) + softplus(replay_sr_[i]);
  }
  ++replay_seen_;
}

// The largest term of M_t; then ln M_t = top + ln Σ_k e^{term_k − top} lazily (mixture()).
void change_detector::update_mixture() noexcept {
  static const double replay_weight_log = std::log(0.2 / static_cast<double>(replay_weights.size()));
  double top = minus_inf;
  std::size_t terms = 0;
  for (std::size_t k = 0; k < log_sr_.size(); ++k)
    if (weight_log_[k] != minus_inf) {
      top = std::max(top, log_sr_[k] + weight_log_[k]);
      ++terms;
    }
  for (const double r : replay_sr_) top = std::max(top, r + replay_weight_log);
  terms += replay_sr_.size();
  if (top == minus_inf) {
    log_m_ = minus_inf;
    stale_ = false;
    return;
  }
  // Σ of the terms' e^{term − top} (each <= 1) is at most `terms` (up to rounding, far below 1e-6).
  if (terms != bound_terms_) {
    bound_terms_ = terms;
    log_terms_ = std::log(static_cast<double>(terms)) + 1e-6;
  }
  bound_ = top + log_terms_;
  stale_ = true;
}

void change_detector::mixture() const noexcept {
  double top = minus_inf;
  for (std::size_t k = 0; k < log_sr_.size(); ++k)
    if (weight_log_[k] != minus_inf) top = std::max(top, log_sr_[k] + weight_log_[k]);
  const double replay_weight_log = std::log(0.2 / static_cast<double>(replay_weights.size()));
  for (const double r : replay_sr_) top = std::max(top, r + replay_weight_log);
  double sum = 0;
  for (std::size_t k = 0; k < log_sr_.size(); ++k)
    if (weight_log_[k] != minus_inf) sum += std::exp(log_sr_[k] + weight_log_[k] - top);
  for (const double r : replay_sr_) sum += std::exp(r + replay_weight_log - top);
  log_m_ = top + std::log(sum);
  stale_ = false;
}

void change_detector::restart() noexcept {
  std::fill(log_sr_.begin(), log_sr_.end(), minus_inf);
  replay_sr_.fill(minus_inf);
  log_m_ = minus_inf;
  stale_ = false;
  decks_ = 0;
}

change_detector::status change_detector::current() const {
  status s;
  s.log10_m = std::max(log_m() / ln10, -300.0);
  s.log10_threshold = log10_threshold_;
  s.decks = decks_;
  const auto names = e_process::predictor_names();
  // The largest share: Σ over a (learner, predictor)'s components of π_k M_k.
  const std::size_t per = layout_.size();
  double best = minus_inf;
  std::size_t best_learner = 0, best_predictor = 0;
  for (std::size_t i = 0; i < learners_.size(); ++i) {
    std::vector<double> share(names.size(), minus_inf);
    for (std::size_t k = 0; k < per; ++k) {
      const double v = log_sr_[i * per + k] + weight_log_[i * per + k];
      if (v == minus_inf) continue;
      double& sh = share[layout_[k].predictor];
      sh = sh == minus_inf ? v : std::max(sh, v) + std::log1p(std::exp(-std::fabs(sh - v)));
    }
    for (std::size_t p = 0; p < names.size(); ++p)
      if (share[p] > best) {
        best = share[p];
        best_learner = i;
        best_predictor = p;
      }
  }
  {
    const double replay_weight_log = std::log(0.2 / static_cast<double>(replay_weights.size()));
    double share = minus_inf;
    for (const double r : replay_sr_)
      if (r != minus_inf) {
        const double v = r + replay_weight_log;
        share = share == minus_inf ? v : std::max(share, v) + std::log1p(std::exp(-std::fabs(share - v)));
      }
    if (share > best) {
      s.leader = "replay";
      s.evidence = last_hit_lag_ > 0
                       ? fmt::format("the last deck repeats the deck {} back", last_hit_lag_)
                   : last_run_lag_ > 0
                       ? fmt::format("the last deck repeats {} cards in a row of the deck {} back", run_length_,
                                     last_run_lag_)
                       : fmt::format("no deck repeated in the last {} decks",
                                     std::min<std::uint64_t>(replay_->seen(), replay_->window()));
      return s;
    }
  }
  if (decks_ == 0 && best == minus_inf) {
    s.leader = "none";
    s.evidence = "no decks since the detector started";
    return s;
  }
  s.leader = learns(best_predictor)
                 ? fmt::format("{} (last {} decks)", names[best_predictor], windows_[best_learner])
                 : std::string(names[best_predictor]);
  s.evidence = learners_[best_learner].evidence(best_predictor);
  return s;
}

std::string change_detector::serialize() const {
  nlohmann::json j;
  j["format"] = "shufl audit change detector";
  j["windows"] = windows_;
  j["decks"] = decks_;
  nlohmann::json logs = nlohmann::json::array();
  for (const double v : log_sr_) logs.push_back(v == minus_inf ? nlohmann::json(nullptr) : nlohmann::json(v));
  j["log_sr"] = std::move(logs);
  nlohmann::json replay = nlohmann::json::array();
  for (const double v : replay_sr_) replay.push_back(v == minus_inf ? nlohmann::json(nullptr) : nlohmann::json(v));
  j["replay_log_sr"] = std::move(replay);
  nlohmann::json l = nlohmann::json::array();
  for (const e_process& e : learners_) l.push_back(nlohmann::json::parse(e.serialize()));
  j["learners"] = std::move(l);
  return j.dump();
}

void change_detector::deserialize(std::string_view json_text) {
  try {
    const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("format", std::string()) != "shufl audit change detector")
      throw shufl::error("state file: no change detector in it");
    if (!j.contains("windows") || j["windows"] != nlohmann::json(windows_))
      throw shufl::error("state file: the change detector's learner windows differ");
    change_detector next = *this;
    if (!j.at("decks").is_number_unsigned()) throw shufl::error("state file: the change detector's 'decks' is not a whole number");
    next.decks_ = j.at("decks").get<std::uint64_t>();
    // ln M_{k,t} <= ln t + t · ln(n!) (each deck's e-value is at most n!): beyond, a forged state.
    const double most = std::log(static_cast<double>(next.decks_) + 1) +
                        static_cast<double>(next.decks_) * std::lgamma(static_cast<double>(pack_.size()) + 1) + 1e-6;
    const auto& logs = j.at("log_sr");
    if (!logs.is_array() || logs.size() != log_sr_.size())
      throw shufl::error("state file: the change detector's statistics have the wrong size");
    for (std::size_t k = 0; k < logs.size(); ++k) {
      if (logs[k].is_null()) {
        next.log_sr_[k] = minus_inf;
        continue;
      }
      if (!logs[k].is_number()) throw shufl::error("state file: a change detector statistic is not a number");
      const double v = logs[k].get<double>();
      // ln M_{k,t} <= Σ of ln e over at most t decks; a finite value far above any threshold
      // is a forged or corrupted state.
      if (!std::isfinite(v) || v > most) throw shufl::error("state file: a change detector statistic out of range");
      next.log_sr_[k] = weight_log_[k] == minus_inf ? minus_inf : v;
    }
    const auto& replay = j.at("replay_log_sr");
    if (!replay.is_array() || replay.size() != replay_sr_.size())
      throw shufl::error("state file: the change detector's replay statistics have the wrong size");
    for (std::size_t k = 0; k < replay.size(); ++k) {
      if (replay[k].is_null()) {
        next.replay_sr_[k] = minus_inf;
        continue;
      }
      if (!replay[k].is_number()) throw shufl::error("state file: a change detector statistic is not a number");
      const double v = replay[k].get<double>();
      // A replay e-value is at most 1/p <= 2^64 per deck.
      if (!std::isfinite(v) || v > std::log(static_cast<double>(next.decks_) + 1) + static_cast<double>(next.decks_) * 44.4)
        throw shufl::error("state file: a change detector statistic out of range");
      next.replay_sr_[k] = v;
    }
    const auto& l = j.at("learners");
    if (!l.is_array() || l.size() != learners_.size())
      throw shufl::error("state file: the change detector has the wrong number of learners");
    for (std::size_t i = 0; i < learners_.size(); ++i) next.learners_[i].deserialize(l[i].dump());
    next.update_mixture();
    *this = std::move(next);
  } catch (const nlohmann::json::exception&) {
    throw shufl::error("state file: the change detector's part is malformed");
  }
}

}  // namespace shufl::audit
