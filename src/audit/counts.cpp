// Counts files of `shufl audit` (audit/counts.hpp): writer, strict reader, merge.
#include "shufl/audit/counts.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <fstream>
#include <numeric>
#include <sstream>
#include <tuple>

#include "shufl/audit/pairs.hpp"
#include "shufl/bias.hpp"
#include "shufl/deck.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"
#include "shufl/version.hpp"

namespace shufl::audit {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// The battery's totals in file order, with their JSON names.
constexpr std::array<std::string_view, 9> kTotals = {"successions",  "adjacent_pairs", "descents",
                                                     "rising_sequences", "runs_up_down", "fixed_points",
                                                     "guessing",     "guessing_shelf", "serial_successions"};

std::array<deck_total*, 9> totals_of(battery& b) {
  return {&b.successions,  &b.adjacent_pairs, &b.descents,        &b.rising_sequences,  &b.runs_up_down,
          &b.fixed_points, &b.guessing,       &b.guessing_shelf, &b.serial_successions};
}

// A game and its deal as one word for comparisons and messages: "" (none), "poker 1x5".
std::string game_word(const game_deal& g) {
  if (g.game == game_kind::none) return "";
  return fmt::format("{} {}x{}", g.game == game_kind::poker ? "poker" : "blackjack", g.hands, g.cards);
}

std::string hex64(std::uint64_t v) { return fmt::format("{:016x}", v); }

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Field checks that name the file and the field.
class checker {
 public:
  explicit checker(std::string_view name) : name_(name) {}
  [[noreturn]] void fail(const std::string& field, const std::string& why) const {
    throw error(fmt::format("'{}': {}: {}", name_, field, why));
  }
  const json& member(const json& o, const std::string& path, const char* key) const {
    if (!o.is_object()) fail(path, "expected an object");
    const auto it = o.find(key);
    if (it == o.end()) fail(path.empty() ? key : path + "." + key, "missing");
    return *it;
  }
  std::uint64_t uint(const json& v, const std::string& path, std::uint64_t max = std::uint64_t{1} << 62) const {
    if (!v.is_number_unsigned()) fail(path, "expected an integer >= 0");
    const auto x = v.get<std::uint64_t>();
    if (x > max) fail(path, fmt::format("{} is more than {}", x, max));
    return x;
  }
  std::string text(const json& v, const std::string& path, std::size_t max = 4096) const {
    if (!v.is_string()) fail(path, "expected a string");
    const auto& s = v.get_ref<const std::string&>();
    if (s.size() > max) fail(path, "too long");
    if (!is_valid_utf8(s)) fail(path, "not UTF-8");
    return s;
  }
  const json& array(const json& v, const std::string& path, std::size_t size) const {
    if (!v.is_array()) fail(path, "expected an array");
    if (v.size() != size) fail(path, fmt::format("{} entries, expected {}", v.size(), size));
    return v;
  }
  std::vector<std::uint64_t> uints(const json& v, const std::string& path, std::size_t size, std::uint64_t max) const {
    array(v, path, size);
    std::vector<std::uint64_t> out(size);
    for (std::size_t i = 0; i < size; ++i) out[i] = uint(v[i], fmt::format("{}[{}]", path, i), max);
    return out;
  }

 private:
  std::string name_;
};

audit_pack rebuild_pack(const checker& c, const std::string& name, std::uint64_t decks, std::uint64_t jokers,
                        const std::vector<std::string>& labels) {
  reader_options o;
  o.decks = decks;
  o.jokers = jokers;
  try {
    if (name == "custom") {
      if (decks == 0 || labels.size() % decks != 0) c.fail("pack.labels", "not whole copies of one pack");
      o.custom_labels.assign(labels.begin(), labels.begin() + static_cast<std::ptrdiff_t>(labels.size() / decks));
    } else {
      o.pack = parse_pack(name);
    }
    audit_pack pack = make_audit_pack(o);
    if (pack.size() != labels.size()) c.fail("pack.labels", fmt::format("{} cards, the pack has {}", labels.size(), pack.size()));
    for (std::size_t i = 0; i < labels.size(); ++i) {
      const std::string expected = pack.cards.cards[i].kind == card_kind::custom ? pack.cards.cards[i].label
                                                                                 : format_card(pack.cards.cards[i], card_style::code);
      if (expected != labels[i]) c.fail(fmt::format("pack.labels[{}]", i), "not the pack's card there");
    }
    return pack;
  } catch (const error& e) {
    if (std::string_view(e.what()).starts_with("'")) throw;
    c.fail("pack", e.what());
  }
}

std::vector<std::string> labels_of(const audit_pack& pack) {
  std::vector<std::string> out;
  for (const auto& card : pack.cards.cards) {
    out.push_back(card.kind == card_kind::custom ? card.label : format_card(card, card_style::code));
  }
  return out;
}

// Parts of one input that meet: shards I and I+1 of one N, adjacent chunks of one run.
bool joins(const audit_part& a, const audit_part& b) {
  if (a.group() != b.group()) return false;
  if (a.generated || a.file_id.empty()) return a.end == b.begin;
  return a.shards == b.shards && a.end == b.begin && a.bytes_end == b.bytes_begin;
}

// Appends part b (right after a in its input) to a: the serial pair where they meet goes to `sums`.
void join(audit_part& a, const audit_part& b, battery& sums) {
  if (!a.last.empty() && !b.first.empty()) sums.add_serial_pair(a.last.data(), b.first.data());
  a.end = b.end;
  a.bytes_end = b.bytes_end;
  a.decks += b.decks;
  a.skipped += b.skipped;
  a.sha256.clear();
  if (a.first.empty()) a.first = b.first;
  if (!b.last.empty()) a.last = b.last;
  const std::size_t room = duplicate_finder::limit - std::min<std::size_t>(a.fingerprints.size(), duplicate_finder::limit);
  a.fingerprints.insert(a.fingerprints.end(), b.fingerprints.begin(),
                        b.fingerprints.begin() + static_cast<std::ptrdiff_t>(std::min(room, b.fingerprints.size())));
}

}  // namespace

