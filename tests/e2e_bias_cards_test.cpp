// End-to-end tests of `shufl bias --input` with card labels and `--items`: the identity order of
// the items (against which fixed points, inversions, cycles and rising sequences are measured)
// is the pack's canonical order for cards, the --items order when given, and said out loud
// otherwise; the pictures label their rows with the items.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "support/run.hpp"

namespace {

using shufl::test::run_shufl;

// The 52 cards in the standard pack's order, written out here (not taken from shufl).
const char* const kCodes[52] = {"As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks",
                                "Ah", "2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh",
                                "Ad", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "Td", "Jd", "Qd", "Kd",
                                "Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc"};
const char* const kSuitSymbols[4] = {"\u2660", "\u2665", "\u2666", "\u2663"};
const char* const kRanks[13] = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};

// `trials` naive shuffles of 0..51 (swap each position with any position), drawn with a
// SplitMix64 stream of the test's own: the same decks written three ways.
struct naive_decks {
  std::string numbers, codes, unicode, capitals;  // capitals: "10C AS KH", as people type codes
};

naive_decks make_naive(int trials) {
  naive_decks out;
  std::uint64_t state = 12345;
  const auto next = [&] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  for (int t = 0; t < trials; ++t) {
    int deck[52];
    for (int i = 0; i < 52; ++i) deck[i] = i;
    for (int i = 0; i < 52; ++i) std::swap(deck[i], deck[next() % 52]);  // the bias of % is far below the naive's
    for (int i = 0; i < 52; ++i) {
      const char* sep = i == 51 ? "\n" : " ";
      out.numbers += std::to_string(deck[i] + 1) + sep;
      out.codes += std::string(kCodes[deck[i]]) + sep;
      out.unicode += std::string(kRanks[deck[i] % 13]) + kSuitSymbols[deck[i] / 13] + (i == 51 ? "\n" : ", ");
      out.capitals += std::string(kRanks[deck[i] % 13]) + "SHDC"[deck[i] / 13] + sep;
    }
  }
  return out;
}

