#include "shufl/deck.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "shufl/error.hpp"

namespace shufl {

namespace {

constexpr std::array<card_suit, 4> kSuits = {card_suit::spades, card_suit::hearts,
                                             card_suit::diamonds, card_suit::clubs};
constexpr std::string_view kPackNames[] = {"standard", "piquet", "skat", "euchre", "tarot"};
constexpr std::string_view kStyleNames[] = {"code", "unicode", "glyph", "name"};

constexpr std::string_view kDefaultSymbols[] = {
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P",
    "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", "a", "b", "c", "d", "e", "f",
    "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v",
    "w", "x", "y", "z", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};

// Ranks of each pack, in canonical order.
std::vector<std::uint8_t> pack_ranks(pack_kind kind) {
  switch (kind) {
    case pack_kind::piquet: return {rank_ace, 7, 8, 9, 10, rank_jack, rank_queen, rank_king};
    case pack_kind::euchre: return {rank_ace, 9, 10, rank_jack, rank_queen, rank_king};
    case pack_kind::tarot:
      return {rank_ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, rank_jack, rank_knight, rank_queen, rank_king};
    case pack_kind::standard:
    default:
      return {rank_ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, rank_jack, rank_queen, rank_king};
  }
}

std::size_t suit_index(card_suit s) noexcept { return static_cast<std::size_t>(s); }

char rank_code(std::uint8_t rank) noexcept {
  switch (rank) {
    case rank_ace: return 'A';
    case 10: return 'T';
    case rank_jack: return 'J';
    case rank_knight: return 'C';
    case rank_queen: return 'Q';
    case rank_king: return 'K';
    default: return static_cast<char>('0' + rank);
  }
}

std::string rank_short(std::uint8_t rank) {
  if (rank == 10) return "10";
  return std::string(1, rank_code(rank));
}

constexpr std::string_view kRankNames[] = {"",     "Ace",  "Two",  "Three", "Four",
                                           "Five", "Six",  "Seven", "Eight", "Nine",
                                           "Ten",  "Jack", "Knight", "Queen", "King"};
constexpr std::string_view kSuitNames[] = {"Spades", "Hearts", "Diamonds", "Clubs"};
constexpr std::string_view kSuitSymbols[] = {"\u2660", "\u2665", "\u2666", "\u2663"};
constexpr char kSuitCodes[] = {'s', 'h', 'd', 'c'};

std::string utf8(char32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  return out;
}

void check_label(std::string_view what, std::string_view label) {
  if (label.empty()) throw error(fmt::format("empty {} in the list", what));
  const auto control = [](unsigned char x) { return x < 0x20 || x == 0x7F; };
  if (std::none_of(label.begin(), label.end(), control)) return;
  // The whole label, its control bytes (and quotes and backslashes) escaped, so a terminal shows
  // what was typed rather than acting on it.
  std::string shown;
  for (const unsigned char ch : label) {
    if (control(ch)) {
      shown += fmt::format("\\x{:02X}", ch);
    } else {
      if (ch == '\'' || ch == '\\') shown += '\\';
      shown += static_cast<char>(ch);
    }
  }
  throw error(fmt::format("{} '{}' contains a control character", what, shown));
}

}  // namespace

void check_shoe(std::uint64_t per_deck, std::uint64_t decks, std::uint64_t label_bytes) {
  if (decks == 0) throw error("--decks must be at least 1");
  if (per_deck != 0 && decks > max_deck_size / per_deck) {
    throw error(fmt::format("a deck of {} x {} cards is too large (at most {} cards)", decks,
                            per_deck, max_deck_size));
  }
  if (label_bytes > max_custom_label_bytes / decks) {
    throw error(fmt::format("the custom deck would hold {} x {} bytes of labels; the limit is {} MiB "
                            "(labels x --decks)", label_bytes, decks, max_custom_label_bytes >> 20));
  }
}

std::string pack_description(pack_kind kind, std::uint64_t decks, std::uint64_t jokers_per_deck) {
  const auto ranks = pack_ranks(kind);
  const std::string pack = fmt::format("{} {}-card", pack_name(kind), ranks.size() * 4 + (kind == pack_kind::tarot ? 22 : 0));
  const std::string jokers =
      jokers_per_deck == 0 ? "" : fmt::format(" with {} joker{}", jokers_per_deck, jokers_per_deck == 1 ? "" : "s");
  return decks == 1 ? fmt::format("{} deck{}", pack, jokers)
                    : fmt::format("{}-deck shoe of {} decks{}{}", decks, pack, jokers, jokers.empty() ? "" : " each");
}

std::string custom_description(std::size_t labels, std::uint64_t decks) {
  return decks == 1 ? fmt::format("custom {}-card deck", labels)
                    : fmt::format("{}-deck shoe of custom {}-card decks", decks, labels);
}

card suited_card(std::uint8_t rank, card_suit suit) { return card{card_kind::suited, rank, suit, {}}; }
card joker_card(bool red) { return card{card_kind::joker, static_cast<std::uint8_t>(red ? 0 : 1), card_suit::none, {}}; }
card trump_card(std::uint8_t number) { return card{card_kind::trump, number, card_suit::trumps, {}}; }
card custom_card(std::string label) { return card{card_kind::custom, 0, card_suit::none, std::move(label)}; }

pack_kind parse_pack(std::string_view name) {
  if (name == "standard" || name == "52") return pack_kind::standard;
  if (name == "piquet" || name == "skat") return pack_kind::piquet;
  if (name == "euchre") return pack_kind::euchre;
  if (name == "tarot") return pack_kind::tarot;
  throw unknown_name_error("pack", name, kPackNames);
}

std::string_view pack_name(pack_kind kind) noexcept {
  switch (kind) {
    case pack_kind::piquet: return "piquet";
    case pack_kind::euchre: return "euchre";
    case pack_kind::tarot: return "tarot";
    case pack_kind::standard:
    default: return "standard";
  }
}

std::span<const std::string_view> pack_names() noexcept { return kPackNames; }

deck make_pack(pack_kind kind, std::uint64_t decks, std::uint64_t jokers_per_deck) {
  if (kind == pack_kind::tarot && jokers_per_deck > 0) {
    throw error("--jokers does not apply to the tarot pack (its Fool, 0t, plays that part)");
  }
  if (jokers_per_deck > max_deck_size) throw error("too many jokers");
  const auto ranks = pack_ranks(kind);
  const std::uint64_t per_deck =
      ranks.size() * 4 + jokers_per_deck + (kind == pack_kind::tarot ? 22 : 0);
  check_shoe(per_deck, decks);
  deck d;
  d.cards.reserve(per_deck * decks);
  for (std::uint64_t k = 0; k < decks; ++k) {
    for (const auto s : kSuits) {
      for (const auto r : ranks) d.cards.push_back(suited_card(r, s));
    }
    for (std::uint64_t j = 0; j < jokers_per_deck; ++j) d.cards.push_back(joker_card(j % 2 == 0));
    if (kind == pack_kind::tarot) {
      for (std::uint8_t t = 0; t <= 21; ++t) d.cards.push_back(trump_card(t));
    }
  }
  d.description = pack_description(kind, decks, jokers_per_deck);
  return d;
}

deck make_custom(std::span<const std::string> labels, std::uint64_t decks) {
  if (labels.empty()) throw error("the custom deck is empty");
  for (const auto& l : labels) check_label("card", l);
  std::uint64_t label_bytes = 0;
  for (const auto& l : labels) label_bytes += l.size();
  check_shoe(labels.size(), decks, label_bytes);
  deck d;
  d.cards.reserve(labels.size() * decks);
  for (std::uint64_t k = 0; k < decks; ++k) {
    for (const auto& l : labels) d.cards.push_back(custom_card(l));
  }
  d.description = custom_description(labels.size(), decks);
  return d;
}

namespace {

// `item` without surrounding spaces (and a '\r' a CRLF line may have left).
std::string_view trim_label(std::string_view item) {
  if (!item.empty() && item.back() == '\r') item.remove_suffix(1);
  while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
  while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
  return item;
}

}  // namespace

std::vector<std::string> split_label_list(std::string_view text, std::string_view option, std::string_view what) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view item = trim_label(text.substr(start, end - start));
    if (item.empty()) {
      throw error(fmt::format("{}: {} {} is empty (a doubled, leading or trailing comma?)", option, what,
                              out.size() + 1));
    }
    out.emplace_back(item);
    start = end + 1;
  }
  return out;
}

