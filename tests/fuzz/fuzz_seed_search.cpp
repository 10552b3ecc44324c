// The seed search's reading of logged deals (audit/seed_search_input.hpp) and node-math-random's
// state recovery on whatever deals it returns. The first byte chooses the options (bits 0-1:
// loop down, up, pop, sort; bit 2: dealt 5, else whole decks; bit 3: two deals only), the rest
// is the file. Properties: read_logged_deals returns deals of distinct cards of the pack or
// throws shufl::error; the recovery throws shufl::error (a refused loop or partial deals of the
// downward loop) or returns states every one of which makes every logged card; the chance
// accounting of the result is a number; anything else is a finding.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/audit/seed_search.hpp"
#include "shufl/audit/seed_search_input.hpp"
#include "shufl/text_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  if (size < 1) return 0;
  const std::uint8_t options = data[0];
  const std::string text(fuzz::bytes(data + 1, size - 1));
  audit::reader_options ro;
  if ((options & 4) != 0) ro.dealt = 5;
  audit::seed_search_options o;
  o.family = audit::seed_family::node_math_random;
  constexpr audit::shuffle_loop loops[] = {audit::shuffle_loop::down, audit::shuffle_loop::up, audit::shuffle_loop::pop,
                                           audit::shuffle_loop::sort};
  o.variant.loop = loops[options & 3];
  o.reseed = audit::reseed_mode::once;
  try {
    text_reader in(text, "fuzz");
    audit::audit_pack pack;
    o.deals = audit::read_logged_deals(in, ro, pack);
    o.n = pack.cards.cards.size();
    if ((options & 8) != 0 && o.deals.size() > 2) o.deals.resize(2);
    for (const auto& d : o.deals) {
      fuzz::check(!d.empty() && d.size() <= o.n, "a deal has 1 to n cards");
      std::vector<bool> seen(o.n);
      for (const auto c : d) {
        fuzz::check(c < o.n && !seen[c], "a deal's cards are distinct cards of the pack");
        seen[c] = true;
      }
    }
    if (o.deals.size() > 16 || o.n > 128) return 0;  // keep each run short
    const auto result = audit::search_seeds(o);
    fuzz::check(result.recovery.has_value(), "node-math-random reports its recovery");
    for (const auto& s : result.recovery->states) {
      const auto made = audit::node_deals(s, o.n, o.deals.size(), o.variant.loop);
      for (std::size_t d = 0; d < o.deals.size(); ++d)
        fuzz::check(std::equal(o.deals[d].begin(), o.deals[d].end(), made[d].begin()), "a found state makes the deals");
    }
    const auto chance = audit::assess_chance(o, result, 1, 1e-3);
    fuzz::check(!std::isnan(chance.expected.log10()), "E is a number");
  } catch (const error&) {
  }
  return 0;
}