std::string audit_part::group() const {
  if (generated) {
    return fmt::format("algo\n{}\n{}\n{}\n{}", name, seed ? "seed:" + *seed : "run:" + run_id, engine, trials);
  }
  if (!file_id.empty()) return fmt::format("file\n{}\n{}", size, file_id);
  if (shards == 1) return "file\n" + sha256;
  return fmt::format("file\n{}\n{}\n{}", base_name(name), size, shards);
}

bool audit_part::overlaps(const audit_part& other) const {
  const bool chunks = begin < other.end && other.begin < end;
  if (generated || file_id.empty() || other.file_id.empty()) return chunks;
  // Byte ranges; an empty shard overlaps nothing but itself.
  return (bytes_begin < other.bytes_end && other.bytes_begin < bytes_end) || (shards == other.shards && chunks);
}

std::string audit_part::describe() const {
  if (generated) {
    return fmt::format("chunks {}..{} of {} ({}, {}, {} trials)", begin, end - 1, name,
                       seed ? fmt::format("seed \"{}\"", *seed) : "run " + run_id, engine, trials);
  }
  if (shards == 1) return fmt::format("'{}' (sha256 {})", name, sha256);
  return end == begin + 1 ? fmt::format("shard {}/{} of '{}'", begin, shards, name)
                          : fmt::format("shards {}..{}/{} of '{}'", begin, end - 1, shards, name);
}

audit_counts counts_of(const audit_tally& tally, audit_part part) {
  audit_counts c;
  c.shufl_version = SHUFL_VERSION;
  c.pack_name = tally.pack.name;
  c.pack_description = tally.pack.cards.description;
  c.pack_decks = tally.pack.decks;
  c.jokers = tally.pack.jokers;
  c.labels = labels_of(tally.pack);
  c.positions = tally.sums.shape().positions;
  c.game = game_word(tally.sums.shape().game);
  c.lags = tally.sums.shape().lags;
  part.decks = tally.sums.decks();
  part.skipped = tally.skipped;
  part.first = tally.first;
  part.last = tally.last;
  part.fingerprints = tally.sums.duplicates.fingerprints();
  c.tally.emplace(tally.pack, tally.sums.shape());
  c.tally->sums = tally.sums;
  c.tally->sums.duplicates = duplicate_finder{};
  c.tally->skipped = tally.skipped;
  c.tally->skip_reasons = tally.skip_reasons;
  c.tally->first = tally.first;
  c.tally->last = tally.last;
  c.parts.push_back(std::move(part));
  return c;
}

