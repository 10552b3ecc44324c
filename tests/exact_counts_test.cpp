// Every number a page, report or JSON document prints from a factorial, binomial or product is
// exact (decimal digits from a big integer) or said to be approximate ("about", "≈"). One test
// per place, each at n >= 21 (where n! no longer fits in 64 bits), against values written with
// Python's math.factorial when the tests were written (literals here, tests/reference/).
//
// The places: trace's counting argument (text and JSON: n!, the product of the draw sizes, the
// pile/overhand/Thorp reachable orders); trace's HTML page (the many-runs sentence and
// data-orders); the bias pictures' test name read from a JSON document (table of n! orders);
// deck --explain (text and JSON). Not printed as counts: bias's exact-law ratios (n <= the exact
// law's limit), audit's ln p floors (p values, printed to 4 significant digits) and
// deck's log2 (rounded, and named log2).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "render/bias_view.hpp"
#include "shufl/exact_count.hpp"
#include "shufl/permutation.hpp"
#include "support/run.hpp"

namespace shufl::test {
namespace {

// Python: math.factorial(21), (22), (52), (100).
constexpr const char* f21 = "51090942171709440000";
constexpr const char* f22 = "1124000727777607680000";
constexpr const char* f52 = "80658175170943878571660636856403766975289505440883277824000000000000";
constexpr const char* f100 =
    "93326215443944152681699238856266700490715968264381621468592963895217599993229915608941463976156518286253697920"
    "827223758251185210916864000000000000000000000000";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ExactCounts, FactorialAndMultinomialDigits) {
  EXPECT_EQ(factorial_decimal(0), "1");
  EXPECT_EQ(factorial_decimal(20), "2432902008176640000");
  EXPECT_EQ(factorial_decimal(21), f21);
  EXPECT_EQ(factorial_decimal(52), f52);
  EXPECT_EQ(factorial_decimal(100), f100);
  // Python: math.factorial(104) // 2**52 (a pair deck of 52 symbols).
  const std::vector<std::uint64_t> pairs(52, 2);
  EXPECT_EQ(multinomial_decimal(104, pairs),
            "2286841104292142739817480260270397947731385025482502766874913064240686762501672463119886085466145431873911"
            "265472729321167650816000000000000000000000000");
  const std::vector<std::uint64_t> none;
  EXPECT_EQ(multinomial_decimal(22, none), f22);
  const std::vector<std::uint64_t> too_many{10, 13};
  EXPECT_THROW(multinomial_decimal(22, too_many), std::exception);
}

// The class page's many-runs sentence and data-orders: 21! exactly (it printed 21! mod 2^64).
TEST(ExactCounts, TracePageOrdersAt21And52) {
  for (const auto& [n, digits] : {std::pair<std::string, std::string>{"21", f21}, {"52", f52}}) {
    const run_result r = run_shufl({"trace", "--n", n, "--seed", "7", "--runs", "50", "--format", "html"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(has(r.out, "data-orders=\"" + digits + "\"")) << n;
    EXPECT_TRUE(has(r.out, "each of the " + n + "! = " + digits + " final orders")) << n;
  }
}

// trace's counting argument: n! and the product of the draw sizes, in JSON and in the text.
TEST(ExactCounts, TraceCountingArgumentAt21) {
  run_result r = run_shufl({"trace", "--n", "21", "--algo", "naive", "--seed", "1", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["counting"]["n_factorial"], f21);
  EXPECT_EQ(j["counting"]["paths"], "5842587018385982521381124421");  // Python: 21**21
  r = run_shufl({"trace", "--n", "21", "--algo", "naive", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, f21)) << r.out;
  EXPECT_TRUE(has(r.out, "5842587018385982521381124421")) << r.out;
  // 52!: 68 digits, said to be approximate in the sentence, exact in the JSON.
  r = run_shufl({"trace", "--n", "52", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "about 8.07e67")) << r.out;
  r = run_shufl({"trace", "--n", "52", "--seed", "1", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["counting"]["n_factorial"], f52);
}

// The reachable orders of the machine and hand shuffles: k! piles, 2^(n-1) overhand cuts,
// 2^(n/2) Thorp coins, past 2^64.
TEST(ExactCounts, TraceReachableOrdersPastSixtyFourBits) {
  run_result r = run_shufl({"trace", "--n", "22", "--algo", "pile:22", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, std::string("22! = ") + f22)) << r.out;
  r = run_shufl({"trace", "--n", "70", "--algo", "overhand", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "2^69 = 590295810358705651712")) << r.out;  // Python: 2**69
  r = run_shufl({"trace", "--n", "140", "--algo", "thorp", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "2^70 = 1180591620717411303424")) << r.out;  // Python: 2**70
}

// The bias pictures name the table test from a JSON document, for whatever n it states.
TEST(ExactCounts, BiasViewTableNameAt21) {
  const nlohmann::json result = {{"test", "table"}};
  EXPECT_EQ(render::primary_test_name(result, 21), std::string("chi-squared (table of ") + f21 + " orders)");
  EXPECT_EQ(render::primary_test_name(result, 5), "chi-squared (table of 120 orders)");
}

// deck --explain: the text says "≈" for the rounded forms, the JSON has the digits.
TEST(ExactCounts, DeckExplainOrders) {
  run_result r = run_shufl({"deck", "--explain", "--seed", "1", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["possible_orders"], f52);
  r = run_shufl({"deck", "--explain", "--decks", "6", "--seed", "1", "--format", "json"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::string shoe = read_file(reference_dir() + "/shoe6_orders.txt");
  shoe.pop_back();
  EXPECT_EQ(nlohmann::json::parse(r.out)["possible_orders"], shoe);
  r = run_shufl({"deck", "--explain", "--seed", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "possible orders: 52! \u2248 2^225.58 (about 8.07e67)\n")) << r.out;
}

}  // namespace
}  // namespace shufl::test
