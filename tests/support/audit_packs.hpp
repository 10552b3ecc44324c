// Packs for the audit unit tests: a small pack described face by face and the standard 52-card
// pack as audit_pack values (no reader involved), and the battery shape of n distinct cards.
#pragma once

#include <cstdint>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/deck.hpp"

namespace shufl::test {

/// A small pack: `copies` per face, optional suits and ranks (-1: none), `rank_count` ranks
/// (no card labels: faces print as #k).
inline audit::audit_pack small_pack(std::vector<std::uint32_t> copies, std::vector<std::int8_t> suits = {},
                                    std::vector<std::int8_t> ranks = {}, std::size_t rank_count = 0) {
  audit::audit_pack p;
  p.name = "test";
  p.copies = copies;
  for (std::uint32_t f = 0; f < copies.size(); ++f)
    for (std::uint32_t k = 0; k < copies[f]; ++k) p.face_of.push_back(f);
  p.suit_of = suits.empty() ? std::vector<std::int8_t>(copies.size(), -1) : suits;
  p.rank_of = ranks.empty() ? std::vector<std::int8_t>(copies.size(), -1) : ranks;
  p.ranks = rank_count;
  return p;
}

/// The standard 52-card pack.
inline audit::audit_pack standard_pack() {
  return audit::audit_pack_of(make_pack(pack_kind::standard), "standard", 1, 0);
}

/// The battery's shape for whole decks of n distinct cards.
inline audit::battery_shape distinct_shape(std::size_t n) {
  audit::battery_shape s;
  s.cards = n;
  s.positions = n;
  s.copies.assign(n, 1);
  return s;
}

}  // namespace shufl::test
