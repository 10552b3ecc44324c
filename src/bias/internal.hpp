// Private to src/bias/: helpers shared by counting.cpp, evaluate.cpp and run.cpp.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "shufl/bias.hpp"

namespace shufl::detail {

/// Writes the permutation of rank `rank` into out[0, n) (n ≤ 20), allocation-free.
void unrank_into(std::uint64_t rank, std::size_t n, std::uint8_t* out) noexcept;

/// Number of values that repeat an earlier one (sorts `values`).
std::uint64_t count_repeats(std::vector<std::uint64_t>& values);

/// Pearson X² and G of an n × n position matrix against T/n per cell, both scaled by (n − 1)/n,
/// with (n − 1)² degrees of freedom.
std::pair<test_result, test_result> position_tests(const std::vector<std::uint64_t>& m, std::size_t n,
                                                  std::uint64_t trials);

/// The verdict of a result: the primary test alone, or the family (primary + secondary tests in
/// the verdict) with Holm's correction; a Monte-Carlo p-value, when present, replaces the
/// asymptotic one. Sets correction, the adjusted ln p values and the outcome.
void decide_family(bias_result& r, double alpha);

}  // namespace shufl::detail
