// The monitor of `audit --follow` (audit/monitor.hpp): its state file and its decks. The first
// byte chooses the pack (bit 0: a standard 52-card pack or a 5-card shoe of three faces with
// suits, ranks and a face without either) and the mode (bit 1). Mode 0: the rest is a state
// file; deserialize either succeeds or throws shufl::error with a "state file: " message, and a
// state it accepts round-trips (serialize → deserialize → serialize gives the same text) and
// takes further decks. Mode 1: the rest is a stream of face ids (one byte each, cut into decks
// of the pack's size); add_deck accepts valid decks and throws shufl::error for others, leaving
// the process unchanged; every status value is finite (no NaN) and a state round-trips. Bit 2 in
// mode 0: the rest is the change detector's part of a state (audit/detector.hpp), held to the
// same rules. Bits 1 and 2 together: the rest is the state of a monitor's groups (--group-by,
// audit/follow_groups.hpp: bit 3 says whether groups are expected), held to the same rules.
#include <cmath>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/detector.hpp"
#include "shufl/audit/follow_groups.hpp"
#include "shufl/audit/monitor.hpp"
#include "shufl/deck.hpp"

namespace {

using shufl::fuzz::check;

shufl::audit::audit_pack small_shoe() {
  shufl::audit::audit_pack p;
  p.name = "shoe";
  p.copies = {2, 2, 1};
  p.face_of = {0, 0, 1, 1, 2};
  p.suit_of = {0, 1, -1};
  p.rank_of = {0, 1, -1};
  p.ranks = 2;
  return p;
}

void check_status(const shufl::audit::e_process& e) {
  const auto s = e.current();
  for (const auto& [name, v] : s.log10_e) check(std::isfinite(v), "finite predictor e-values");
  check(std::isfinite(s.log10_mixture) && std::isfinite(s.max_log10_mixture), "finite mixture");
  check(s.max_log10_mixture >= s.log10_mixture - 1e-9 && s.max_log10_mixture >= 0, "the maximum");
  check(s.anytime_p >= 0 && s.anytime_p <= 1, "a p-value");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  if (size == 0) return 0;
  const audit::audit_pack pack =
      (data[0] & 1) != 0 ? small_shoe()
                         : audit::audit_pack_of(make_pack(pack_kind::standard), "standard", 1, 0);
  const std::string_view rest = fuzz::bytes(data + 1, size - 1);
  audit::e_process e(pack);
  std::vector<std::uint32_t> deck(pack.size());
  if ((data[0] & 6) == 6) {
    const bool grouped = (data[0] & 8) != 0;
    audit::follow_group_set groups(pack, 1e9, grouped, 50);
    try {
      groups.deserialize(rest);
    } catch (const shufl::error& err) {
      check(std::string(err.what()).rfind("state file: ", 0) == 0, "state messages say so");
      return 0;
    }
    const std::string once = groups.serialize();
    audit::follow_group_set again(pack, 1e9, grouped, 50);
    again.deserialize(once);
    check(again.serialize() == once, "an accepted groups state round-trips");
    check(groups.all().size() <= 50, "at most --max-groups groups");
    return 0;
  }
  if ((data[0] & 6) == 4) {
    audit::change_detector d(pack, 1e9);
    const std::string fresh = d.serialize();
    try {
      d.deserialize(rest);
    } catch (const shufl::error& err) {
      check(std::string(err.what()).rfind("state file: ", 0) == 0, "state messages say so");
      check(d.serialize() == fresh, "a refused state changes nothing");
      return 0;
    }
    const std::string once = d.serialize();
    audit::change_detector again(pack, 1e9);
    again.deserialize(once);
    check(again.serialize() == once, "an accepted detector state round-trips");
    const auto s = d.current();
    check(!std::isnan(s.log10_m), "a number");
    return 0;
  }
  if ((data[0] & 2) == 0) {
    try {
      e.deserialize(rest);
    } catch (const shufl::error& err) {
      check(std::string(err.what()).rfind("state file: ", 0) == 0, "state messages say so");
      check(e.decks() == 0, "a refused state changes nothing");
      return 0;
    }
    const std::string once = e.serialize();
    audit::e_process again(pack);
    again.deserialize(once);
    check(again.serialize() == once, "an accepted state round-trips");
    for (std::size_t i = 0; i < deck.size(); ++i) deck[i] = pack.face_of[i];
    try {
      e.add_deck(deck);  // a partial-deal state refuses a whole deck: that is a shufl::error
    } catch (const shufl::error&) {
    }
    check_status(e);
    return 0;
  }
  for (std::size_t at = 0; at + deck.size() <= rest.size(); at += deck.size()) {
    for (std::size_t i = 0; i < deck.size(); ++i)
      deck[i] = static_cast<unsigned char>(rest[at + i]) % (pack.faces() + 1);  // sometimes invalid
    const std::uint64_t before = e.decks();
    try {
      e.add_deck(deck);
      check(e.decks() == before + 1, "a deck counted");
    } catch (const shufl::error&) {
      check(e.decks() == before, "a refused deck changes nothing");
    }
    check_status(e);
  }
  audit::e_process again(pack);
  again.deserialize(e.serialize());
  check(again.serialize() == e.serialize(), "a state round-trips");
  return 0;
}
