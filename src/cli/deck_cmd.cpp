// `shufl deck`: options → a deck from the library → shuffle → deal → text or JSON.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include "render/count_noun.hpp"
#include "render/text_escape.hpp"
#include "common.hpp"
#include "render/text_width.hpp"
#include "shufl/deck.hpp"
#include "shufl/json_text.hpp"
#include "shufl/exact_count.hpp"
#include "shufl/permutation.hpp"
#include "shufl/error.hpp"
#include "shufl/version.hpp"

namespace shufl::cli {

namespace {

struct deck_cli_options {
  std::string pack;
  std::string decks = "1";
  std::string jokers = "0";
  std::string cards;
  std::string cards_file;
  std::string pairs;
  std::string grid;
  std::string symbols;
  std::string deal;
  std::string burn;
  std::string style = "code";
  std::string format = "text";
  std::string seed;
  std::string rng;
  std::string verify_commit;
  std::string count;
  bool explain = false;
  bool commit = false;
  CLI::Option* seed_option = nullptr;
  CLI::Option* rng_option = nullptr;
  CLI::Option* verify_option = nullptr;
  CLI::Option* count_option = nullptr;
};

constexpr const char* kDeckFooter = R"(
Cards are written in poker notation by default: rank A K Q J T 9 ... 2 (C = tarot Knight), then
suit s h d c (As, Td, 9c); jokers RJ (red) and BJ (black); tarot trumps 0t (the Fool) to 21t.
Without --deal: one card per line, top card first (a --grid prints its rows). With --deal: one
line per hand (cards dealt round the table, one to each hand in turn), then the stock. With
--count K: K decks, one per line (top card first), shuffled in turn from one stream: the first is
the deck printed without --count ('shufl deck --count 100000 --seed s | shufl audit -').

Randomness: --seed S shuffles with ChaCha20 keyed by BLAKE2b(S) (the same deck on every platform);
without --seed every draw comes from the operating system, so every order can occur.
--commit prints a commitment to the seed before the deal (a random seed, revealed after the deal,
when --seed is not given); players check it with --verify-commit HEX --seed S and the same options.

Examples:
  shufl deck --deal 4x5 --seed 7                four hands of five, then the stock
  shufl deck --decks 6 --explain                how many orders a 6-deck shoe has
  shufl deck --grid 4x4 --seed kids             a 4x4 memory-match layout
  shufl deck --commit --deal 2x2 --burn 1       provably fair: commitment first, seed last
  shufl deck --count 1000 --seed s              1000 successive decks, one per line
)";

bool multi_word(const deck& d, card_style style);

// --count K: K decks from one engine stream, each Fisher–Yates over 0..n-1 as shuffle_indices
// does (the first deck is the one printed without --count), written one per line in batches.
template <class Engine>
void write_decks(Engine& engine, const deck& d, std::uint64_t count, card_style style, bool json) {
  const std::size_t n = d.cards.size();
  std::vector<std::string> labels;
  labels.reserve(n);
  for (const auto& c : d.cards) labels.push_back(json ? json_text(format_card(c, style)).dump() : format_card(c, style));
  const char* separator = json ? ", " : multi_word(d, style) ? ", " : " ";
  std::vector<std::uint32_t> order(n);
  std::string out;
  for (std::uint64_t k = 0; k < count; ++k) {
    for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
    fisher_yates(std::span<std::uint32_t>(order), engine);
    if (json) out += k == 0 ? "    [" : ",\n    [";
    for (std::size_t i = 0; i < n; ++i) {
      if (i) out += separator;
      out += labels[order[i]];
    }
    out += json ? "]" : "\n";
    if (out.size() >= (std::size_t{1} << 20)) {
      write_stdout(out);
      out.clear();
    }
  }
  write_stdout(out);
}

std::pair<std::uint64_t, std::uint64_t> parse_dims(std::string_view option, std::string_view text,
                                                   std::string_view example) {
  const auto x = text.find('x');
  const auto bad = [&] {
    return error(fmt::format("invalid value '{}' for {}: expected {}", text, option, example));
  };
  if (x == std::string_view::npos) throw bad();
  try {
    return {parse_uint(option, text.substr(0, x)), parse_uint(option, text.substr(x + 1))};
  } catch (const error&) {
    throw bad();
  }
}

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

/// Why a --seed is guessable, with the number of seeds an attacker would have to try; nullopt for
/// a seed of 16 characters or more that is neither a number nor a date or time. Time-like: a
/// number that reads as Unix seconds or milliseconds between 1990 and 2100, or text made only of
/// digits and date/time separators (2026-12-01T10:00:00). A number of L digits: 10^L seeds. Other
/// short text: (size of the character classes used)^L (lower 26, upper 26, digits 10, other 33).
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
                       render::count_noun(seed.size(), "digit", "digits"),
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
                       render::count_noun(seed.size(), "character", "characters"),
                       count_text(static_cast<double>(seed.size()) * std::log10(alphabet)));
  }
  return std::nullopt;
}

