// The seed-search report of `shufl audit` (see audit_seed_search.hpp).
#include "audit_seed_search.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <optional>

#include <unistd.h>

#include "choices.hpp"
#include "common.hpp"
#include "progress.hpp"
#include "render/seed_search_output.hpp"
#include "shufl/cpus.hpp"
#include "shufl/audit/seed_deals.hpp"
#include "shufl/audit/seed_search.hpp"
#include "shufl/error.hpp"

namespace shufl::cli {

namespace {

using audit::reseed_mode;

}  // namespace

seed_search_report make_seed_search_report(const seed_search_cli_options& o) {
  const auto& family = audit::parse_seed_family(o.family);
  if (o.seeds.empty()) throw error("--seed-search needs --seeds RANGE (A..B or time:START..END)");
  const auto full = audit::parse_seed_range(o.seeds, family);
  const reseed_mode reseed =
      parse_choice("--reseed", o.reseed, choices::reseed) == 0 ? reseed_mode::per_deal : reseed_mode::once;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> shard;
  if (!o.shard.empty()) shard = parse_shard(o.shard);
  audit::audit_pack audit_pack;
  const auto deals = audit::read_seed_deals(o.input, o.reader, audit_pack);
  const deck& pack = audit_pack.cards;

  audit::seed_search_options options;
  options.family = family.family;
  options.n = pack.cards.size();
  options.deals = deals;
  options.reseed = reseed;
  options.all = o.all;
  options.variant.loop = static_cast<audit::shuffle_loop>(parse_choice("--loop", o.loop, choices::loop));
  if (!o.reduce.empty()) {
    const auto r = parse_choice("--reduce", o.reduce, choices::reduce);
    if (r == 1 && family.family != audit::seed_family::c_rand)
      throw error(fmt::format("--reduce mod: {} draws with its own rule; mod applies to c-rand (its default)", family.name));
    options.variant.reduce = r == 2 ? audit::draw_reduction::div : audit::draw_reduction::native;
  }
  audit::check_variant(family.family, options.variant);
  if (!o.deck_order.empty()) options.deck_order = audit::parse_deck_order(o.deck_order, options.n);
  options.threads = o.threads != 0 ? o.threads : default_threads();
  std::optional<audit::seed_range> range = full;
  if (shard) range = audit::shard_of(full, shard->first, shard->second);

  audit::seed_search_result result;
  result.searches = reseed == reseed_mode::once ? 1 : deals.size();
  if (range) {
    options.range = *range;
    // The bar of bias (on a terminal after 0.5 s, or forced by --progress); its rate counts seeds.
    const std::string label = std::string(family.name) + " seeds";
    std::optional<progress_bar> bar;
    bias_progress callback;
    if (o.progress || isatty(STDERR_FILENO) == 1) {
      bar.emplace(std::vector<std::string>{label}, o.progress);
      callback = bar->callback();
      options.progress = [&callback, &label](std::uint64_t done, std::uint64_t total) { callback(done, total, label); };
    }
    // A long search says first how long it will take (measured on its first seeds).
    const std::uint64_t total = range->count() * result.searches;
    if (range->count() == 0 || total / result.searches != range->count() || total >= (std::uint64_t{1} << 30)) {
      const double rate = audit::measure_seed_rate(options);
      if (rate > 0) std::fputs(render::seed_search_estimate(total, options.threads, rate).c_str(), stderr);
    }
    result = audit::search_seeds(options);
    if (bar) bar->stop();
  }

  render::seed_search_input in{&family, o.seeds, full, range, shard, reseed, deals, pack, o.deck_order, options.variant};
  const auto chance = audit::assess_chance(options, result, audit::distinct_states(family.family, full), o.max_chance);
  audit::seed_prediction prediction;
  if (chance.verdict == audit::seed_verdict::predictable) prediction = audit::predict_deals(options, result);
  return render::seed_search_output(in, result, chance, prediction);
}

int run_seed_search(const seed_search_cli_options& options) {
  parse_choice("--format", options.format, choices::text_json);
  const auto report = make_seed_search_report(options);
  write_stdout(render::seed_search_stdout(report, options.format == "json"));
  return report.status;
}

}  // namespace shufl::cli