std::string write_audit_counts(const audit_counts& c) {
  const battery& b = c.tally->sums;
  ojson j;
  j["format"] = audit_counts_format;
  j["shufl_version"] = c.shufl_version;
  j["pack"] = {{"name", c.pack_name}, {"description", c.pack_description}, {"decks", c.pack_decks},
               {"jokers", c.jokers},  {"labels", c.labels}};
  j["positions"] = c.positions;
  const game_deal& g = b.shape().game;
  j["game"] = g.game == game_kind::none
                  ? ojson(nullptr)
                  : ojson{{"name", g.game == game_kind::poker ? "poker" : "blackjack"}, {"hands", g.hands}, {"cards", g.cards}};
  j["strategy"] = audit_guess_strategy;
  j["decks"] = b.decks();
  j["skipped"] = c.tally->skipped;
  j["skip_reasons"] = c.tally->skip_reasons;
  j["card_position"] = b.card_position.counts();
  j["suit_position"] = b.suit_position.counts();
  j["rank_position"] = b.rank_position.counts();
  j["serial_pairs"] = b.serial_position.pairs();
  j["serial_position"] = b.serial_position.counts();
  j["position_repeats"] = b.position_repeats;
  j["successor_repeats"] = b.successor_repeats;
  j["successor_table"] = b.successor_table;
  j["permutation_3"] = b.permutation3;
  j["permutation_4"] = b.permutation4;
  j["lags"] = c.lags;
  j["position_pairs"] = b.position_pairs;
  j["gap"] = b.gap_counts;
  j["coupon_collector"] = {{"suits", {b.coupon_suits.decks, b.coupon_suits.total}},
                           {"ranks", {b.coupon_ranks.decks, b.coupon_ranks.total}}};
  ojson totals = ojson::object();
  battery& mb = const_cast<battery&>(b);
  const auto t = totals_of(mb);
  for (std::size_t i = 0; i < kTotals.size(); ++i) totals[std::string(kTotals[i])] = {t[i]->decks, t[i]->total};
  j["totals"] = std::move(totals);
  j["game_hands"] = b.game_hands;
  auto parts = ojson::array();
  for (const auto& p : c.parts) {
    ojson o;
    if (p.generated) {
      o["kind"] = "algo";
      o["algorithm"] = p.name;
      o["seed"] = p.seed ? ojson(*p.seed) : ojson(nullptr);
      o["run_id"] = p.seed ? ojson(nullptr) : ojson(p.run_id);
      o["engine"] = p.engine;
      o["trials"] = p.trials;
      o["chunks"] = {p.begin, p.end};
    } else {
      o["kind"] = "file";
      o["name"] = p.name;
      o["size"] = p.size;
      o["sha256"] = p.sha256.empty() ? ojson(nullptr) : ojson(p.sha256);
      o["shards"] = {p.begin, p.end, p.shards};
      if (!p.file_id.empty()) {
        o["file_id"] = p.file_id;
        o["bytes"] = {p.bytes_begin, p.bytes_end};
      }
    }
    o["decks"] = p.decks;
    o["skipped"] = p.skipped;
    o["first"] = p.first;
    o["last"] = p.last;
    std::vector<std::string> fps;
    fps.reserve(p.fingerprints.size());
    for (const auto f : p.fingerprints) fps.push_back(hex64(f));
    o["fingerprints"] = std::move(fps);
    parts.push_back(std::move(o));
  }
  j["parts"] = std::move(parts);
  return j.dump(-1, ' ', false, ojson::error_handler_t::replace) + "\n";
}