std::vector<std::string> read_card_labels(text_reader& reader) {
  std::vector<std::string> out;
  std::uint64_t bytes = 0;
  std::string_view line;
  while (reader.next(line)) {
    const std::string_view label = trim_label(line);
    if (label.empty()) continue;  // blank lines separate, as in --input (text_input.hpp's convention)
    bytes += label.size();
    if (bytes > max_custom_label_bytes) {
      throw error(fmt::format("{}: more than {} MiB of card labels (line {})", reader.name(),
                              max_custom_label_bytes >> 20, reader.line_number()));
    }
    out.emplace_back(label);
  }
  return out;
}

std::span<const std::string_view> default_symbols() noexcept { return kDefaultSymbols; }

deck make_pairs(std::uint64_t pairs, std::span<const std::string> symbols) {
  if (pairs == 0) throw error("a memory deck needs at least 1 pair");
  if (pairs > symbols.size()) {
    throw error(fmt::format("{} pairs need {} different symbols; only {} available", pairs, pairs,
                            symbols.size()));
  }
  std::vector<std::string> used(symbols.begin(), symbols.begin() + static_cast<std::ptrdiff_t>(pairs));
  for (const auto& s : used) check_label("symbol", s);
  std::vector<std::string> sorted = used;
  std::sort(sorted.begin(), sorted.end());
  if (const auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end()) {
    throw error(fmt::format("symbol '{}' appears more than once: each symbol makes one pair", *dup));
  }
  deck d;
  d.cards.reserve(2 * pairs);
  for (const auto& s : used) {
    d.cards.push_back(custom_card(s));
    d.cards.push_back(custom_card(s));
  }
  d.description = fmt::format("memory deck of {} pair{}", pairs, pairs == 1 ? "" : "s");
  return d;
}

