// The seed search's own readers of outside bytes: --deck-order FILE (read_deck_order over a
// 52-card pack), and the option texts parse_seed_range, parse_shard and parse_family_variant
// take. The first byte chooses the reader, the rest is its input. Properties: a deck order is
// empty (the canonical order) or a permutation of the 52 cards that is not the identity; a range
// lies within the family's seeds and holds at most 2^48 of them; a shard is I < N; a variant is
// one check_variant accepts, and sample's K is at least 1.
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/audit/seed_search.hpp"
#include "shufl/deck.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  using namespace shufl::audit;
  if (size == 0) return 0;
  const auto families = seed_families();
  const auto& family = families[data[0] / 4 % families.size()];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    switch (data[0] % 4) {
      case 0: {
        static const deck pack = make_pack(pack_kind::standard);
        text_reader reader(fuzz::bytes(data + 1, size - 1), "'order'");
        auto order = read_deck_order(reader, pack);
        if (order.empty()) break;
        fuzz::check(order.size() == 52, "a deck order holds every card");
        bool identity = true;
        for (std::size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == i;
        fuzz::check(!identity, "the canonical order is returned empty");
        std::sort(order.begin(), order.end());
        for (std::size_t i = 0; i < order.size(); ++i) fuzz::check(order[i] == i, "a deck order is a permutation");
        break;
      }
      case 1: {
        const auto r = parse_seed_range(text, family);
        fuzz::check(r.first <= r.last && r.last <= family.max_seed, "a range within the family's seeds");
        fuzz::check(r.last - r.first < max_search_seeds, "at most 2^48 seeds");
        break;
      }
      case 2: {
        const auto [i, n] = parse_shard(text);
        fuzz::check(i < n, "shard I of N has I < N");
        break;
      }
      case 3: {
        const auto bar = text.find('|');
        seed_search_options o;
        o.family = family.family;
        o.reseed = text.size() % 2 == 0 ? reseed_mode::once : reseed_mode::per_deal;
        o.deals = {std::vector<std::uint32_t>(5)};
        const auto v = parse_family_variant(family, text.substr(0, bar), bar == std::string::npos ? "" : text.substr(bar + 1),
                                            text.size() % 3 == 0, false, o);
        check_variant(family.family, v);  // never throws for what parse_family_variant returned
        fuzz::check(v.loop != shuffle_loop::sample || v.sample_size >= 1, "sample deals at least one card");
        break;
      }
    }
  } catch (const error&) {
  }
  return 0;
}
