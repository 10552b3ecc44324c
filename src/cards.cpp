// The reader of cards and labels (cards.hpp), used by `audit` and `bias --input`: one deck per
// line, in any card notation of `shufl deck` or as numbers 1..N, validated against the pack's
// multiset. The line format is described for users in docs/audit-input.md.
//
// Speed: a line of 2-byte poker codes never allocates: items are views into the line, a 2-byte
// ASCII label is found in a 128×128 table, the multiset check counts into a per-face array that is
// zeroed again from the deck itself, and the caller's vector is reused.
#include "shufl/cards.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <tuple>
#include <utility>

#include "cards_group.hpp"
#include "shufl/error.hpp"

namespace shufl::cards {

namespace {

constexpr card_style kStyles[] = {card_style::code, card_style::unicode, card_style::glyph, card_style::name};

std::string_view style_words(card_style s) noexcept {
  switch (s) {
    case card_style::unicode: return "unicode labels";
    case card_style::glyph: return "playing-card glyphs";
    case card_style::name: return "card names";
    case card_style::code:
    default: return "poker codes";
  }
}

// Space-like bytes around and between items (a tab is a separator of its own, see item_splitter).
bool is_space(char c) noexcept { return c == ' ' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (is_space(s.front()) || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) noexcept {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// An item without matching quotes around it ('As', "As"); the item itself otherwise.
std::string_view unquote(std::string_view s) noexcept {
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front()) {
    return s.substr(1, s.size() - 2);
  }
  return s;
}

// Number of space-separated words of a label (runs of spaces count once).
std::size_t word_count(std::string_view s) noexcept {
  std::size_t words = 0;
  bool in_word = false;
  for (const char c : s) {
    const bool space = is_space(c);
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

// The items of one deck line: the line trimmed and without [ ] or ( ) around it; separated by
// tabs when it has a tab, else by commas when it has a comma (each item trimmed, empty items
// skipped), else by runs of spaces. In space mode a caller may grow the current item by the
// following words (extend) and go back (rewind) when the longer text is no card either.
class item_splitter {
 public:
  explicit item_splitter(std::string_view line) noexcept {
    line = trim(line);
    if (line.size() >= 2 && ((line.front() == '[' && line.back() == ']') || (line.front() == '(' && line.back() == ')'))) {
      line = trim(line.substr(1, line.size() - 2));
    }
    line_ = line;
    if (std::memchr(line.data(), '\t', line.size()) != nullptr) {
      sep_ = '\t';
    } else if (std::memchr(line.data(), ',', line.size()) != nullptr) {
      sep_ = ',';
    }
  }

  bool spaces() const noexcept { return sep_ == ' '; }
  std::string_view body() const noexcept { return line_; }

  bool next(std::string_view& item) noexcept {
    const std::size_t n = line_.size();
    if (sep_ == ' ') {
      while (pos_ < n && is_space(line_[pos_])) ++pos_;
      if (pos_ == n) return false;
      start_ = pos_;
      while (pos_ < n && !is_space(line_[pos_])) ++pos_;
      item = line_.substr(start_, pos_ - start_);
      return true;
    }
    while (pos_ <= n) {
      std::size_t end = line_.find(sep_, pos_);
      if (end == std::string_view::npos) end = n;
      item = trim(line_.substr(pos_, end - pos_));
      pos_ = end + 1;
      if (!item.empty()) return true;
    }
    return false;
  }

  // Space mode: the current item and the next word; false when no word follows.
  bool extend(std::string_view& item) noexcept {
    const std::size_t n = line_.size();
    std::size_t p = pos_;
    while (p < n && is_space(line_[p])) ++p;
    if (p == n) return false;
    while (p < n && !is_space(line_[p])) ++p;
    pos_ = p;
    item = line_.substr(start_, pos_ - start_);
    return true;
  }
  std::size_t mark() const noexcept { return pos_; }
  void rewind(std::size_t mark) noexcept { pos_ = mark; }

 private:
  std::string_view line_;
  char sep_ = ' ';
  std::size_t pos_ = 0;
  std::size_t start_ = 0;
};

// A deck that is not valid (unknown, repeated or missing card, wrong count, mixed numbers and
// labels): skipped with skip_bad, else rethrown as shufl::error.
struct bad_deck {
  std::string message;
};

struct label_entry {
  std::string text;
  std::uint32_t face = 0;
  card_style style = card_style::code;
};

std::string list_missing(const std::vector<std::string>& names, std::size_t total) {
  std::string out = " (missing ";
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (k > 0) out += ", ";
    out += names[k];
  }
  if (total > names.size()) out += fmt::format(" and {} more", total - names.size());
  out += ')';
  return out;
}

constexpr std::size_t kMissingShown = 3;

}  // namespace

std::string quote_input_text(std::string_view text) {
  std::string out = "'";
  std::size_t points = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (points == 40) {
      out += "...";
      break;
    }
    ++points;
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      if (b < 0x20 || b == 0x7F) {
        out += fmt::format("\\x{:02X}", b);
      } else {
        if (b == '\\' || b == '\'') out += '\\';
        out += static_cast<char>(b);
      }
      ++i;
      continue;
    }
    const std::size_t len = std::min(utf8_sequence_length(text.substr(i)), text.size() - i);
    const std::string_view seq = text.substr(i, len);
    if (len < 2 || !is_valid_utf8(seq)) {
      out += fmt::format("\\x{:02X}", b);
      ++i;
      continue;
    }
    char32_t cp = b & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(seq[k]) & 0x3F);
    const bool hidden = (cp >= 0x80 && cp < 0xA0) || (cp >= 0x200B && cp <= 0x200F) ||
                        (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
    if (hidden) {
      out += fmt::format("\\u{{{:04X}}}", static_cast<std::uint32_t>(cp));
    } else {
      out += seq;
    }
    i += len;
  }
  out += '\'';
  return out;
}

void read_line_items(std::string_view line, std::vector<line_item>& out) {
  out.clear();
  item_splitter items(line);
  std::string_view item;
  while (items.next(item)) {
    const std::string_view bare = unquote(item);
    if (all_digits(bare)) {
      out.push_back({bare, std::nullopt, true});
      continue;
    }
    std::optional<card> c = parse_card_any(item);
    if (!c && bare.size() != item.size()) c = parse_card_any(item = bare);
    if (!c && items.spaces()) {
      const std::size_t mark = items.mark();
      std::string_view longer = item;
      for (int extra = 0; extra < 2 && !c && items.extend(longer); ++extra) c = parse_card_any(longer);
      if (c) {
        item = longer;
      } else {
        items.rewind(mark);
      }
    }
    out.push_back({item, std::move(c), false});
  }
}

pack_layout pack_layout_of(deck cards, std::string name, std::uint64_t decks, std::uint64_t jokers) {
  pack_layout p;
  p.cards = std::move(cards);
  p.name = std::move(name);
  p.decks = decks;
  p.jokers = jokers;
  const auto& c = p.cards.cards;
  const std::size_t n = c.size();
  // Equal cards share a face; faces are numbered in canonical order of first appearance.
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return c[a] < c[b]; });
  std::vector<std::uint32_t> rep(n);
  for (std::size_t k = 0; k < n;) {
    std::size_t end = k + 1;
    while (end < n && c[order[end]] == c[order[k]]) ++end;
    for (std::size_t m = k; m < end; ++m) rep[order[m]] = order[k];  // order[k]: the group's first index
    k = end;
  }
  std::vector<std::uint32_t> face_of_rep(n, 0);
  p.face_of.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (rep[i] == i) {
      face_of_rep[i] = static_cast<std::uint32_t>(p.copies.size());
      p.copies.push_back(0);
    }
    p.face_of[i] = face_of_rep[rep[i]];
    ++p.copies[p.face_of[i]];
  }
  // Ranks in the pack's order: the order in which suited ranks first appear (canonical order
  // runs through the spades first, lowest rank to King).
  std::vector<std::uint8_t> ranks;
  for (const auto& card : c) {
    if (card.kind == card_kind::suited && std::find(ranks.begin(), ranks.end(), card.rank) == ranks.end()) {
      ranks.push_back(card.rank);
    }
  }
  p.ranks = ranks.size();
  p.suit_of.assign(p.faces(), -1);
  p.rank_of.assign(p.faces(), -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (rep[i] != i || c[i].kind != card_kind::suited) continue;
    const std::uint32_t f = p.face_of[i];
    p.suit_of[f] = static_cast<std::int8_t>(c[i].suit);
    p.rank_of[f] = static_cast<std::int8_t>(std::find(ranks.begin(), ranks.end(), c[i].rank) - ranks.begin());
  }
  return p;
}

