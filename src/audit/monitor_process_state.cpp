// The e-process's state file (include/shufl/audit/monitor.hpp: serialize, deserialize).
#include "shufl/audit/monitor.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "shufl/error.hpp"
#include "monitor_grids.hpp"

namespace shufl::audit {

using monitor_grids::none;
using monitor_grids::predictor_set;

// ---- state file ----

namespace {

nlohmann::json pack_identity(const audit_pack& pack) {
  return {{"name", pack.name},       {"size", pack.size()},     {"decks", pack.decks},
          {"jokers", pack.jokers},   {"copies", pack.copies},   {"suit_of", pack.suit_of},
          {"rank_of", pack.rank_of}, {"ranks", pack.ranks}};
}

std::string describe_pack(const nlohmann::json& id) {
  // render::count_noun's rule (the library cannot call it): "1 deck", "0 jokers".
  const auto count = [](std::uint64_t n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); };
  return fmt::format("'{}' ({}, {}, {})", id.value("name", std::string("?")),
                     count(id.value("size", std::uint64_t{0}), "card", "cards"),
                     count(id.value("decks", std::uint64_t{0}), "deck", "decks"),
                     count(id.value("jokers", std::uint64_t{0}), "joker", "jokers"));
}

// A whole number >= 0 that fits T: a negative, fractional or too large count is refused (it
// would wrap or be cut).
template <class T>
T read_count(const nlohmann::json& v, const char* key) {
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() > std::numeric_limits<T>::max())
    throw shufl::error(fmt::format("state file: '{}' holds a value that is not a whole number of the right range", key));
  return static_cast<T>(v.get<std::uint64_t>());
}

double read_number(const nlohmann::json& v, const char* key) {
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    throw shufl::error(fmt::format("state file: '{}' holds a value that is not a finite number", key));
  return v.get<double>();
}

template <class T>
void read_vector(const nlohmann::json& j, const char* key, std::vector<T>& out, std::size_t size) {
  const auto& a = j.at(key);
  if (!a.is_array() || a.size() != size)
    throw shufl::error(fmt::format("state file: '{}' has the wrong size", key));
  out.clear();
  for (const auto& v : a) {
    if constexpr (std::is_integral_v<T>) {
      out.push_back(read_count<T>(v, key));
    } else {
      out.push_back(read_number(v, key));
    }
  }
}

// Every row of a position table counts each deck once (rows past the deck length: none).
void check_rows(const std::vector<std::uint32_t>& counts, std::size_t columns, std::size_t rows, std::size_t length,
                std::uint64_t decks, const char* key) {
  for (std::size_t t = 0; t < rows; ++t) {
    std::uint64_t sum = 0;
    for (std::size_t c = 0; c < columns; ++c) sum += counts[t * columns + c];
    if (sum != (t < length ? decks : 0))
      throw shufl::error(fmt::format("state file: '{}' does not add up to the decks counted", key));
  }
}

}  // namespace

std::string e_process::predictor_set_name() const {
  return window_ > 0 ? fmt::format("{};window={}", predictor_set, window_) : std::string(predictor_set);
}

std::string e_process::serialize() const {
  nlohmann::json j;
  j["format"] = "shufl audit monitor state";
  j["version"] = 1;
  j["predictor_set"] = predictor_set_name();
  j["pack"] = pack_identity(pack_);
  j["length"] = length_;
  j["decks"] = decks_;
  j["max_log_mixture"] = max_log_mixture_;
  nlohmann::json preds = nlohmann::json::array();
  for (const predictor_state& p : preds_) {
    std::vector<double> logs;
    for (const component& c : p.comps) logs.push_back(c.log_e);
    preds.push_back({{"log_e", logs},
                     {"hits", p.hits},
                     {"guesses", p.guesses},
                     {"expected_hits", p.expected_hits}});
  }
  j["predictors"] = preds;
  j["position_counts"] = pos_count_;
  j["suit_counts"] = suit_count_;
  j["rank_counts"] = rank_count_;
  j["previous"] = prev_;
  if (window_ > 0) {  // the decks in the window, oldest first
    nlohmann::json w = nlohmann::json::array();
    const std::uint64_t kept = std::min<std::uint64_t>(decks_, window_);
    for (std::uint64_t d = decks_ - kept; d < decks_; ++d) {
      const std::uint32_t* slot = ring_.data() + (d % window_) * length_;
      w.push_back(std::vector<std::uint32_t>(slot, slot + length_));
    }
    j["window_decks"] = std::move(w);
  }
  return j.dump();
}

void e_process::deserialize(std::string_view json_text) {
  try {
    deserialize_checked(json_text);
  } catch (const nlohmann::json::exception&) {
    // The parser library's own words (type_error.302 ...) are not for the operator.
    throw shufl::error("state file: malformed (a field is missing or has the wrong type)");
  }
}

