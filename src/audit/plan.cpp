// `shufl audit --plan`: decks needed per test for a stated effect (models and method in
// shufl/audit/plan.hpp).
#include "shufl/audit/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "shufl/audit/batches.hpp"
#include "shufl/audit/laws.hpp"
#include "shufl/audit/pairs.hpp"
#include "shufl/error.hpp"
#include "shufl/stats.hpp"

namespace shufl::audit {

namespace {

bool is_table(std::string_view t) {
  return t == "card-position" || t == "suit-position" || t == "rank-position";
}

bool is_total(std::string_view t) {
  return t == "successions" || t == "adjacent-pairs" || t == "descents" || t == "rising-sequences" ||
         t == "runs-up-down" || t == "fixed-points" || t == "guessing" || t == "guessing-shelf";
}

bool is_serial(std::string_view t) { return t == "serial-position" || t == "serial-successions"; }

// Row margins of the suit (ranks = false) or rank table: one row per suit or rank, plus one row
// for faces without (jokers, trumps) when there are any — the rows battery.cpp tests.
std::vector<std::uint64_t> group_margins(const battery_shape& s, bool ranks) {
  const std::size_t groups = ranks ? s.ranks : 4;
  std::vector<std::uint64_t> m(groups + 1, 0);
  for (std::size_t f = 0; f < s.faces(); ++f) {
    const std::int8_t g = ranks ? s.rank_of[f] : s.suit_of[f];
    const std::size_t row = g < 0 || static_cast<std::size_t>(g) >= groups ? groups : static_cast<std::size_t>(g);
    m[row] += s.copies[f];
  }
  if (m.back() == 0) m.pop_back();
  return m;
}

double mean_of(const std::vector<double>& pmf) {
  double m = 0;
  for (std::size_t k = 0; k < pmf.size(); ++k) m += static_cast<double>(k) * pmf[k];
  return m;
}

double variance_of(const std::vector<double>& pmf) {
  const double m = mean_of(pmf);
  double v = 0;
  for (std::size_t k = 0; k < pmf.size(); ++k) v += (static_cast<double>(k) - m) * (static_cast<double>(k) - m) * pmf[k];
  return v;
}

std::vector<double> law_of(std::string_view t, std::size_t n) {
  if (t == "successions") return successions_law(n);
  if (t == "adjacent-pairs") return adjacent_pairs_law(n);
  if (t == "descents") return descents_law(n);
  if (t == "rising-sequences") return rising_sequences_law(n);
  if (t == "runs-up-down") return runs_up_down_law(n);
  if (t == "fixed-points") return fixed_points_law(n);
  return guessing_law(n);
}

std::string number(double v) { return fmt::format("{:g}", v); }

// The caveat of a table's effect above twice the null probability (docs/audit.md: a simulation
// at three times 1/24 measured power 0.79 where 0.9 was planned).
constexpr const char* kLarge = "a large effect: the approximation may give too few decks";

}  // namespace

double default_effect(std::string_view test) noexcept {
  if (is_table(test) || is_serial(test)) return 0.01;
  if (is_total(test)) return 0.05;
  if (test.starts_with("coupon-collector-")) return 0.1;
  if (test == "position-pairs" || test == "gap") return 0.05;  // cards per deck: the plan stays within the position tables
  return 0;
}

bool has_effect_model(std::string_view test) noexcept { return default_effect(test) > 0; }

double position_noncentrality_per_deck(const std::vector<std::uint64_t>& rows, double delta) {
  double N = 0;
  for (const auto r : rows) N += static_cast<double>(r);
  const double r0 = static_cast<double>(rows.front());
  double sum = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double r = static_cast<double>(rows[i]);
    const double null = r / N;
    const double top = i == 0 ? null + delta : null - delta * r / (N - r0);
    const double rest = (r - top) / (N - 1);
    sum += (top - null) * (top - null) / null + (N - 1) * (rest - null) * (rest - null) / null;
  }
  return sum * (N - 1) / N;
}