audit_counts parse_audit_counts(std::string_view text, std::string_view name) {
  if (text.size() > audit_counts_max_bytes) {
    throw error(fmt::format("'{}': {} bytes, more than the {} MiB an audit counts file may have", name, text.size(),
                            audit_counts_max_bytes >> 20));
  }
  const checker c(name);
  json root;
  try {
    root = json::parse(
        text,
        [&](int depth, json::parse_event_t, json&) {
          if (depth > audit_counts_max_depth) c.fail("JSON", fmt::format("nested deeper than {}", audit_counts_max_depth));
          return true;
        },
        true, false);
  } catch (const json::parse_error& e) {
    throw error(fmt::format("'{}' is not a counts file from shufl audit --save-counts: invalid JSON at byte {}", name, e.byte));
  } catch (const json::exception&) {
    throw error(fmt::format("'{}' is not a counts file from shufl audit --save-counts: a value JSON cannot hold", name));
  }
  if (!root.is_object() || !root.contains("format") || !root["format"].is_string()) {
    throw error(fmt::format("'{}' is not a counts file from shufl audit --save-counts (no \"format\")", name));
  }
  const std::string format = root["format"].get<std::string>();
  if (format != audit_counts_format) {
    c.fail("format", fmt::format("\"{}\" is not a format this shufl reads ({})", format, audit_counts_format));
  }
  audit_counts out;
  out.shufl_version = c.text(c.member(root, "", "shufl_version"), "shufl_version", 100);
  const json& pack = c.member(root, "", "pack");
  out.pack_name = c.text(c.member(pack, "pack", "name"), "pack.name", 40);
  out.pack_description = c.text(c.member(pack, "pack", "description"), "pack.description", 200);
  out.pack_decks = c.uint(c.member(pack, "pack", "decks"), "pack.decks", 64);
  out.jokers = c.uint(c.member(pack, "pack", "jokers"), "pack.jokers", 16);
  const json& labels = c.member(pack, "pack", "labels");
  if (!labels.is_array() || labels.empty() || labels.size() > audit_counts_max_cards) {
    c.fail("pack.labels", fmt::format("expected an array of 1 to {} labels", audit_counts_max_cards));
  }
  for (std::size_t i = 0; i < labels.size(); ++i) out.labels.push_back(c.text(labels[i], fmt::format("pack.labels[{}]", i), 200));
  audit_pack p = rebuild_pack(c, out.pack_name, out.pack_decks, out.jokers, out.labels);
  p.cards.description = out.pack_description;
  out.positions = static_cast<std::size_t>(c.uint(c.member(root, "", "positions"), "positions", p.size()));
  if (out.positions == 0) c.fail("positions", "must be at least 1");
  const json& game = c.member(root, "", "game");
  game_deal deal;
  if (!game.is_null()) {
    if (!game.is_object()) c.fail("game", "expected null or an object {name, hands, cards}");
    const std::string game_name = c.text(c.member(game, "game", "name"), "game.name", 20);
    if (game_name != "poker" && game_name != "blackjack") c.fail("game.name", "expected \"poker\" or \"blackjack\"");
    deal.game = game_name == "poker" ? game_kind::poker : game_kind::blackjack;
    deal.hands = static_cast<std::size_t>(c.uint(c.member(game, "game", "hands"), "game.hands", 1024));
    deal.cards = static_cast<std::size_t>(c.uint(c.member(game, "game", "cards"), "game.cards", 1024));
    out.game = game_word(deal);
  }
  if (c.text(c.member(root, "", "strategy"), "strategy", 40) != audit_guess_strategy) {
    c.fail("strategy", fmt::format("expected \"{}\"", audit_guess_strategy));
  }
  if (!root.contains("lags")) {
    c.fail("lags", "missing: a counts file of an earlier shufl, before position-pairs and the coupon collector tests; "
                   "count its decks again with this version");
  }
  out.lags = static_cast<std::size_t>(c.uint(c.member(root, "", "lags"), "lags", 64));
  if (out.lags == 0) c.fail("lags", "must be at least 1");
  // Its pair tables (lags · N² counts, 2 bytes each at least) must fit in a counts file: no table
  // is allocated that the file could not fill.
  if (2 * out.lags * p.size() * p.size() > audit_counts_max_bytes) {
    c.fail("lags", fmt::format("{} lags of {} cards make pair tables larger than a counts file may hold", out.lags, p.size()));
  }
  battery_shape shape;
  try {
    shape = make_shape(p, out.positions);
    shape.lags = out.lags;
    set_game(shape, p, deal);
  } catch (const error& e) {
    c.fail("game", e.what());
  }
  const std::size_t K = shape.positions, F = shape.faces(), N = shape.cards;
  out.tally.emplace(p, shape);
  audit_tally& t = *out.tally;
  battery& b = t.sums;
  const std::uint64_t decks = c.uint(c.member(root, "", "decks"), "decks");
  t.skipped = c.uint(c.member(root, "", "skipped"), "skipped");
  const json& reasons = c.member(root, "", "skip_reasons");
  if (!reasons.is_array() || reasons.size() > max_skip_reasons) c.fail("skip_reasons", "expected an array of at most 5 texts");
  for (std::size_t i = 0; i < reasons.size(); ++i) t.skip_reasons.push_back(c.text(reasons[i], fmt::format("skip_reasons[{}]", i)));
  // Tables: sizes from the battery of this shape, every position holding one card of each deck.
  const auto table = [&](const char* key, position_table& into) {
    const auto v = c.uints(c.member(root, "", key), key, into.counts().size(), decks);
    if (!v.empty()) {
      for (std::size_t col = 0; col < K; ++col) {
        std::uint64_t sum = 0;
        for (std::size_t row = 0; row < v.size() / K; ++row) sum += v[row * K + col];
        if (sum != decks) c.fail(key, fmt::format("position {} holds {} cards, not one per deck ({})", col + 1, sum, decks));
      }
    }
    into.add_counts(v, v.empty() ? 0 : decks);
  };
  table("card_position", b.card_position);
  table("suit_position", b.suit_position);
  table("rank_position", b.rank_position);
  const std::uint64_t pairs = c.uint(c.member(root, "", "serial_pairs"), "serial_pairs");
  if (pairs >= std::max<std::uint64_t>(decks, 1)) c.fail("serial_pairs", "not fewer than the decks");
  const auto serial = c.uints(c.member(root, "", "serial_position"), "serial_position", b.serial_position.counts().size(), pairs * K);
  if (!serial.empty() && std::accumulate(serial.begin(), serial.end(), std::uint64_t{0}) != pairs * K) {
    c.fail("serial_position", "its counts do not add up to the pairs times the positions");
  }
  if (serial.empty() && pairs != 0) c.fail("serial_pairs", "no serial table for this shape");
  b.serial_position.add_counts(serial, serial.empty() ? 0 : pairs);
  // The serial tests' repeats (pairs at most) and the successor table (rows of decks each).
  const auto repeats = c.uints(c.member(root, "", "position_repeats"), "position_repeats", b.position_repeats.size(), pairs);
  std::copy(repeats.begin(), repeats.end(), b.position_repeats.begin());
  const auto successor = c.uints(c.member(root, "", "successor_repeats"), "successor_repeats", b.successor_repeats.size(), pairs);
  std::copy(successor.begin(), successor.end(), b.successor_repeats.begin());
  const auto below = c.uints(c.member(root, "", "successor_table"), "successor_table", b.successor_table.size(), decks);
  for (std::size_t row = 0; row * F < below.size(); ++row) {
    const std::uint64_t sum = std::accumulate(below.begin() + static_cast<std::ptrdiff_t>(row * F),
                                              below.begin() + static_cast<std::ptrdiff_t>((row + 1) * F), std::uint64_t{0});
    if (sum != decks) c.fail("successor_table", fmt::format("row {} holds {} decks, not {}", row + 1, sum, decks));
  }
  std::copy(below.begin(), below.end(), b.successor_table.begin());
  // Knuth's permutation test: ⌊N/t⌋ tuples per deck where the battery counts them, else none.
  const bool tuples = !b.successor_table.empty();
  const auto patterns = [&](const char* key, auto& into, std::size_t size) {
    const std::uint64_t per = tuples ? N / size : 0;
    const std::uint64_t want = decks > (std::uint64_t{1} << 52) ? std::uint64_t{1} << 62 : decks * per;
    const auto v = c.uints(c.member(root, "", key), key, into.size(), want);
    if (std::accumulate(v.begin(), v.end(), std::uint64_t{0}) != want) {
      c.fail(key, fmt::format("its counts do not add up to {} tuples", want));
    }
    std::copy(v.begin(), v.end(), into.begin());
  };
  patterns("permutation_3", b.permutation3, 3);
  patterns("permutation_4", b.permutation4, 4);
  // position-pairs: per lag k, each deck adds n - k pairs; the coupon collector: 0 or every deck,
  // at most N cards each.
  const auto pair_cells = c.uints(c.member(root, "", "position_pairs"), "position_pairs", b.position_pairs.size(),
                                 decks > (std::uint64_t{1} << 52) ? std::uint64_t{1} << 62 : decks * N);
  for (std::size_t k = 1; N > 0 && k * N * N <= pair_cells.size(); ++k) {
    const auto from = pair_cells.begin() + static_cast<std::ptrdiff_t>((k - 1) * N * N);
    const std::uint64_t sum = std::accumulate(from, from + static_cast<std::ptrdiff_t>(N * N), std::uint64_t{0});
    if (sum != decks * (N - k)) c.fail("position_pairs", fmt::format("lag {} holds {} pairs, not {}", k, sum, decks * (N - k)));
  }
  std::copy(pair_cells.begin(), pair_cells.end(), b.position_pairs.begin());
  // gap: per suit, each deck adds (cards of the suit − 1) gaps.
  const auto gap_cells = c.uints(c.member(root, "", "gap"), "gap", b.gap_counts.size(),
                                 decks > (std::uint64_t{1} << 52) ? std::uint64_t{1} << 62 : decks * N);
  if (!gap_cells.empty()) {
    const coupon_groups g = coupon_groups_of(shape, false);
    for (std::size_t h = 0; h < g.sizes.size(); ++h) {
      const auto from = gap_cells.begin() + static_cast<std::ptrdiff_t>(h * N);
      const std::uint64_t sum = std::accumulate(from, from + static_cast<std::ptrdiff_t>(N), std::uint64_t{0});
      if (sum != decks * (g.sizes[h] - 1)) {
        c.fail("gap", fmt::format("suit {} holds {} gaps, not {}", h + 1, sum, decks * (g.sizes[h] - 1)));
      }
    }
  }
  std::copy(gap_cells.begin(), gap_cells.end(), b.gap_counts.begin());
  const json& coupon = c.member(root, "", "coupon_collector");
  for (const char* key : {"suits", "ranks"}) {
    const std::string path = std::string("coupon_collector.") + key;
    const json& pair = c.array(c.member(coupon, "coupon_collector", key), path, 2);
    const bool applies = !coupon_groups_of(shape, key[0] == 'r').sizes.empty();
    const std::uint64_t units = c.uint(pair[0], path + "[0]", decks);
    if (units != (applies ? decks : 0)) {
      c.fail(path + "[0]", applies ? fmt::format("expected the decks ({})", decks) : "expected 0: the test does not apply");
    }
    const std::uint64_t most = units > (std::uint64_t{1} << 52) ? std::uint64_t{1} << 62 : units * N;
    const std::uint64_t total = c.uint(pair[1], path + "[1]", most);
    (key[0] == 's' ? b.coupon_suits : b.coupon_ranks).merge(deck_total{units, total});
  }
  const json& totals = c.member(root, "", "totals");
  const auto into = totals_of(b);
  // Each total is over every deck (serial-successions: every pair) or, where the shape has no
  // such test, over none; a deck adds at most N (fixed points, rising sequences, correct
  // guesses) or N - 1 (the statistics of adjacent positions) to it.
  std::uint64_t deck_units = 0;
  for (std::size_t i = 0; i < kTotals.size(); ++i) {
    const std::string path = "totals." + std::string(kTotals[i]);
    const json& pair = c.array(c.member(totals, "totals", std::string(kTotals[i]).c_str()), path, 2);
    const bool per_pair = kTotals[i] == "serial_successions";
    const std::uint64_t units = c.uint(pair[0], path + "[0]", per_pair ? pairs : decks);
    if (units != 0 && units != (per_pair ? pairs : decks)) {
      c.fail(path + "[0]", fmt::format("expected 0 or the {} ({})", per_pair ? "serial pairs" : "decks", per_pair ? pairs : decks));
    }
    if (!per_pair && i > 0 && units != deck_units) c.fail(path + "[0]", "the per-deck totals cover different decks");
    if (!per_pair) deck_units = units;
    if (per_pair && pairs > 0 && (units == 0) != (deck_units == 0)) c.fail(path + "[0]", "unlike the per-deck totals");
    const bool whole_n = kTotals[i] == "fixed_points" || kTotals[i] == "rising_sequences" || kTotals[i] == "guessing" ||
                         kTotals[i] == "guessing_shelf";
    const std::uint64_t per = whole_n ? N : std::max<std::size_t>(N, 1) - 1;
    const std::uint64_t most = units > (std::uint64_t{1} << 52) ? std::uint64_t{1} << 62 : units * per;
    const std::uint64_t total = c.uint(pair[1], path + "[1]", most);
    into[i]->merge(deck_total{units, total});
  }
  // Hands by seat and class: each seat one hand per deck.
  const auto hands = c.uints(c.member(root, "", "game_hands"), "game_hands", b.game_hands.size(), decks);
  const std::size_t classes = game_class_count(shape.game.game);
  for (std::size_t seat = 0; classes > 0 && seat < shape.game.hands; ++seat) {
    std::uint64_t hand_sum = 0;
    for (std::size_t k = 0; k < classes; ++k) hand_sum += hands[seat * classes + k];
    if (hand_sum != decks) c.fail("game_hands", fmt::format("seat {} holds {} hands, not one per deck", seat + 1, hand_sum));
  }
  std::copy(hands.begin(), hands.end(), b.game_hands.begin());
  b.add_deck_count(decks);
  // Parts.
  const json& parts = c.member(root, "", "parts");
  if (!parts.is_array() || parts.empty() || parts.size() > 100000) c.fail("parts", "expected an array of 1 to 100000 parts");
  std::uint64_t part_decks = 0, fingerprints = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string path = fmt::format("parts[{}]", i);
    const json& e = parts[i];
    audit_part part;
    const std::string kind = c.text(c.member(e, path, "kind"), path + ".kind", 10);
    if (kind == "algo") {
      part.generated = true;
      part.name = c.text(c.member(e, path, "algorithm"), path + ".algorithm", 200);
      const json& seed = c.member(e, path, "seed");
      if (!seed.is_null()) part.seed = c.text(seed, path + ".seed");
      const json& run = c.member(e, path, "run_id");
      if (part.seed != std::nullopt) {
        if (!run.is_null()) c.fail(path + ".run_id", "a seeded run has none");
      } else {
        part.run_id = c.text(run, path + ".run_id", 64);
      }
      part.engine = c.text(c.member(e, path, "engine"), path + ".engine", 20);
      part.trials = c.uint(c.member(e, path, "trials"), path + ".trials");
      const auto chunks = c.uints(c.member(e, path, "chunks"), path + ".chunks", 2, std::uint64_t{1} << 62);
      part.begin = chunks[0];
      part.end = chunks[1];
      const std::uint64_t all = bias_chunk_count(part.trials);
      if (part.begin >= part.end || part.end > all) c.fail(path + ".chunks", "not a range of the run's chunks");
    } else if (kind == "file") {
      part.name = c.text(c.member(e, path, "name"), path + ".name");
      part.size = c.uint(c.member(e, path, "size"), path + ".size");
      const json& sha = c.member(e, path, "sha256");
      if (!sha.is_null()) {
        part.sha256 = c.text(sha, path + ".sha256", 64);
        if (part.sha256.size() != 64 || part.sha256.find_first_not_of("0123456789abcdef") != std::string::npos) {
          c.fail(path + ".sha256", "expected 64 hex digits");
        }
      }
      const auto shards = c.uints(c.member(e, path, "shards"), path + ".shards", 3, std::uint64_t{1} << 40);
      part.begin = shards[0];
      part.end = shards[1];
      part.shards = shards[2];
      if (part.begin >= part.end || part.end > part.shards) c.fail(path + ".shards", "expected [begin, end, N] with begin < end <= N");
      if (part.shards == 1 && part.sha256.empty()) c.fail(path + ".sha256", "a whole file has its SHA-256");
      // The content's identity and the bytes read (absent from files of earlier versions).
      if (e.contains("file_id") || e.contains("bytes")) {
        part.file_id = c.text(c.member(e, path, "file_id"), path + ".file_id", 64);
        if (part.file_id.size() != 64 || part.file_id.find_first_not_of("0123456789abcdef") != std::string::npos) {
          c.fail(path + ".file_id", "expected 64 hex digits");
        }
        const auto bytes = c.uints(c.member(e, path, "bytes"), path + ".bytes", 2, part.size);
        part.bytes_begin = bytes[0];
        part.bytes_end = bytes[1];
        if (part.bytes_begin > part.bytes_end) c.fail(path + ".bytes", "expected [begin, end] with begin <= end <= size");
        if (part.shards == 1 && (part.bytes_begin != 0 || part.bytes_end != part.size)) {
          c.fail(path + ".bytes", "a whole file is bytes [0, size]");
        }
      }
    } else {
      c.fail(path + ".kind", "expected \"file\" or \"algo\"");
    }
    part.decks = c.uint(c.member(e, path, "decks"), path + ".decks", decks);
    part.skipped = c.uint(c.member(e, path, "skipped"), path + ".skipped", t.skipped);
    part_decks += part.decks;
    const auto deck = [&](const char* key) {
      const std::string where = path + "." + key;
      const json& v = c.member(e, path, key);
      return c.uints(v, where, part.decks > 0 ? K : 0, F - 1);
    };
    const auto first = deck("first"), last = deck("last");
    for (const auto* d : {&first, &last}) {
      std::vector<std::uint32_t> seen(F, 0);
      for (const auto f : *d) {
        if (++seen[f] > shape.copies[f]) c.fail(path + (d == &first ? ".first" : ".last"), "not a deck of the pack");
      }
    }
    for (const auto& other : out.parts) {
      if (other.group() == part.group() && part.overlaps(other)) {
        c.fail(path, "repeats decks of an earlier part");
      }
    }
    part.first.assign(first.begin(), first.end());
    part.last.assign(last.begin(), last.end());
    const json& fps = c.member(e, path, "fingerprints");
    if (!fps.is_array() || fps.size() > part.decks || fps.size() > duplicate_finder::limit) {
      c.fail(path + ".fingerprints", "expected at most one fingerprint per deck, at most 2^20");
    }
    fingerprints += fps.size();
    if (fingerprints > duplicate_finder::limit * 64) c.fail(path + ".fingerprints", "too many fingerprints in one file");
    part.fingerprints.reserve(fps.size());
    for (std::size_t k = 0; k < fps.size(); ++k) {
      const std::string h = c.text(fps[k], fmt::format("{}.fingerprints[{}]", path, k), 16);
      if (h.size() != 16 || h.find_first_not_of("0123456789abcdef") != std::string::npos) {
        c.fail(fmt::format("{}.fingerprints[{}]", path, k), "expected 16 hex digits");
      }
      part.fingerprints.push_back(std::stoull(h, nullptr, 16));
    }
    out.parts.push_back(std::move(part));
  }
  if (part_decks != decks) c.fail("parts", fmt::format("hold {} decks, the sums {}", part_decks, decks));
  return out;
}

