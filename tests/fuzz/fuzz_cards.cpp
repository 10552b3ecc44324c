// `shufl deck --cards-file` (deck.hpp, read_card_labels under text_input.hpp's convention),
// custom decks and card codes. The first byte is --decks, the rest the file. Properties: labels
// are non-empty, trimmed UTF-8; the deck has labels × decks cards within the limits; a label that
// parses as a card code prints back as itself; shuffling gives a permutation.
#include <algorithm>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/deck.hpp"
#include "shufl/text_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  if (size == 0) return 0;
  const std::uint64_t decks = data[0] < 250 ? data[0] % 8 : std::uint64_t{1} << (data[0] - 226);  // up to 2^29
  text_reader reader(fuzz::bytes(data + 1, size - 1), "'cards'");
  std::vector<std::string> labels;
  try {
    labels = read_card_labels(reader);
  } catch (const error&) {
    return 0;
  }
  for (const auto& l : labels) {
    fuzz::check(!l.empty() && l.front() != ' ' && l.back() != ' ' && is_valid_utf8(l), "trimmed UTF-8 labels");
    fuzz::check(l.find('\n') == std::string::npos, "no newline in labels");
    if (const auto c = parse_card_code(l)) {
      fuzz::check(parse_card_code(format_card(*c, card_style::code)) == c, "card codes round-trip");
      for (const auto style : {card_style::unicode, card_style::glyph, card_style::name}) (void)format_card(*c, style);
    }
  }
  // Decks of 2^20 to max_deck_size cards are left out: valid, but seconds each to build (a
  // timeout of the fuzzer, not a finding); sizes above the limit still meet its check.
  const std::uint64_t cards = static_cast<std::uint64_t>(labels.size()) * decks;
  if (cards > (std::uint64_t{1} << 20) && cards <= max_deck_size) return 0;
  try {
    const deck d = make_custom(labels, decks);
    fuzz::check(d.cards.size() == labels.size() * decks, "labels x decks cards");
    fuzz::check(d.cards.size() <= max_deck_size, "within max_deck_size");
    if (d.cards.size() <= 4096) {
      deck_randomness r;
      r.seed = "fuzz";
      auto order = shuffle_indices(d.cards.size(), r);
      std::sort(order.begin(), order.end());
      for (std::size_t i = 0; i < order.size(); ++i) fuzz::check(order[i] == i, "a shuffle is a permutation");
    }
  } catch (const error&) {
  }
  return 0;
}
