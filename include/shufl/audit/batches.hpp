// The batches test of `shufl audit --batch-size K` (docs/audit-laws.md, "Batches"), as labs
// report "samples of 1,000 to 50,000 decks" tested one by one: the decks are cut into samples of K
// consecutive decks (by their place in the input; a last partial sample is left out), and on every
// sample the per-deck statistics with an exact law are totalled — descents, rising-sequences,
// runs-up-down, fixed-points, successions, adjacent-pairs (whole decks of distinct cards) and
// coupon-collector-suits/-ranks (packs with suits and ranks). Each sample's total S gets the
// randomised upper p-value P(S > s) + U·P(S = s) (total_tails; U uniform on (0, 1) from a fixed
// hash of the sample and statistic, so the p is exactly uniform under H0, however discrete S is,
// and the same for any number of threads). The p-values of one statistic over the m samples are
// tested for uniformity by the two-sided Kolmogorov–Smirnov statistic D_m with its exact
// finite-m law (G. Marsaglia, W. W. Tsang, J. Wang, J. Stat. Softw. 8(18), 2003); the statistics
// share the decks and are combined by Bonferroni into one row `batches` of the Holm family. A bias
// that comes and goes (fair samples and biased samples) spreads the p-values to both ends, which
// the whole-sample totals may average away.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "shufl/audit.hpp"

namespace shufl::audit {

/// Per-deck statistics the batches test totals per sample (entries of batch_sums::sums).
inline constexpr std::size_t batch_statistics = 8;

/// Smallest and largest --batch-size.
inline constexpr std::uint64_t batch_size_min = 10, batch_size_max = 10'000'000;

/// Throws shufl::error unless K is 0 or within [batch_size_min, batch_size_max].
void check_batch_size(std::uint64_t K);

/// Adds `count` decks (K ids each) that are decks first_index.. of the input to `b`
/// (b.size > 0). Precondition: the decks are valid for the shape.
void add_batch_decks(batch_sums& b, const battery_shape& shape, const std::uint32_t* decks, std::size_t count,
                     std::uint64_t first_index);

/// Adds another battery's sums (same size); throws shufl::error on different sizes.
void merge_batches(batch_sums& into, const batch_sums& other);

/// P(D_m < d) for the two-sided Kolmogorov–Smirnov statistic of m iid uniform values, exact
/// (Marsaglia–Tsang–Wang's matrix power, scaled to stay in range) while the matrix has at most
/// 1001 rows (m·d <= 500); nullopt beyond. Precondition m >= 1.
std::optional<double> ks_cdf(std::uint64_t m, double d);

/// The upper p-value P(D_m >= d): 1 − ks_cdf, floored at min(1e-12, 2·exp(−2md²)) (Massart's
/// bound, an upper bound on p); that bound where ks_cdf does not apply.
double ks_p(std::uint64_t m, double d);

/// The two-sided KS statistic D_m of values in [0, 1] (sorted in place).
double ks_statistic(std::vector<double>& values);

/// The batches row: not-applicable without --batch-size, without a statistic for the shape, or
/// with fewer than 2 whole samples; else the Bonferroni combination of the KS p-values.
test_report batches_test(const battery_shape& shape, const batch_sums& b);

}  // namespace shufl::audit
