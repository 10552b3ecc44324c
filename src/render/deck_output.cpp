// `shufl deck`'s outputs: --explain's text and JSON, cards on a line, grids, the JSON documents'
// parts, and the labels of --count (deck_output.hpp).
#include "deck_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "count_noun.hpp"
#include "text_width.hpp"
#include "shufl/exact_count.hpp"
#include "shufl/version.hpp"
#include "shufl/json_text.hpp"
#include "shufl/permutation.hpp"

namespace shufl::render {

namespace {

// Powers of two far outside the double range, written as "1.2e-418".
std::string pow2_decimal(double bits) { return scientific_from_log10(bits * std::log10(2.0)); }

// "52!", "312!/(6!)^52", "104!/(2!^52 * 1!^...)": the multinomial n! / prod m_i!.
std::string orders_formula(const deck& d, std::uint64_t copies) {
  std::map<std::uint64_t, std::uint64_t, std::greater<>> groups;  // multiplicity -> how many cards
  for (const auto m : multiplicities(d.cards, copies)) {
    if (m > 1) ++groups[m];
  }
  std::string out = fmt::format("{}!", d.cards.size() * copies);
  if (groups.empty()) return out;
  std::string denominator;
  for (const auto& [m, count] : groups) {
    if (!denominator.empty()) denominator += " * ";
    denominator += count == 1 ? fmt::format("{}!", m) : fmt::format("({}!)^{}", m, count);
  }
  return groups.size() == 1 ? out + "/" + denominator : out + "/(" + denominator + ")";
}

// Why a --seed is guessable, with the number of seeds an attacker would have to try; nullopt for
// a seed of 16 characters or more that is neither a number nor a date or time. Time-like: a
// number that reads as Unix seconds or milliseconds between 1990 and 2100, or text made only of
// digits and date/time separators (2026-12-01T10:00:00). A number of L digits: 10^L seeds. Other
// short text: (size of the character classes used)^L (lower 26, upper 26, digits 10, other 33).
}  // namespace

std::optional<std::string> weak_seed_reason(const std::string& seed) {
  const bool numeric = !seed.empty() && seed.find_first_not_of("0123456789") == std::string::npos;
  const bool date_like = !numeric && seed.find_first_not_of("0123456789-:T.Z ") == std::string::npos &&
                         std::count_if(seed.begin(), seed.end(), [](char c) { return c >= '0' && c <= '9'; }) >= 6;
  auto count_text = [](double log10_count) {
    if (log10_count < 15) {
      const auto v = static_cast<std::uint64_t>(std::llround(std::pow(10.0, log10_count)));
      std::string digits = std::to_string(v), out;
      for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
      }
      return out;
    }
    return fmt::format("2^{:.0f}", log10_count / std::log10(2.0));
  };
  if (numeric && seed.size() <= 19) {
    const auto v = std::stoull(seed);
    if (v >= 631152000ull && v < 4102444800ull)
      return fmt::format("--seed '{}' looks like a time in Unix seconds: an attacker who knows the day tries 86,400 "
                         "seeds",
                         seed);
    if (v >= 631152000000ull && v < 4102444800000ull)
      return fmt::format("--seed '{}' looks like a time in Unix milliseconds: an attacker who knows the day tries "
                         "86,400,000 seeds",
                         seed);
  }
  if (date_like)
    return fmt::format("--seed '{}' looks like a date or time: an attacker who knows the day tries 86,400 seeds "
                       "(one per second)",
                       seed);
  if (numeric)
    return fmt::format("--seed '{}' is a number of {}: an attacker tries at most {} seeds", seed,
                       count_noun(seed.size(), "digit", "digits"),
                       count_text(static_cast<double>(seed.size())));
  if (seed.size() < 16) {
    bool lower = false, upper = false, digit = false, other = false;
    for (const unsigned char c : seed) {
      if (c >= 'a' && c <= 'z') lower = true;
      else if (c >= 'A' && c <= 'Z') upper = true;
      else if (c >= '0' && c <= '9') digit = true;
      else other = true;
    }
    const double alphabet = (lower ? 26 : 0) + (upper ? 26 : 0) + (digit ? 10 : 0) + (other ? 33 : 0);
    return fmt::format("--seed '{}' is short ({}): an attacker tries at most {} seeds", seed,
                       count_noun(seed.size(), "character", "characters"),
                       count_text(static_cast<double>(seed.size()) * std::log10(alphabet)));
  }
  return std::nullopt;
}

