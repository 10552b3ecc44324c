// The e-process of `audit --follow` (include/shufl/audit/monitor.hpp; docs/monitor.md).
//
// Notation for one card: R cards are left in this deck, left[f] of them show face f, the card
// dealt is c. The null's next-card law is p0(f) = left[f] / R. Every predictor below computes a
// ratio r(f) = q(f) / p0(f) for a distribution q over the faces with left[f] > 0, from the past
// only: earlier decks and the cards of this deck dealt before c, never c itself. Then
//   E0[ r(c) | past ] = Σ_{f: left[f]>0} p0(f) · q(f)/p0(f) = Σ_f q(f) = 1,
// and for any weight w in [0, 1] fixed in advance or computed from the past, the factor
// (1 − w) + w·r(c) = ((1 − w)·p0(c) + w·q(c)) / p0(c) is of the same form (q replaced by the
// mixture (1 − w)·p0 + w·q), so its conditional expectation is 1 as well. A product of such
// factors is a test martingale; an average of test martingales with fixed weights is one.
#include "shufl/audit/monitor.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "shufl/error.hpp"
#include "monitor_grids.hpp"

namespace shufl::audit {
namespace {

using monitor_grids::cold_grid;
using monitor_grids::hot_grid;
using monitor_grids::kt_grid;
using monitor_grids::none;
constexpr std::size_t pred_position = 0, pred_successor = 1, pred_repeat = 2, pred_suit_rank = 3;
constexpr std::size_t predictor_count = 4;
constexpr std::array<std::string_view, predictor_count> names = {"position", "successor", "repeat",
                                                                 "suit-rank"};
constexpr std::array<std::string_view, 4> suit_names = {"spades", "hearts", "diamonds", "clubs"};

constexpr double ln10 = 2.302585092994045684;
constexpr double fold_high = 1e150, fold_low = 1e-150;


}  // namespace

std::span<const std::string_view> e_process::predictor_names() noexcept { return names; }

e_process::e_process(const audit_pack& pack, std::size_t window) : pack_(pack), window_(window) {
  n_ = pack.size();
  faces_ = pack.faces();
  if (n_ == 0 || faces_ == 0) throw shufl::error("audit monitor: the pack has no cards");
  preds_.resize(predictor_count);
  for (std::size_t p = 0; p < predictor_count; ++p) {
    if (p == pred_successor || p == pred_repeat) {
      for (double c : cold_grid)
        for (double h : hot_grid) preds_[p].comps.push_back({c, h, 0.0, 1.0, std::log1p(-c), std::log1p(-h)});
    } else {
      for (double w : kt_grid) preds_[p].comps.push_back({w, w, 0.0, 1.0, 0.0, 0.0});
    }
  }
  // Suit and rank classes: the pack's suits 0..3 and ranks 0..ranks−1, plus one "none" class
  // for faces without (jokers, trumps, custom cards).
  suits_ = 5;
  ranks_ = pack.ranks + 1;
  suit_class_.resize(faces_);
  rank_class_.resize(faces_);
  suit_faces_.assign(suits_, 0);
  rank_faces_.assign(ranks_, 0);
  offset_.assign(faces_ + 1, 0);
  for (std::size_t f = 0; f < faces_; ++f) {
    const int s = f < pack.suit_of.size() ? pack.suit_of[f] : -1;
    const int r = f < pack.rank_of.size() ? pack.rank_of[f] : -1;
    suit_class_[f] = s >= 0 && s < 4 ? static_cast<std::uint32_t>(s) : 4;
    rank_class_[f] = r >= 0 && static_cast<std::size_t>(r) < pack.ranks
                         ? static_cast<std::uint32_t>(r)
                         : static_cast<std::uint32_t>(pack.ranks);
    suit_faces_[suit_class_[f]] += pack.copies[f];
    rank_faces_[rank_class_[f]] += pack.copies[f];
    offset_[f + 1] = offset_[f] + pack.copies[f];
  }
  pos_count_.assign(n_ * faces_, 0);
  pos_weight_.resize(n_ * faces_);
  suit_count_.assign(n_ * suits_, 0);
  rank_count_.assign(n_ * ranks_, 0);
  prev_next_.assign(n_, none);
  left_.resize(faces_);
  live_.resize(faces_);
  live_pos_.resize(faces_);
  seen_copy_.resize(faces_);
  suit_left_.resize(suits_);
  rank_left_.resize(ranks_);
  dead_class_.resize(suits_ + ranks_);
  live_bits_.assign((faces_ + 63) / 64, 0);
  ratio_pos_.resize(n_);
  ratio_sr_.resize(n_);
  den_pos_.resize(n_);
  den_sr_.resize(n_);
  hits_.reserve(2 * n_);
  expected_[0].reserve(n_);
  expected_[1].reserve(n_);
  unit_copies_ = std::all_of(pack.copies.begin(), pack.copies.end(), [](std::uint32_t c) { return c == 1; });
  rebuild_weights();
}

void e_process::rebuild_weights() {
  if (!unit_copies_)
    for (std::size_t t = 0; t < n_; ++t)
      for (std::size_t f = 0; f < faces_; ++f)
        pos_weight_[t * faces_ + f] =
            (pos_count_[t * faces_ + f] + 0.5) / static_cast<double>(pack_.copies[f]);
}

void e_process::check_deck(std::span<const std::uint32_t> faces) {
  if (faces.empty() || faces.size() > n_)
    throw shufl::error(fmt::format("audit monitor: a deck of {} cards, the pack has {}",
                                   faces.size(), n_));
  if (length_ != 0 && faces.size() != length_)
    throw shufl::error(fmt::format(
        "audit monitor: a deck of {} cards, the earlier decks of this stream have {}",
        faces.size(), length_));
  std::fill(left_.begin(), left_.end(), 0u);
  for (std::uint32_t f : faces) {
    if (f >= faces_)
      throw shufl::error(fmt::format("audit monitor: face id {} outside the pack's {} faces", f,
                                     faces_));
    if (++left_[f] > pack_.copies[f])
      throw shufl::error(fmt::format("audit monitor: card {} appears more often than the pack has it",
                                     face_label(f)));
  }
}

void e_process::fold(predictor_state& p) noexcept {
  for (component& c : p.comps) {
    if (c.scale != 1) c.log_e += std::log(c.scale);
    c.scale = 1;
  }
}

// The guessing predictors' search: the smallest face >= from still possible, the largest one
// below x (none: no such face), from the bit per face still possible.
std::uint32_t e_process::next_live(std::size_t from) const noexcept {
  for (std::size_t w = from / 64; w < live_bits_.size(); ++w) {
    std::uint64_t bits = live_bits_[w];
    if (w == from / 64) bits &= ~std::uint64_t{0} << (from % 64);
    if (bits != 0) return static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
  }
  return none;
}

std::uint32_t e_process::previous_live(std::size_t x) const noexcept {
  if (x == 0) return none;
  const std::size_t top = x - 1;
  for (std::size_t w = top / 64 + 1; w-- > 0;) {
    std::uint64_t bits = live_bits_[w];
    if (w == top / 64 && top % 64 != 63) bits &= (std::uint64_t{1} << (top % 64 + 1)) - 1;
    if (bits != 0) return static_cast<std::uint32_t>(w * 64 + 63 - static_cast<std::size_t>(std::countl_zero(bits)));
  }
  return none;
}

// A single-card predictor's guess g (none: no guess) for the card c dealt with R cards left:
// its counts, then r = [c = g]·R/left[g]: r = 1 (no guess, or the only face left) changes
// nothing, a miss is counted per context (hot: this predictor hit the card before), a hit kept.
void e_process::guess(std::size_t p, std::uint32_t g, std::uint32_t c, double R, bool& hot) {
  const bool was_hot = hot;
  if (g == none) {
    hot = false;
    return;
  }
  predictor_state& ps = preds_[p];
  const double r = c == g ? R / left_[g] : 0.0;
  hot = c == g;
  ++ps.guesses;
  ps.hits += c == g;
  const double x = left_[g] / R;
  ps.expected_hits += x;
  const std::size_t i = p == pred_successor ? 0 : 1;
  expected_[i].push_back(x);
  deck_hits_[i] += c == g;
  if (r == 1) return;
  if (r == 0) {
    ++misses_[2 * p + (was_hot ? 1 : 0)];
    return;
  }
  hits_.push_back({p, was_hot, r});
}

// The guessing predictors' factors of this deck: the hits (hits_), then the misses' factors
// (1 − w)^misses per context, then each component's rest folded; each ln added is also written
// to `fill` (when given) for the other e-processes of the stream.
void e_process::guessing_factors(shared_guesses* fill) {
  const std::size_t per = preds_[pred_successor].comps.size();
  if (fill != nullptr) {
    fill->folds.clear();
    fill->misses.assign(2 * per, 0.0);
    fill->last.assign(2 * per, 0.0);
  }
  for (const hit& h : hits_) {
    std::vector<component>& comps = preds_[h.predictor].comps;
    for (std::size_t k = 0; k < comps.size(); ++k) {
      component& comp = comps[k];
      const double w = h.hot ? comp.w_hot : comp.w_cold;
      comp.scale *= (1 - w) + w * h.ratio;
      if (comp.scale > fold_high || comp.scale < fold_low) {
        const double l = std::log(comp.scale);
        comp.log_e += l;
        comp.scale = 1;
        if (fill != nullptr)
          fill->folds.emplace_back(static_cast<std::uint32_t>((h.predictor == pred_successor ? 0 : per) + k), l);
      }
    }
  }
  for (std::size_t i = 0; i < 2; ++i) {
    const std::size_t p = i == 0 ? pred_successor : pred_repeat;
    const std::uint64_t cold = misses_[2 * p], hot_misses = misses_[2 * p + 1];
    for (std::size_t k = 0; k < preds_[p].comps.size(); ++k) {
      component& comp = preds_[p].comps[k];
      const double m = static_cast<double>(cold) * comp.log_keep_cold +
                       static_cast<double>(hot_misses) * comp.log_keep_hot;
      comp.log_e += m;
      double l = std::numeric_limits<double>::quiet_NaN();
      if (comp.scale != 1) {
        l = std::log(comp.scale);
        comp.log_e += l;
      }
      comp.scale = 1;
      if (fill != nullptr) {
        fill->misses[i * per + k] = m;
        fill->last[i * per + k] = l;
      }
    }
  }
  if (fill != nullptr) {
    for (std::size_t i = 0; i < 2; ++i) {
      fill->expected[i] = expected_[i];
      fill->guesses[i] = expected_[i].size();
      fill->hits[i] = deck_hits_[i];
    }
    fill->previous = prev_;
    fill->ready = true;
  }
}

// The same additions, in the same order, from another e-process's deck (guessing_factors).
void e_process::take_guesses(const shared_guesses& shared) {
  const std::size_t per = preds_[pred_successor].comps.size();
  auto comp_at = [&](std::size_t j) -> component& {
    return j < per ? preds_[pred_successor].comps[j] : preds_[pred_repeat].comps[j - per];
  };
  for (const auto& [j, l] : shared.folds) comp_at(j).log_e += l;
  for (std::size_t j = 0; j < 2 * per; ++j) {
    component& comp = comp_at(j);
    comp.log_e += shared.misses[j];
    if (!std::isnan(shared.last[j])) comp.log_e += shared.last[j];
  }
  for (std::size_t i = 0; i < 2; ++i) {
    predictor_state& ps = preds_[i == 0 ? pred_successor : pred_repeat];
    ps.guesses += shared.guesses[i];
    ps.hits += shared.hits[i];
    for (const double x : shared.expected[i]) ps.expected_hits += x;
  }
}

void e_process::add_deck(std::span<const std::uint32_t> faces, shared_guesses* shared) {
  e_process* self = this;
  add_deck_together(std::span<e_process* const>(&self, 1), faces, shared);
}

bool e_process::same_point(const e_process& o, std::size_t len) const noexcept {
  return o.n_ == n_ && o.faces_ == faces_ && o.suits_ == suits_ && o.ranks_ == ranks_ &&
         o.unit_copies_ == unit_copies_ && o.pack_.copies == pack_.copies && o.suit_class_ == suit_class_ &&
         o.rank_class_ == rank_class_ && (o.length_ == 0 || o.length_ == len) && o.prev_ == prev_;
}

void e_process::add_deck_together(std::span<e_process* const> procs, std::span<const std::uint32_t> faces,
                                  shared_guesses* shared) {
  if (procs.empty()) return;
  e_process& lead = *procs.front();
  const std::size_t len = faces.size();
  bool together = procs.size() <= max_together;
  for (e_process* p : procs) together = together && lead.same_point(*p, len);
  if (!together) {
    // Each checks the deck before any changes; then one after the other (a group of one is
    // always together), sharing the guessing work when they saw the same previous deck.
    for (e_process* p : procs) p->check_deck(faces);
    if (shared == nullptr) shared = &lead.together_;
    shared->ready = false;
    for (e_process* p : procs) add_deck_together(std::span<e_process* const>(&p, 1), faces, shared);
    return;
  }
  for (e_process* p : procs) p->check_deck(faces);  // throws before anything changes
  // The guessing predictors' work of this deck: taken from `shared` when it holds it for this
  // previous deck, else computed by the lead (and handed on to the others through `shared`, or
  // the lead's own scratch).
  const bool take = shared != nullptr && shared->ready && shared->previous == lead.prev_;
  if (!take && procs.size() > 1 && (shared == nullptr || shared->ready)) {
    shared = &lead.together_;
    shared->ready = false;
  }
  shared_guesses* fill = !take && shared != nullptr && !shared->ready ? shared : nullptr;
  const std::size_t P = procs.size();
  for (e_process* p : procs) p->length_ = len;

  // Per-deck state of the lead (the others read it): copies left per face (and a bit per face
  // still possible, for the guessing predictor's search), the list of faces still possible (for
  // O(R) sums), copies left per suit and rank class, and how many copies of each face were dealt.
  const std::size_t faces_n = lead.faces_, n = lead.n_, suits = lead.suits_, ranks = lead.ranks_;
  std::size_t live = 0;
  std::fill(lead.live_bits_.begin(), lead.live_bits_.end(), std::uint64_t{0});
  for (std::size_t f = 0; f < faces_n; ++f) {
    lead.left_[f] = lead.pack_.copies[f];
    lead.seen_copy_[f] = 0;
    if (lead.left_[f] > 0) {
      lead.live_pos_[f] = static_cast<std::uint32_t>(live);
      lead.live_[live++] = static_cast<std::uint32_t>(f);
      lead.live_bits_[f / 64] |= std::uint64_t{1} << (f % 64);
    }
  }
  std::copy(lead.suit_faces_.begin(), lead.suit_faces_.end(), lead.suit_left_.begin());
  std::copy(lead.rank_faces_.begin(), lead.rank_faces_.end(), lead.rank_left_.begin());
  // Decks in each learner's counts (each adds one card at every position dealt), and the suit
  // and rank classes with no card left (at first those the pack has none of).
  std::array<std::uint64_t, max_together> counted{};
  for (std::size_t i = 0; i < P; ++i)
    for (std::size_t s = 0; s < suits; ++s) counted[i] += procs[i]->suit_count_[s];
  std::uint32_t* dead_class = lead.dead_class_.data();
  std::size_t dead_suits = 0, dead_ranks = 0;
  for (std::size_t s = 0; s < suits; ++s)
    if (lead.suit_left_[s] == 0) dead_class[dead_suits++] = static_cast<std::uint32_t>(s);
  for (std::size_t r = 0; r < ranks; ++r)
    if (lead.rank_left_[r] == 0) dead_class[suits + dead_ranks++] = static_cast<std::uint32_t>(r);
  bool hot_successor = false, hot_repeat = false;
  lead.misses_.fill(0);
  lead.hits_.clear();
  lead.expected_[0].clear();
  lead.expected_[1].clear();
  lead.deck_hits_.fill(0);
  const bool have_prev = !lead.prev_.empty();
  const bool unit = lead.unit_copies_;
  const std::uint32_t* live_list = lead.live_.data();
  const std::uint32_t* left = lead.left_.data();
  // The deck is taken in two passes: the first computes every card's ratio r(c) for every
  // process (the position and suit-rank ones into its ratio_pos_ and ratio_sr_, the guessing
  // predictors' hits into the lead's hits_ and their misses into misses_); the second multiplies
  // them into each process's components, card after card for each component (the same products
  // in the same order as one pass would make, so the same doubles; the components' chains are
  // independent and overlap in the processor).
  for (std::size_t t = 0; t < len; ++t) {
    const std::uint32_t c = faces[t];
    const double R = static_cast<double>(n - t);

    // (a) position: q(f) ∝ (count[t][f] + 1/2) · left[f] / copies[f] over the faces still
    // possible — the Krichevsky–Trofimov (Dirichlet(1/2)) estimate of "face f at position t"
    // from the earlier decks, restricted and renormalised to what this deck can still deal
    // (for a shoe, shaped by the copies left). It reads counts of earlier decks only, and the
    // cards already dealt in this deck only through left[]: a distribution fixed before c.
    // r(c) = q(c)/p0(c) = weight[t][c] · R / Z.
    for (std::size_t i = 0; i < P; ++i) {
      e_process& e = *procs[i];
      double z = 0;
      if (unit) {
        // One copy of each face: z = Σ_{live f} (count[t][f] + 1/2), summed in integers over
        // the shorter of the live faces and the dealt ones (Σ_f count[t][f] = counted decks):
        // the same exact half-integer as the sum over the live faces, at half the work.
        const std::uint32_t* crow = e.pos_count_.data() + t * faces_n;
        std::uint64_t live_count = 0;
        if (t < live) {
          std::uint64_t dead = 0;
          for (std::size_t s = 0; s < t; ++s) dead += crow[faces[s]];
          live_count = counted[i] - dead;
        } else {
          for (std::size_t k = 0; k < live; ++k) live_count += crow[live_list[k]];
        }
        z = static_cast<double>(live_count) + 0.5 * static_cast<double>(live);
        e.ratio_pos_[t] = (e.pos_count_[t * faces_n + c] + 0.5) * R;  // / z below
      } else {
        const double* wrow = e.pos_weight_.data() + t * faces_n;
        for (std::size_t k = 0; k < live; ++k) z += wrow[live_list[k]] * left[live_list[k]];
        e.ratio_pos_[t] = wrow[c] * R;
      }
      e.den_pos_[t] = z;
    }

    // (b) successor: the `guessing` strategy's card g — at the top card 0; after card x, x+1
    // if still possible, else the smallest possible face above x, else the largest below (x
    // itself, in a shoe, as the last resort). g depends on the cards already dealt only.
    // q = δ_g, so r(c) = [c = g] · R / left[g]; mixed with the null below (w < 1).
    if (!take) {
      std::uint32_t g = none;
      if (t == 0) {
        g = lead.next_live(0);
      } else {
        const std::uint32_t x = faces[t - 1];
        g = lead.next_live(std::size_t{x} + 1);
        if (g == none) g = lead.previous_live(x);
        if (g == none && left[x] > 0) g = x;
      }
      lead.guess(pred_successor, g, c, R, hot_successor);
    }

    // (c) repeat: the face that followed this card in the previous deck (for a shoe, the k-th
    // copy dealt here is matched with the k-th copy there); at the top, the previous deck's top
    // card. The previous deck is the past; which copy of the last card this is, too. When that
    // face is no longer possible (or there is none), q = p0 and r = 1.
    if (!take) {
      std::uint32_t g = none;
      if (have_prev) {
        if (t == 0) {
          g = lead.prev_[0];
        } else {
          const std::uint32_t x = faces[t - 1];
          g = lead.prev_next_[lead.offset_[x] + lead.seen_copy_[x] - 1];
        }
        if (g != none && left[g] == 0) g = none;
      }
      lead.guess(pred_repeat, g, c, R, hot_repeat);
    }

    // (d) suit-rank: q = ½·q_suit + ½·q_rank, where q_suit(f) = P_t(suit of f) · left[f] /
    // suit_left[suit of f], P_t(s) ∝ count_t[s] + 1/2 (KT over the suits still possible, from
    // earlier decks), i.e. the suit is predicted from position t's history and spread over the
    // possible faces of that suit in proportion to their copies left; q_rank likewise with ranks.
    // Both sum to 1 over the possible faces, so q does. r(c) = ½·P_t(s)·R/suit_left[s] +
    // ½·P_t(r)·R/rank_left[r]. Without suits and ranks (a custom pack) every face is in the one
    // "none" class and r = 1.
    {
      const std::uint32_t s = lead.suit_class_[c], r = lead.rank_class_[c];
      const double sl = lead.suit_left_[s], rl = lead.rank_left_[r];
      for (std::size_t i = 0; i < P; ++i) {
        e_process& e = *procs[i];
        const std::uint32_t* srow = e.suit_count_.data() + t * suits;
        const std::uint32_t* rrow = e.rank_count_.data() + t * ranks;
        // Σ over the classes still possible of (count + 1/2), as counted decks minus the counts
        // of the classes used up (few), in integers: the same exact half-integers.
        std::uint64_t dead_s = 0, dead_r = 0;
        for (std::size_t k = 0; k < dead_suits; ++k) dead_s += srow[dead_class[k]];
        for (std::size_t k = 0; k < dead_ranks; ++k) dead_r += rrow[dead_class[suits + k]];
        const double zs = static_cast<double>(counted[i] - dead_s) + 0.5 * static_cast<double>(suits - dead_suits);
        const double zr = static_cast<double>(counted[i] - dead_r) + 0.5 * static_cast<double>(ranks - dead_ranks);
        // ½·a/zs·R/sl + ½·b/zr·R/rl over one division: R·(a·rl·zr + b·sl·zs) / (2·sl·rl·zs·zr).
        e.ratio_sr_[t] = R * ((srow[s] + 0.5) * rl * zr + (rrow[r] + 0.5) * sl * zs);  // / den below
        e.den_sr_[t] = 2 * sl * rl * zs * zr;
      }
    }

    // Deal c.
    if (--lead.left_[c] == 0) {
      const std::uint32_t k = lead.live_pos_[c], last = lead.live_[--live];
      lead.live_[k] = last;
      lead.live_pos_[last] = k;
      lead.live_bits_[c / 64] &= ~(std::uint64_t{1} << (c % 64));
    }
    if (const std::uint32_t s = lead.suit_class_[c]; --lead.suit_left_[s] == 0) dead_class[dead_suits++] = s;
    if (const std::uint32_t r = lead.rank_class_[c]; --lead.rank_left_[r] == 0) dead_class[suits + dead_ranks++] = r;
    ++lead.seen_copy_[c];
  }

  // The guessing predictors' factors: the lead's (computed above, or taken), handed on.
  if (take) {
    lead.take_guesses(*shared);
  } else {
    lead.guessing_factors(fill);
  }
  for (std::size_t i = 0; i < P; ++i) {
    e_process& e = *procs[i];
    if (i > 0) e.take_guesses(*shared);
    e.finish_deck(faces);
  }
}

// The second pass of a deck (add_deck_together): the distributions' factors into the
// components, then the deck becomes history.
void e_process::finish_deck(std::span<const std::uint32_t> faces) {
  const std::size_t len = faces.size();
  // The factors (1 − w) + w·r of every component, card after card. The distributions' weight w
  // = 0 gives the factor 1 exactly (left out). For the single-card predictors r is 1 (no guess:
  // factor 1), 0 (a miss: factor 1 − w, counted and applied once per deck) or a hit's
  // R/left[g] (hits_; rare under the null): guessing_factors / take_guesses.
  // The ratios' divisions, apart from the loop below so that they run side by side.
  for (std::size_t t = 0; t < len; ++t) ratio_pos_[t] /= den_pos_[t];
  for (std::size_t t = 0; t < len; ++t) ratio_sr_[t] /= den_sr_[t];
  {
    // Both distributions' betting components (the grid's w > 0: kt_grid.size() − 1 each) as
    // 2·K independent chains of products, card after card; a chain leaving [1e-150, 1e150] is
    // folded into its logarithm.
    constexpr std::size_t K = kt_grid.size() - 1;
    static_assert(kt_grid[0] == 0.0, "the KT grid's first weight is the null's");
    std::array<component*, 2 * K> comp{};
    std::array<double, 2 * K> keep{}, w{}, scale{};
    for (std::size_t h = 0; h < 2; ++h) {
      std::vector<component>& comps = preds_[h == 0 ? pred_position : pred_suit_rank].comps;
      for (std::size_t i = 0; i < K; ++i) {
        component& c = comps[i + 1];
        comp[h * K + i] = &c;
        w[h * K + i] = c.w_cold;
        keep[h * K + i] = 1 - c.w_cold;
        scale[h * K + i] = c.scale;
      }
    }
    for (std::size_t t = 0; t < len; ++t) {
      const double rp = ratio_pos_[t], rs = ratio_sr_[t];
      bool out = false;
      for (std::size_t i = 0; i < K; ++i) {
        scale[i] *= keep[i] + w[i] * rp;
        out = out || scale[i] > fold_high || scale[i] < fold_low;
      }
      for (std::size_t i = K; i < 2 * K; ++i) {
        scale[i] *= keep[i] + w[i] * rs;
        out = out || scale[i] > fold_high || scale[i] < fold_low;
      }
      if (out)
        for (std::size_t i = 0; i < 2 * K; ++i)
          if (scale[i] > fold_high || scale[i] < fold_low) {
            comp[i]->log_e += std::log(scale[i]);
            scale[i] = 1;
          }
    }
    for (std::size_t i = 0; i < 2 * K; ++i) comp[i]->scale = scale[i];
  }
  fold(preds_[pred_position]);
  fold(preds_[pred_suit_rank]);

  // This deck becomes history (and, with a window, the deck window_ decks back leaves it).
  if (window_ > 0) {
    if (ring_.empty()) ring_.assign(window_ * len, 0);
    std::uint32_t* slot = ring_.data() + (decks_ % window_) * len;
    if (decks_ >= window_) count_deck({slot, len}, -1);
    std::copy(faces.begin(), faces.end(), slot);
  }
  count_deck(faces, +1);
  prev_.assign(faces.begin(), faces.end());
  std::fill(prev_next_.begin(), prev_next_.end(), none);
  std::fill(seen_copy_.begin(), seen_copy_.end(), 0u);
  for (std::size_t t = 0; t < len; ++t) {
    const std::uint32_t c = faces[t];
    prev_next_[offset_[c] + seen_copy_[c]++] = t + 1 < len ? faces[t + 1] : none;
  }
  ++decks_;
  // The since-the-start maximum (the anytime p); a windowed learner's is never read (the
  // detector uses its components), so it is not kept up (one exp per component per deck).
  if (window_ == 0 && mixture_may_exceed(max_log_mixture_)) max_log_mixture_ = std::max(max_log_mixture_, mixture_log());
}

void e_process::count_deck(std::span<const std::uint32_t> faces, int step) noexcept {
  for (std::size_t t = 0; t < faces.size(); ++t) {
    const std::uint32_t c = faces[t];
    const std::size_t cell = t * faces_ + c;
    pos_count_[cell] += static_cast<std::uint32_t>(step);
    // (count + 1/2) / copies, kept for a shoe only (with one copy of each face the counts are read).
    if (!unit_copies_) pos_weight_[cell] = (pos_count_[cell] + 0.5) / static_cast<double>(pack_.copies[c]);
    suit_count_[t * suits_ + suit_class_[c]] += static_cast<std::uint32_t>(step);
    rank_count_[t * ranks_ + rank_class_[c]] += static_cast<std::uint32_t>(step);
  }
}

std::vector<e_process::component_info> e_process::components() const {
  std::vector<component_info> out;
  for (std::size_t p = 0; p < preds_.size(); ++p)
    for (const component& c : preds_[p].comps) out.push_back({p, c.w_cold == 0 && c.w_hot == 0});
  return out;
}

void e_process::component_logs(std::vector<double>& out) const {
  out.clear();
  for (const predictor_state& p : preds_)
    for (const component& c : p.comps) out.push_back(c.log_e);
}

// Whether mixture_log() may return more than `level`, from the largest ln e-value of a
// component that bets (top): the null components' e-values are exactly 1 and every other term
// of the average is at most e^top, so the mixture is below 1 when top < 0 (by at least a
// factor 1 − 1e-9·(share of the betting components): far more than the rounding of the sum),
// and at most e^top (up to rounding) when top >= 0. false: it is certainly not above `level`.
bool e_process::mixture_may_exceed(double level) const noexcept {
  double top = -std::numeric_limits<double>::infinity(), top_all = top;
  bool nulls_one = true;  // a restored state's null components too (else only the second bound)
  for (const predictor_state& p : preds_)
    for (const component& c : p.comps) {
      top_all = std::max(top_all, c.log_e);
      if (c.w_cold != 0 || c.w_hot != 0) {
        top = std::max(top, c.log_e);
      } else {
        nulls_one = nulls_one && c.log_e == 0;
      }
    }
  if (nulls_one && top < -1e-9 && level >= 0) return false;
  return top_all + 1e-9 * (1 + std::fabs(top_all)) >= level;
}

// Between decks every component is folded (scale = 1), so log_e is its whole logarithm.
double e_process::predictor_log(const predictor_state& p) const noexcept {
  double top = -std::numeric_limits<double>::infinity();
  for (const component& c : p.comps) top = std::max(top, c.log_e);
  double sum = 0;
  for (const component& c : p.comps) sum += std::exp(c.log_e - top);
  return top + std::log(sum / static_cast<double>(p.comps.size()));
}

// log of (1/P) Σ_p (1/G_p) Σ_g e_{p,g}, with one exp per component and one log.
double e_process::mixture_log() const noexcept {
  double top = -std::numeric_limits<double>::infinity();
  for (const predictor_state& p : preds_)
    for (const component& c : p.comps) top = std::max(top, c.log_e);
  double sum = 0;
  for (const predictor_state& p : preds_) {
    double part = 0;
    for (const component& c : p.comps) part += std::exp(c.log_e - top);
    sum += part / static_cast<double>(p.comps.size());
  }
  return top + std::log(sum / static_cast<double>(preds_.size()));
}

bool e_process::crossed(double alpha) const noexcept {
  return max_log_mixture_ >= -std::log(alpha);
}

std::string e_process::face_label(std::uint32_t face) const {
  if (pack_.cards.cards.size() == pack_.face_of.size()) {
    for (std::size_t i = 0; i < pack_.face_of.size(); ++i)
      if (pack_.face_of[i] == face) {
        const card& c = pack_.cards.cards[i];
        return c.label.empty() ? format_card(c, card_style::code) : c.label;
      }
  }
  return fmt::format("#{}", face + 1);
}

std::string e_process::evidence_of(std::size_t predictor) const {
  // The decks the learners count: all of them, or the last window_.
  const std::uint64_t counted = window_ > 0 ? std::min<std::uint64_t>(decks_, window_) : decks_;
  const double d = static_cast<double>(counted);
  if (decks_ == 0) return "no decks yet";
  if (predictor == pred_successor || predictor == pred_repeat) {
    const predictor_state& p = preds_[predictor];
    return fmt::format("{}: {} hits in {} guesses, {:.1f} expected by chance",
                       predictor == pred_successor
                           ? "guessing each card's original successor"
                           : "guessing the card that followed it in the previous deck",
                       p.hits, p.guesses, p.expected_hits);
  }
  // The cell furthest from its expected count (standardised), positions from 1: found by
  // index, then labelled once (a label is a search of the pack).
  double best = -1;
  std::size_t best_t = 0, best_class = 0;
  double best_count = 0, best_mean = 0;
  int best_kind = -1;  // 0: a face, 1: a suit, 2: a rank
  // Per face (suit, rank): the expected count and 1/sd, so a cell costs a subtraction and a product.
  auto law = [&](double prob) {
    const double sd = std::sqrt(d * prob * (1 - prob));
    return std::pair<double, double>{d * prob, sd > 0 ? 1 / sd : 0.0};
  };
  auto consider = [&](int kind, std::size_t t, std::size_t cls, double count, std::pair<double, double> m) {
    const double z = std::fabs(count - m.first) * m.second;
    if (z > best) {
      best = z;
      best_kind = kind;
      best_t = t;
      best_class = cls;
      best_count = count;
      best_mean = m.first;
    }
  };
  const double n = static_cast<double>(n_);
  if (predictor == pred_position) {
    std::vector<std::pair<double, double>> face_law(faces_);
    for (std::size_t f = 0; f < faces_; ++f) face_law[f] = law(pack_.copies[f] / n);
    for (std::size_t t = 0; t < length_; ++t)
      for (std::size_t f = 0; f < faces_; ++f) consider(0, t, f, pos_count_[t * faces_ + f], face_law[f]);
  } else {
    std::vector<std::pair<double, double>> suit_law(4), rank_law(ranks_);
    for (std::size_t s = 0; s < 4; ++s) suit_law[s] = law(suit_faces_[s] / n);
    for (std::size_t r = 0; r + 1 < ranks_; ++r) rank_law[r] = law(rank_faces_[r] / n);
    for (std::size_t t = 0; t < length_; ++t) {
      for (std::size_t s = 0; s < 4; ++s)
        if (suit_faces_[s] > 0) consider(1, t, s, suit_count_[t * suits_ + s], suit_law[s]);
      for (std::size_t r = 0; r + 1 < ranks_; ++r)
        if (rank_faces_[r] > 0) consider(2, t, r, rank_count_[t * ranks_ + r], rank_law[r]);
    }
  }
  if (best_kind < 0) return predictor == pred_position ? std::string() : "the pack has no suits or ranks";
  std::string what;
  if (best_kind == 0) {
    what = face_label(static_cast<std::uint32_t>(best_class));
  } else if (best_kind == 1) {
    what = fmt::format("suit {}", suit_names[best_class]);
  } else {
    std::string label;
    for (std::size_t f = 0; f < faces_ && label.empty(); ++f)
      if (rank_class_[f] == best_class) label = face_label(static_cast<std::uint32_t>(f));
    what = fmt::format("rank of {}", label);
  }
  return fmt::format("{} at position {}: {} times in {} {}decks, {:.1f} expected", what, best_t + 1,
                     static_cast<std::uint64_t>(best_count), counted, window_ > 0 ? "recent " : "", best_mean);
}

e_process::status e_process::current() const {
  status s;
  s.decks = decks_;
  double best = -std::numeric_limits<double>::infinity();
  std::size_t leader = 0;
  for (std::size_t p = 0; p < preds_.size(); ++p) {
    const double l = predictor_log(preds_[p]);
    s.log10_e.emplace_back(std::string(names[p]), l / ln10);
    if (l > best) {
      best = l;
      leader = p;
    }
  }
  s.log10_mixture = mixture_log() / ln10;
  s.max_log10_mixture = max_log_mixture_ / ln10;
  s.anytime_p = std::min(1.0, std::exp(-max_log_mixture_));
  s.leader = std::string(names[leader]);
  s.evidence = evidence_of(leader);
  return s;
}

}  // namespace shufl::audit