std::uint64_t pairs_for_grid(std::uint64_t rows, std::uint64_t columns) {
  if (rows == 0 || columns == 0) throw error("a grid needs at least 1 row and 1 column");
  if (columns > max_deck_size / rows) throw error(fmt::format("grid {}x{} is too large", rows, columns));
  const std::uint64_t cells = rows * columns;
  if (cells % 2 != 0) {
    throw error(fmt::format("grid {}x{} has {} cells, an odd number: every card needs a pair", rows,
                            columns, cells));
  }
  return cells / 2;
}

std::span<const std::string_view> card_style_names() noexcept { return kStyleNames; }

card_style parse_card_style(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kStyleNames); ++i) {
    if (name == kStyleNames[i]) return static_cast<card_style>(i);
  }
  throw unknown_name_error("style", name, kStyleNames);
}

std::string format_card(const card& c, card_style style) {
  switch (c.kind) {
    case card_kind::custom: return c.label;
    case card_kind::joker: {
      const bool red = c.rank == 0;
      switch (style) {
        case card_style::glyph: return utf8(red ? 0x1F0BF : 0x1F0CF);
        case card_style::name: return red ? "Red Joker" : "Black Joker";
        default: return red ? "RJ" : "BJ";
      }
    }
    case card_kind::trump:
      switch (style) {
        case card_style::glyph: return utf8(0x1F0E0 + c.rank);
        case card_style::name: return c.rank == 0 ? "The Fool" : fmt::format("Trump {}", c.rank);
        default: return fmt::format("{}t", c.rank);
      }
    case card_kind::suited:
    default: {
      const std::size_t s = suit_index(c.suit);
      switch (style) {
        case card_style::unicode: {
          // Appending (not operator+ of two temporaries) avoids a GCC 12 -Wrestrict false positive.
          std::string out = rank_short(c.rank);
          out += kSuitSymbols[s];
          return out;
        }
        case card_style::glyph:
          return utf8(static_cast<char32_t>(0x1F0A1 + 0x10 * s + (c.rank - 1)));
        case card_style::name:
          return fmt::format("{} of {}", kRankNames[c.rank], kSuitNames[s]);
        case card_style::code:
        default: return std::string{rank_code(c.rank), kSuitCodes[s]};
      }
    }
  }
}