pack_layout make_pack_layout(const reader_options& options) {
  if (!options.custom_labels.empty()) {
    if (options.pack) throw error("a named pack (--pack) and custom cards (--cards-file) cannot be combined");
    if (options.jokers != 0) throw error("--jokers does not apply to a custom pack (--cards-file): list the jokers as cards");
    return pack_layout_of(make_custom(options.custom_labels, options.decks), "custom", options.decks, 0);
  }
  const pack_kind kind = options.pack.value_or(pack_kind::standard);
  return pack_layout_of(make_pack(kind, options.decks, options.jokers), std::string(pack_name(kind)), options.decks,
                       options.jokers);
}

struct deck_reader::impl {
  impl(text_reader& reader, reader_options o) : in(reader), opt(std::move(o)) {
    if (opt.skip_bad) in.set_lenient(true);  // a line not UTF-8 or over 1 MiB is a bad deck too
  }

  text_reader& in;
  reader_options opt;
  bool have_pack = false;
  bool numbered = false;  // inferred pack of numbered cards: numbers only, no labels
  pack_layout pack;
  std::string note;
  std::uint64_t skipped = 0;
  std::vector<std::string> reasons;
  std::uint64_t line = 0;

  std::vector<std::uint32_t> fast;   // 128 × 128: face + 1 of each 2-byte ASCII label, 0 = none
  std::vector<label_entry> labels;   // every label of every face in every style, sorted by text
  std::size_t max_words = 1;         // most words in one label
  bool numbers_allowed = true;       // false for a custom pack with an all-digit label
  std::vector<std::uint32_t> first_card;  // per face: its first canonical card
  std::vector<std::uint32_t> count;       // per face, zero between lines
  std::vector<std::uint8_t> seen_number;  // per canonical card, zero between lines
  std::vector<std::uint32_t> numbers;     // canonical cards of the current numbers line
  bool distinct_small = false;            // at most 64 faces, one card each (a bit set checks a deck)
  bool skip_reset = false;                // the last parse_codes left count[] untouched
  std::string group;                      // --group-by: the last line's group
  std::string rest;                       // --group-by: the line without its group field

