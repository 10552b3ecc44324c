// `shufl audit`'s deck reader (audit/deck_reader.hpp, under text_input.hpp's convention). The
// first byte chooses the options (bits 0-2: pack — 0..2 inferred, 3 custom labels, 4 standard,
// 5 piquet, 6 euchre, 7 tarot; bit 3: skip_bad; bits 4-5: decks 1, 1 with --group-by 1, 2, 3
// (a group is non-empty, at most max_group_bytes, UTF-8); bit 6: one joker per
// deck; bit 7: dealt 5), the rest is the file. Properties: every deck returned is a valid
// multiset of the pack (all of it, or `dealt` cards with no face more often than the pack has
// it); faces, copies and face_of agree; the same decks come from memory, streaming from a file
// and through a byte source in small pieces; the battery's reader (tally_text) counts the same
// decks with the same error in memory, through read_at in small pieces and from a deck file read
// with pread (audit/deck_file.hpp); every message (errors, skip reasons, the note) is UTF-8 without control characters;
// anything else is shufl::error.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/audit/deck_file.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/tally.hpp"
#include "shufl/text_input.hpp"

namespace {

using shufl::fuzz::check;

void check_message(const std::string& m) {
  check(shufl::is_valid_utf8(m), "messages are UTF-8");
  check(std::none_of(m.begin(), m.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }),
        "messages hold no control characters");
}

struct outcome {
  std::vector<std::vector<std::uint32_t>> decks;
  std::vector<std::string> groups;
  std::string error;
  bool failed = false;
};

outcome read(shufl::text_reader& in, const shufl::audit::reader_options& o) {
  outcome out;
  try {
    shufl::audit::deck_reader reader(in, o);
    std::vector<std::uint32_t> faces;
    std::vector<std::uint32_t> seen;
    while (reader.next(faces)) {
      const auto& p = reader.pack();
      check(p.size() > 0 && p.face_of.size() == p.size() && p.copies.size() == p.faces(), "a pack is known");
      check(p.suit_of.size() == p.faces() && p.rank_of.size() == p.faces(), "suits and ranks per face");
      std::uint64_t total = 0;
      for (const auto c : p.copies) total += c;
      check(total == p.size(), "copies add up to the pack");
      for (const auto f : p.face_of) check(f < p.faces(), "face_of within faces");
      check(faces.size() == (o.dealt ? *o.dealt : p.size()), "a deck holds the pack, or the dealt cards");
      seen.assign(p.faces(), 0);
      for (const auto f : faces) {
        check(f < p.faces(), "face ids within the pack");
        check(++seen[f] <= p.copies[f], "no face more often than the pack has it");
      }
      check(reader.line_number() > 0, "a line number");
      const std::string_view g = reader.group();
      check(o.group_field == 0 ? g.empty() : !g.empty() && g.size() <= shufl::audit::max_group_bytes, "a group");
      check(shufl::is_valid_utf8(g), "a group is UTF-8");
      out.groups.emplace_back(g);
      out.decks.push_back(faces);
    }
    check(o.skip_bad || reader.skipped() == 0, "skips only with skip_bad");
    check(reader.skip_reasons().size() == std::min<std::uint64_t>(reader.skipped(), shufl::audit::max_skip_reasons),
          "the first reasons kept");
    for (const auto& r : reader.skip_reasons()) check_message(r);
    check_message(reader.inference_note());
  } catch (const shufl::error& e) {
    out.error = e.what();
    out.failed = true;
    check_message(out.error);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  if (size == 0) return 0;
  const std::uint8_t b = data[0];
  audit::reader_options o;
  switch (b & 7) {
    case 3: o.custom_labels = {"x", "Red Dragon", "x", "Ace of Spades", "\xc3\xa9"}; break;
    case 4: o.pack = pack_kind::standard; break;
    case 5: o.pack = pack_kind::piquet; break;
    case 6: o.pack = pack_kind::euchre; break;
    case 7: o.pack = pack_kind::tarot; break;
    default: break;
  }
  o.skip_bad = (b & 8) != 0;
  const unsigned d = (b >> 4) & 3;
  o.decks = d < 2 ? 1 : d;
  if (d == 1) o.group_field = 1;
  if ((b & 64) != 0) o.jokers = 1;
  if ((b & 128) != 0) o.dealt = 5;
  const std::string_view text = fuzz::bytes(data + 1, size - 1);
  text_reader memory(text, "'decks'");
  const outcome a = read(memory, o);
  // Streaming from a file gives the same decks and the same error.
  fuzz::memory_file file(text);
  text_reader streamed = text_reader::open(file.path());
  const outcome c = read(streamed, o);
  check(a.decks == c.decks && a.failed == c.failed, "file = memory");
  if (a.failed) {
    std::string expected = a.error;
    if (const auto at = expected.find("'decks'"); at != std::string::npos) {
      expected.replace(at, 7, input_display_name(file.path()));
    }
    check(expected == c.error, "the same message from a file");
  }
  // Through a byte source (as `audit --follow` reads) in pieces of 1 to 8 bytes: the same again.
  std::size_t at = 0;
  const std::size_t piece = 1 + (size % 8);
  text_reader sourced(
      [&](char* buffer, std::size_t room) -> std::size_t {
        const std::size_t n = std::min({room, piece, text.size() - at});
        text.copy(buffer, n, at);
        at += n;
        return n;
      },
      "'decks'");
  const outcome s = read(sourced, o);
  check(a.decks == s.decks && a.groups == s.groups && a.failed == s.failed && a.error == s.error, "byte source = memory");
  // The battery's reader: in memory, through read_at in pieces, from the file with pread.
  audit::audit_options ao;
  ao.threads = 2;
  const auto tally_of = [](auto&& run) -> std::pair<std::string, std::vector<std::uint64_t>> {
    try {
      const audit::audit_tally t = run();
      return {"", t.sums.card_position.counts()};
    } catch (const error& e) {
      check_message(e.what());
      return {e.what(), {}};
    }
  };
  const auto in_memory = tally_of([&] { return audit::tally_text(text, "'decks'", 0, o, ao); });
  const audit::read_at_function pieces = [&](std::uint64_t offset, char* buffer, std::size_t room) -> std::size_t {
    if (offset >= text.size()) return 0;
    const std::size_t n = std::min({room, piece, static_cast<std::size_t>(text.size() - offset)});
    text.copy(buffer, n, static_cast<std::size_t>(offset));
    return n;
  };
  check(tally_of([&] { return audit::tally_text_at(text.size(), pieces, "'decks'", 0, o, ao); }) == in_memory,
        "tally through read_at = in memory");
  if (const auto f = audit::deck_file::open(file.path())) {
    check(tally_of([&] { return audit::tally_deck_file(*f, {0, f->size()}, "'decks'", o, ao).first; }) == in_memory,
          "tally of the deck file = in memory");
  }
  return 0;
}