audit_counts read_audit_counts(const std::string& path) {
  const std::string text = read_text_file(path, audit_counts_max_bytes);
  return parse_audit_counts(text, path == "-" ? "standard input" : path);
}

void audit_merge::add(audit_counts counts, const std::string& name) {
  if (sum_) {
    const audit_counts& s = *sum_;
    const auto differ = [&](const std::string& what) {
      throw error(fmt::format("--merge: '{}' holds another battery than '{}' ({}): only counts of the same pack, --dealt "
                              "and --game add up",
                              name, names_.front(), what));
    };
    if (counts.labels != s.labels || counts.pack_name != s.pack_name || counts.pack_decks != s.pack_decks ||
        counts.jokers != s.jokers) {
      differ(fmt::format("a {} against a {}", counts.pack_description, s.pack_description));
    }
    if (counts.positions != s.positions) differ(fmt::format("{} cards per deck against {}", counts.positions, s.positions));
    if (counts.lags != s.lags) differ(fmt::format("--lags {} against --lags {}", counts.lags, s.lags));
    if (counts.game != s.game) {
      differ(fmt::format("--game {} against --game {}", counts.game.empty() ? "none" : counts.game,
                         s.game.empty() ? "none" : s.game));
    }
  }
  for (const auto& part : counts.parts) {
    auto it = parts_.find(part.group());
    if (it == parts_.end()) continue;
    for (const auto& [other, file] : it->second) {
      if (part.overlaps(other)) {
        throw error(fmt::format("--merge: '{}' repeats {}, already in '{}': the same decks cannot be counted twice", name,
                                part.describe(), file));
      }
    }
  }
  for (auto& part : counts.parts) {
    const std::string g = part.group();
    if (!parts_.contains(g)) group_order_.push_back(g);
    parts_[g].emplace_back(std::move(part), name);
  }
  counts.parts.clear();
  if (!sum_) {
    sum_ = std::move(counts);
  } else {
    audit_tally& t = *sum_->tally;
    t.sums.merge(counts.tally->sums);
    t.skipped += counts.tally->skipped;
    for (const auto& r : counts.tally->skip_reasons) {
      if (t.skip_reasons.size() < max_skip_reasons) t.skip_reasons.push_back(r);
    }
  }
  names_.push_back(name);
}