  void use_pack(pack_layout p) {
    pack = std::move(p);
    have_pack = true;
    const std::size_t n = pack.size();
    first_card.assign(pack.faces(), 0);
    std::vector<bool> done(pack.faces(), false);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t f = pack.face_of[i];
      if (!done[f]) {
        done[f] = true;
        first_card[f] = static_cast<std::uint32_t>(i);
      }
    }
    labels.clear();
    if (!numbered) {
      for (std::uint32_t f = 0; f < pack.faces(); ++f) {
        const card& c = pack.cards.cards[first_card[f]];
        if (c.kind == card_kind::custom) {
          labels.push_back({c.label, f, card_style::code});
          if (all_digits(c.label)) numbers_allowed = false;
          continue;
        }
        for (const auto style : kStyles) labels.push_back({format_card(c, style), f, style});
        for (auto& v : card_code_variants(c)) labels.push_back({std::move(v), f, card_style::code});
      }
    }
    std::sort(labels.begin(), labels.end(), [](const label_entry& a, const label_entry& b) {
      return std::tie(a.text, a.style) < std::tie(b.text, b.style);
    });
    // "RJ" and "0t" are both code and unicode: keep one entry (code) per text.
    labels.erase(std::unique(labels.begin(), labels.end(),
                             [](const label_entry& a, const label_entry& b) { return a.text == b.text; }),
                 labels.end());
    fast.assign(std::size_t{128} * 128, 0);
    max_words = 1;
    for (const auto& e : labels) {
      max_words = std::max(max_words, word_count(e.text));
      const auto* t = reinterpret_cast<const unsigned char*>(e.text.data());
      // Labels with a byte that splits or wraps items stay out: then a line that parse_codes
      // accepts as it stands has no tab, comma, bracket or quote (see parse).
      const auto plain = [](unsigned char b) { return b < 0x80 && std::strchr(" \t\r\v\f,[]()'\"", b) == nullptr; };
      if (e.text.size() == 2 && plain(t[0]) && plain(t[1])) fast[(std::size_t{t[0]} << 7) | t[1]] = e.face + 1;
    }
    count.assign(pack.faces(), 0);
    distinct_small = pack.faces() <= 64 && pack.faces() == pack.size();
    seen_number.assign(n, 0);
    numbers.clear();
    numbers.reserve(n);
  }

  const label_entry* find(std::string_view text) const noexcept {
    const auto it = std::lower_bound(labels.begin(), labels.end(), text,
                                     [](const label_entry& e, std::string_view t) { return std::string_view(e.text) < t; });
    return it != labels.end() && it->text == text ? &*it : nullptr;
  }

  std::string where(std::uint64_t l) const { return fmt::format("{}: line {}", in.name(), l); }
  std::string where(std::uint64_t l, std::size_t position) const {
    return fmt::format("{}: line {}, position {}", in.name(), l, position);
  }

  std::string numbers_range() const { return fmt::format("numbers run from 1 to {}", pack.size()); }

  // ---- inference from the first deck -------------------------------------------------------

  [[noreturn]] void cannot_infer(std::uint64_t l, const std::string& why) const {
    throw error(fmt::format("{}: cannot infer the pack: {}; declare it (--pack, --decks, --jokers or --cards-file)",
                            where(l), why));
  }

  void infer(std::string_view text, std::uint64_t l) {
    std::size_t n = 0, digits = 0, jokers = 0, trumps = 0, knights = 0, low = 0, seven_eight = 0;
    unsigned styles = 0xF;  // styles every card so far is written in (bit s: kStyles[s])
    std::vector<line_item> items;
    read_line_items(text, items);
    for (const auto& it : items) {
      ++n;
      if (it.number) {
        if (n != digits + 1) throw error(mixed_message(l, n, it.text, false));
        ++digits;
        continue;
      }
      if (!it.named) {
        throw error(fmt::format("{}: unknown card {} (no named pack has it; declare a custom pack with --cards-file)",
                                where(l, n), quote_input_text(it.text)));
      }
      if (digits > 0) throw error(mixed_message(l, n, it.text, true));
      const card& c = *it.named;
      unsigned mask = 0;
      for (std::size_t s = 0; s < std::size(kStyles); ++s) {
        if (parse_card(it.text, kStyles[s]) == c) mask |= 1U << s;
      }
      // "AS", "10c": the code's other spellings (card_code_variants) are poker codes too.
      if (mask == 0 && c.kind == card_kind::suited) mask = 1U;
      styles &= mask;
      switch (c.kind) {
        case card_kind::joker: ++jokers; break;
        case card_kind::trump: ++trumps; break;
        default:
          if (c.rank == rank_knight) ++knights;
          if (c.rank >= 2 && c.rank <= 6) ++low;
          if (c.rank == 7 || c.rank == 8) ++seven_eight;
          break;
      }
    }
    if (digits > 0) {
      infer_numbers(digits, l);
      return;
    }
    std::string style = "mixed notations";
    for (std::size_t s = 0; s < std::size(kStyles); ++s) {
      if ((styles & (1U << s)) != 0) {
        style = std::string(style_words(kStyles[s]));
        break;
      }
    }
    pack_kind kind = pack_kind::euchre;
    if (trumps > 0 || knights > 0) {
      kind = pack_kind::tarot;
    } else if (low > 0) {
      kind = pack_kind::standard;
    } else if (seven_eight > 0) {
      kind = pack_kind::piquet;
    }
    const std::size_t per = make_pack(kind).cards.size();
    const std::string shown = fmt::format("{} cards", n);
    if (kind == pack_kind::tarot && jokers > 0) cannot_infer(l, fmt::format("{} with tarot cards and jokers", shown));
    if (n - jokers < per || (n - jokers) % per != 0) {
      cannot_infer(l, fmt::format("{} ({} without jokers), and a {} pack has {}", shown, n - jokers, pack_name(kind), per));
    }
    const std::uint64_t decks = (n - jokers) / per;
    if (jokers % decks != 0) {
      cannot_infer(l, fmt::format("{} joker{} not share out evenly over {} decks", jokers,
                                  jokers == 1 ? " does" : "s do", decks));
    }
    use_pack(pack_layout_of(make_pack(kind, decks, jokers / decks), std::string(pack_name(kind)), decks, jokers / decks));
    note = fmt::format("audit: pack inferred from line {}: {}, {}", l, pack.cards.description, style);
  }

  void infer_numbers(std::size_t n, std::uint64_t l) {
    if (n < 2) cannot_infer(l, "a deck of 1 card");
    struct known {
      std::size_t size;
      pack_kind kind;
      std::uint64_t jokers;
    };
    constexpr known named[] = {{52, pack_kind::standard, 0}, {53, pack_kind::standard, 1},
                               {54, pack_kind::standard, 2}, {32, pack_kind::piquet, 0},
                               {24, pack_kind::euchre, 0},   {78, pack_kind::tarot, 0}};
    for (const auto& k : named) {
      if (k.size != n) continue;
      use_pack(pack_layout_of(make_pack(k.kind, 1, k.jokers), std::string(pack_name(k.kind)), 1, k.jokers));
      note = fmt::format("audit: pack inferred from line {}: {}, numbers 1..{} in its canonical order", l,
                         pack.cards.description, n);
      return;
    }
    std::vector<std::string> names(n);
    for (std::size_t k = 0; k < n; ++k) names[k] = std::to_string(k + 1);
    numbered = true;
    use_pack(pack_layout_of(make_custom(names), "custom", 1, 0));
    pack.cards.description = fmt::format("custom pack of {} numbered cards", n);
    note = fmt::format("audit: pack inferred from line {}: {}, numbers 1..{} (no named pack has {} cards)", l,
                       pack.cards.description, n, n);
  }

  std::string mixed_message(std::uint64_t l, std::size_t position, std::string_view item, bool label) const {
    return fmt::format("{}: {} is a {} but the line began with {} (a line holds numbers or card labels, not both)",
                       where(l, position), quote_input_text(item), label ? "card label" : "number",
                       label ? "numbers" : "card labels");
  }

  // ---- one deck -------------------------------------------------------------------------------

  void add_face(std::uint32_t face, std::size_t position, std::string_view item, std::vector<std::uint32_t>& out) {
    out.push_back(face);
    if (++count[face] > pack.copies[face]) {
      throw bad_deck{fmt::format("{}: card {} appears more often than the pack has it", where(line, position),
                                 quote_input_text(item))};
    }
  }

  void add_number(std::string_view digits, std::size_t position, std::vector<std::uint32_t>& out) {
    std::string_view value = digits.substr(std::min(digits.find_first_not_of('0'), digits.size()));
    std::uint64_t k = 0;
    if (value.size() <= 9) {
      for (const char c : value) k = k * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (k == 0 || value.size() > 9 || k > pack.size()) {
      throw bad_deck{fmt::format("{}: unknown card {} ({})", where(line, position), quote_input_text(digits),
                                 numbers_range())};
    }
    const auto index = static_cast<std::uint32_t>(k - 1);
    out.push_back(pack.face_of[index]);
    if (seen_number[index] != 0) {
      throw bad_deck{fmt::format("{}: card {} appears more often than the pack has it", where(line, position),
                                 quote_input_text(digits))};
    }
    seen_number[index] = 1;
    numbers.push_back(index);
  }

  // The common case: 2-byte labels each followed by one space ("As Td 9c"), found in `fast`.
  // false (and `out` empty) when the line is not of that shape; else a full deck, or bad_deck.
  bool parse_codes(std::string_view body, std::vector<std::uint32_t>& out) {
    const std::size_t cards = (body.size() + 1) / 3;
    if (cards == 0 || cards * 3 != body.size() + 1) return false;
    const auto* p = reinterpret_cast<const unsigned char*>(body.data());
    out.resize(cards);
    std::uint32_t* o = out.data();
    const std::uint32_t* table = fast.data();
    bool ok = true;
    // The set of faces seen, for a pack of at most 64 distinct faces, in two words (two
    // independent chains of ORs); garbage when !ok.
    std::uint64_t seen_even = 0, seen_odd = 0;
    for (std::size_t k = 0; k < cards; ++k, p += 3) {
      const unsigned a = p[0];
      const unsigned b = p[1];
      const std::uint32_t f = (a | b) < 0x80 ? table[(a << 7) | b] : 0;
      ok &= f != 0 && (k + 1 == cards || p[2] == ' ');
      o[k] = f - 1;
      (k & 1 ? seen_odd : seen_even) |= std::uint64_t{1} << ((f - 1) & 63);
    }
    if (!ok) {
      out.clear();
      return false;
    }
    if (distinct_small) {
      // A pack of at most 64 distinct faces: a repeated card leaves a bit unset (a whole deck:
      // every face's bit set; no popcount call in a baseline build).
      const std::uint64_t seen = seen_even | seen_odd;
      const std::size_t faces = pack.faces();
      const bool distinct = cards == faces ? seen == (faces == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << faces) - 1)
                                           : static_cast<std::size_t>(std::popcount(seen)) == cards;
      if (distinct) {
        const std::size_t expected = opt.dealt ? *opt.dealt : pack.size();
        if (cards == expected) {
          skip_reset = true;  // count[] was not touched
          return true;
        }
        out.clear();
        return false;
      }
    }
    for (std::size_t k = 0; k < cards; ++k) {
      const std::uint32_t f = out[k];
      if (++count[f] > pack.copies[f]) {
        out.resize(k + 1);  // the counts to reset
        throw bad_deck{fmt::format("{}: card {} appears more often than the pack has it", where(line, k + 1),
                                   quote_input_text(body.substr(3 * k, 2)))};
      }
    }
    const std::size_t expected = opt.dealt ? *opt.dealt : pack.size();
    if (cards == expected) return true;
    // A wrong count: undo, and let the general parse say which cards are missing.
    for (const auto f : out) count[f] = 0;
    out.clear();
    return false;
  }

  void parse(std::string_view text, std::vector<std::uint32_t>& out) {
    enum class mode : std::uint8_t { undecided, of_labels, of_numbers };
    // The common line, "As Td ... 9c" as it stands: no separator search, no splitter (a line of
    // that shape has no tab, comma, bracket or quote, so the splitter's body is the line itself).
    if (parse_codes(text, out)) return;
    out.clear();
    item_splitter items(text);
    if (items.spaces() && parse_codes(items.body(), out)) return;
    mode m = mode::undecided;
    card_style style = card_style::code;  // of the line's first label, for naming missing cards
    std::string_view item;
    while (items.next(item)) {
      const std::size_t position = out.size() + 1;
      if (item.size() == 2) {
        const auto a = static_cast<unsigned char>(item[0]);
        const auto b = static_cast<unsigned char>(item[1]);
        if ((a | b) < 0x80) {
          if (const std::uint32_t f = fast[(std::size_t{a} << 7) | b]; f != 0) {
            if (m == mode::of_numbers) throw bad_deck{mixed_message(line, position, item, true)};
            m = mode::of_labels;
            add_face(f - 1, position, item, out);
            continue;
          }
        }
      }
      const label_entry* e = find(item);
      if (e == nullptr) {
        const std::string_view bare = unquote(item);
        if (bare.size() != item.size()) {
          item = bare;
          e = find(item);
        }
      }
      if (e == nullptr && numbers_allowed && all_digits(item)) {
        if (m == mode::of_labels) throw bad_deck{mixed_message(line, position, item, false)};
        m = mode::of_numbers;
        add_number(item, position, out);
        continue;
      }
      if (e == nullptr && items.spaces() && max_words > 1) {
        const std::size_t mark = items.mark();
        std::string_view longer = item;
        for (std::size_t words = 2; words <= max_words && e == nullptr && items.extend(longer); ++words) e = find(longer);
        if (e != nullptr) {
          item = longer;
        } else {
          items.rewind(mark);
        }
      }
      if (e == nullptr) {
        throw bad_deck{fmt::format("{}: unknown card {}{}", where(line, position), quote_input_text(item),
                                   m == mode::of_numbers ? fmt::format(" ({})", numbers_range()) : std::string())};
      }
      if (m == mode::of_numbers) throw bad_deck{mixed_message(line, position, item, true)};
      if (m == mode::undecided) style = e->style;
      m = mode::of_labels;
      add_face(e->face, position, item, out);
    }
    const std::size_t expected = opt.dealt ? *opt.dealt : pack.size();
    if (out.size() == expected) return;
    if (opt.dealt) throw bad_deck{fmt::format("{}: {} cards, the deal has {}", where(line), out.size(), expected)};
    // Fewer cards than the pack (more would have repeated one): name the first missing ones.
    std::vector<std::string> missing;
    std::size_t total = pack.size() - out.size();
    if (m == mode::of_numbers) {
      for (std::size_t i = 0; i < pack.size() && missing.size() < kMissingShown; ++i) {
        if (seen_number[i] == 0) missing.push_back(std::to_string(i + 1));
      }
    } else {
      for (std::uint32_t f = 0; f < pack.faces() && missing.size() < kMissingShown; ++f) {
        if (count[f] < pack.copies[f]) {
          missing.push_back(quote_input_text(format_card(pack.cards.cards[first_card[f]], style)));
        }
      }
    }
    throw bad_deck{fmt::format("{}: {} card{}, the pack has {}{}", where(line), out.size(), out.size() == 1 ? "" : "s",
                               pack.size(), missing.empty() ? std::string() : list_missing(missing, total))};
  }

  // Zeroes the counts the last line left (also after an invalid one).
  void reset(const std::vector<std::uint32_t>& out) noexcept {
    if (std::exchange(skip_reset, false)) return;
    for (const auto f : out) count[f] = 0;
    for (const auto i : numbers) seen_number[i] = 0;
    numbers.clear();
  }
};