void e_process::deserialize_checked(std::string_view json_text) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("format") ||
      j["format"] != "shufl audit monitor state")
    throw shufl::error("state file: not a state file of shufl audit --follow");
  if (j.value("version", 0) != 1)
    throw shufl::error("state file: written by another version of the monitor (version " +
                       j.value("version", nlohmann::json()).dump() + ", this one reads 1)");
  const nlohmann::json mine = pack_identity(pack_);
  if (!j.contains("pack") || j["pack"] != mine)
    throw shufl::error("state file: written for the pack " +
                       (j.contains("pack") && j["pack"].is_object() ? describe_pack(j["pack"])
                                                                    : std::string("?")) +
                       ", this stream's pack is " + describe_pack(mine));
  if (j.value("predictor_set", std::string()) != predictor_set_name())
    throw shufl::error("state file: written for another set of predictors ('" +
                       j.value("predictor_set", std::string()) + "'; this monitor has '" +
                       predictor_set_name() + "')");
  {
    e_process next(pack_, window_);
    next.length_ = read_count<std::size_t>(j.at("length"), "length");
    next.decks_ = read_count<std::uint64_t>(j.at("decks"), "decks");
    next.max_log_mixture_ = read_number(j.at("max_log_mixture"), "max_log_mixture");
    if (next.length_ > n_ || (next.length_ == 0) != (next.decks_ == 0))
      throw shufl::error("state file: inconsistent deck length");
    // No card's factor exceeds 1/p0(card) = R/left <= R, so ln e <= decks · ln(n!): a larger
    // value was not made by this monitor (a forged state that would alarm at once).
    const double most = static_cast<double>(next.decks_) * std::lgamma(static_cast<double>(n_) + 1) + 1e-6;
    if (next.max_log_mixture_ < 0 || next.max_log_mixture_ > most)
      throw shufl::error("state file: 'max_log_mixture' is out of range for the decks counted");
    const auto& preds = j.at("predictors");
    if (!preds.is_array() || preds.size() != next.preds_.size())
      throw shufl::error("state file: wrong number of predictors");
    for (std::size_t p = 0; p < preds.size(); ++p) {
      predictor_state& ps = next.preds_[p];
      std::vector<double> logs;
      read_vector(preds[p], "log_e", logs, ps.comps.size());
      for (std::size_t i = 0; i < logs.size(); ++i) {
        if (logs[i] > most) throw shufl::error("state file: an e-value out of range for the decks counted");
        ps.comps[i].log_e = logs[i];
      }
      ps.hits = read_count<std::uint64_t>(preds[p].at("hits"), "hits");
      ps.guesses = read_count<std::uint64_t>(preds[p].at("guesses"), "guesses");
      ps.expected_hits = read_number(preds[p].at("expected_hits"), "expected_hits");
      if (ps.hits > ps.guesses || ps.guesses > next.decks_ * n_ || ps.expected_hits < 0 ||
          ps.expected_hits > static_cast<double>(ps.guesses))
        throw shufl::error("state file: a predictor's hit counts are inconsistent");
    }
    read_vector(j, "position_counts", next.pos_count_, n_ * faces_);
    read_vector(j, "suit_counts", next.suit_count_, n_ * suits_);
    read_vector(j, "rank_counts", next.rank_count_, n_ * ranks_);
    if (window_ == 0) {
      check_rows(next.pos_count_, faces_, n_, next.length_, next.decks_, "position_counts");
      check_rows(next.suit_count_, suits_, n_, next.length_, next.decks_, "suit_counts");
      check_rows(next.rank_count_, ranks_, n_, next.length_, next.decks_, "rank_counts");
    }
    const auto& prev = j.at("previous");
    if (!prev.is_array() || prev.size() != (next.decks_ == 0 ? 0 : next.length_))
      throw shufl::error("state file: the previous deck has the wrong length");
    if (next.decks_ > 0) {
      std::vector<std::uint32_t> deck;
      for (const auto& v : prev) deck.push_back(read_count<std::uint32_t>(v, "previous"));
      try {
        next.check_deck(deck);
      } catch (const shufl::error& e) {
        // check_deck speaks of a deck given to the monitor ("audit monitor: ..."): here the
        // deck is the state file's.
        std::string why = e.what();
        if (why.rfind("audit monitor: ", 0) == 0) why.erase(0, 15);
        throw shufl::error("state file: the previous deck is not a deck of the pack (" + why + ")");
      }
      next.prev_ = deck;
      std::fill(next.seen_copy_.begin(), next.seen_copy_.end(), 0u);
      for (std::size_t t = 0; t < deck.size(); ++t)
        next.prev_next_[offset_[deck[t]] + next.seen_copy_[deck[t]]++] =
            t + 1 < deck.size() ? deck[t + 1] : none;
    }
    if (window_ > 0) {  // the counts are the window's decks: rebuilt from them
      const auto& w = j.at("window_decks");
      const std::uint64_t kept = std::min<std::uint64_t>(next.decks_, window_);
      if (!w.is_array() || w.size() != kept) throw shufl::error("state file: 'window_decks' has the wrong size");
      std::fill(next.pos_count_.begin(), next.pos_count_.end(), 0u);
      std::fill(next.suit_count_.begin(), next.suit_count_.end(), 0u);
      std::fill(next.rank_count_.begin(), next.rank_count_.end(), 0u);
      if (kept > 0) next.ring_.assign(window_ * next.length_, 0);
      for (std::uint64_t i = 0; i < kept; ++i) {
        std::vector<std::uint32_t> deck;
        if (!w[i].is_array()) throw shufl::error("state file: a deck of 'window_decks' is not a list");
        for (const auto& v : w[i]) deck.push_back(read_count<std::uint32_t>(v, "window_decks"));
        if (deck.size() != next.length_) throw shufl::error("state file: a deck of 'window_decks' has the wrong length");
        next.check_deck(deck);
        std::copy(deck.begin(), deck.end(), next.ring_.begin() + static_cast<std::ptrdiff_t>(((next.decks_ - kept + i) % window_) * next.length_));
        next.count_deck(deck, +1);
      }
    }
    next.rebuild_weights();
    *this = std::move(next);
  }
}

}  // namespace shufl::audit
