// Named tiers of `shufl audit --tier` (audit/tier.hpp).
#include "shufl/audit/tier.hpp"

#include <fmt/format.h>

#include "shufl/error.hpp"

namespace shufl::audit {

const std::vector<audit_tier>& audit_tiers() {
  static const std::vector<audit_tier> tiers{{"small", 10'000, 0.01, 500, 2},
                                             {"standard", 1'000'000, 0.01, 10'000, 2},
                                             {"big", 100'000'000, 0.01, 100'000, 4}};
  return tiers;
}

void apply_tier(audit_options& options, std::string_view name, const std::function<bool(const char*)>& given) {
  const audit_tier* tier = nullptr;
  for (const auto& t : audit_tiers()) {
    if (t.name == name) tier = &t;
  }
  if (tier == nullptr) throw error(fmt::format("--tier must be small, standard or big, not '{}'", name));
  for (const char* o : {"--alpha", "--batch-size", "--lags", "--trials", "--dealt", "--game", "--deal", "--save-counts",
                        "--merge", "--shard", "--follow"}) {
    if (given(o)) throw error(fmt::format("--tier {} fixes the battery, alpha, batch size, lags and decks: drop {}", name, o));
  }
  options.tier = *tier;
  options.alpha = tier->alpha;
  options.batch_size = tier->batch_size;
  options.lags = tier->lags;
}

std::string tier_too_few(const audit_tier& tier, std::uint64_t decks) {
  return fmt::format("the {} tier needs {} decks; the input has {}", tier.name, tier.decks, decks);
}

}  // namespace shufl::audit