namespace {

struct explanation {
  double possible_bits = 0;
  double reachable_bits = 0;  // infinity: unbounded
  std::string formula;
  std::optional<std::string> exact;  // the number of orders in decimal digits, up to 1000 digits
  std::string source;
  std::string verdict;
  bool vanishing = false;
  std::optional<std::string> weak_seed;  // why the --seed is guessable (weak_seed_reason)
};

// The explanation of a shoe of `copies` copies of d's cards.
explanation explain(const deck& d, const deck_randomness& r, std::uint64_t copies) {
  explanation e;
  e.possible_bits = log2_distinct_orders(d.cards, copies);
  e.reachable_bits = reachable_bits(r);
  e.formula = orders_formula(d, copies);
  if (e.possible_bits * std::log10(2.0) < 999) {
    const auto m = multiplicities(d.cards, copies);
    e.exact = multinomial_decimal(d.cards.size() * copies, m);
  }
  const std::uint64_t draws = d.cards.empty() ? 0 : d.cards.size() * copies - 1;
  if (!r.seed && !r.engine) {
    e.source = fmt::format(
        "the operating system (getrandom) for {}; no seed, no engine state",
        draws == 1 ? std::string("its 1 draw") : fmt::format("each of the {} draws", draws));
    e.verdict = "every order can occur, each distinct order equally likely";
    return e;
  }
  const auto kind = r.engine.value_or(engine_kind::chacha20);
  e.source = fmt::format("{} keyed by {}: at most 2^{:.2f} different shuffles", engine_name(kind),
                         r.seed ? "the seed (BLAKE2b-256 of --seed)" : "32 bytes from the operating system",
                         e.reachable_bits);
  const double shortfall = e.possible_bits - e.reachable_bits;
  if (r.seed) e.weak_seed = weak_seed_reason(*r.seed);
  if (shortfall <= 0 && e.weak_seed) {
    e.verdict = fmt::format(
        "2^{:.2f} >= 2^{:.2f}: the engine could reach every order, but this seed is guessable ({}), so whoever "
        "tries those seeds can predict the deal",
        e.reachable_bits, e.possible_bits, *e.weak_seed);
  } else if (shortfall <= 0) {
    e.verdict = fmt::format(
        "2^{:.2f} >= 2^{:.2f}: the seed space is large enough for every order to be possible",
        e.reachable_bits, e.possible_bits);
  } else {
    e.vanishing = shortfall >= 20;
    e.verdict = fmt::format(
        "at most 2^{:.2f} of the 2^{:.2f} orders can ever be dealt, a fraction 2^-{:.2f} (about {}){}",
        e.reachable_bits, e.possible_bits, shortfall, pow2_decimal(-shortfall),
        e.vanishing ? ": only a vanishing fraction; almost every order can never occur" : "");
  }
  return e;
}

}  // namespace

std::string deck_explain_text(const deck& d, const deck_randomness& r, std::uint64_t copies) {
  const explanation e = explain(d, r, copies);
  std::string out;
  out += fmt::format("deck: {} ({})\n", d.description, count_noun(d.cards.size() * copies, "card", "cards"));
  // 2^x and the scientific form are rounded: "≈" (the JSON's possible_orders has the digits).
  out += fmt::format("possible orders: {} ≈ 2^{:.2f} (about {})\n", e.formula, e.possible_bits,
                     pow2_decimal(e.possible_bits));
  out += fmt::format("randomness: {}\n", e.source);
  out += fmt::format("verdict: {}\n", e.verdict);
  return out;
}

nlohmann::ordered_json deck_explain_json(const deck& d, const deck_randomness& r, std::uint64_t copies) {
  const explanation e = explain(d, r, copies);
  nlohmann::ordered_json j;
  j["shufl_version"] = SHUFL_VERSION;
  j["command"] = "deck";
  j["description"] = json_text(d.description);
  j["cards"] = d.cards.size() * copies;
  j["possible_orders_formula"] = e.formula;
  // Rounded so the JSON does not depend on the last bits of the platform's lgamma.
  j["possible_orders_log2"] = std::round(e.possible_bits * 1e6) / 1e6;
  j["possible_orders"] = e.exact ? nlohmann::ordered_json(*e.exact) : nlohmann::ordered_json(nullptr);
  j["reachable_log2"] = std::isinf(e.reachable_bits) ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(e.reachable_bits);
  j["randomness"] = e.source;
  j["vanishing_fraction"] = e.vanishing;
  j["verdict"] = e.verdict;
  j["seed_warning"] = e.weak_seed ? nlohmann::ordered_json(*e.weak_seed) : nlohmann::ordered_json(nullptr);
  return j;
}

// Cards on one line: separated by one space, or by ", " when a label of the deck has a space in
// it ("Five of Diamonds, Three of Spades"), so a reader can tell where each card's name ends
// (U06). The default code style never has spaces: its output is unchanged.
namespace {

bool multi_word(const deck& d, card_style style) {
  return std::any_of(d.cards.begin(), d.cards.end(),
                     [&](const auto& c) { return format_card(c, style).find(' ') != std::string::npos; });
}

}  // namespace

std::string deck_cards_line(const deck& d, std::span<const std::uint32_t> ids, card_style style) {
  const char* separator = multi_word(d, style) ? ", " : " ";
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i) out += separator;
    out += format_card(d.cards[ids[i]], style);
  }
  return out;
}

