// The deck reader of `shufl audit` (audit/deck_reader.hpp): every notation and pack, inference,
// every error message, skip_bad, dealt, CRLF/BOM, numbers. Expected face ids come from deck.hpp's
// documented canonical order (suits s, h, d, c; each Ace first up to the King; then jokers red,
// black; then trumps 0..21), written out by hand below, never from the reader's own output.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "shufl/audit/deck_reader.hpp"
#include "shufl/deck.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {
namespace {

using faces_t = std::vector<std::uint32_t>;

// The standard pack in canonical order, by hand, in each notation.
const std::vector<std::string> kSuitCodes = {"s", "h", "d", "c"};
const std::vector<std::string> kRankCodes = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"};
const std::vector<std::string> kSuitSymbols = {"\u2660", "\u2665", "\u2666", "\u2663"};
const std::vector<std::string> kRankShort = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};
const std::vector<std::string> kRankNames = {"Ace",  "Two", "Three", "Four", "Five",  "Six", "Seven",
                                             "Eight", "Nine", "Ten",  "Jack", "Queen", "King"};
const std::vector<std::string> kSuitNames = {"Spades", "Hearts", "Diamonds", "Clubs"};
// Offsets of A..K in a Unicode playing-card suit block (U+1F0A1 = Ace; U+1F0AC, the Knight, skipped).
const std::vector<char32_t> kGlyphOffsets = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13};

std::string utf8(char32_t cp) {
  std::string out;
  out += static_cast<char>(0xF0 | (cp >> 18));
  out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
  out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  out += static_cast<char>(0x80 | (cp & 0x3F));
  return out;
}

std::vector<std::string> standard(int style) {
  std::vector<std::string> out;
  for (std::size_t s = 0; s < 4; ++s) {
    for (std::size_t r = 0; r < 13; ++r) {
      switch (style) {
        case 0: out.push_back(kRankCodes[r] + kSuitCodes[s]); break;
        case 1: out.push_back(kRankShort[r] + kSuitSymbols[s]); break;
        case 2: out.push_back(utf8(0x1F0A1 + 0x10 * static_cast<char32_t>(s) + kGlyphOffsets[r])); break;
        default: out.push_back(kRankNames[r] + " of " + kSuitNames[s]); break;
      }
    }
  }
  return out;
}

