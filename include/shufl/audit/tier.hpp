// Named tiers of `shufl audit --tier` (docs/audit.md, "Tiers"), as TestU01's SmallCrush, Crush and
// BigCrush fix a battery for generators: each fixes the tests (the whole battery, no --game, whole
// decks), α, the batches test's sample size, position-pairs' lags and the number of decks, so
// "passed shufl standard" names one rerunnable procedure.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "shufl/audit.hpp"

namespace shufl::audit {

/// small: 10^4 decks, α 0.01, batches of 500 (20 samples), lags 2; standard: 10^6, 0.01, 10^4
/// (100 samples), 2; big: 10^8, 0.01, 10^5 (1,000 samples), 4.
const std::vector<audit_tier>& audit_tiers();

/// Sets options.tier, alpha, batch_size and lags from the tier called `name`. `given(option)`
/// tells whether the command line gave an option; the options a tier fixes (or that cannot
/// hold a tier: counts files, --follow) are refused. Throws shufl::error naming the tiers or the
/// option.
void apply_tier(audit_options& options, std::string_view name, const std::function<bool(const char*)>& given);

/// The message for an input of `decks` decks, fewer than the tier's.
std::string tier_too_few(const audit_tier& tier, std::uint64_t decks);

}  // namespace shufl::audit
