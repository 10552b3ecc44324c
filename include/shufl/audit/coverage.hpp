// Rule coverage: each clause of the shuffle rules a test lab reports against (docs/audit.md,
// "Rule coverage"), the tests of the battery that answer it and their results in one audit.
// A map, not legal advice: the clauses are summarised in our words.
#pragma once

#include <string>
#include <vector>

#include "shufl/audit.hpp"

namespace shufl::audit {

/// One clause and what answers it.
struct coverage_row {
  std::string rule;    ///< "Virginia 11VAC20-20-510 (1)".
  std::string asks;    ///< What the clause asks, in a few words.
  std::vector<std::string> tests;  ///< Battery tests that answer it (empty: see `status`).
  /// "pass" or "fail" (every test named was run: fail when any failed), "not run" (none of them
  /// applicable and valid here), "in part, when run: the seed search (--seed-search)", or
  /// "not testable from decks".
  std::string status;
};

/// The coverage table for an audit's evaluated tests (after decide()).
std::vector<coverage_row> rule_coverage(const std::vector<test_report>& tests);

}  // namespace shufl::audit