/// The warning of --commit and --explain for a guessable seed, on stderr.
void warn_weak_seed(const std::string& seed) {
  if (const auto reason = weak_seed_reason(seed))
    std::fprintf(stderr,
                 "shufl: warning: %s; anyone who sees a few cards (or the commitment) can try them all and find "
                 "the seed, then every card; omit --seed to use a random 256-bit one\n",
                 reason->c_str());
}

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

std::string explain_text(const deck& d, const deck_randomness& r, std::uint64_t copies) {
  const explanation e = explain(d, r, copies);
  std::string out;
  out += fmt::format("deck: {} ({})\n", d.description, render::count_noun(d.cards.size() * copies, "card", "cards"));
  // 2^x and the scientific form are rounded: "≈" (the JSON's possible_orders has the digits).
  out += fmt::format("possible orders: {} ≈ 2^{:.2f} (about {})\n", e.formula, e.possible_bits,
                     pow2_decimal(e.possible_bits));
  out += fmt::format("randomness: {}\n", e.source);
  out += fmt::format("verdict: {}\n", e.verdict);
  return out;
}

nlohmann::ordered_json explain_json(const deck& d, const deck_randomness& r, std::uint64_t copies) {
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

// The deck of the options. With `copies` (deck --explain, which needs only the shoe's shape), a
// shoe of D decks is checked as make_pack / make_custom check it but built as one deck with the
// shoe's description, and *copies = D: --explain's cost follows its four lines, not D.
// --pairs and --grid together are one memory deck (when they agree on its size).
deck build_deck(const deck_cli_options& o, std::uint64_t* copies = nullptr) {
  const int sources = !o.pack.empty() + !o.cards.empty() + !o.cards_file.empty() + (!o.pairs.empty() || !o.grid.empty());
  if (sources > 1) throw error("choose one of --pack, --cards, --cards-file, --pairs/--grid");
  const std::uint64_t decks = parse_uint("--decks", o.decks);
  const std::uint64_t jokers = parse_uint("--jokers", o.jokers);
  const bool pair_deck = !o.pairs.empty() || !o.grid.empty();
  if (!o.symbols.empty() && !pair_deck) throw error("--symbols needs --pairs or --grid");
  if (jokers > 0 && (pair_deck || !o.cards.empty() || !o.cards_file.empty())) {
    throw error("--jokers applies to the named packs only");
  }
  if (pair_deck) {
    if (decks != 1) throw error("--decks does not apply to memory decks (use more --pairs)");
    std::vector<std::string> symbols;
    if (!o.symbols.empty()) {
      symbols = split_label_list(o.symbols, "--symbols", "symbol");
    } else {
      for (const auto s : default_symbols()) symbols.emplace_back(s);
    }
    std::uint64_t pairs = 0;
    if (!o.grid.empty()) {
      const auto [rows, columns] = parse_dims("--grid", o.grid, "ROWSxCOLUMNS such as 4x4");
      pairs = pairs_for_grid(rows, columns);
      if (!o.pairs.empty() && parse_uint("--pairs", o.pairs) != pairs) {
        throw error(fmt::format("--pairs {} and --grid {} disagree: a {}x{} grid holds {} cards, {} pairs "
                                "(--grid alone sets the number of pairs)",
                                o.pairs, o.grid, rows, columns, rows * columns, pairs));
      }
    } else {
      pairs = parse_uint("--pairs", o.pairs);
    }
    return make_pairs(pairs, symbols);
  }
  const std::uint64_t built = copies != nullptr ? 1 : decks;
  if (copies != nullptr) *copies = decks;
  const auto custom = [&](const std::vector<std::string>& labels) {
    deck d = make_custom(labels, built);
    if (copies != nullptr) {
      std::uint64_t bytes = 0;
      for (const auto& l : labels) bytes += l.size();
      check_shoe(labels.size(), decks, bytes);
      d.description = custom_description(labels.size(), decks);
    }
    return d;
  };
  if (!o.cards.empty()) return custom(split_label_list(o.cards, "--cards", "card"));
  if (!o.cards_file.empty()) {
    text_reader reader = text_reader::open(o.cards_file, 2 * max_custom_label_bytes);
    const auto labels = read_card_labels(reader);
    if (labels.empty()) throw error(fmt::format("no cards in '{}'", o.cards_file));
    return custom(labels);
  }
  const pack_kind kind = o.pack.empty() ? pack_kind::standard : parse_pack(o.pack);
  deck d = make_pack(kind, built, jokers);
  if (copies != nullptr) {
    check_shoe(d.cards.size(), decks);
    d.description = pack_description(kind, decks, jokers);
  }
  return d;
}

// Cards on one line: separated by one space, or by ", " when a label of the deck has a space in
// it ("Five of Diamonds, Three of Spades"), so a reader can tell where each card's name ends
// (U06). The default code style never has spaces: its output is unchanged.
bool multi_word(const deck& d, card_style style) {
  return std::any_of(d.cards.begin(), d.cards.end(),
                     [&](const auto& c) { return format_card(c, style).find(' ') != std::string::npos; });
}

std::string join_cards(const deck& d, std::span<const std::uint32_t> ids, card_style style) {
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
std::string grid_rows(const deck& d, std::span<const std::uint32_t> order, std::uint64_t rows, std::uint64_t columns,
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

nlohmann::ordered_json json_cards(const deck& d, std::span<const std::uint32_t> ids, card_style style) {
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

int run_deck(const deck_cli_options& o) {
  // Validate everything before any randomness or output.
  const card_style style = parse_card_style(o.style);
  parse_choice("--format", o.format, {"text", "json"});
  const bool seeded = o.seed_option->count() > 0;
  if (seeded) check_seed(o.seed);
  const bool verifying = o.verify_option->count() > 0;
  if (verifying) {
    const bool hex = o.verify_commit.size() == 64 &&
                     o.verify_commit.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    if (!hex) {
      throw error(fmt::format("invalid value '{}' for --verify-commit: expected the 64 hex digits printed by --commit",
                              o.verify_commit));
    }
  }
  if (o.commit && verifying) throw error("--commit and --verify-commit cannot be combined");
  if (o.explain && (o.commit || verifying)) {
    throw error("--explain describes a run; use it without --commit or --verify-commit");
  }
  if (verifying && !seeded) throw error("--verify-commit needs the revealed --seed");
  if (o.commit && o.rng_option->count() > 0 && o.rng != "chacha20") {
    throw error("--commit uses chacha20: a commitment to a weak engine's seed proves little");
  }
  std::uint64_t copies = 1;  // --explain: the shoe's shape only (see build_deck)
  const deck d = build_deck(o, o.explain ? &copies : nullptr);
  std::optional<std::pair<std::uint64_t, std::uint64_t>> grid;
  if (!o.grid.empty()) grid = parse_dims("--grid", o.grid, "ROWSxCOLUMNS such as 4x4");
  std::optional<deal_spec> spec;
  if (!o.deal.empty()) {
    if (grid) throw error("--deal does not apply to a --grid layout (use --pairs to deal a memory deck)");
    const auto [hands, cards] = parse_dims("--deal", o.deal, "HANDSxCARDS such as 4x5");
    spec = deal_spec{hands, cards, o.burn.empty() ? 0 : parse_uint("--burn", o.burn)};
  } else if (!o.burn.empty()) {
    throw error("--burn needs --deal");
  }

  std::optional<std::uint64_t> count;
  if (o.count_option->count() > 0) {
    count = parse_count("--count", o.count);
    if (*count < 1) throw error("--count must be at least 1");
    for (const auto& [given, name] : {std::pair{!o.deal.empty(), "--deal"}, std::pair{grid.has_value(), "--grid"},
                                      std::pair{o.commit, "--commit"}, std::pair{verifying, "--verify-commit"},
                                      std::pair{o.explain, "--explain"}}) {
      if (given) throw error(fmt::format("--count prints whole decks, one per line: drop {}", name));
    }
  }

  // Check the deal before anything else so an impossible request prints nothing.
  if (spec) {
    const std::vector<std::uint32_t> probe(d.cards.size() * copies);
    (void)deal(probe, *spec);
  }

  deck_randomness r;
  if (seeded) r.seed = o.seed;
  if (o.rng_option->count() > 0) r.engine = parse_engine(o.rng);
  if (o.explain) {
    if (seeded) warn_weak_seed(o.seed);
    write_stdout(o.format == "json" ? explain_json(d, r, copies).dump(2) + "\n"
                                    : escape_controls(explain_text(d, r, copies), true));
    return exit_ok;
  }

  if (count) {
    const bool json = o.format == "json";
    if (json) {
      nlohmann::ordered_json j;
      put_deck_header(j, d, r, o.style);
      j["count"] = *count;
      std::string head = j.dump(2);
      head.pop_back();  // the closing brace: the decks follow
      while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
      write_stdout(head + ",\n  \"decks\": [\n");
    }
    if (r.seed) {
      with_engine(r.engine.value_or(engine_kind::chacha20), deck_key(*r.seed), 0,
                  [&](auto& e) { write_decks(e, d, *count, style, json); });
    } else if (r.engine) {
      with_engine(*r.engine, key_from_os(), 0, [&](auto& e) { write_decks(e, d, *count, style, json); });
    } else {
      os_engine e;
      write_decks(e, d, *count, style, json);
    }
    if (json) write_stdout("\n  ]\n}\n");
    return exit_ok;
  }

  // Version 2 binds the engine, the deck (its cards in order) and the deal besides the seed.
  const engine_kind engine = r.engine.value_or(engine_kind::chacha20);
  const std::string layout = spec ? fmt::format("deal={}x{} burn={}", spec->hands, spec->cards_per_hand, spec->burn)
                             : grid ? fmt::format("grid={}x{}", grid->first, grid->second)
                                    : std::string("deck");
  const std::string parameters = commitment_parameters(d, engine, layout);
  std::string commitment;
  bool reveal_seed = false;
  if (verifying) {
    std::string claimed = o.verify_commit;
    for (auto& ch : claimed) ch = (ch >= 'A' && ch <= 'F') ? static_cast<char>(ch - 'A' + 'a') : ch;
    commitment = deal_commitment(parameters, o.seed);
    if (claimed != commitment) {
      // A version-1 commitment binds the seed alone; it was only ever made with chacha20.
      if (claimed == seed_commitment(o.seed)) {
        if (engine != engine_kind::chacha20) {
          throw error(fmt::format("commitment {} is a version-1 commitment, made with chacha20: it cannot "
                                  "verify a deal with --rng {}",
                                  o.verify_commit, engine_name(engine)));
        }
        commitment = claimed;
        std::fprintf(stderr,
                     "shufl: warning: a version-1 commitment binds the seed only, not the deck or deal options; "
                     "check them with the other players\n");
      } else {
        throw error(fmt::format("commitment {} does not match seed '{}' with these options ({}); "
                                "the same seed, engine, deck and deal give {}",
                                o.verify_commit, o.seed, parameters, commitment));
      }
    }
  } else if (o.commit) {
    if (!seeded) {
      r.seed = random_seed_string();
      reveal_seed = true;
    } else {
      warn_weak_seed(o.seed);
    }
    commitment = deal_commitment(parameters, *r.seed);
  }

  const std::vector<std::uint32_t> order = shuffle_indices(d.cards.size(), r);

  if (o.format == "json") {
    nlohmann::ordered_json j;
    if (!commitment.empty()) j["commitment"] = commitment;
    if (verifying) j["commitment_verified"] = true;
    if (!commitment.empty()) j["commitment_parameters"] = parameters;
    put_deck_header(j, d, r, o.style);
    if (spec) {
      const deal_result dealt = deal(order, *spec);
      if (spec->burn) j["burned"] = json_cards(d, dealt.burned, style);
      auto hands = nlohmann::ordered_json::array();
      for (const auto& h : dealt.hands) hands.push_back(json_cards(d, h, style));
      j["hands"] = std::move(hands);
      j["stock"] = json_cards(d, dealt.stock, style);
    } else if (grid) {
      auto rows = nlohmann::ordered_json::array();
      for (std::uint64_t row = 0; row < grid->first; ++row) {
        rows.push_back(json_cards(
            d, std::span<const std::uint32_t>(order).subspan(row * grid->second, grid->second), style));
      }
      j["grid"] = std::move(rows);
    } else {
      j["deck"] = json_cards(d, order, style);
    }
    write_stdout(j.dump(2) + "\n");
    return exit_ok;
  }

  std::string out;
  if (!commitment.empty()) {
    const bool version1 = verifying && commitment == seed_commitment(o.seed);
    out += fmt::format("commitment: {}{}\n", commitment,
                       !verifying ? "" : version1 ? " (verified: matches the seed)"
                                                  : " (verified: matches the seed, engine, deck and deal)");
    if (!verifying) out += fmt::format("committed to: {}\n", parameters);
  }
  if (spec) {
    const deal_result dealt = deal(order, *spec);
    if (spec->burn) out += fmt::format("burned: {}\n", join_cards(d, dealt.burned, style));
    for (std::size_t h = 0; h < dealt.hands.size(); ++h) {
      out += fmt::format("hand {}: {}\n", h + 1, join_cards(d, dealt.hands[h], style));
    }
    out += dealt.stock.empty() ? std::string("stock:\n")
                               : fmt::format("stock: {}\n", join_cards(d, dealt.stock, style));
  } else if (grid) {
    out += grid_rows(d, order, grid->first, grid->second, style);
  } else {
    for (const auto id : order) {
      out += format_card(d.cards[id], style);
      out += '\n';
    }
  }
  if (reveal_seed) {
    out += fmt::format("seed: {} (verify: shufl deck --seed {} --verify-commit {} with the same options)\n",
                       *r.seed, *r.seed, commitment);
  }
  write_stdout(escape_controls(out, true));  // a seed or label is shown, never obeyed by the terminal
  return exit_ok;
}

}  // namespace

subcommand deck_subcommand() {
  return {"deck", "Build, shuffle and deal card decks, shoes and memory-match decks",
          [](CLI::App& sub) -> std::function<int()> {
            auto o = std::make_shared<deck_cli_options>();
            sub.footer(kDeckFooter);
            sub.add_option("--pack", o->pack, "Named pack: standard (52), piquet or skat (32), euchre (24), tarot (78)")->type_name("NAME");
            sub.add_option("--decks", o->decks, "Number of decks in the shoe (blackjack: 6 or 8)")->capture_default_str()->type_name("N");
            sub.add_option("--jokers", o->jokers, "Jokers per deck, alternating red (RJ) and black (BJ)")->capture_default_str()->type_name("N");
            // An explicitly empty list is an error, not "no custom deck" (which would deal 52 cards).
            const auto non_empty = [](const char* what) {
              return [what](const std::string& v) {
                if (v.empty()) throw CLI::ValidationError(what);
              };
            };
            sub.add_option("--cards", o->cards, "A custom deck: comma-separated card labels (may repeat)")
                ->type_name("LIST")
                ->each(non_empty("the custom deck is empty"));
            sub.add_option("--cards-file", o->cards_file, "A custom deck from a file, one card per line ('-' = stdin)")->type_name("FILE");
            sub.add_option("--pairs", o->pairs, "A memory-match deck of N pairs")->type_name("N");
            sub.add_option("--grid", o->grid, "A memory-match layout of ROWSxCOLUMNS cells (an even number)")->type_name("RxC");
            sub.add_option("--symbols", o->symbols, "Comma-separated symbols for --pairs/--grid (default A-Z, a-z, 0-9)")
                ->type_name("LIST")
                ->each(non_empty("the symbol list is empty"));
            sub.add_option("--deal", o->deal, "Deal HANDSxCARDS round the table (e.g. 4x5), then show the stock")->type_name("HANDSxCARDS");
            sub.add_option("--burn", o->burn, "Burn N cards once before dealing")->type_name("N");
            sub.add_option("--style", o->style, "Card style: code, unicode, glyph, name")->capture_default_str()->type_name("STYLE");
            sub.add_option("--format", o->format, "Output format: text or json")->capture_default_str()->type_name("FORMAT");
            o->seed_option = sub.add_option("--seed", o->seed, "Any string; the same seed gives the same deck everywhere")->type_name("SEED")->expected(0, 1);
            o->rng_option = sub.add_option("--rng", o->rng, "Engine: chacha20 (default with --seed), xoshiro256pp, mt19937, minstd")->type_name("NAME");
            o->count_option = sub.add_option("--count", o->count, "Print K successive decks of the stream, one per line")->type_name("K");
            sub.add_flag("--explain", o->explain, "Instead of dealing, print how many orders the deck has and how many the randomness can reach");
            sub.add_flag("--commit", o->commit, "Print a commitment to the seed before the deal (provably fair play)");
            o->verify_option = sub.add_option("--verify-commit", o->verify_commit, "Check a commitment against the revealed --seed, then deal")->type_name("HEX");
            return [o]() -> int { return run_deck(*o); };
          }};
}

}  // namespace shufl::cli
