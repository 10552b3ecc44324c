// The serial tests of `shufl audit` as tests of dependence only: consecutive decks against what
// the decks' own margins predict.
//
// A stream of decks that are independent and identically distributed — whatever their law, a
// uniform shuffle or a biased one — is exchangeable: given the multiset of decks, every order of
// them is equally likely. So for one category c (a position p, or a card x), the sequence of values
// X_1, …, X_T it takes in the T decks (the face at p; the card right below x, x itself when x is at
// the bottom) is, given its counts m_v = #{t : X_t = v}, a uniformly random arrangement of that
// multiset. The repeats D_c = #{t : X_t = X_{t+1}} over the P = T − 1 consecutive pairs then have
// the exact conditional mean and variance of repeat_moments_of (the permutation moments of the
// number of like neighbours, as in the Wald–Wolfowitz runs test for k categories):
//
//   q2 = Σ m(m−1)/(T)_2,  q3 = Σ m(m−1)(m−2)/(T)_3,  q4 = (a² − Σ (m(m−1))² + Σ (m)_4)/(T)_4,
//   a = Σ m(m−1),  E[D] = P·q2,  Var[D] = E[D] + 2(P−1)·q3 + (P−1)(P−2)·q4 − E[D]²,
//
// with (T)_k the falling factorial. A shuffler whose decks are each biased but independent
// (too few riffles, a stuck card) changes the counts m_v but not this law; one that carries
// something from one deck to the next (repeats its last order, keeps a card in place) raises D_c.
// Each category's upper tail comes from a binomial with the same mean and variance (Bin(E/q, q),
// q = 1 − Var/E, its upper tail the regularised incomplete beta function, Boost.Math `ibeta`),
// or a normal one when Var ≥ E. With lopsided margins (one value in most decks) Var is below E/2,
// the binomial (q > 1/2) is skewed to the left and its support ends just above E, while the true
// law can be skewed to the right (a cut: E plus about a Poisson count of mean Var), so its tail is
// too thin. There, and wherever D is at or beyond the binomial's end, the p is Cantelli's
// one-sided bound Var/(Var + (D − E)²) (Cantelli 1928; it holds for every law with that mean and
// variance, so it never understates the tail, at the price of power). Uniform decks (q about 1/k
// for k values) keep the binomial. The
// categories share the decks, so they are combined by Bonferroni: p = C · min p_c (C the
// categories whose D is not fixed by the margins), capped at 1, valid whatever the dependence
// between them (cf. Anderson and Goodman, "Statistical inference about Markov chains", Ann. Math.
// Statist. 28, 1957: a test of order 0 against order 1, here on the diagonal of each category's
// transition table, where repeats show).
//
// Everything the test needs adds up over shards: the counts of each category's values over all
// decks and the repeats over the pairs (the merge adds the pair where two parts meet).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "shufl/audit.hpp"
#include "shufl/stats.hpp"

namespace shufl::audit {

/// Exact mean and variance of the repeats of one category under exchangeability.
struct repeat_moments {
  double mean = 0;
  double variance = 0;
};

/// The permutation moments above: `counts` the values' counts over `units` decks (Σ counts =
/// units), `pairs` the consecutive pairs counted (units − 1 for one stream; fewer when separate
/// streams were merged, whose variance this then approximates). Needs units ≥ 4 (else zeros).
repeat_moments repeat_moments_of(std::span<const std::uint64_t> counts, std::uint64_t units, std::uint64_t pairs) noexcept;

/// Upper-tail p of `observed` repeats: P(Bin(E/q, q) ≥ observed), q = 1 − Var/E (a normal tail
/// with continuity correction when Var ≥ E); where q > 1/2 (Var < E/2) or observed ≥ E/q (beyond
/// the binomial's support), Cantelli's one-sided bound Var/(Var + (observed − E)²), valid for any
/// law of that mean and variance (1 when observed ≤ E); p = 1 when Var is 0 and observed ≤ E.
/// ln_p finite.
test_result repeat_upper_tail(std::uint64_t observed, const repeat_moments& m);

/// Serial successor repeats of `next` after `prev` (distinct cards 0..n−1, n ≥ 2): adds to
/// per_card[x] one when card x has the same card right below it in both decks, or is at the
/// bottom of both; returns the count over the first n−1 positions of prev (pairs adjacent in
/// prev and again, in that order, in next). `where_next[x]`: the position of x in next.
std::uint32_t serial_successor_repeats(const std::uint32_t* prev, std::size_t n, const std::uint32_t* where_next,
                                       std::uint64_t* per_card) noexcept;

/// One serial test over `categories` categories: values[c · width + v] counts the decks where
/// category c took value v (units decks), repeats[c] its repeats over `pairs` pairs. `what` names
/// a category in the note ("position", "card"). Result pass (decide() sets fail) or not-valid
/// when a category expects fewer than 5 repeats.
test_report serial_repeat_test(std::string name, std::span<const std::uint64_t> values, std::size_t categories,
                               std::size_t width, std::span<const std::uint64_t> repeats, std::uint64_t units,
                               std::uint64_t pairs, std::string_view what);

}  // namespace shufl::audit