// A grid's rows with every column padded to its widest cell by display width (utf8proc), so the
// cells line up whatever the symbols (wide CJK, emoji, several words); columns are separated by
// one space, or by " | " when a label has a space in it. The last column is not padded.
std::string deck_grid_rows(const deck& d, std::span<const std::uint32_t> order, std::uint64_t rows, std::uint64_t columns,
                      card_style style) {
  std::vector<std::size_t> width(columns, 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    width[k % columns] = std::max(width[k % columns], display_width(format_card(d.cards[order[k]], style)));
  }
  const char* separator = multi_word(d, style) ? " | " : " ";
  std::string out;
  for (std::uint64_t row = 0; row < rows; ++row) {
    for (std::uint64_t col = 0; col < columns; ++col) {
      const std::string label = format_card(d.cards[order[row * columns + col]], style);
      if (col > 0) out += separator;
      out += col + 1 < columns ? pad_to_width(label, width[col]) : label;
    }
    out += '\n';
  }
  return out;
}

nlohmann::ordered_json deck_cards_json(const deck& d, std::span<const std::uint32_t> ids, card_style style) {
  auto a = nlohmann::ordered_json::array();
  for (const auto id : ids) a.push_back(json_text(format_card(d.cards[id], style)));
  return a;
}

// The fields every JSON document of `shufl deck` opens with (deals, grids, --count), in order.
void put_deck_header(nlohmann::ordered_json& j, const deck& d, const deck_randomness& r, const std::string& style) {
  j["shufl_version"] = SHUFL_VERSION;
  j["command"] = "deck";
  j["description"] = json_text(d.description);
  j["cards"] = d.cards.size();
  j["seed"] = r.seed ? json_text(*r.seed) : nlohmann::ordered_json(nullptr);
  j["engine"] = (r.seed || r.engine) ? std::string(engine_name(r.engine.value_or(engine_kind::chacha20)))
                                     : std::string("os");
  j["style"] = style;
}

std::vector<std::string> deck_count_labels(const deck& d, card_style style, bool json) {
  std::vector<std::string> labels;
  labels.reserve(d.cards.size());
  for (const auto& c : d.cards) labels.push_back(json ? json_text(format_card(c, style)).dump() : format_card(c, style));
  return labels;
}

const char* deck_count_separator(const deck& d, card_style style, bool json) {
  return json ? ", " : multi_word(d, style) ? ", " : " ";
}

nlohmann::ordered_json deck_json(const deck_shown& s) {
  nlohmann::ordered_json j;
  if (!s.commitment.empty()) j["commitment"] = s.commitment;
  if (s.verifying) j["commitment_verified"] = true;
  if (!s.commitment.empty()) j["commitment_parameters"] = s.parameters;
  put_deck_header(j, s.d, s.r, s.style_name);
  if (s.dealt) {
    const deal_result& dealt = *s.dealt;
    if (s.burn) j["burned"] = deck_cards_json(s.d, dealt.burned, s.style);
    auto hands = nlohmann::ordered_json::array();
    for (const auto& h : dealt.hands) hands.push_back(deck_cards_json(s.d, h, s.style));
    j["hands"] = std::move(hands);
    j["stock"] = deck_cards_json(s.d, dealt.stock, s.style);
  } else if (s.grid) {
    auto rows = nlohmann::ordered_json::array();
    for (std::uint64_t row = 0; row < s.grid->first; ++row) {
      rows.push_back(deck_cards_json(
          s.d, std::span<const std::uint32_t>(s.order).subspan(row * s.grid->second, s.grid->second), s.style));
    }
    j["grid"] = std::move(rows);
  } else {
    j["deck"] = deck_cards_json(s.d, s.order, s.style);
  }
  return j;
}

std::string deck_text(const deck_shown& s) {
  std::string out;
  if (!s.commitment.empty()) {
    out += fmt::format("commitment: {}{}\n", s.commitment,
                       !s.verifying ? "" : s.version1 ? " (verified: matches the seed)"
                                                      : " (verified: matches the seed, engine, deck and deal)");
    if (!s.verifying) out += fmt::format("committed to: {}\n", s.parameters);
  }
  if (s.dealt) {
    const deal_result& dealt = *s.dealt;
    if (s.burn) out += fmt::format("burned: {}\n", deck_cards_line(s.d, dealt.burned, s.style));
    for (std::size_t h = 0; h < dealt.hands.size(); ++h) {
      out += fmt::format("hand {}: {}\n", h + 1, deck_cards_line(s.d, dealt.hands[h], s.style));
    }
    out += dealt.stock.empty() ? std::string("stock:\n")
                               : fmt::format("stock: {}\n", deck_cards_line(s.d, dealt.stock, s.style));
  } else if (s.grid) {
    out += deck_grid_rows(s.d, s.order, s.grid->first, s.grid->second, s.style);
  } else {
    for (const auto id : s.order) {
      out += format_card(s.d.cards[id], s.style);
      out += '\n';
    }
  }
  return out;
}

std::string deck_count_json_head(const deck& d, const deck_randomness& r, const std::string& style, std::uint64_t count) {
  nlohmann::ordered_json j;
  put_deck_header(j, d, r, style);
  j["count"] = count;
  std::string head = j.dump(2);
  head.pop_back();  // the closing brace: the decks follow
  while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
  return head + ",\n  \"decks\": [\n";
}

}  // namespace shufl::render