audit_plan plan_audit(const battery_shape& shape, const plan_options& options) {
  battery_shape s = shape;
  plan_options o = options;
  if (o.tier) {  // the tier's procedure: its alpha, lags and batch size
    o.alpha = o.tier->alpha;
    s.lags = o.tier->lags;
    s.batch_size = o.tier->batch_size;
  }
  if (s.lags < 1 || s.lags > 64) throw error(fmt::format("--lags must be 1 to 64, not {}", s.lags));
  check_batch_size(s.batch_size);
  check_pair_cells(s);  // the battery would refuse these lags for this pack
  for (const auto& [name, value] : o.effects) {
    if (std::find(std::begin(battery_test_names), std::end(battery_test_names), name) == std::end(battery_test_names)) {
      throw error(fmt::format("--effect: no test '{}' in the battery", name));
    }
    if (!has_effect_model(name)) throw error(fmt::format("--effect: {} has no effect model to plan with", name));
    if (!(value > 0) || !std::isfinite(value)) throw error(fmt::format("--effect: {} must be positive, not {}", name, value));
  }
  const std::size_t N = s.cards;
  const bool suits = s.ranks != 0 && s.suit_of.size() == s.faces() && s.rank_of.size() == s.faces();
  const bool permutations = s.distinct() && s.whole() && N >= 2 && N <= max_law_cards;

  audit_plan plan;
  plan.alpha = o.alpha;
  plan.power = o.power;
  plan.lags = s.lags;
  plan.batch_size = s.batch_size;
  plan.tier = o.tier;
  // The family: the tests the battery makes applicable for this shape with enough decks.
  std::vector<std::string> applicable_why(std::size(battery_test_names));
  std::vector<bool> in_battery(std::size(battery_test_names));
  for (std::size_t k = 0; k < std::size(battery_test_names); ++k) {
    const std::string_view t = battery_test_names[k];
    std::string why;
    if ((t == "suit-position" || t == "rank-position") && !suits) why = "the pack has no suits and ranks";
    const bool knuth = t == "permutation-3" || t == "permutation-4";
    if ((is_total(t) || knuth || t == "serial-successions") && !permutations) {
      why = !s.distinct() ? "needs distinct cards (the pack repeats cards)"
            : N < 2       ? "needs at least 2 cards"
                          : fmt::format("exact laws are computed up to {} cards", max_law_cards);
    }
    // A game's hands test only with its --game.
    // batches only with --batch-size.
    in_battery[k] = (t != "poker-hands" && t != "blackjack-hands" && t != "batches") ||
                    (s.game.game != game_kind::none && t == game_test_name(s.game.game)) ||
                    (t == "batches" && s.batch_size > 0);
    if (knuth && why.empty() && N < (t == "permutation-3" ? 3u : 4u)) why = "needs more cards";
    if (t == "position-pairs" && !position_pairs_apply(s)) {
      why = !permutations ? "needs whole decks of distinct cards" : fmt::format("needs more than 2 x {} (--lags) cards", s.lags);
    }
    if (t == "batches" && !permutations && coupon_groups_of(s, false).sizes.empty() && coupon_groups_of(s, true).sizes.empty()) {
      why = "needs whole decks of distinct cards or a pack with suits and ranks";
    }
    if ((t.starts_with("coupon-collector-") || t == "gap") && coupon_groups_of(s, t.ends_with("ranks")).sizes.empty()) {
      why = suits ? "needs whole decks and at least 2 groups" : "the pack has no suits and ranks";
    }
    if (why.empty() && in_battery[k]) ++plan.family;
    applicable_why[k] = std::move(why);
  }
  plan.level = o.alpha / static_cast<double>(plan.family);

  const auto effect = [&o](std::string_view t) {
    const auto it = o.effects.find(t);
    return it == o.effects.end() ? default_effect(t) : it->second;
  };
  for (std::size_t k = 0; k < std::size(battery_test_names); ++k) {
    const std::string_view t = battery_test_names[k];
    if (!in_battery[k]) continue;
    planned_test p;
    p.name = std::string(t);
    if (!applicable_why[k].empty()) {
      p.note = std::string("not applicable: ").append(applicable_why[k]);
      plan.tests.push_back(std::move(p));
      continue;
    }
    const double d = effect(t);
    p.effect = d;
    double level = plan.level;
    std::uint64_t minimum = 1;  // decks (or pairs) for a valid test
    bool pairs = false;
    if (is_table(t)) {
      std::vector<std::uint64_t> rows = t == "card-position" ? std::vector<std::uint64_t>(s.copies.begin(), s.copies.end())
                                                             : group_margins(s, t == "rank-position");
      const double r0 = static_cast<double>(rows.front());
      if (d > 1 - r0 / static_cast<double>(N)) {
        throw error(fmt::format("--effect: {} {} makes the top probability {} + {} exceed 1", t, number(d),
                                number(r0 / static_cast<double>(N)), number(d)));
      }
      const std::string what = t == "card-position" ? "the first card" : t == "suit-position" ? "the first suit" : "the first rank";
      p.model = fmt::format("{} on top with probability {}/{} + {}", what, rows.front(), N, number(d));
      p.df = static_cast<double>((rows.size() - 1) * (N - 1));
      p.per_deck = position_noncentrality_per_deck(rows, d);
      if (d > 2 * r0 / static_cast<double>(N)) p.note = kLarge;
      const std::uint64_t least = *std::min_element(rows.begin(), rows.end());
      minimum = (5 * N + least - 1) / least;  // T·r·1/N ≥ 5 for every cell
    } else if (is_serial(t)) {
      // The serial tests (dependence only): per position (card), the repeats from deck to deck
      // are about Binomial(pairs, 1/n) under the null; the model raises one category's chance to
      // 1/n + D (every category alike: Bonferroni needs only one), a one-sided z-test at
      // level/n (n categories): λ per pair D² / ((1/n)(1 − 1/n)), 1 df at twice that level.
      if (!s.distinct()) {
        p.note = "planned for packs of distinct cards only";
        plan.tests.push_back(std::move(p));
        continue;
      }
      const double n = static_cast<double>(N);
      if (d > 1 - 1 / n) throw error(fmt::format("--effect: {} {} makes 1/{} + {} exceed 1", t, number(d), N, number(d)));
      p.model = t == "serial-position"
                    ? fmt::format("each card keeps its position in the next deck with probability 1/{} + {}", N, number(d))
                    : fmt::format("each card keeps the card right below it in the next deck with probability 1/{} + {}", N,
                                  number(d));
      p.df = 1;
      p.per_deck = d * d / ((1 / n) * (1 - 1 / n));
      level = std::min(0.5, 2 * level / n);
      if (d > 2 / n) p.note = kLarge;
      minimum = 5 * N;
      pairs = true;
    } else if (is_total(t)) {
      const auto law = law_of(t, N);
      const double sd = std::sqrt(variance_of(law));
      p.model = fmt::format("mean per deck {} by {} (null mean {:.4g}, sd {:.4g})",
                            t == "guessing" || t == "guessing-shelf" ? "raised" : "shifted", number(d), mean_of(law), sd);
      if (d >= static_cast<double>(law.size())) throw error(fmt::format("--effect: a shift of {} is beyond {}'s range", number(d), t));
      p.df = 1;
      p.per_deck = d * d / (sd * sd);
      if (t == "guessing" || t == "guessing-shelf") {
        level = std::min(0.5, 2 * level);  // one-sided
      }
    } else if (t == "position-pairs") {
      // A mixture: with probability δ the deck is uniform but for the pack's second card glued
      // right below its first (the n − 1 units in uniform order), else uniform. Lag 1's mean
      // table per deck moves by δ·(glued − null): glued has 1 at (first, second), 1/(n − 1) at
      // every cell that does not start at the first card or end at the second but (second,
      // first), 0 elsewhere (its cells sum to n − 1); the
      // null 1/n everywhere off the diagonal. λ per deck = μᵀΣ⁺μ, read off the test's own Wald
      // statistic of the mean table at 10^9 decks (the other lags' shifts are ignored, their
      // Bonferroni share kept: lag 1 alone at level/L, so the plan errs towards more decks).
      if (d > 1) throw error(fmt::format("--effect: {} {} is a probability above 1", t, number(d)));
      const double n = static_cast<double>(N), T = 1e9;
      std::vector<std::uint64_t> counts(N * N, 0);
      for (std::size_t a = 0; a < N; ++a) {
        for (std::size_t b = 0; b < N; ++b) {
          if (a == b) continue;
          // (1, 0) is 0 too: card 1 ends the glued unit, card 0 starts it, and a unit is never next to itself.
          const double glued = a == 0 && b == 1 ? 1 : a == 0 || b == 1 || (a == 1 && b == 0) ? 0 : 1 / (n - 1);
          counts[a * N + b] = static_cast<std::uint64_t>(std::llround(T * (1 / n + d * (glued - 1 / n))));
        }
      }
      const pairs_wald w = position_pairs_wald(counts, N, 1, static_cast<std::uint64_t>(T));
      p.model = fmt::format("a share {} of the decks has the pack's second card right below its first", number(d));
      p.df = w.df;
      p.per_deck = w.statistic / T;
      level /= static_cast<double>(s.lags);
      minimum = 5 * N;  // 5 expected per cell of lag 1's table
    } else if (t == "gap") {
      // position-pairs' model seen by the first card's suit (of s cards among n): in a glued deck
      // the suit's gaps are one 0 (the pair) and the s − 2 inner gaps of a uniform (s − 1)-subset
      // of the n − 1 units, P(j) = C(n−j−2, s−2)/C(n−1, s−1); null: s − 1 gaps with
      // C(n−j−1, s−1)/C(n, s) (audit/pairs.hpp). λ per deck from gap_wald of the mean at 10^9 decks, with the last
      // bin the audit uses at the planned decks (found by iterating), at level/(suits).
      const coupon_groups g = coupon_groups_of(s, false);
      const std::uint8_t suit = g.group_of.empty() ? 255 : g.group_of[0];
      if (d > 1) throw error(fmt::format("--effect: {} {} is a probability above 1", t, number(d)));
      if (s.faces() < 2 || suit >= 64 || g.group_of[1] != suit || !s.distinct()) {
        p.note = "planned only for packs of distinct cards whose first two cards share a suit";
        plan.tests.push_back(std::move(p));
        continue;
      }
      const std::size_t ss = static_cast<std::size_t>(g.sizes[suit]);
      const auto choose = [](double a, double b) {
        if (b < 0 || a < b) return 0.0L;
        long double c = 1;
        for (double i = 1; i <= b; ++i) c = c * (a - b + i) / i;
        return c;
      };
      const double n = static_cast<double>(N), sz = static_cast<double>(ss), T = 1e9;
      std::vector<std::uint64_t> lengths(N, 0);
      for (std::size_t j = 0; j < N; ++j) {
        const double jj = static_cast<double>(j);
        const long double null = (sz - 1) * choose(n - jj - 1, sz - 1) / choose(n, sz);
        const long double glued = (j == 0 ? 1 : 0) + (sz - 2) * choose(n - jj - 2, sz - 2) / choose(n - 1, sz - 1);
        lengths[j] = static_cast<std::uint64_t>(std::llround(static_cast<double>(T * (null + d * (glued - null)))));
      }
      p.model = fmt::format("a share {} of the decks has the pack's second card right below its first (its suit's gaps)",
                            number(d));
      level /= static_cast<double>(g.sizes.size());
      std::size_t B = std::max<std::size_t>(1, gap_last_bin(N, ss, 5 * N));
      for (int round = 0; round < 8; ++round) {
        const pairs_wald w = gap_wald(lengths, N, ss, static_cast<std::uint64_t>(T), B);
        p.df = w.df;
        p.per_deck = w.statistic / T;
        const double need = std::ceil(detectable_noncentrality(*p.df, level, o.power) / p.per_deck);
        const std::size_t next = std::max<std::size_t>(1, gap_last_bin(N, ss, static_cast<std::uint64_t>(std::min(need, 1e15))));
        if (next == B) break;
        B = next;
      }
      minimum = 1;
    } else if (t.starts_with("coupon-collector-")) {
      // As the totals: the mean of the cards dealt until every suit (rank) has shown shifts by δ,
      // the variance staying the exact law's.
      const coupon_groups g = coupon_groups_of(s, t.ends_with("ranks"));
      const auto law = coupon_collector_law(g.sizes, g.others);
      const double sd = std::sqrt(variance_of(law));
      p.model = fmt::format("mean per deck shifted by {} (null mean {:.4g}, sd {:.4g})", number(d), mean_of(law), sd);
      if (d >= static_cast<double>(law.size())) throw error(fmt::format("--effect: a shift of {} is beyond {}'s range", number(d), t));
      p.df = 1;
      p.per_deck = d * d / (sd * sd);
    } else {
      p.note = t == "duplicates" ? "no effect model: the power depends on how many distinct decks the shuffler makes"
               : t == "batches"    ? "no effect model: the power depends on how the bias comes and goes between samples"
               : t.starts_with("permutation-") ? "no effect model: the power depends on which relative orders the shuffler favours"
                                              : "no effect model: the power depends on which classes the dealing favours";
      plan.tests.push_back(std::move(p));
      continue;
    }
    p.planned = true;
    p.noncentrality = detectable_noncentrality(*p.df, level, o.power);
    if (!std::isfinite(p.noncentrality)) throw error(fmt::format("{}: no non-centrality reaches power {}", t, number(o.power)));
    const double units = std::ceil(p.noncentrality / p.per_deck);
    if (!(units < 1e18)) throw error(fmt::format("{}: the effect {} is too small to plan for", t, number(d)));
    std::uint64_t need = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(units));
    if (need < minimum) {
      need = minimum;
      p.validity_bound = true;
    }
    p.decks = pairs ? need + 1 : need;
    if (o.tier) p.tier_reached = p.decks <= o.tier->decks;
    plan.decks = std::max(plan.decks, p.decks);
    plan.tests.push_back(std::move(p));
  }
  return plan;
}

