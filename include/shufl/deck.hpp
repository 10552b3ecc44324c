// Cards, decks, shoes, memory-match pair decks, shuffling and dealing: the library behind
// `shufl deck`. No command line here: the CLI parses options, calls these functions and formats.
//
// A deck is a vector of cards in a fixed canonical order; shuffling permutes the *indices*
// 0..n-1 of that vector with Fisher–Yates (`shufl::fisher_yates`, draws through `uniform_below`),
// so every card is a distinct object even when two cards look the same (a shoe, a pair deck),
// and dealing hands out indices, never copies.
//
// Canonical order (what seeded output is defined against): for each deck of a shoe in turn,
// suits spades, hearts, diamonds, clubs, each from the lowest rank of the pack up to the King
// (Ace first: A 2 … 10 J [C] Q K), then that deck's jokers (red, black, red, …), then tarot trumps
// 0 (the Fool) … 21.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"
#include "shufl/text_input.hpp"

namespace shufl {

/// The suit of a card. `trumps` is the tarot trump "suit"; `none` for jokers and custom cards.
enum class card_suit : std::uint8_t { spades, hearts, diamonds, clubs, trumps, none };

/// What kind of card this is.
enum class card_kind : std::uint8_t {
  suited,  ///< A rank of one of the four suits.
  trump,   ///< A tarot trump, rank 0 (the Fool, "Excuse") to 21.
  joker,   ///< A joker: rank 0 red, rank 1 black.
  custom,  ///< A card known only by its label: custom decks and memory-match symbols.
};

/// Ranks of suited cards (the numeric value is the card's rank; 2–10 are themselves).
inline constexpr std::uint8_t rank_ace = 1;
inline constexpr std::uint8_t rank_jack = 11;
inline constexpr std::uint8_t rank_knight = 12;  ///< Tarot's Cavalier, between Jack and Queen.
inline constexpr std::uint8_t rank_queen = 13;
inline constexpr std::uint8_t rank_king = 14;

/// One card. Two cards that compare equal are indistinguishable in play (two Aces of Spades of a
/// shoe, the two cards of a memory pair); positions in a deck still tell them apart.
struct card {
  card_kind kind = card_kind::suited;
  std::uint8_t rank = 0;             ///< Suited: 1 (Ace) … 14 (King); trump: 0–21; joker: 0 red, 1 black.
  card_suit suit = card_suit::none;  ///< Suit of suited cards, `trumps` for trumps, else `none`.
  std::string label;                 ///< The text of a custom card; empty otherwise.
  friend bool operator==(const card&, const card&) = default;
  friend auto operator<=>(const card&, const card&) = default;
};

/// Convenience constructors.
card suited_card(std::uint8_t rank, card_suit suit);
card joker_card(bool red);
card trump_card(std::uint8_t number);
card custom_card(std::string label);

/// The named packs.
enum class pack_kind : std::uint8_t {
  standard,  ///< 52 cards: A, 2–10, J, Q, K in four suits.
  piquet,    ///< 32 cards: 7–10, J, Q, K, A in four suits (also the skat pack).
  euchre,    ///< 24 cards: 9, 10, J, Q, K, A in four suits.
  tarot,     ///< 78 cards: A, 2–10, J, C (Knight), Q, K in four suits (56) and trumps 0–21 (22).
};

/// Parses a pack name: "standard" (also "52"), "piquet", "skat" (= piquet), "euchre", "tarot".
/// Throws shufl::error with a "did you mean" suggestion for an unknown name.
pack_kind parse_pack(std::string_view name);
/// The canonical name of a pack ("standard", "piquet", "euchre", "tarot").
std::string_view pack_name(pack_kind kind) noexcept;
/// The names `parse_pack` accepts.
std::span<const std::string_view> pack_names() noexcept;

/// A deck in canonical (unshuffled) order, with a short human description.
struct deck {
  std::string description;  ///< e.g. "standard 52-card deck", "6-deck shoe of standard 52-card decks".
  std::vector<card> cards;
};

/// Builds `decks` copies of a named pack, each followed by `jokers_per_deck` jokers alternating
/// red, black, red, … . Throws shufl::error when decks is 0, when jokers are asked of a tarot
/// pack (it has the Fool), or when the deck would exceed `max_deck_size` cards.
deck make_pack(pack_kind kind, std::uint64_t decks = 1, std::uint64_t jokers_per_deck = 0);

/// The most label text a custom deck may hold, over all its cards (labels × decks): 64 MiB.
inline constexpr std::uint64_t max_custom_label_bytes = std::uint64_t{64} << 20;

/// A custom deck from labels, repeated `decks` times. Labels may repeat (a multiset, e.g. the
/// cards of a board game). Throws shufl::error for an empty list, an empty label, a label with a
/// control character (newline, tab, …), decks == 0, more than `max_deck_size` cards or more
/// than `max_custom_label_bytes` of label text in all.
deck make_custom(std::span<const std::string> labels, std::uint64_t decks = 1);

/// Splits a comma-separated list of labels (`--cards`, `--symbols`), each trimmed of surrounding
/// spaces. An empty label (",," or a leading or trailing comma, or only spaces) is never skipped:
/// throws shufl::error "OPTION: WHAT N is empty (a doubled, leading or trailing comma?)" with
/// N its 1-based position, `option` and `what` naming the list ("--cards", "card").
std::vector<std::string> split_label_list(std::string_view text, std::string_view option, std::string_view what);

/// Reads the labels of a `--cards-file`: one card per line under the input-text convention of
/// text_input.hpp (UTF-8 checked, BOM dropped, LF or CRLF), each trimmed of surrounding spaces.
/// Every non-blank line is a card; blank lines (empty or only spaces) are skipped, as `--input`
/// skips them, so a file may group its cards or end with an empty line.
/// Throws shufl::error for read and encoding errors and beyond max_custom_label_bytes of labels.
std::vector<std::string> read_card_labels(text_reader& reader);

/// The default memory-match symbols: A–Z, a–z, 0–9 (62 symbols, so 62 pairs at most).
std::span<const std::string_view> default_symbols() noexcept;

/// A memory-match deck of `pairs` pairs: symbols[0], symbols[0], symbols[1], symbols[1], … —
/// every symbol exactly twice, as two distinct cards. Throws shufl::error when pairs is 0, when
/// there are more pairs than symbols ("6 pairs need 6 symbols; only 4 given"), or when the symbols
/// repeat, are empty or contain a control character.
deck make_pairs(std::uint64_t pairs, std::span<const std::string> symbols);

/// Pairs for a memory grid of rows × columns cells. Throws shufl::error when a dimension is 0 or
/// the number of cells is odd ("grid 5x5 has 25 cells, an odd number: every card needs a pair").
std::uint64_t pairs_for_grid(std::uint64_t rows, std::uint64_t columns);

/// The largest deck `shufl deck` builds (cards): 2^24, far beyond any real shoe.
inline constexpr std::uint64_t max_deck_size = std::uint64_t{1} << 24;

/// How a card is written.
enum class card_style : std::uint8_t {
  code,     ///< Poker notation: "As", "Td", "9c"; Knight "Cs"; jokers "RJ"/"BJ"; trumps "0t"…"21t".
  unicode,  ///< "A♠", "10♥", "C♦"; jokers "RJ"/"BJ"; trumps "0t"…"21t".
  glyph,    ///< The Unicode playing-card characters (U+1F0A1 …; jokers U+1F0BF red, U+1F0CF black;
            ///< trumps U+1F0E0 …).
  name,     ///< "Ace of Spades", "Knight of Cups"-style names; "Red Joker"; "The Fool", "Trump 21".
};

/// Parses a style name ("code", "unicode", "glyph", "name"); throws shufl::error otherwise.
card_style parse_card_style(std::string_view name);
/// The names `parse_card_style` accepts, in card_style order.
std::span<const std::string_view> card_style_names() noexcept;

/// Writes a card in a style. Custom cards are their label in every style.
std::string format_card(const card& c, card_style style);

/// Reads a card code as `format_card(c, card_style::code)` writes it ("As", "Td", "Cs", "RJ",
/// "BJ", "0t"…"21t"); nullopt for anything else. Round trip: parse_card_code(format_card(c, code))
/// == c for every suited card, joker and trump.
std::optional<card> parse_card_code(std::string_view code);

/// Reads a card written by `format_card(c, style)` in that one style: every suited card of every
/// rank (Knight included), both jokers and the trumps 0–21; nullopt for anything else (custom
/// labels are no style's cards). Exact bytes: no case folding, no trimming. Round trip:
/// parse_card(format_card(c, s), s) == c for every card of every named pack with jokers.
std::optional<card> parse_card(std::string_view text, card_style style);

/// The ways people write a suited card's poker code besides `format_card(c, code)`: the rank
/// letter in either case, 10 as "10" as well as "T", the suit letter in either case ("Td" → "td",
/// "TD", "tD", "10d", "10D"). Empty for jokers, trumps and custom cards. The strings never clash
/// with another card's label in any style (rank first, suit last, a suit is one of s h d c).
std::vector<std::string> card_code_variants(const card& c);

/// Reads a card in any style `format_card` writes (code, unicode, glyph or name; the strings of
/// different styles never clash, "RJ" and "0t" are the same card in code and unicode). nullopt
/// for anything else; a suited card's code is also read in its `card_code_variants` spellings
/// ("AS", "10C", "td"). Used by `audit` to read and infer decks, and meant for every card reader.
std::optional<card> parse_card_any(std::string_view text);

/// A card's place in the canonical order of a single pack (the file comment): suited cards by
/// suit (spades, hearts, diamonds, clubs), then rank (Ace, 2, …, 10, Jack, Knight, Queen, King);
/// then the jokers (red, black); then the trumps 0–21. Cards of different packs share the one
/// order (a piquet pack's 7♠ comes where the standard pack has it). Keys are below 4096 and
/// increase along make_pack(kind, 1, jokers) for every named pack; custom cards all get 4096.
std::uint32_t canonical_card_key(const card& c) noexcept;

/// log2 of the number of distinct orders of a deck: the multinomial n! / ∏ m_i!, where m_i are
/// the multiplicities of cards that compare equal (52! ≈ 2^225.58; a 6-deck shoe ≈ 2^1647.9).
/// With `copies`, of the shoe of that many copies of `cards` (never built: n = copies · |cards|,
/// each m_i times copies). Computed with lgamma; accurate to about 1e-12 relative.
double log2_distinct_orders(std::span<const card> cards, std::uint64_t copies = 1);

/// The multiplicities of equal cards (sorted descending), e.g. 52 times 6 for a 6-deck shoe; with
/// `copies`, of the shoe of that many copies of `cards`.
std::vector<std::uint64_t> multiplicities(std::span<const card> cards, std::uint64_t copies = 1);

/// The checks make_pack and make_custom make of a shoe of `decks` decks of `per_deck` cards
/// holding `label_bytes` bytes of custom labels each, before building it: throws shufl::error
/// for decks == 0, more than max_deck_size cards or more than max_custom_label_bytes of labels.
/// For a caller that needs only the shape of a shoe (`deck --explain`).
void check_shoe(std::uint64_t per_deck, std::uint64_t decks, std::uint64_t label_bytes = 0);

/// The description make_pack(kind, decks, jokers_per_deck) gives its deck.
std::string pack_description(pack_kind kind, std::uint64_t decks, std::uint64_t jokers_per_deck);

/// The description make_custom gives a shoe of `decks` decks of `labels` cards.
std::string custom_description(std::size_t labels, std::uint64_t decks);

/// Where the randomness of a shuffle comes from.
struct deck_randomness {
  std::optional<std::string> seed;    ///< `--seed`: nullopt for an unseeded run.
  std::optional<engine_kind> engine;  ///< `--rng`: nullopt for the default (see shuffle_indices).
};

/// The engine key of a seeded deck: derive_key(key_from_seed(seed), "deck", 0). The shuffle uses
/// stream 0 of the chosen engine under this key.
seed_key deck_key(std::string_view seed);

/// Fisher–Yates over the identity permutation 0..n-1 with an engine: the shuffled deck is
/// cards[order[0]], cards[order[1]], …; order[0] is the top card. n − 1 draws.
template <class Engine>
std::vector<std::uint32_t> fisher_yates_indices(std::size_t n, Engine& engine) {
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
  fisher_yates(std::span<std::uint32_t>(order), engine);
  return order;
}

/// Shuffles 0..n-1 as `shufl deck` does. Seeded: engine `r.engine` (default chacha20) keyed by
/// deck_key(seed), stream 0 — the same order on every platform. Unseeded without an engine:
/// every draw comes from the OS (os_engine, getrandom), so every order can occur. Unseeded with
/// an engine: that engine keyed from 32 OS bytes (the weak engines stay weak).
/// Precondition: n ≤ max_deck_size.
std::vector<std::uint32_t> shuffle_indices(std::size_t n, const deck_randomness& r);

/// `shufl deck --count K`: `count` decks shuffled in turn from one stream of the randomness `r`
/// (the engine and key shuffle_indices chooses, so the first deck is shuffle_indices' own), each a
/// Fisher–Yates shuffle of the identity 0..n-1 handed to `each` as the order, top card first (the
/// span is reused: copy what you keep). `each` returns false to stop before the next deck.
/// Precondition: n ≤ max_deck_size.
void shuffle_decks(std::size_t n, std::uint64_t count, const deck_randomness& r,
                   const std::function<bool(std::span<const std::uint32_t>)>& each);

/// log2 of the number of different shuffles the randomness can produce at most: infinity for
/// unseeded OS randomness, otherwise engine_seed_bits of the engine (256 for chacha20).
double reachable_bits(const deck_randomness& r) noexcept;

/// A deal: `hands` hands of `cards_per_hand` cards, after burning `burn` cards once.
struct deal_spec {
  std::uint64_t hands = 0;
  std::uint64_t cards_per_hand = 0;
  std::uint64_t burn = 0;
};

/// The cards of a deal, as indices into the canonical deck.
struct deal_result {
  std::vector<std::uint32_t> burned;              ///< The burned cards, top first.
  std::vector<std::vector<std::uint32_t>> hands;  ///< hands[h][k]: k-th card dealt to hand h.
  std::vector<std::uint32_t> stock;               ///< What is left, in order, top first.
};

/// Deals from a shuffled order (top = order[0]): burns `burn` cards, then deals round the table,
/// one card to each hand in turn, `cards_per_hand` rounds; the rest is the stock. Every index
/// lands in exactly one of burned, hands and stock. Throws shufl::error when hands or
/// cards_per_hand is 0, or when burn + hands × cards_per_hand exceeds the deck (no overflow).
deal_result deal(std::span<const std::uint32_t> order, const deal_spec& spec);

/// A random seed for `--commit` without `--seed`: 32 bytes from the OS as 64 lowercase hex digits.
std::string random_seed_string();

/// The version-1 commitment (earlier releases printed it): BLAKE2b-256 of the seed string with the
/// personalisation "shufl-deck-cmt-1" (libsodium crypto_generichash_blake2b_salt_personal, no key,
/// zero salt), as 64 lowercase hex digits. The personalisation keeps it distinct from
/// key_from_seed(seed), so publishing it does not reveal the shuffle key; anyone holding the
/// revealed seed can recompute it. A guessable seed ("42") can be found from its commitment by
/// trying seeds: commitments are only as strong as the seed's entropy.
/// Version 1 binds the seed alone (not the engine or the deck): `--verify-commit` accepts it
/// only for chacha20, the one engine `--commit` ever used.
std::string seed_commitment(std::string_view seed);

/// BLAKE2b-256 (no key, no personalisation) of the deck's cards in canonical order, each in
/// code style (custom cards: their label), joined by "\n"; 64 lowercase hex digits. Python:
/// hashlib.blake2b("\n".join(codes).encode(), digest_size=32).hexdigest().
std::string deck_digest(const deck& d);

/// What a version-2 commitment binds besides the seed, as one line of text:
/// "shufl-deck-cmt-2 engine=ENGINE cards=N deck=DIGEST LAYOUT", where DIGEST is deck_digest(d)
/// and LAYOUT says how the order is shown ("deal=4x5 burn=1", "grid=4x4", "deck"). Everything that
/// determines the cards dealt is in it: the engine, the deck (its cards in order) and the deal.
std::string commitment_parameters(const deck& d, engine_kind engine, std::string_view layout);

/// The version-2 commitment printed by `--commit`: BLAKE2b-256 with personalisation
/// "shufl-deck-cmt-2" (no key, zero salt) of `parameters` + "\n" + seed, as 64 lowercase hex
/// digits. Python: hashlib.blake2b((params + "\n" + seed).encode(), digest_size=32,
/// person=b"shufl-deck-cmt-2").hexdigest(). A different engine, deck or deal gives a different
/// commitment, so a verified commitment means the deal shown is the one committed to.
std::string deal_commitment(std::string_view parameters, std::string_view seed);

}  // namespace shufl