deck_reader::deck_reader(text_reader& in, reader_options options)
    : impl_(std::make_unique<impl>(in, std::move(options))) {
  const reader_options& o = impl_->opt;
  const bool declared = o.pack || !o.custom_labels.empty() || o.decks != 1 || o.jokers != 0;
  if (o.dealt && *o.dealt == 0) throw error("--dealt must be at least 1");
  if (declared) {
    impl_->use_pack(make_pack_layout(o));
    if (o.dealt && *o.dealt > impl_->pack.size()) {
      throw error(fmt::format("--dealt {} is more than the pack's {} cards", *o.dealt, impl_->pack.size()));
    }
  } else if (o.dealt) {
    throw error("--dealt needs the pack declared (--pack, --decks, --jokers or --cards-file): dealt cards do not show it");
  }
}

deck_reader deck_reader::continue_on(text_reader& in) const {
  const impl& r = *impl_;
  if (!r.have_pack) throw error("audit: continue_on before the pack is known");
  deck_reader next;
  next.impl_ = std::make_unique<impl>(in, r.opt);
  next.impl_->numbered = r.numbered;
  next.impl_->use_pack(r.pack);
  return next;
}

deck_reader::~deck_reader() = default;
deck_reader::deck_reader(deck_reader&&) noexcept = default;

