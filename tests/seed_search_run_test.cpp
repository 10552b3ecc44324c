// The whole seed search as the command line and the Python package run it (seed_search_run.hpp):
// a planted seed found with the hooks called, the stop hook, the command line's words for bad options.
#include "shufl/audit/seed_search_run.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "shufl/error.hpp"

namespace shufl::audit {
namespace {

std::string error_of(const auto& f) {
  try {
    f();
  } catch (const error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SeedSearchRun, FindsAPlantedSeedAndCallsItsHooks) {
  auto deal = family_deals(seed_family::python_random, 123456, 52, 1)[0];
  deal.resize(6);
  seed_search_request r;
  r.family = "python-random";
  r.seeds = "100000..150000";
  r.threads = 2;
  const auto setup = setup_seed_search(r);
  std::atomic<std::uint64_t> last_total{0};
  int starts = 0;
  seed_search_hooks hooks;
  hooks.start = [&](const std::vector<search_variant>& variants) -> seed_search_progress {
    ++starts;
    EXPECT_TRUE(variants.empty());
    return [&](std::uint64_t, std::uint64_t total) { last_total = total; };
  };
  hooks.stop = [] { return false; };
  const auto out = run_seed_search(r, setup, {deal}, make_pack(pack_kind::standard), hooks);
  EXPECT_EQ(starts, 1);
  EXPECT_EQ(last_total.load(), 50001u);  // one per-deal search over the whole range
  ASSERT_EQ(out.result.matches.size(), 1u);
  EXPECT_EQ(out.result.matches[0].seed, 123456u);
  // E = 50,001 / (52·51·50·49·48·47) ≈ 3.4e-6 <= 1e-3: predictable, and the rest of the deal predicted.
  EXPECT_EQ(out.chance.verdict, seed_verdict::predictable);
  const auto whole = family_deals(seed_family::python_random, 123456, 52, 1)[0];
  EXPECT_EQ(out.prediction.rest_of_last_deal, std::vector<std::uint32_t>(whole.begin() + 6, whole.end()));
  EXPECT_EQ(out.setting.range->first, 100000u);
  EXPECT_EQ(out.setting.deals.size(), 1u);
}

TEST(SeedSearchRun, TheStopHookStopsTheSearch) {
  const std::vector<std::uint32_t> deal{5, 17, 33, 2, 48, 11, 40, 29};
  seed_search_request r;
  r.family = "python-random";
  r.seeds = "0..2^40";  // hours: only the stop hook ends it
  r.threads = 2;
  int polls = 0;
  seed_search_hooks hooks;
  hooks.stop = [&] { return ++polls >= 3; };
  EXPECT_EQ(error_of([&] { run_seed_search(r, setup_seed_search(r), {deal}, make_pack(pack_kind::standard), hooks); }),
            "seed search: stopped");
  EXPECT_EQ(polls, 3);
  hooks.stop = [] { return true; };  // asked once before the search begins
  EXPECT_EQ(error_of([&] { run_seed_search(r, setup_seed_search(r), {deal}, make_pack(pack_kind::standard), hooks); }),
            "seed search: stopped");
}

TEST(SeedSearchRun, BadOptionsInTheCommandLinesWords) {
  seed_search_request r;
  r.family = "python-random";
  r.seeds = "0..5";
  r.reseed = "twice";
  EXPECT_EQ(error_of([&] { setup_seed_search(r); }), "invalid value 'twice' for --reseed: expected per-deal or once");
  r.reseed = "once";
  r.shard = "0/2";
  r.whole = true;
  EXPECT_EQ(error_of([&] { setup_seed_search(r); }), "--shard: a --report shows a whole search");
  r.whole = false;
  r.deck_order = "order.txt";  // a file, but no hook to read it
  EXPECT_EQ(error_of([&] { run_seed_search(r, setup_seed_search(r), {{1, 2, 3}}, make_pack(pack_kind::standard)); }),
            "--deck-order: 'order.txt' is no deck order");
}

}  // namespace
}  // namespace shufl::audit
