// `shufl audit`'s names for the one reader of cards (shufl/cards.hpp, the deck layer below every
// engine): the audit library and its callers read decks through these.
#pragma once

#include <string>
#include <utility>

#include "shufl/cards.hpp"

namespace shufl::audit {

using audit_pack = cards::pack_layout;
using cards::deck_reader;
using cards::line_item;
using cards::max_group_bytes;
using cards::max_skip_reasons;
using cards::quote_input_text;
using cards::read_line_items;
using cards::reader_options;
/// make_audit_pack / audit_pack_of: cards::make_pack_layout / cards::pack_layout_of.
inline audit_pack make_audit_pack(const reader_options& options) { return cards::make_pack_layout(options); }
inline audit_pack audit_pack_of(deck pack, std::string name, std::uint64_t decks, std::uint64_t jokers) {
  return cards::pack_layout_of(std::move(pack), std::move(name), decks, jokers);
}

}  // namespace shufl::audit