audit_plan plan_audit(const audit_pack& pack, const audit_options& options, plan_options o) {
  battery_shape shape = make_shape(pack);
  set_game(shape, pack, options.game);
  shape.lags = options.lags;
  shape.batch_size = options.batch_size;
  o.alpha = options.alpha;
  o.tier = options.tier;
  return plan_audit(shape, o);
}

std::vector<detectable_effect> detectable_effects(const battery_shape& shape, std::uint64_t decks, double alpha,
                                                  double power) {
  plan_options o;
  o.alpha = alpha;
  o.power = power;
  std::vector<detectable_effect> out;
  audit_plan base;
  try {
    base = plan_audit(shape, o);
  } catch (const error&) {
    return out;  // a shape the plan cannot model
  }
  for (const auto& p : base.tests) {
    if (!p.planned || !(p.per_deck > 0)) continue;
    const std::uint64_t units = p.name.starts_with("serial-") ? (decks > 0 ? decks - 1 : 0) : decks;
    if (units == 0) continue;
    detectable_effect e;
    e.name = p.name;
    e.effect = p.effect * std::sqrt(p.noncentrality / (static_cast<double>(units) * p.per_deck));
    plan_options at = o;
    try {
      // gap's non-centrality per deck depends on its last bin, hence on the decks: refine δ
      // until the plan at δ uses the bin of these decks (the others are exact at once).
      for (int round = 0; round < 6; ++round) {
        at.effects[p.name] = e.effect;
        for (const auto& q : plan_audit(shape, at).tests) {
          if (q.name != p.name) continue;
          e.model = q.model;
          const double next = e.effect * std::sqrt(q.noncentrality / (static_cast<double>(units) * q.per_deck));
          if (round == 5 || std::fabs(next - e.effect) <= 1e-12 * e.effect) break;
          e.effect = next;
        }
      }
    } catch (const error&) {
      e.model.clear();  // beyond the model's range
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace shufl::audit
