// Every --help that names the values of an option names all of them: the library's tables
// (packs, engines, card styles, seed-search families, loops, reductions, tiers) read here directly,
// and every closed list `shufl --complete-values` reports, so a value added to a table cannot be
// missing from the help.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/seed_search.hpp"
#include "shufl/audit/tier.hpp"
#include "shufl/deck.hpp"
#include "shufl/random.hpp"
#include "support/run.hpp"

namespace shufl {
namespace {

// The help text of `option` in `shufl command --help`: its row and the wrapped lines under it,
// joined with single spaces.
std::string option_help(const std::string& command, const std::string& option) {
  const auto help = test::run_shufl({command, "--help"});
  EXPECT_EQ(help.status, 0) << help.err;
  std::string out;
  bool in = false;
  for (const auto& line : test::lines(help.out)) {
    const auto text = line.find_first_not_of(' ');
    if (text == std::string::npos) {
      in = false;
      continue;
    }
    if (text == 2) in = line.compare(2, option.size() + 1, option + " ") == 0;
    if (in) out += line.substr(text) + " ";
  }
  EXPECT_FALSE(out.empty()) << command << " --help has no " << option;
  return out;
}

// Whether `name` stands in `help` as a word of its own (not inside "php-mt-rand-legacy" for
// "php-mt-rand", nor inside "standard (10^6)" for a pack "standard" elsewhere: the help is one
// option's).
bool names(const std::string& help, std::string_view name) {
  const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
  for (std::size_t at = help.find(name); at != std::string::npos; at = help.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at == 0 || !word_char(help[at - 1])) && (end == help.size() || !word_char(help[end]))) return true;
  }
  return false;
}

void expect_all(const std::string& command, const std::string& option, const std::vector<std::string>& values) {
  ASSERT_FALSE(values.empty()) << command << " " << option;
  const std::string help = option_help(command, option);
  for (const auto& v : values) EXPECT_TRUE(names(help, v)) << command << " " << option << " lacks '" << v << "': " << help;
}

template <class Range>
std::vector<std::string> strings(const Range& r) {
  std::vector<std::string> out;
  for (const auto& v : r) out.emplace_back(v);
  return out;
}

TEST(E2eHelpLists, EveryLibraryNameIsInTheHelp) {
  expect_all("audit", "--pack", strings(pack_names()));
  expect_all("deck", "--pack", strings(pack_names()));
  for (const char* command : {"audit", "bias", "deck"}) expect_all(command, "--rng", strings(engine_names()));
  expect_all("deck", "--style", strings(card_style_names()));
  std::vector<std::string> families;
  for (const auto& f : audit::seed_families()) families.emplace_back(f.name);
  EXPECT_GE(families.size(), 12u);
  expect_all("audit", "--seed-search", families);
  expect_all("audit", "--loop", strings(audit::shuffle_loop_names));
  expect_all("audit", "--reduce", strings(audit::draw_reduction_names));
  std::vector<std::string> tiers;
  for (const auto& t : audit::audit_tiers()) tiers.push_back(t.name);
  expect_all("audit", "--tier", tiers);
  // The tiers' sizes too, hand-derived from docs/audit.md: small 10^4, standard 10^6, big 10^8 decks.
  const std::string tier_help = option_help("audit", "--tier");
  EXPECT_NE(tier_help.find("small (10^4 decks), standard (10^6) or big (10^8)"), std::string::npos) << tier_help;
  // The packs' sizes, counted by hand: 52, 32 (piquet and skat), 24, 78.
  const std::string pack_help = option_help("deck", "--pack");
  EXPECT_NE(pack_help.find("standard (52), piquet (32), skat (32), euchre (24), tarot (78)"), std::string::npos) << pack_help;
}

TEST(E2eHelpLists, EveryCompletedListIsInTheHelp) {
  const auto pairs = test::run_shufl({"--complete-values"});
  ASSERT_EQ(pairs.status, 0) << pairs.err;
  std::size_t checked = 0;
  for (const auto& line : test::lines(pairs.out)) {
    const auto space = line.find(' ');
    ASSERT_NE(space, std::string::npos) << line;
    const std::string command = line.substr(0, space), option = line.substr(space + 1);
    const auto values = test::run_shufl({"--complete-values", command, option});
    ASSERT_EQ(values.status, 0) << values.err;
    expect_all(command, option, test::lines(values.out));
    ++checked;
  }
  EXPECT_GE(checked, 17u);
}

// The names --help shows for --deck-order: both orders, the ORDER|FILE placeholder and the file form.
TEST(E2eHelpLists, DeckOrderSaysItsForms) {
  const std::string help = option_help("audit", "--deck-order");
  EXPECT_EQ(help.rfind("--deck-order ORDER|FILE ", 0), 0u) << help;
  EXPECT_NE(help.find("suit-major|rank-major[:SUITS[:RANKS]]"), std::string::npos) << help;
  EXPECT_NE(help.find("or a FILE listing every card of the pack once"), std::string::npos) << help;
}

}  // namespace
}  // namespace shufl
