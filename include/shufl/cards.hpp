// The one reader of cards and labels, below every engine (the deck layer: deck.hpp writes and
// parses single cards, this reads lines of them): `audit`'s decks, `bias --input`'s lines, and
// what a binding reads. One deck per line, top card first, cards as labels in any notation
// `shufl deck` prints (poker codes "As Td 9c", unicode "A♠ 10♥", glyphs, names "Ace of Spades",
// jokers, tarot trumps) or as numbers 1..N (k = the k-th card of the pack's canonical order, see
// deck.hpp). Input text follows text_input.hpp (BOM, CRLF, UTF-8 checked with line and column).
// Every deck is validated against the pack's multiset of cards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "shufl/deck.hpp"
#include "shufl/text_input.hpp"

namespace shufl::cards {

/// The pack the decks are checked against, and the card ids the battery counts with (audit's
/// `audit_pack`).
struct pack_layout {
  shufl::deck cards;                 ///< Canonical order: card index 0..size-1 (shoe: every copy).
  std::string name;                  ///< "standard", "piquet", "euchre", "tarot", "custom".
  std::uint64_t decks = 1;           ///< Copies of the pack (a shoe when > 1).
  std::uint64_t jokers = 0;          ///< Jokers per deck.
  /// Distinct card faces in canonical order of first appearance; `face_of[i]` is the face of
  /// canonical card i, `copies[f]` how many cards show face f (1 everywhere for a single pack).
  std::vector<std::uint32_t> face_of;
  std::vector<std::uint32_t> copies;
  /// Per face: suit index 0..3 (spades, hearts, diamonds, clubs) and rank index 0..(ranks−1) in
  /// the pack's rank order, or -1 where the face has none (jokers, trumps, custom cards).
  std::vector<std::int8_t> suit_of;
  std::vector<std::int8_t> rank_of;
  std::size_t ranks = 0;             ///< Number of ranks per suit (13 standard, 8 piquet, ...).
  [[nodiscard]] std::size_t size() const noexcept { return face_of.size(); }
  [[nodiscard]] std::size_t faces() const noexcept { return copies.size(); }
  [[nodiscard]] bool has_suits_and_ranks() const noexcept { return ranks != 0; }
};

/// What the user declared (the CLI's --pack, --decks, --jokers, --cards-file, --dealt, --skip-bad).
struct reader_options {
  std::optional<pack_kind> pack;              ///< nullopt (and no custom labels): infer from deck 1.
  std::uint64_t decks = 1;
  std::uint64_t jokers = 0;
  std::vector<std::string> custom_labels;     ///< --cards-file: a custom pack, in canonical order.
  std::optional<std::size_t> dealt;           ///< --dealt K: each line holds the first K cards.
  bool skip_bad = false;                      ///< Count and skip invalid decks instead of failing.
  /// --group-by N (0: none): field N (from 1) of each line, separated as the cards are (tabs,
  /// else commas, else runs of spaces), names the line's group and is removed before the
  /// cards are read. An empty or missing field, or one over max_group_bytes, is a bad line.
  std::size_t group_field = 0;
};

/// The longest group name --group-by accepts (bytes).
inline constexpr std::size_t max_group_bytes = 256;

/// How many skip reasons a deck_reader keeps (the first ones).
inline constexpr std::size_t max_skip_reasons = 5;

/// Streams decks from a text_reader. Blank lines and lines starting with '#' are skipped.
/// The line format (docs/audit-input.md): cards separated by tabs when the line has a tab, else by
/// commas when it has a comma, else by spaces (then a card whose label has spaces, "Ace of
/// Spades", is the shortest run of words that names a card); spaces around a card are dropped,
/// as are matching quotes around it ('As', "As") and [ ] or ( ) around the whole line. A line
/// holds labels or numbers 1..N, never both. With a custom pack that has an all-digit label,
/// digits are labels (no numbers).
/// The pack is declared when options name a pack, custom labels, decks != 1 or jokers != 0 (then
/// the standard pack unless named), else inferred from the first deck.
class deck_reader {
 public:
  /// Throws shufl::error for inconsistent options (dealt = 0 or larger than the pack, dealt
  /// without a declared pack, a pack and custom labels together, ...). `in` must outlive this.
  deck_reader(text_reader& in, reader_options options);
  ~deck_reader();
  deck_reader(deck_reader&&) noexcept;
  deck_reader(const deck_reader&) = delete;
  deck_reader& operator=(const deck_reader&) = delete;
  deck_reader& operator=(deck_reader&&) = delete;