std::optional<card> parse_card_code(std::string_view code) {
  if (code == "RJ") return joker_card(true);
  if (code == "BJ") return joker_card(false);
  if (code.size() >= 2 && code.size() <= 3 && code.back() == 't') {
    const std::string_view digits = code.substr(0, code.size() - 1);
    if (digits.size() == 2 && digits[0] == '0') return std::nullopt;
    unsigned n = 0;
    for (const char ch : digits) {
      if (ch < '0' || ch > '9') return std::nullopt;
      n = n * 10 + static_cast<unsigned>(ch - '0');
    }
    if (n <= 21) return trump_card(static_cast<std::uint8_t>(n));
    return std::nullopt;
  }
  if (code.size() != 2) return std::nullopt;
  std::uint8_t rank = 0;
  switch (code[0]) {
    case 'A': rank = rank_ace; break;
    case 'T': rank = 10; break;
    case 'J': rank = rank_jack; break;
    case 'C': rank = rank_knight; break;
    case 'Q': rank = rank_queen; break;
    case 'K': rank = rank_king; break;
    default:
      if (code[0] < '2' || code[0] > '9') return std::nullopt;
      rank = static_cast<std::uint8_t>(code[0] - '0');
  }
  for (std::size_t s = 0; s < 4; ++s) {
    if (code[1] == kSuitCodes[s]) return suited_card(rank, kSuits[s]);
  }
  return std::nullopt;
}

namespace {

// Every card of a style as (text, card), sorted by text: the 56 suited cards of the tarot pack's
// 14 ranks, both jokers and the 22 trumps, written by format_card (so parsing is its inverse).
struct style_table {
  std::vector<std::pair<std::string, card>> entries;
  explicit style_table(card_style style) {
    std::vector<card> all = make_pack(pack_kind::tarot).cards;
    all.push_back(joker_card(true));
    all.push_back(joker_card(false));
    for (auto& c : all) entries.emplace_back(format_card(c, style), std::move(c));
    std::sort(entries.begin(), entries.end());
  }
  std::optional<card> find(std::string_view text) const {
    const auto it = std::lower_bound(entries.begin(), entries.end(), text,
                                     [](const auto& e, std::string_view t) { return std::string_view(e.first) < t; });
    if (it == entries.end() || it->first != text) return std::nullopt;
    return it->second;
  }
};

const style_table& table_of(card_style style) {
  static const style_table tables[] = {style_table(card_style::code), style_table(card_style::unicode),
                                       style_table(card_style::glyph), style_table(card_style::name)};
  return tables[static_cast<std::size_t>(style)];
}

}  // namespace

std::optional<card> parse_card(std::string_view text, card_style style) {
  if (static_cast<std::size_t>(style) >= std::size(kStyleNames)) return std::nullopt;
  return table_of(style).find(text);
}