audit_counts audit_merge::merged() const {
  if (!sum_) throw error("--merge: no counts files");
  audit_counts out{sum_->shufl_version, sum_->pack_name, sum_->pack_description, sum_->pack_decks, sum_->jokers,
                   sum_->labels,        sum_->positions, sum_->game,             std::nullopt,      {}};
  out.shufl_version = SHUFL_VERSION;
  out.lags = sum_->lags;
  out.tally.emplace(sum_->tally->pack, sum_->tally->sums.shape());
  audit_tally& t = *out.tally;
  t.sums = sum_->tally->sums;
  t.skipped = sum_->tally->skipped;
  t.skip_reasons = sum_->tally->skip_reasons;
  // Parts of each input in order, adjacent ones joined; then fingerprints in that order.
  for (const auto& g : group_order_) {
    std::vector<audit_part> parts;
    for (const auto& [part, file] : parts_.at(g)) parts.push_back(part);
    std::sort(parts.begin(), parts.end(), [](const audit_part& a, const audit_part& b) {
      return std::tie(a.bytes_begin, a.begin) < std::tie(b.bytes_begin, b.begin);
    });
    for (auto& part : parts) {
      if (!out.parts.empty() && joins(out.parts.back(), part)) {
        join(out.parts.back(), part, t.sums);
      } else {
        out.parts.push_back(std::move(part));
      }
    }
  }
  for (const auto& part : out.parts) t.sums.duplicates.append(part.fingerprints);
  t.first = out.parts.front().first;
  t.last = out.parts.back().last;
  return out;
}

