// `shufl deck`: options → a deck from the library → shuffle → deal → text or JSON.
#include <fmt/format.h>

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
#include "choices.hpp"
#include "render/name_lists.hpp"
#include "common.hpp"
#include "render/deck_output.hpp"
#include "shufl/deck.hpp"
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

// --count K: K decks from one stream (shuffle_decks), written one per line in batches.
void write_decks(const deck& d, std::uint64_t count, const deck_randomness& r, card_style style, bool json) {
  const std::vector<std::string> labels = render::deck_count_labels(d, style, json);
  const char* separator = render::deck_count_separator(d, style, json);
  std::string out;
  std::uint64_t k = 0;
  shuffle_decks(d.cards.size(), count, r, [&](std::span<const std::uint32_t> order) {
    if (json) out += k++ == 0 ? "    [" : ",\n    [";
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (i) out += separator;
      out += labels[order[i]];
    }
    out += json ? "]" : "\n";
    if (out.size() >= (std::size_t{1} << 20)) {
      write_stdout(out);
      out.clear();
    }
    return true;
  });
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

/// The warning of --commit and --explain for a guessable seed, on stderr.
void warn_weak_seed(const std::string& seed) {
  if (const auto reason = render::weak_seed_reason(seed))
    std::fprintf(stderr,
                 "shufl: warning: %s; anyone who sees a few cards (or the commitment) can try them all and find "
                 "the seed, then every card; omit --seed to use a random 256-bit one\n",
                 reason->c_str());
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

int run_deck(const deck_cli_options& o) {
  // Validate everything before any randomness or output.
  const card_style style = parse_card_style(o.style);
  parse_choice("--format", o.format, choices::text_json);
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
    write_stdout(o.format == "json" ? render::deck_explain_json(d, r, copies).dump(2) + "\n"
                                    : escape_controls(render::deck_explain_text(d, r, copies), true));
    return exit_ok;
  }

  if (count) {
    const bool json = o.format == "json";
    if (json) {
      write_stdout(render::deck_count_json_head(d, r, o.style, *count));
    }
    write_decks(d, *count, r, style, json);
    if (json) write_stdout(render::deck_count_json_tail);
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

  std::optional<deal_result> dealt;
  if (spec) dealt = deal(order, *spec);
  const render::deck_shown shown{d, r, o.style, style, order, dealt ? &*dealt : nullptr, spec && spec->burn,
                                 grid, commitment, verifying, verifying && commitment == seed_commitment(o.seed),
                                 parameters};
  if (o.format == "json") {
    write_stdout(render::deck_json(shown).dump(2) + "\n");
    return exit_ok;
  }

  std::string out = render::deck_text(shown);
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
            sub.add_option("--pack", o->pack, "Named pack: " + render::packs_text())->type_name("NAME");
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
            sub.add_option("--style", o->style, "Card style: " + render::listed(card_style_names()))->capture_default_str()->type_name("STYLE");
            sub.add_option("--format", o->format, "Output format: " + render::listed(choices::text_json))->capture_default_str()->type_name("FORMAT");
            o->seed_option = sub.add_option("--seed", o->seed, "Any string; the same seed gives the same deck everywhere")->type_name("SEED")->expected(0, 1);
            o->rng_option = sub.add_option("--rng", o->rng, "Engine: " + render::listed(engine_names()) + " (default with --seed: chacha20)")->type_name("NAME");
            o->count_option = sub.add_option("--count", o->count, "Print K successive decks of the stream, one per line")->type_name("K");
            sub.add_flag("--explain", o->explain, "Instead of dealing, print how many orders the deck has and how many the randomness can reach");
            sub.add_flag("--commit", o->commit, "Print a commitment to the seed before the deal (provably fair play)");
            o->verify_option = sub.add_option("--verify-commit", o->verify_commit, "Check a commitment against the revealed --seed, then deal")->type_name("HEX");
            return [o]() -> int { return run_deck(*o); };
          }};
}

}  // namespace shufl::cli