std::vector<std::string> card_code_variants(const card& c) {
  std::vector<std::string> out;
  if (c.kind != card_kind::suited) return out;
  const std::string code = format_card(c, card_style::code);
  const char rank = code[0];
  const char suit = code[1];
  const auto lower = [](char ch) { return static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch); };
  const auto upper = [](char ch) { return static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch); };
  std::vector<std::string> ranks{std::string(1, rank)};
  if (lower(rank) != rank) ranks.emplace_back(1, lower(rank));
  if (c.rank == 10) ranks.emplace_back("10");
  for (const auto& r : ranks) {
    for (const char s : {suit, upper(suit)}) {
      std::string text = r + s;
      if (text != code) out.push_back(std::move(text));
    }
  }
  return out;
}

std::optional<card> parse_card_any(std::string_view text) {
  for (const auto style : {card_style::code, card_style::unicode, card_style::glyph, card_style::name}) {
    if (auto c = table_of(style).find(text)) return c;
  }
  // The code's other spellings: "AS", "td", "10c", "10C" (card_code_variants).
  if (text.size() == 3 && text[0] == '1' && text[1] == '0') {
    const char code[] = {'T', text[2]};
    text = std::string_view(code, 2);
    return parse_card_any(text);
  }
  if (text.size() == 2) {
    char code[2] = {text[0], text[1]};
    if (code[0] >= 'a' && code[0] <= 'z') code[0] = static_cast<char>(code[0] - 'a' + 'A');
    if (code[1] >= 'A' && code[1] <= 'Z') code[1] = static_cast<char>(code[1] - 'A' + 'a');
    const std::string_view normal(code, 2);
    if (normal != text && normal.back() != 't') {
      if (auto c = parse_card_code(normal); c && c->kind == card_kind::suited) return c;
    }
  }
  return std::nullopt;
}

std::uint32_t canonical_card_key(const card& c) noexcept {
  switch (c.kind) {
    case card_kind::suited: return static_cast<std::uint32_t>(c.suit) * 32U + c.rank;
    case card_kind::joker: return 1024U + c.rank;
    case card_kind::trump: return 2048U + c.rank;
    case card_kind::custom:
    default: return 4096U;
  }
}

std::vector<std::uint64_t> multiplicities(std::span<const card> cards, std::uint64_t copies) {
  std::map<card, std::uint64_t> counts;
  for (const auto& c : cards) ++counts[c];
  std::vector<std::uint64_t> out;
  out.reserve(counts.size());
  for (const auto& [c, m] : counts) out.push_back(m * copies);
  std::sort(out.begin(), out.end(), std::greater<>());
  return out;
}

double log2_distinct_orders(std::span<const card> cards, std::uint64_t copies) {
  // log n! = lgamma(n + 1); summing logs keeps a 6-deck shoe (2^1647) far inside double range.
  double ln = std::lgamma(static_cast<double>(cards.size()) * static_cast<double>(copies) + 1.0);
  for (const auto m : multiplicities(cards, copies)) ln -= std::lgamma(static_cast<double>(m) + 1.0);
  return std::max(0.0, ln / std::log(2.0));
}

seed_key deck_key(std::string_view seed) { return derive_key(key_from_seed(seed), "deck", 0); }

std::vector<std::uint32_t> shuffle_indices(std::size_t n, const deck_randomness& r) {
  std::vector<std::uint32_t> order;
  shuffle_decks(n, 1, r, [&](std::span<const std::uint32_t> first) {
    order.assign(first.begin(), first.end());
    return false;
  });
  return order;
}

void shuffle_decks(std::size_t n, std::uint64_t count, const deck_randomness& r,
                   const std::function<bool(std::span<const std::uint32_t>)>& each) {
  std::vector<std::uint32_t> order(n);
  const auto run = [&](auto& engine) {
    for (std::uint64_t k = 0; k < count; ++k) {
      for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
      fisher_yates(std::span<std::uint32_t>(order), engine);
      if (!each(order)) return;
    }
  };
  if (r.seed) {
    with_engine(r.engine.value_or(engine_kind::chacha20), deck_key(*r.seed), 0, run);
  } else if (r.engine) {
    with_engine(*r.engine, key_from_os(), 0, run);
  } else {
    os_engine e;
    run(e);
  }
}