std::string join(const std::vector<std::string>& items, const std::string& sep = " ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

faces_t iota_faces(std::size_t n) {
  faces_t f(n);
  std::iota(f.begin(), f.end(), 0U);
  return f;
}

struct result {
  std::vector<faces_t> decks;
  std::vector<std::uint64_t> lines;
  std::string note;
  audit_pack pack;
  std::uint64_t skipped = 0;
  std::vector<std::string> reasons;
};

result read_all(const std::string& text, reader_options options = {}) {
  text_reader in(text, "'decks.txt'");
  deck_reader reader(in, std::move(options));
  result r;
  faces_t faces{99, 98};  // the reader must clear what the caller left
  while (reader.next(faces)) {
    r.decks.push_back(faces);
    r.lines.push_back(reader.line_number());
  }
  r.note = reader.inference_note();
  r.pack = reader.pack();
  r.skipped = reader.skipped();
  r.reasons = reader.skip_reasons();
  return r;
}

std::string error_of(const std::string& text, reader_options options = {}) {
  try {
    read_all(text, std::move(options));
  } catch (const error& e) {
    return e.what();
  }
  return "no error";
}

reader_options declared(pack_kind kind, std::uint64_t decks = 1, std::uint64_t jokers = 0) {
  reader_options o;
  o.pack = kind;
  o.decks = decks;
  o.jokers = jokers;
  return o;
}

TEST(AuditReader, PokerCodesInCanonicalOrderAreFaces0To51) {
  const auto r = read_all(join(standard(0)) + "\n");
  ASSERT_EQ(r.decks.size(), 1U);
  EXPECT_EQ(r.decks[0], iota_faces(52));
  EXPECT_EQ(r.note, "audit: pack inferred from line 1: standard 52-card deck, poker codes");
  EXPECT_EQ(r.pack.name, "standard");
  EXPECT_EQ(r.pack.size(), 52U);
  EXPECT_EQ(r.pack.faces(), 52U);
  EXPECT_EQ(r.pack.decks, 1U);
  EXPECT_EQ(r.pack.jokers, 0U);
  EXPECT_EQ(r.pack.copies, faces_t(52, 1));
  EXPECT_EQ(r.pack.ranks, 13U);
  ASSERT_TRUE(r.pack.has_suits_and_ranks());
  // Ah is card 13 (suit 1, rank 0); Kc is card 51 (suit 3, rank 12); Td is card 35.
  EXPECT_EQ(r.pack.suit_of[13], 1);
  EXPECT_EQ(r.pack.rank_of[13], 0);
  EXPECT_EQ(r.pack.suit_of[51], 3);
  EXPECT_EQ(r.pack.rank_of[51], 12);
  EXPECT_EQ(r.pack.suit_of[35], 2);
  EXPECT_EQ(r.pack.rank_of[35], 9);
}

TEST(AuditReader, EveryNotationReadsTheSameDeck) {
  auto codes = standard(0);
  // A fixed permutation: reversed, then the top two swapped.
  std::vector<std::size_t> perm(52);
  for (std::size_t i = 0; i < 52; ++i) perm[i] = 51 - i;
  std::swap(perm[0], perm[1]);
  faces_t expected;
  for (const auto p : perm) expected.push_back(static_cast<std::uint32_t>(p));
  const char* notes[] = {"poker codes", "unicode labels", "playing-card glyphs", "card names"};
  for (int style = 0; style < 4; ++style) {
    const auto cards = standard(style);
    std::vector<std::string> line;
    for (const auto p : perm) line.push_back(cards[p]);
    for (const std::string sep : {" ", ", ", "\t", " , "}) {
      const auto r = read_all(join(line, sep) + "\n" + join(cards, sep));
      ASSERT_EQ(r.decks.size(), 2U) << style << " '" << sep << "'";
      EXPECT_EQ(r.decks[0], expected) << style << " '" << sep << "'";
      EXPECT_EQ(r.decks[1], iota_faces(52)) << style << " '" << sep << "'";
      EXPECT_EQ(r.note, std::string("audit: pack inferred from line 1: standard 52-card deck, ") + notes[style]);
    }
  }
}

TEST(AuditReader, CodesWithATenOrCapitalSuitsAreTheSameCards) {
  // "10C 10D", "AS KH": poker codes as people type them; each line is the canonical pack.
  std::vector<std::string> upper, ten;
  for (const auto& c : standard(0)) {
    upper.push_back(c.substr(0, 1) + static_cast<char>(c[1] - 'a' + 'A'));
    ten.push_back(c[0] == 'T' ? "10" + c.substr(1) : c);
  }
  for (const auto& line : {join(upper), join(ten)}) {
    const auto r = read_all(line + "\n" + line + "\n");
    ASSERT_EQ(r.decks.size(), 2U) << line;
    EXPECT_EQ(r.decks[1], iota_faces(52)) << line;
    EXPECT_EQ(r.note, "audit: pack inferred from line 1: standard 52-card deck, poker codes");
  }
  // A declared pack reads them too, on the fast path's lines.
  const auto r = read_all("10C " + join(std::vector<std::string>(upper.begin(), upper.end() - 4)) + " JC QC KC\n",
                          declared(pack_kind::standard));
  ASSERT_EQ(r.decks.size(), 1U);
  EXPECT_EQ(r.decks[0].front(), 48U);  // the Ten of Clubs: suit 3, rank index 9
}

TEST(AuditReader, NamesSeparatedBySpacesAreTheShortestRunOfWordsThatNamesACard) {
  const auto names = standard(3);
  const auto r = read_all("King of Clubs Ace of Spades Two of Spades " +
                          join(std::vector<std::string>(names.begin() + 2, names.end() - 1)));
  ASSERT_EQ(r.decks.size(), 1U);
  faces_t expected = {51, 0, 1};
  for (std::uint32_t i = 2; i < 51; ++i) expected.push_back(i);
  EXPECT_EQ(r.decks[0], expected);
}

TEST(AuditReader, MixedNotationsOnOneLineAreAccepted) {
  auto cards = standard(0);
  cards[0] = "A\u2660";
  cards[1] = "Two of Spades";
  cards[2] = utf8(0x1F0A3);
  const auto r = read_all(join(cards, ", "));
  ASSERT_EQ(r.decks.size(), 1U);
  EXPECT_EQ(r.decks[0], iota_faces(52));
  EXPECT_EQ(r.note, "audit: pack inferred from line 1: standard 52-card deck, mixed notations");
}

TEST(AuditReader, PythonListsQuotesAndBrackets) {
  std::vector<std::string> quoted;
  for (const auto& c : standard(0)) quoted.push_back("'" + c + "'");
  std::vector<std::string> dquoted;
  for (const auto& c : standard(3)) dquoted.push_back("\"" + c + "\"");
  const auto r = read_all("[" + join(quoted, ", ") + "]\n(" + join(dquoted, ", ") + ")\n[" + join(standard(0)) + "]\n");
  ASSERT_EQ(r.decks.size(), 3U);
  for (const auto& d : r.decks) EXPECT_EQ(d, iota_faces(52));
}

TEST(AuditReader, NumbersNameCanonicalCards) {
  std::vector<std::string> nums;
  for (int k = 52; k >= 1; --k) nums.push_back(std::to_string(k));
  const auto r = read_all(join(nums) + "\n" + join(nums, ",") + "\n");
  ASSERT_EQ(r.decks.size(), 2U);
  faces_t expected;
  for (int k = 51; k >= 0; --k) expected.push_back(static_cast<std::uint32_t>(k));
  EXPECT_EQ(r.decks[0], expected);
  EXPECT_EQ(r.decks[1], expected);
  EXPECT_EQ(r.pack.name, "standard");
  EXPECT_EQ(r.note, "audit: pack inferred from line 1: standard 52-card deck, numbers 1..52 in its canonical order");
  // Leading zeros are the same number.
  nums[51] = "001";
  EXPECT_EQ(read_all(join(nums)).decks[0], expected);
}

TEST(AuditReader, NumbersOfKnownPackSizesInferThatPack) {
  struct row {
    std::size_t n;
    const char* name;
    std::uint64_t jokers;
    const char* description;
  };
  for (const auto& c : {row{52, "standard", 0, "standard 52-card deck"}, row{53, "standard", 1, "standard 52-card deck with 1 joker"},
                        row{54, "standard", 2, "standard 52-card deck with 2 jokers"}, row{32, "piquet", 0, "piquet 32-card deck"},
                        row{24, "euchre", 0, "euchre 24-card deck"}, row{78, "tarot", 0, "tarot 78-card deck"}}) {
    std::vector<std::string> nums;
    for (std::size_t k = 1; k <= c.n; ++k) nums.push_back(std::to_string(k));
    const auto r = read_all(join(nums));
    ASSERT_EQ(r.decks.size(), 1U) << c.n;
    EXPECT_EQ(r.decks[0], iota_faces(c.n));
    EXPECT_EQ(r.pack.name, c.name);
    EXPECT_EQ(r.pack.jokers, c.jokers);
    EXPECT_EQ(r.note, "audit: pack inferred from line 1: " + std::string(c.description) + ", numbers 1.." +
                          std::to_string(c.n) + " in its canonical order");
  }
}

TEST(AuditReader, OtherCountsOfNumbersAreACustomNumberedPack) {
  const auto r = read_all("3 1 2 5 4\n5 4 3 2 1\n");
  ASSERT_EQ(r.decks.size(), 2U);
  EXPECT_EQ(r.decks[0], (faces_t{2, 0, 1, 4, 3}));
  EXPECT_EQ(r.decks[1], (faces_t{4, 3, 2, 1, 0}));
  EXPECT_EQ(r.pack.name, "custom");
  EXPECT_EQ(r.pack.size(), 5U);
  EXPECT_FALSE(r.pack.has_suits_and_ranks());
  EXPECT_EQ(r.pack.suit_of, std::vector<std::int8_t>(5, -1));
  EXPECT_EQ(r.note, "audit: pack inferred from line 1: custom pack of 5 numbered cards, numbers 1..5 (no named pack has 5 cards)");
  EXPECT_EQ(error_of("1 2 3\n1 2 x\n"), "'decks.txt': line 2, position 3: unknown card 'x' (numbers run from 1 to 3)");
  EXPECT_EQ(error_of("7\n"), "'decks.txt': line 1: cannot infer the pack: a deck of 1 card; declare it (--pack, --decks, --jokers or --cards-file)");
}

TEST(AuditReader, JokersPiquetEuchreTarotAndShoesAreInferred) {
  auto codes = standard(0);
  // 54 cards: jokers red (card 52) then black (card 53), here on top in the other order.
  auto with_jokers = codes;
  with_jokers.insert(with_jokers.begin(), {"BJ", "RJ"});
  auto r = read_all(join(with_jokers));
  faces_t expected = {53, 52};
  for (std::uint32_t i = 0; i < 52; ++i) expected.push_back(i);
  ASSERT_EQ(r.decks.size(), 1U);
  EXPECT_EQ(r.decks[0], expected);
  EXPECT_EQ(r.pack.jokers, 2U);
  EXPECT_EQ(r.pack.suit_of[52], -1);
  EXPECT_EQ(r.pack.rank_of[53], -1);
  EXPECT_EQ(r.note, "audit: pack inferred from line 1: standard 52-card deck with 2 jokers, poker codes");
  r = read_all(join(codes) + " Red Joker");
  EXPECT_EQ(r.pack.jokers, 1U);
  EXPECT_EQ(r.note, "audit: pack inferred from line 1: standard 52-card deck with 1 joker, mixed notations");

  // Piquet: A 7 8 9 T J Q K per suit; 7h is card 8 + 1 = 9 (rank index 1).
  std::vector<std::string> piquet;
  for (const char* s : {"s", "h", "d", "c"}) {
    for (const char* rk : {"A", "7", "8", "9", "T", "J", "Q", "K"}) piquet.push_back(std::string(rk) + s);
  }
  r = read_all(join(piquet));
  EXPECT_EQ(r.decks.at(0), iota_faces(32));
  EXPECT_EQ(r.pack.name, "piquet");
  EXPECT_EQ(r.pack.ranks, 8U);
  EXPECT_EQ(r.pack.rank_of[9], 1);
  EXPECT_EQ(r.pack.suit_of[9], 1);
  // Euchre: A 9 T J Q K per suit.
  std::vector<std::string> euchre;
  for (const char* s : {"s", "h", "d", "c"}) {
    for (const char* rk : {"A", "9", "T", "J", "Q", "K"}) euchre.push_back(std::string(rk) + s);
  }
  std::reverse(euchre.begin(), euchre.end());
  r = read_all(join(euchre));
  faces_t rev(24);
  for (std::uint32_t i = 0; i < 24; ++i) rev[i] = 23 - i;
  EXPECT_EQ(r.decks.at(0), rev);
  EXPECT_EQ(r.pack.name, "euchre");
  EXPECT_EQ(r.note, "audit: pack inferred from line 1: euchre 24-card deck, poker codes");
  // Tarot: A 2..10 J C Q K per suit (56), then trumps 0t..21t; names, trumps and the Knight.
  std::vector<std::string> tarot;
  for (const char* s : {"s", "h", "d", "c"}) {
    for (const char* rk : {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "C", "Q", "K"}) tarot.push_back(std::string(rk) + s);
  }
  for (int t = 0; t <= 21; ++t) tarot.push_back(std::to_string(t) + "t");
  r = read_all(join(tarot));
  EXPECT_EQ(r.decks.at(0), iota_faces(78));
  EXPECT_EQ(r.pack.name, "tarot");
  EXPECT_EQ(r.pack.ranks, 14U);
  EXPECT_EQ(r.pack.rank_of[11], 11);  // Cs, the Knight
  EXPECT_EQ(r.pack.suit_of[56], -1);  // 0t, the Fool
  tarot[56] = "The Fool";
  tarot[77] = "Trump 21";
  tarot[11] = "Knight of Spades";
  tarot[12] = "Q\u2660";
  r = read_all(join(tarot));
  EXPECT_EQ(r.decks.at(0), iota_faces(78));
  EXPECT_EQ(r.note, "audit: pack inferred from line 1: tarot 78-card deck, mixed notations");

  // A shoe of 2 decks: copies share a face; face_of[52 + i] == i.
  auto shoe = codes;
  shoe.insert(shoe.end(), codes.rbegin(), codes.rend());
  r = read_all(join(shoe));
  ASSERT_EQ(r.decks.size(), 1U);
  EXPECT_EQ(r.pack.decks, 2U);
  EXPECT_EQ(r.pack.size(), 104U);
  EXPECT_EQ(r.pack.faces(), 52U);
  EXPECT_EQ(r.pack.copies, faces_t(52, 2));
  EXPECT_EQ(r.pack.face_of[52], 0U);
  EXPECT_EQ(r.pack.face_of[103], 51U);
  faces_t shoe_faces = iota_faces(52);
  for (std::uint32_t i = 0; i < 52; ++i) shoe_faces.push_back(51 - i);
  EXPECT_EQ(r.decks[0], shoe_faces);
  EXPECT_EQ(r.note, "audit: pack inferred from line 1: 2-deck shoe of standard 52-card decks, poker codes");
  // A 2-deck shoe with a joker per deck: 106 cards, 2 jokers.
  auto shoe_j = shoe;
  shoe_j.push_back("RJ");
  shoe_j.push_back("RJ");
  r = read_all(join(shoe_j));
  EXPECT_EQ(r.pack.decks, 2U);
  EXPECT_EQ(r.pack.jokers, 1U);
  EXPECT_EQ(r.pack.copies.at(52), 2U);
}

TEST(AuditReader, InferenceFailuresSayWhy) {
  auto codes = standard(0);
  codes.pop_back();
  EXPECT_EQ(error_of(join(codes)),
            "'decks.txt': line 1: cannot infer the pack: 51 cards (51 without jokers), and a standard pack has 52; "
            "declare it (--pack, --decks, --jokers or --cards-file)");
  EXPECT_EQ(error_of("\n# a comment\nAs Xx\n"),
            "'decks.txt': line 3, position 2: unknown card 'Xx' (no named pack has it; declare a custom pack with --cards-file)");
  EXPECT_EQ(error_of("As 2s 3\n"),
            "'decks.txt': line 1, position 3: '3' is a number but the line began with card labels (a line holds numbers or card labels, not both)");
  EXPECT_EQ(error_of("1 2 As\n"),
            "'decks.txt': line 1, position 3: 'As' is a card label but the line began with numbers (a line holds numbers or card labels, not both)");
  EXPECT_EQ(error_of("0t 1t RJ " + join(std::vector<std::string>(75, "2t"))),
            "'decks.txt': line 1: cannot infer the pack: 78 cards with tarot cards and jokers; declare it (--pack, --decks, --jokers or --cards-file)");
  auto shoe_j = standard(0);
  for (const auto& c : standard(0)) shoe_j.push_back(c);
  shoe_j.push_back("RJ");
  EXPECT_EQ(error_of(join(shoe_j)),
            "'decks.txt': line 1: cannot infer the pack: 1 joker does not share out evenly over 2 decks; declare it (--pack, --decks, --jokers or --cards-file)");
  shoe_j.push_back("BJ");
  shoe_j.push_back("BJ");
  EXPECT_EQ(error_of(join(shoe_j)),
            "'decks.txt': line 1: cannot infer the pack: 3 jokers do not share out evenly over 2 decks; declare it (--pack, --decks, --jokers or --cards-file)");
}

TEST(AuditReader, EveryDeckIsCheckedAgainstThePack) {
  const auto codes = standard(0);
  const std::string good = join(codes);
  auto repeated = codes;
  repeated[51] = "As";
  auto unknown = codes;
  unknown[2] = "Zz";
  auto short4 = codes;
  short4.erase(short4.begin(), short4.begin() + 4);
  auto short1 = codes;
  short1.erase(short1.begin() + 50);
  const std::string name = "'decks.txt': line 2";
  EXPECT_EQ(error_of(good + "\n" + join(repeated)), name + ", position 52: card 'As' appears more often than the pack has it");
  EXPECT_EQ(error_of(good + "\n" + join(repeated, ", ")), name + ", position 52: card 'As' appears more often than the pack has it");
  EXPECT_EQ(error_of(good + "\n" + join(repeated, "  ")), name + ", position 52: card 'As' appears more often than the pack has it");
  EXPECT_EQ(error_of(good + "\n" + join(unknown)), name + ", position 3: unknown card 'Zz'");
  EXPECT_EQ(error_of(good + "\n" + join(short4)), name + ": 48 cards, the pack has 52 (missing 'As', '2s', '3s' and 1 more)");
  EXPECT_EQ(error_of(good + "\n" + join(short1)), name + ": 51 cards, the pack has 52 (missing 'Qc')");
  EXPECT_EQ(error_of(good + "\n[]"), name + ": 0 cards, the pack has 52 (missing 'As', '2s', '3s' and 49 more)");
  // Missing cards are named in the line's notation; numbers by number.
  auto names = standard(3);
  names.erase(names.begin() + 13);
  EXPECT_EQ(error_of(good + "\n" + join(names, ", ")), name + ": 51 cards, the pack has 52 (missing 'Ace of Hearts')");
  std::vector<std::string> nums;
  for (int k = 1; k <= 52; ++k) nums.push_back(std::to_string(k));
  nums.erase(nums.begin() + 9);
  EXPECT_EQ(error_of(good + "\n" + join(nums)), name + ": 51 cards, the pack has 52 (missing 10)");
  nums.push_back("1");
  EXPECT_EQ(error_of(good + "\n" + join(nums)), name + ", position 52: card '1' appears more often than the pack has it");
  nums.back() = "53";
  EXPECT_EQ(error_of(good + "\n" + join(nums)), name + ", position 52: unknown card '53' (numbers run from 1 to 52)");
  nums.back() = "0";
  EXPECT_EQ(error_of(good + "\n" + join(nums)), name + ", position 52: unknown card '0' (numbers run from 1 to 52)");
  nums.back() = "99999999999999999999999";
  EXPECT_EQ(error_of(good + "\n" + join(nums)),
            name + ", position 52: unknown card '99999999999999999999999' (numbers run from 1 to 52)");
  nums.back() = "Kc";
  EXPECT_EQ(error_of(good + "\n" + join(nums)),
            name + ", position 52: 'Kc' is a card label but the line began with numbers (a line holds numbers or card labels, not both)");
  // A declared pack: a standard card is unknown to piquet.
  EXPECT_EQ(error_of(good, declared(pack_kind::piquet)), "'decks.txt': line 1, position 2: unknown card '2s'");
  // In a shoe a card may appear as often as there are decks, not more.
  auto shoe = codes;
  shoe.insert(shoe.end(), codes.begin(), codes.end());
  shoe[51] = "As";  // the second As; the third comes at position 53 (the second deck's top)
  EXPECT_EQ(error_of(join(shoe), declared(pack_kind::standard, 2)),
            "'decks.txt': line 1, position 53: card 'As' appears more often than the pack has it");
}

TEST(AuditReader, HostileTextIsQuotedSafely) {
  const std::string good = join(standard(0));
  EXPECT_EQ(error_of(good + "\nAs \x1b[31mred\x07 2s"), "'decks.txt': line 2, position 2: unknown card '\\x1B[31mred\\x07'");
  EXPECT_EQ(error_of(good + "\nAs a\u202Eb"), "'decks.txt': line 2, position 2: unknown card 'a\\u{202E}b'");
  EXPECT_EQ(error_of(good + "\nAs it's\\"), "'decks.txt': line 2, position 2: unknown card 'it\\'s\\\\'");
  EXPECT_EQ(error_of(good + "\nAs " + std::string(100, 'x')),
            "'decks.txt': line 2, position 2: unknown card '" + std::string(40, 'x') + "...'");
  EXPECT_EQ(quote_input_text("\xc2\x85|\xef\xbb\xbf|\xe2\x80\x8b|\xe2\x81\xa6|\xc3\xa9"), "'\\u{0085}|\\u{FEFF}|\\u{200B}|\\u{2066}|\xc3\xa9'");
  EXPECT_EQ(quote_input_text("a\xff" "b"), "'a\\xFFb'");
  EXPECT_EQ(quote_input_text(""), "''");
  EXPECT_EQ(quote_input_text(std::string(39, 'y') + "\u00e9\u00e9"), "'" + std::string(39, 'y') + "\u00e9...'");
}

TEST(AuditReader, SkipBadCountsSkipsAndKeepsTheFirstReasons) {
  const auto codes = standard(0);
  const std::string good = join(codes);
  auto bad = codes;
  bad[0] = "Kc";
  reader_options o;
  o.skip_bad = true;
  auto r = read_all(good + "\n" + join(bad) + "\n\n" + good + "\n", o);
  ASSERT_EQ(r.decks.size(), 2U);
  EXPECT_EQ(r.lines, (std::vector<std::uint64_t>{1, 4}));
  EXPECT_EQ(r.skipped, 1U);
  ASSERT_EQ(r.reasons.size(), 1U);
  EXPECT_EQ(r.reasons[0], "'decks.txt': line 2, position 52: card 'Kc' appears more often than the pack has it");
  // The first deck may be invalid too once the pack is inferred; the counts are reset after it.
  std::string text = join(bad) + "\n";
  for (int k = 0; k < 7; ++k) text += "As Ks\n";
  text += good + "\n";
  r = read_all(text, o);
  ASSERT_EQ(r.decks.size(), 1U);
  EXPECT_EQ(r.decks[0], iota_faces(52));
  EXPECT_EQ(r.lines[0], 9U);
  EXPECT_EQ(r.skipped, 8U);
  ASSERT_EQ(r.reasons.size(), max_skip_reasons);
  EXPECT_EQ(r.reasons[0], "'decks.txt': line 1, position 52: card 'Kc' appears more often than the pack has it");
  EXPECT_EQ(r.reasons[4], "'decks.txt': line 5: 2 cards, the pack has 52 (missing '2s', '3s', '4s' and 47 more)");
  // A line that is not UTF-8 is a bad deck too (skipped and counted, its reason the reader's
  // message); without skip_bad it is an error.
  r = read_all(good + "\nAs \xff\n" + good + "\n", o);
  EXPECT_EQ(r.decks.size(), 2U);
  EXPECT_EQ(r.skipped, 1U);
  ASSERT_EQ(r.reasons.size(), 1U);
  EXPECT_EQ(r.reasons[0], "'decks.txt': line 2: invalid UTF-8 (byte 0xff at column 4); text files must be UTF-8");
  EXPECT_EQ(error_of(good + "\nAs \xff\n", reader_options{}),
            "'decks.txt': line 2: invalid UTF-8 (byte 0xff at column 4); text files must be UTF-8");
}

TEST(AuditReader, DealtDecksHoldTheFirstKCards) {
  reader_options o = declared(pack_kind::standard);
  o.dealt = 5;
  // Kd = 2·13 + 12 = 38, 7h = 13 + 6 = 19, 2c = 39 + 1 = 40, Td = 26 + 9 = 35.
  auto r = read_all("As Kd 7h 2c Td\n5 1 52 13 14\n", o);
  ASSERT_EQ(r.decks.size(), 2U);
  EXPECT_EQ(r.decks[0], (faces_t{0, 38, 19, 40, 35}));
  EXPECT_EQ(r.decks[1], (faces_t{4, 0, 51, 12, 13}));
  EXPECT_EQ(r.note, "");
  EXPECT_EQ(error_of("As Kd 7h 2c\n", o), "'decks.txt': line 1: 4 cards, the deal has 5");
  EXPECT_EQ(error_of(join(standard(0)), o), "'decks.txt': line 1: 52 cards, the deal has 5");
  EXPECT_EQ(error_of("As Kd 7h 2c As\n", o), "'decks.txt': line 1, position 5: card 'As' appears more often than the pack has it");
  reader_options shoe = declared(pack_kind::standard, 2);
  shoe.dealt = 3;
  EXPECT_EQ(read_all("As As Kc", shoe).decks.at(0), (faces_t{0, 0, 51}));
  EXPECT_EQ(error_of("As As As", shoe), "'decks.txt': line 1, position 3: card 'As' appears more often than the pack has it");
  // Options that cannot work.
  reader_options zero = declared(pack_kind::standard);
  zero.dealt = 0;
  EXPECT_EQ(error_of("", zero), "--dealt must be at least 1");
  reader_options big = declared(pack_kind::euchre);
  big.dealt = 25;
  EXPECT_EQ(error_of("", big), "--dealt 25 is more than the pack's 24 cards");
  reader_options undeclared;
  undeclared.dealt = 5;
  EXPECT_EQ(error_of("", undeclared),
            "--dealt needs the pack declared (--pack, --decks, --jokers or --cards-file): dealt cards do not show it");
}

TEST(AuditReader, TextConventionBomCrlfCommentsAndBlankLines) {
  const std::string good = join(standard(0));
  const auto r = read_all("\xEF\xBB\xBF" + good + "\r\n\r\n  # shuffler v2\r\n   \t \r\n" + good + "  \r\n" + good, {});
  ASSERT_EQ(r.decks.size(), 3U);
  EXPECT_EQ(r.lines, (std::vector<std::uint64_t>{1, 5, 6}));
  for (const auto& d : r.decks) EXPECT_EQ(d, iota_faces(52));
  EXPECT_EQ(error_of(good + "\n\xc3\x28"), "'decks.txt': line 2: invalid UTF-8 (byte 0xc3 at column 1); text files must be UTF-8");
  // No decks at all: no error, nothing inferred.
  const auto empty = read_all("\n# nothing\n");
  EXPECT_TRUE(empty.decks.empty());
  EXPECT_EQ(empty.note, "");
  EXPECT_EQ(empty.pack.size(), 0U);
}

TEST(AuditReader, StreamsFromAFileAsFromMemory) {
  const std::string path = testing::TempDir() + "audit_reader_decks.txt";
  {
    std::ofstream f(path, std::ios::binary);
    // BOM, CRLF, a comment, and a last line without its newline; the second deck is 52..1.
    std::vector<std::string> nums;
    for (int k = 52; k >= 1; --k) nums.push_back(std::to_string(k));
    f << "\xEF\xBB\xBF# from a shuffler\r\n" << join(standard(0)) << "\r\n" << join(nums, ",");
  }
  text_reader in = text_reader::open(path);
  deck_reader reader(in, declared(pack_kind::standard));
  faces_t faces;
  ASSERT_TRUE(reader.next(faces));
  EXPECT_EQ(faces, iota_faces(52));
  EXPECT_EQ(reader.line_number(), 2U);
  ASSERT_TRUE(reader.next(faces));
  faces_t expected;
  for (int k = 51; k >= 0; --k) expected.push_back(static_cast<std::uint32_t>(k));
  EXPECT_EQ(faces, expected);
  EXPECT_EQ(reader.line_number(), 3U);
  EXPECT_FALSE(reader.next(faces));
  EXPECT_TRUE(faces.empty());
  EXPECT_EQ(reader.inference_note(), "");
  std::remove(path.c_str());
}

TEST(AuditReader, CustomPacksFromLabels) {
  reader_options o;
  o.custom_labels = {"Red Dragon", "Wind", "Wind", "7", "Green Dragon"};
  // Faces by first appearance: Red Dragon 0, Wind 1 (2 copies), 7 2, Green Dragon 3.
  auto r = read_all("Green Dragon, Wind, 7, Red Dragon, Wind\nWind\tWind\t7\tRed Dragon\tGreen Dragon\n", o);
  ASSERT_EQ(r.decks.size(), 2U);
  EXPECT_EQ(r.decks[0], (faces_t{3, 1, 2, 0, 1}));
  EXPECT_EQ(r.decks[1], (faces_t{1, 1, 2, 0, 3}));
  EXPECT_EQ(r.pack.name, "custom");
  EXPECT_EQ(r.pack.face_of, (faces_t{0, 1, 1, 2, 3}));
  EXPECT_EQ(r.pack.copies, (faces_t{1, 2, 1, 1}));
  EXPECT_EQ(r.note, "");
  // "7" is a label here, so digits are labels, never numbers; spaces: shortest run of words.
  EXPECT_EQ(read_all("Wind 7 Green Dragon Wind Red Dragon", o).decks.at(0), (faces_t{1, 2, 3, 1, 0}));
  EXPECT_EQ(error_of("Wind, 7, Green Dragon, Wind, 1", o), "'decks.txt': line 1, position 5: unknown card '1'");
  EXPECT_EQ(error_of("Wind, Wind, Wind, 7, Red Dragon", o),
            "'decks.txt': line 1, position 3: card 'Wind' appears more often than the pack has it");
  // Without an all-digit label, numbers name the canonical cards 1..N.
  reader_options p;
  p.custom_labels = {"x", "y", "y"};
  EXPECT_EQ(read_all("3 1 2\ny x y", p).decks, (std::vector<faces_t>{{1, 0, 1}, {1, 0, 1}}));
  EXPECT_EQ(error_of("2 2 1", p), "'decks.txt': line 1, position 2: card '2' appears more often than the pack has it");
  reader_options both = p;
  both.pack = pack_kind::standard;
  EXPECT_EQ(error_of("", both), "a named pack (--pack) and custom cards (--cards-file) cannot be combined");
  reader_options jokers = p;
  jokers.jokers = 1;
  EXPECT_EQ(error_of("", jokers), "--jokers does not apply to a custom pack (--cards-file): list the jokers as cards");
}

TEST(AuditReader, MakeAuditPackOfDeclaredPacks) {
  reader_options o;
  o.jokers = 3;
  const audit_pack p = make_audit_pack(o);  // standard by default; jokers red, black, red
  EXPECT_EQ(p.name, "standard");
  EXPECT_EQ(p.size(), 55U);
  EXPECT_EQ(p.faces(), 54U);
  EXPECT_EQ(p.face_of[52], 52U);
  EXPECT_EQ(p.face_of[53], 53U);
  EXPECT_EQ(p.face_of[54], 52U);
  EXPECT_EQ(p.copies[52], 2U);
  EXPECT_EQ(p.copies[53], 1U);
  const audit_pack shoe = make_audit_pack(declared(pack_kind::piquet, 6));
  EXPECT_EQ(shoe.size(), 192U);
  EXPECT_EQ(shoe.faces(), 32U);
  EXPECT_EQ(shoe.copies, faces_t(32, 6));
  EXPECT_EQ(shoe.face_of[32 * 5 + 31], 31U);
  EXPECT_EQ(shoe.ranks, 8U);
  EXPECT_THROW(make_audit_pack(declared(pack_kind::tarot, 1, 1)), error);
  EXPECT_THROW(make_audit_pack(declared(pack_kind::standard, 0)), error);
  // Declaring jokers alone declares the standard pack: a line with jokers in another order reads.
  auto codes = standard(0);
  codes.insert(codes.begin(), "BJ");
  codes.push_back("RJ");
  codes.push_back("RJ");
  const auto r = read_all(join(codes), o);
  ASSERT_EQ(r.decks.size(), 1U);
  EXPECT_EQ(r.decks[0].front(), 53U);
  EXPECT_EQ(r.decks[0].back(), 52U);
}

}  // namespace
}  // namespace shufl::audit