TEST(E2eBiasCards, CardLabelsAreMeasuredInThePacksOrder) {
  const naive_decks decks = make_naive(4000);
  shufl::test::temp_dir dir;
  const std::string numbers = dir.write("numbers.txt", decks.numbers);
  const std::string codes = dir.write("codes.txt", decks.codes);
  const std::string unicode = dir.write("unicode.txt", decks.unicode);
  const std::string capitals = dir.write("capitals.txt", decks.capitals);
  std::vector<nlohmann::json> docs;
  for (const auto& file : {numbers, codes, unicode, capitals}) {
    const auto r = run_shufl({"bias", "--input", file, "--format", "json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");  // numbers and cards: no note about the order
    docs.push_back(nlohmann::json::parse(r.out));
  }
  EXPECT_EQ(docs[0]["item_order"], "numbers");
  EXPECT_EQ(docs[1]["item_order"], "cards");
  EXPECT_EQ(docs[2]["item_order"], "cards");
  EXPECT_EQ(docs[3]["item_order"], "cards");
  EXPECT_EQ(docs[3]["items"][48], "10C");
  ASSERT_EQ(docs[1]["items"].size(), 52u);
  for (int k = 0; k < 52; ++k) EXPECT_EQ(docs[1]["items"][k], kCodes[k]) << k;
  EXPECT_EQ(docs[2]["items"][9], "10\u2660");
  // The same statistics, whatever the notation.
  for (int d = 1; d <= 3; ++d) {
    EXPECT_EQ(docs[d]["results"][0]["secondary"], docs[0]["results"][0]["secondary"]) << d;
    EXPECT_EQ(docs[d]["results"][0]["position_counts"], docs[0]["results"][0]["position_counts"]) << d;
  }
  // The naive shuffle leaves fewer fixed points than a uniform one (E = 0.891 vs 1 at n = 52).
  const auto& secondary = docs[1]["results"][0]["secondary"];
  bool found = false;
  for (const auto& s : secondary) {
    if (s["name"] != "fixed points") continue;
    found = true;
    EXPECT_LT(s["statistic"].get<double>(), -5) << s;
  }
  EXPECT_TRUE(found) << secondary;

  // The text report says which order; the text heatmap, the SVG and the HTML page label the rows.
  auto r = run_shufl({"bias", "--input", codes, "--plot", dir.file("p.svg"), "--report", dir.file("p.html")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Identity order: the cards in the pack's order"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    Kc "), std::string::npos) << r.out;  // a row of the text heatmap
  for (const auto& picture : {dir.file("p.svg"), dir.file("p.html")}) {
    const std::string text = shufl::test::read_file(picture);
    EXPECT_NE(text.find(R"(data-card="1" data-position="1" data-label="As")"), std::string::npos) << picture;
    EXPECT_NE(text.find(R"(data-card="52" data-position="1" data-label="Kc")"), std::string::npos) << picture;
    EXPECT_NE(text.find(">Qh</text>"), std::string::npos) << picture;  // every row is ticked with its card
  }
  EXPECT_NE(shufl::test::read_file(dir.file("p.html")).find(R"(<p id="item-order">identity order: the cards)"),
            std::string::npos);
}

TEST(E2eBiasCards, ItemsGivesTheOrderElseTheOrderIsSaid) {
  // Every line is "c b a": 3 fixed points in the order c, b, a; 1 (b) in the byte order a, b, c.
  std::string lines;
  for (int t = 0; t < 40; ++t) lines += "c b a\n";
  const auto fixed_mean = [](const nlohmann::json& doc) {
    for (const auto& s : doc["results"][0]["secondary"]) {
      if (s["name"] == "fixed points") return s["detail"].get<std::string>();
    }
    return std::string("none");
  };
  auto r = run_shufl({"bias", "--input", "-", "--format", "json"}, lines);
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["item_order"], "bytes");
  EXPECT_EQ(fixed_mean(j).rfind("mean 1 ", 0), 0u) << fixed_mean(j);
  EXPECT_EQ(r.err,
            "shufl: note: identity order: the items sorted by their bytes, as they are neither numbers nor cards: a b c "
            "(fixed points, inversions, cycles and rising sequences count against it; --items gives another)\n");
  shufl::test::temp_dir dir;
  const std::string list = dir.write("items.txt", "c\nb\n\na\n");
  for (const std::string& items : {std::string("c,b,a"), list}) {
    r = run_shufl({"bias", "--input", "-", "--items", items, "--format", "json"}, lines);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["item_order"], "items");
    EXPECT_EQ(j["items"], nlohmann::json::parse(R"(["c", "b", "a"])"));
    EXPECT_EQ(fixed_mean(j).rfind("mean 3 ", 0), 0u) << fixed_mean(j);
    EXPECT_EQ(j["results"][0]["counts"]["cba"], 40) << j["results"][0]["counts"];
  }
  // --items names cards as cards, in any notation.
  r = run_shufl({"bias", "--input", "-", "--items", "3s, 2\u2660, Ace of Spades", "--format", "json"},
                "As 2s 3s\n3s 2s As\n");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["items"], nlohmann::json::parse(R"(["3s", "2s", "As"])"));
  r = run_shufl({"bias", "--input", "-", "--items", "a,b,d"}, lines);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: --items: 'd' is not an item of the first line of standard input\n");
  EXPECT_EQ(r.out, "");
  r = run_shufl({"bias", "--items", "a,b"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: --items orders the items of --input: add --input FILE\n");
}

TEST(E2eBiasCards, UnknownAndRepeatedCardsAreQuoted) {
  auto r = run_shufl({"bias", "--input", "-"}, "As 2s 3s\n2s 3s 4s\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: standard input: line 2: '4s' is not a card of the first line\n");
  EXPECT_EQ(r.out, "");
  r = run_shufl({"bias", "--input", "-"}, "As 2s 3s\n2s 3s 2\u2660\n");
  EXPECT_EQ(r.err, "shufl: standard input: line 2: card '2\u2660' appears twice\n");
  r = run_shufl({"bias", "--input", "-"}, "As 2s 3s\nAs 2s \x7f\xe2\x80\xae\n");
  EXPECT_EQ(r.err, "shufl: standard input: line 2: '\\x7F\\u{202E}' is not a card of the first line\n");
  r = run_shufl({"bias", "--input", "-"}, "As Kh As\n");
  EXPECT_EQ(r.err, "shufl: standard input: line 1: card 'As' appears twice\n");
}

}  // namespace