double reachable_bits(const deck_randomness& r) noexcept {
  if (!r.seed && !r.engine) return std::numeric_limits<double>::infinity();
  return engine_seed_bits(r.engine.value_or(engine_kind::chacha20));
}

deal_result deal(std::span<const std::uint32_t> order, const deal_spec& spec) {
  if (spec.hands == 0 || spec.cards_per_hand == 0) {
    throw error("a deal needs at least 1 hand of at least 1 card");
  }
  const std::uint64_t n = order.size();
  const bool overflow = spec.hands > std::numeric_limits<std::uint64_t>::max() / spec.cards_per_hand;
  const std::uint64_t dealt = overflow ? 0 : spec.hands * spec.cards_per_hand;
  const bool sum_overflow = !overflow && spec.burn > std::numeric_limits<std::uint64_t>::max() - dealt;
  if (overflow || sum_overflow || dealt > n || spec.burn > n - dealt) {
    throw error(fmt::format(
        "cannot deal {} hand{} of {} card{}{} from a {}-card deck: that needs {} cards", spec.hands,
        spec.hands == 1 ? "" : "s", spec.cards_per_hand, spec.cards_per_hand == 1 ? "" : "s",
        spec.burn ? fmt::format(" after burning {}", spec.burn) : std::string(), n,
        overflow || sum_overflow ? std::string("more") : fmt::format("{}", dealt + spec.burn)));
  }
  deal_result r;
  r.burned.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(spec.burn));
  r.hands.assign(spec.hands, {});
  for (auto& h : r.hands) h.reserve(spec.cards_per_hand);
  std::size_t next = spec.burn;
  for (std::uint64_t round = 0; round < spec.cards_per_hand; ++round) {
    for (std::uint64_t h = 0; h < spec.hands; ++h) r.hands[h].push_back(order[next++]);
  }
  r.stock.assign(order.begin() + static_cast<std::ptrdiff_t>(next), order.end());
  return r;
}

std::string random_seed_string() {
  return to_hex(key_from_os());
}

namespace {

// BLAKE2b-256 of `message`, personalisation `personal` (16 bytes), no key, zero salt.
std::string blake2b_hex(std::string_view message, const char* personal) {
  if (sodium_init() < 0) throw error("libsodium failed to initialise");
  unsigned char person[crypto_generichash_blake2b_PERSONALBYTES] = {};
  if (personal != nullptr) std::memcpy(person, personal, sizeof person);
  static constexpr unsigned char salt[crypto_generichash_blake2b_SALTBYTES] = {};
  seed_key out;
  crypto_generichash_blake2b_salt_personal(out.bytes.data(), out.bytes.size(),
                                           reinterpret_cast<const unsigned char*>(message.data()),
                                           message.size(), nullptr, 0, salt, person);
  return to_hex(out);
}

}  // namespace

std::string seed_commitment(std::string_view seed) { return blake2b_hex(seed, "shufl-deck-cmt-1"); }

std::string deck_digest(const deck& d) {
  std::string codes;
  for (std::size_t i = 0; i < d.cards.size(); ++i) {
    if (i) codes += '\n';
    codes += format_card(d.cards[i], card_style::code);
  }
  return blake2b_hex(codes, nullptr);
}

std::string commitment_parameters(const deck& d, engine_kind engine, std::string_view layout) {
  return fmt::format("shufl-deck-cmt-2 engine={} cards={} deck={} {}", engine_name(engine), d.cards.size(),
                     deck_digest(d), layout);
}

std::string deal_commitment(std::string_view parameters, std::string_view seed) {
  std::string message(parameters);
  message += '\n';
  message += seed;
  return blake2b_hex(message, "shufl-deck-cmt-2");
}

}  // namespace shufl