std::vector<std::string> audit_merge::missing() const {
  std::vector<std::string> out;
  for (const auto& g : group_order_) {
    const auto& parts = parts_.at(g);
    const audit_part& any = parts.front().first;
    // Parts of one file cut with different N: what is missing is a range of bytes.
    bool bytes = false;
    for (const auto& [part, file] : parts) bytes = bytes || (!part.file_id.empty() && part.shards != any.shards);
    const std::uint64_t all = any.generated ? bias_chunk_count(any.trials) : bytes ? any.size : any.shards;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> have;
    for (const auto& [part, file] : parts) {
      if (bytes) {
        have.emplace_back(part.bytes_begin, part.bytes_end);
      } else {
        have.emplace_back(part.begin, part.end);
      }
    }
    std::sort(have.begin(), have.end());
    std::vector<std::string> gaps;
    std::uint64_t at = 0;
    for (const auto& [b, e] : have) {
      if (b > at) gaps.push_back(b == at + 1 ? std::to_string(at) : fmt::format("{}..{}", at, b - 1));
      at = std::max(at, e);
    }
    if (at < all) gaps.push_back(all == at + 1 ? std::to_string(at) : fmt::format("{}..{}", at, all - 1));
    if (gaps.empty()) continue;
    std::string list;
    for (const auto& gap : gaps) list += (list.empty() ? "" : ", ") + gap;
    out.push_back(any.generated ? fmt::format("{} (seed {}, {} trials): chunks {} of {} are missing", any.name,
                                              any.seed ? "\"" + *any.seed + "\"" : "none", any.trials, list, all)
                                : fmt::format("'{}': {} {} of {} are missing", any.name, bytes ? "bytes" : "shards", list, all));
  }
  return out;
}

}  // namespace shufl::audit
