// `shufl deck`'s outputs, made from what the deck library returns: --explain's text and JSON,
// the cards of a deal or a deck on a line (or in JSON), a grid's aligned rows, the fields every
// JSON document of `shufl deck` opens with, and the labels --count writes.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "shufl/deck.hpp"

namespace shufl::render {

/// Why a --seed is guessable, with the number of seeds an attacker would have to try; nullopt
/// for a seed of 16 characters or more that is neither a number nor a date or time.
std::optional<std::string> weak_seed_reason(const std::string& seed);

/// --explain for a shoe of `copies` copies of d's cards: the possible orders (the multinomial
/// n!/prod m_i! and its log2), the randomness behind the shuffle and the verdict, as four text
/// lines or as the JSON document (docs/json.md).
std::string deck_explain_text(const deck& d, const deck_randomness& r, std::uint64_t copies);
nlohmann::ordered_json deck_explain_json(const deck& d, const deck_randomness& r, std::uint64_t copies);

/// The cards `ids` of `d` on one line, separated by one space, or by ", " when a label of the
/// deck has a space in it.
std::string deck_cards_line(const deck& d, std::span<const std::uint32_t> ids, card_style style);

/// A grid's rows (`order` row by row) with every column padded to its widest cell by display
/// width; columns separated by one space, or " | " when a label has a space in it.
std::string deck_grid_rows(const deck& d, std::span<const std::uint32_t> order, std::uint64_t rows,
                           std::uint64_t columns, card_style style);

/// The cards `ids` of `d` as a JSON array of labels (json_text).
nlohmann::ordered_json deck_cards_json(const deck& d, std::span<const std::uint32_t> ids, card_style style);

/// Puts the fields every JSON document of `shufl deck` opens with, in order: version, command,
/// description, cards, seed, engine, style.
void put_deck_header(nlohmann::ordered_json& j, const deck& d, const deck_randomness& r, const std::string& style);

/// --count: each card's label as written (JSON strings with `json`), and what separates them on
/// a line.
std::vector<std::string> deck_count_labels(const deck& d, card_style style, bool json);
const char* deck_count_separator(const deck& d, card_style style, bool json);

/// One shuffled deck as `shufl deck` shows it: the deck and its randomness, the order (card
/// indices of `d`, top first), the deal made of it (or the grid's shape, or neither: the whole
/// deck), and the commitment lines (empty `commitment`: none).
struct deck_shown {
  const deck& d;
  const deck_randomness& r;
  const std::string& style_name;  ///< --style as given (the JSON's "style")
  card_style style;
  std::span<const std::uint32_t> order;
  const deal_result* dealt;  ///< --deal: the hands, burned cards and stock; nullptr otherwise
  bool burn;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> grid;  ///< --grid ROWSxCOLUMNS
  const std::string& commitment;
  bool verifying;   ///< --verify-commit matched
  bool version1;    ///< the commitment verified is a version-1 one (the seed alone)
  const std::string& parameters;  ///< what a version-2 commitment binds
};

/// The JSON document of one shuffled deck (docs/json.md).
nlohmann::ordered_json deck_json(const deck_shown& s);

/// The text of one shuffled deck: commitment lines, then the deal (burned, hands, stock), the
/// grid's rows or one card per line. Not yet escaped for the terminal.
std::string deck_text(const deck_shown& s);

/// --count --format json: the document up to the opening of its "decks" array, and its end.
std::string deck_count_json_head(const deck& d, const deck_randomness& r, const std::string& style, std::uint64_t count);
inline constexpr const char* deck_count_json_tail = "\n  ]\n}\n";

}  // namespace shufl::render