  /// The next valid deck as FACE ids (0..faces()−1), top card first: pack().size() entries, or
  /// `dealt` entries with --dealt. false at the end of the input. Throws shufl::error
  /// "NAME: line L, position P: unknown card 'X'" / "... card 'X' appears more often than the
  /// pack has it" / "... 'X' is a number but the line began with card labels (...)" /
  /// "NAME: line L: N cards, the pack has M (missing 'As', ...)" / "NAME: line L: N cards, the
  /// deal has K" (without skip_bad; X quoted by quote_input_text, P counts cards from 1). Read
  /// and encoding errors from text_reader, and a first deck the pack cannot be inferred from
  /// ("NAME: line L: cannot infer the pack: ..."), always throw.
  bool next(std::vector<std::uint32_t>& faces);

  /// The pack (declared, or inferred from the first deck: valid after the first next()).
  [[nodiscard]] const pack_layout& pack() const;
  /// One line for stderr saying what was inferred ("audit: pack inferred from line 1: standard
  /// 52-card deck, poker codes"); empty when the pack was declared.
  [[nodiscard]] const std::string& inference_note() const noexcept;
  /// Decks skipped as invalid (skip_bad), and the first few reasons for the report.
  [[nodiscard]] std::uint64_t skipped() const noexcept;
  [[nodiscard]] const std::vector<std::string>& skip_reasons() const noexcept;
  /// A reader of `in` (a later part of the same input) that checks decks against this reader's
  /// pack, declared or inferred (valid after the first next()), with the same options; skip
  /// counts and reasons start from zero. For reading parts of one file on several threads.
  [[nodiscard]] deck_reader continue_on(text_reader& in) const;
  /// Line number of the last deck returned.
  [[nodiscard]] std::uint64_t line_number() const noexcept;
  /// With group_field: the group of the last deck returned (its field's text, spaces around it
  /// dropped); empty otherwise. Valid until the next call of next().
  [[nodiscard]] std::string_view group() const noexcept;

 private:
  deck_reader() = default;
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Builds the pack_layout of a declared pack (no input needed): for `audit --algo` and `--plan`.
/// Custom labels → make_custom(labels, decks) (name "custom"); else make_pack(pack or standard,
/// decks, jokers). Throws shufl::error from those, and for a pack together with custom labels or
/// jokers with custom labels.
pack_layout make_pack_layout(const reader_options& options);

/// The pack_layout of a deck already built (faces, copies, suits and ranks from its cards).
/// `name` is stored as given.
pack_layout pack_layout_of(deck cards, std::string name, std::uint64_t decks, std::uint64_t jokers);

/// One item of a deck line: its text (a view into the line, without matching quotes around it)
/// and the card it names (parse_card_any), nullopt when it names none; `number` when the text is
/// all decimal digits (then never a card: numbers 1..N count cards in a pack's order).
struct line_item {
  std::string_view text;
  std::optional<card> named;
  bool number = false;
};

/// The one card reader of `audit` (its pack inference) and `bias --input`: splits a line as
/// deck_reader does (tabs, else commas, else spaces; [ ] or ( ) around the line and matching
/// quotes around an item dropped) and reads each item with parse_card_any; between spaces, an item
/// that names no card grows by up to two following words ("Ace of Spades", "Ten of Clubs"), as the
/// shortest run that names one. `out` is cleared and filled; its items view `line`.
void read_line_items(std::string_view line, std::vector<line_item>& out);

/// Text from the input quoted for a message: in single quotes, control characters (C0, DEL, C1),
/// backslash, quote, and bidirectional or invisible format characters (U+200B–U+200F,
/// U+2028–U+202E, U+2066–U+2069, U+FEFF) written as \xHH or \u{HHHH}; cut after 40 code points
/// ("..." appended). For valid UTF-8 (text_reader's output); other bytes are written as \xHH too.
std::string quote_input_text(std::string_view text);

}  // namespace shufl::cards
