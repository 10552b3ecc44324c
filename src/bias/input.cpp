// `shufl bias --input`: permutations produced by any other program, as text (the input-text
// convention of text_input.hpp: UTF-8, BOM, CRLF, last line without newline).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "shufl/cards.hpp"
#include "shufl/bias.hpp"
#include "shufl/deck.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl {

namespace {

bool separator(char c) noexcept { return c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && separator(s.front())) s.remove_prefix(1);
  while (!s.empty() && separator(s.back())) s.remove_suffix(1);
  return s;
}

// The items of one line. A line wrapped in [ ] or ( ) (Python's print of a list or tuple) is
// read without them; an item wrapped in matching quotes ('a' or "a") without them. One token of
// several characters and no separators is read one character (code point) per item ("bac").
std::vector<std::string_view> split_items(std::string_view line) {
  line = trim(line);
  if (line.size() >= 2 && ((line.front() == '[' && line.back() == ']') || (line.front() == '(' && line.back() == ')'))) {
    line = trim(line.substr(1, line.size() - 2));
  }
  std::vector<std::string_view> items;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && separator(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !separator(line[i])) ++i;
    if (i > start) {
      std::string_view item = line.substr(start, i - start);
      if (item.size() >= 2 && (item.front() == '\'' || item.front() == '"') && item.back() == item.front()) {
        item = item.substr(1, item.size() - 2);
      }
      if (!item.empty()) items.push_back(item);
    }
  }
  if (items.size() == 1 && items[0].size() > 1 && line.find_first_of(" \t,\v\f") == std::string_view::npos) {
    const std::string_view word = items[0];
    items.clear();
    for (std::size_t k = 0; k < word.size();) {
      const std::size_t len = std::min(utf8_sequence_length(word.substr(k)), word.size() - k);
      items.push_back(word.substr(k, len));
      k += len;
    }
  }
  return items;
}

bool all_digits(std::string_view s) noexcept {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A number's key: its digits without leading zeros ("007" and "7" are the same item).
std::string_view number_key(std::string_view s) {
  const std::size_t first = s.find_first_not_of('0');
  return first == std::string_view::npos ? s.substr(s.size() - 1) : s.substr(first);
}

// What a message about a line that is no permutation suggests.
constexpr const char* kHowToPrint =
    "print one permutation per line, e.g. console.log(a.join(' ')) or console.log(JSON.stringify(a)) in "
    "JavaScript, print(*a) in Python";

// The longest array spread over several lines (Node's console.log of a long array).
constexpr std::size_t kMaxArrayBytes = std::size_t{1} << 20;

}  // namespace

std::string_view item_order_name(item_order o) noexcept {
  switch (o) {
    case item_order::cards: return "cards";
    case item_order::listed: return "items";
    case item_order::bytes: return "bytes";
    case item_order::numbers:
    default: return "numbers";
  }
}

