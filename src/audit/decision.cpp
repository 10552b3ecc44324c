// The audit's decision: Holm's step-down adjustment over the tests that are applicable and valid,
// at the family-wise level alpha (S. Holm, Scand. J. Statist. 1979). The words say what a test can
// say: "no evidence of non-randomness", never "certified" or "fair".
#include <fmt/format.h>

#include <cmath>

#include "shufl/audit.hpp"
#include "shufl/stats.hpp"

namespace shufl::audit {

audit_decision decide(std::vector<test_report>& tests, std::uint64_t decks, double alpha) {
  audit_decision d;
  d.alpha = alpha;
  std::vector<double> ln_p;
  std::vector<std::size_t> family;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const test_outcome o = tests[i].result;
    if (o == test_outcome::pass || o == test_outcome::fail) {
      family.push_back(i);
      ln_p.push_back(tests[i].ln_p);
    }
  }
  const std::vector<double> adjusted = holm_adjust_ln(ln_p);
  const double ln_alpha = std::log(alpha);
  std::string failed;
  for (std::size_t k = 0; k < family.size(); ++k) {
    test_report& t = tests[family[k]];
    t.holm_ln_p = adjusted[k];
    t.result = adjusted[k] < ln_alpha ? test_outcome::fail : test_outcome::pass;
    if (t.result == test_outcome::fail) {
      d.pass = false;
      failed += failed.empty() ? t.name : ", " + t.name;
    }
  }
  d.family = family.size();
  // The library cannot call render::count_noun (layers look down): the same rule, inline.
  const char* noun = decks == 1 ? "deck" : "decks";
  d.summary = d.pass ? fmt::format("no evidence of non-randomness in {} {} at alpha {}", decks, noun, alpha)
                     : fmt::format("evidence of non-randomness in {} {} at alpha {}: {} failed", decks, noun, alpha, failed);
  return d;
}

}  // namespace shufl::audit