bool deck_reader::next(std::vector<std::uint32_t>& faces) {
  impl& r = *impl_;
  std::string_view text;
  while (r.in.next(text)) {
    if (!r.in.bad_line().empty()) {  // not UTF-8, or over 1 MiB: only with skip_bad (lenient)
      r.line = r.in.line_number();
      ++r.skipped;
      if (r.reasons.size() < max_skip_reasons) r.reasons.push_back(r.in.bad_line());
      continue;
    }
    std::string_view t = trim(text);
    if (t.empty() || t.front() == '#') continue;
    r.line = r.in.line_number();
    if (r.opt.group_field != 0) {
      std::string bad = split_group_field(t, r.opt.group_field, r.in.name(), r.line, r.group, r.rest);
      if (!bad.empty()) {
        if (!r.opt.skip_bad) throw error(bad);
        ++r.skipped;
        if (r.reasons.size() < max_skip_reasons) r.reasons.push_back(std::move(bad));
        continue;
      }
      t = r.rest;
    }
    if (!r.have_pack) r.infer(t, r.line);
    // Not cleared: parse_codes overwrites a deck of the same size without zeroing it first;
    // every other path starts from an empty vector (parse).
    try {
      r.parse(t, faces);
      r.reset(faces);
      return true;
    } catch (bad_deck& bad) {
      r.reset(faces);
      if (!r.opt.skip_bad) throw error(bad.message);
      ++r.skipped;
      if (r.reasons.size() < max_skip_reasons) r.reasons.push_back(std::move(bad.message));
    }
  }
  faces.clear();
  return false;
}

const pack_layout& deck_reader::pack() const { return impl_->pack; }
const std::string& deck_reader::inference_note() const noexcept { return impl_->note; }
std::uint64_t deck_reader::skipped() const noexcept { return impl_->skipped; }
const std::vector<std::string>& deck_reader::skip_reasons() const noexcept { return impl_->reasons; }
std::uint64_t deck_reader::line_number() const noexcept { return impl_->line; }
std::string_view deck_reader::group() const noexcept { return impl_->group; }

}  // namespace shufl::cards