permutation_list parse_permutations(text_reader& reader, const std::vector<std::string>& listed) {
  permutation_list out;
  std::map<std::string, std::uint8_t, std::less<>> index;  // numbers and symbols: key → item
  std::vector<std::int16_t> card_index;                   // cards: canonical_card_key → item, -1 none
  bool numeric = false;
  bool cards = false;
  std::vector<bool> seen;
  std::vector<cards::line_item> card_items;
  std::vector<std::uint8_t> row;
  std::string_view line;
  std::string array;  // the lines of an array that spans several, joined by spaces
  while (reader.next(line)) {
    const std::uint64_t first_line = reader.line_number();
    std::uint64_t last_line = first_line;
    const std::string_view opening = trim(line);
    if (!opening.empty() && (opening.front() == '[' || opening.front() == '(') &&
        opening.back() != (opening.front() == '[' ? ']' : ')')) {
      // An array printed over several lines ("[", rows of items, "]"): read up to its closing bracket.
      const char open = opening.front();  // `opening` views the reader's line: gone after next()
      const char close = open == '[' ? ']' : ')';
      array.assign(opening);
      bool closed = false;
      while (!closed && reader.next(line)) {
        last_line = reader.line_number();
        const std::string_view part = trim(line);
        if (array.size() + 1 + part.size() > kMaxArrayBytes) {
          throw error(fmt::format("{}: lines {}-{}: an array longer than {} bytes", reader.name(), first_line,
                                  last_line, kMaxArrayBytes));
        }
        array += ' ';
        array += part;
        closed = !part.empty() && part.back() == close;
      }
      if (!closed) {
        throw error(fmt::format("{}: line {}: the array opened with '{}' is not closed by '{}' before the end of "
                                "the input; {}",
                                reader.name(), first_line, open, close, kHowToPrint));
      }
      line = array;
    }
    const auto where = [&] {
      return last_line == first_line ? fmt::format("{}: line {}", reader.name(), first_line)
                                     : fmt::format("{}: lines {}-{}", reader.name(), first_line, last_line);
    };
    auto items = split_items(line);
    if (items.empty() || items[0][0] == '#') continue;
    if (line.find("... ") != std::string_view::npos && line.find(" more item") != std::string_view::npos) {
      throw error(fmt::format("{}: the array was cut short ('... more items', as console.log prints an array "
                              "of over 100 items); {}",
                              where(), kHowToPrint));
    }
    if (out.n == 0) {
      numeric = std::all_of(items.begin(), items.end(), all_digits);
      if (!numeric) {
        // Cards in any notation of `shufl deck`, read by the one card reader, cards.hpp (names of several words too).
        cards::read_line_items(line, card_items);
        cards = card_items.size() >= 2 && std::all_of(card_items.begin(), card_items.end(),
                                                      [](const cards::line_item& it) { return it.named.has_value(); });
        if (cards) {
          items.clear();
          for (const auto& it : card_items) items.push_back(it.text);
        }
      }
      if (items.size() < 2 || items.size() > bias_max_n) {
        throw error(fmt::format("{}: {} items; permutations of 2 to {} items are needed; {}", where(), items.size(),
                                bias_max_n, kHowToPrint));
      }
      // The first line's items, each with its sort key, in the identity order.
      struct first_item {
        std::string_view text;
        std::string_view key;     // numbers: digits without leading zeros; symbols: the text
        std::uint32_t card = 0;   // cards: canonical_card_key
      };
      std::vector<first_item> order;
      for (std::size_t k = 0; k < items.size(); ++k) {
        first_item f{items[k], numeric ? number_key(items[k]) : items[k], 0};
        if (cards) f.card = canonical_card_key(*card_items[k].named);
        order.push_back(f);
      }
      const auto same = [&](const first_item& a, const first_item& b) { return cards ? a.card == b.card : a.key == b.key; };
      std::sort(order.begin(), order.end(), [&](const first_item& a, const first_item& b) {
        if (cards) return a.card < b.card;
        if (numeric && a.key.size() != b.key.size()) return a.key.size() < b.key.size();  // numbers by value
        return a.key < b.key;
      });
      const auto twice = std::adjacent_find(order.begin(), order.end(), same);
      if (twice != order.end()) {
        throw error(fmt::format("{}: {}{} appears twice", where(), cards ? "card " : "",
                                cards::quote_input_text(twice->text)));
      }
      out.order = cards ? item_order::cards : numeric ? item_order::numbers : item_order::bytes;
      if (!listed.empty()) {
        // --items: the same items, in the caller's order.
        if (listed.size() != order.size()) {
          throw error(fmt::format("--items lists {} items, the first line of {} has {}", listed.size(),
                                  reader.name(), order.size()));
        }
        std::vector<first_item> given;
        std::vector<bool> used(order.size(), false);
        for (const auto& name : listed) {
          std::size_t found = order.size();
          for (std::size_t k = 0; k < order.size() && found == order.size(); ++k) {
            if (cards) {
              const auto c = parse_card_any(name);
              if (c && canonical_card_key(*c) == order[k].card) found = k;
            } else if (numeric) {
              if (all_digits(name) && number_key(name) == order[k].key) found = k;
            } else if (name == order[k].key) {
              found = k;
            }
          }
          if (found == order.size()) {
            throw error(fmt::format("--items: {} is not an item of the first line of {}", cards::quote_input_text(name),
                                    reader.name()));
          }
          if (used[found]) throw error(fmt::format("--items: {} is listed twice", cards::quote_input_text(name)));
          used[found] = true;
          given.push_back(order[found]);
        }
        order = std::move(given);
        out.order = item_order::listed;
      }
      out.n = items.size();
      if (cards) card_index.assign(4097, -1);
      for (std::size_t k = 0; k < order.size(); ++k) {
        if (cards) {
          card_index[order[k].card] = static_cast<std::int16_t>(k);
        } else {
          index.emplace(std::string(order[k].key), static_cast<std::uint8_t>(k));
        }
        out.symbols.emplace_back(numeric ? order[k].key : order[k].text);  // numbers as their value ("01" → "1")
      }
      seen.assign(out.n, false);
      row.reserve(out.n);
    }
    std::fill(seen.begin(), seen.end(), false);
    row.clear();
    if (cards) {
      cards::read_line_items(line, card_items);
      if (card_items.size() != out.n) {
        throw error(fmt::format("{}: {} items, expected {} like the first line; {}", where(), card_items.size(), out.n,
                                kHowToPrint));
      }
      for (const auto& it : card_items) {
        const std::int16_t k = it.named ? card_index[canonical_card_key(*it.named)] : -1;
        if (k < 0) {
          throw error(fmt::format("{}: {} is not a card of the first line", where(), cards::quote_input_text(it.text)));
        }
        if (seen[static_cast<std::size_t>(k)]) {
          throw error(fmt::format("{}: card {} appears twice", where(), cards::quote_input_text(it.text)));
        }
        seen[static_cast<std::size_t>(k)] = true;
        row.push_back(static_cast<std::uint8_t>(k));
      }
    } else {
      if (items.size() != out.n) {
        throw error(fmt::format("{}: {} items, expected {} like the first line; {}", where(), items.size(), out.n,
                                kHowToPrint));
      }
      for (const auto item : items) {
        const auto it = index.find(numeric && all_digits(item) ? number_key(item) : item);
        if (it == index.end() || (numeric && !all_digits(item))) {
          throw error(fmt::format("{}: {} is not an item of the first line", where(), cards::quote_input_text(item)));
        }
        if (seen[it->second]) throw error(fmt::format("{}: {} appears twice", where(), cards::quote_input_text(item)));
        seen[it->second] = true;
        row.push_back(it->second);
      }
    }
    out.perms.insert(out.perms.end(), row.begin(), row.end());
  }
  if (out.n == 0) throw error(fmt::format("no permutations in {}", reader.name()));
  return out;
}

permutation_list parse_permutations(std::string_view text, const std::vector<std::string>& items) {
  text_reader reader(text, "input");
  return parse_permutations(reader, items);
}

permutation_list read_permutation_input(const std::string& input, const std::string& items) {
  std::vector<std::string> order;
  if (!items.empty()) {
    // A list has commas; anything else names a file of one item per line.
    if (items.find(',') != std::string::npos) {
      order = split_label_list(items, "--items", "item");
    } else {
      if (items == "-" && input == "-") throw error("--items and --input cannot both read stdin");
      text_reader list_reader = text_reader::open(items);
      order = read_card_labels(list_reader);
    }
  }
  text_reader reader = text_reader::open(input);
  return parse_permutations(reader, order);
}

}  // namespace shufl
