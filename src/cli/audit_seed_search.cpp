// The seed-search report of `shufl audit` (see audit_seed_search.hpp).
#include "audit_seed_search.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>

#include <unistd.h>

#include "choices.hpp"
#include "common.hpp"
#include "progress.hpp"
#include "render/seed_search_output.hpp"
#include "shufl/cpus.hpp"
#include "shufl/audit/seed_search_input.hpp"
#include "shufl/audit/seed_search.hpp"
#include "shufl/error.hpp"

namespace shufl::cli {

namespace {

using audit::reseed_mode;

}  // namespace

seed_search_report make_seed_search_report(const seed_search_cli_options& o, bool with_battery) {
  const auto& family = audit::parse_seed_family(o.family);
  const auto full = audit::parse_seed_range(o.seeds, family);  // node-math-random: no seeds, none to give
  // node-math-random's generator is never reseeded: its state is recovered from the cards.
  const bool node = family.family == audit::seed_family::node_math_random;
  const reseed_mode reseed =
      parse_choice("--reseed", o.reseed, choices::reseed) == 0 && !node ? reseed_mode::per_deal : reseed_mode::once;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> shard;
  if (!o.shard.empty() && (node || with_battery))
    throw error(node ? "--shard: node-math-random has no seed range to split" : "--shard: a --report shows a whole search");
  if (!o.shard.empty()) shard = audit::parse_shard(o.shard);
  if (with_battery && (o.input == "-" || !std::filesystem::is_regular_file(o.input)))
    throw error("--seed-search with --report reads the input twice (the search, then the battery): give a regular file");
  auto input = text_reader::open(o.input);
  audit::audit_pack audit_pack;
  const auto deals = audit::read_logged_deals(input, o.reader, audit_pack);
  const deck& pack = audit_pack.cards;

  audit::seed_search_options options;
  options.family = family.family;
  options.n = pack.cards.size();
  options.deals = deals;
  options.reseed = reseed;
  options.all = o.all;
  options.variant = audit::parse_family_variant(family, o.loop, o.reduce, o.carry_over, o.try_variants, options);
  if (o.deck_order.starts_with("suit-major") || o.deck_order.starts_with("rank-major")) {
    options.deck_order = audit::parse_deck_order(o.deck_order, options.n);
  } else if (!o.deck_order.empty()) {
    auto in = text_reader::open(o.deck_order, std::uint64_t{1} << 20);
    options.deck_order = audit::read_deck_order(in, pack);
  }
  std::vector<audit::search_variant> variants;
  if (o.try_variants) variants = audit::family_variants(options, o.deck_order);
  options.threads = o.threads != 0 ? o.threads : default_threads();
  std::string deck_order_name = o.deck_order;
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
    if (variants.empty() && (o.progress || isatty(STDERR_FILENO) == 1)) {
      bar.emplace(std::vector<std::string>{label}, o.progress);
      callback = bar->callback();
      options.progress = [&callback, &label](std::uint64_t done, std::uint64_t total) { callback(done, total, label); };
    }
    // A long search says first how long it will take (measured on its first seeds); --try-variants
    // always states its cost, measured on its second variant (the first has the fast filters).
    const std::uint64_t total = range->count() * result.searches;
    if (!variants.empty()) {
      const double rate = audit::measure_seed_rate(options, std::uint64_t{1} << 17, &variants[variants.size() > 1 ? 1 : 0]);
      std::fputs(render::seed_search_variants_cost(family, variants, total, options.threads, rate).c_str(), stderr);
      const auto found = audit::search_variants(options, variants);  // options: the variant that matched
      result = found.result;
      deck_order_name = variants[found.variant < variants.size() ? found.variant : 0].deck_order_name;
    } else {
      if (range->count() == 0 || total / result.searches != range->count() || total >= (std::uint64_t{1} << 30)) {
        const double rate = audit::measure_seed_rate(options);
        if (rate > 0) std::fputs(render::seed_search_estimate(total, options.threads, rate).c_str(), stderr);
      }
      result = audit::search_seeds(options);
    }
    if (bar) bar->stop();
  }

  const std::size_t tried = std::max<std::size_t>(1, variants.size());
  render::seed_search_input in{&family, o.seeds, full, range, shard, reseed, deals,
                               pack, deck_order_name, options.variant, tried};
  const auto chance =
      audit::assess_chance(options, result, audit::distinct_states(family.family, full), o.max_chance, tried);
  audit::seed_prediction prediction;
  if (chance.verdict == audit::seed_verdict::predictable) prediction = audit::predict_deals(options, result);
  return render::seed_search_output(in, result, chance, prediction);
}

int worse_status(int battery, const std::optional<seed_search_report>& search) noexcept {
  if (!search) return battery;
  if (battery == 3 || search->status == 3) return 3;
  return battery == 4 || search->status == 4 ? 4 : battery;
}

int run_seed_search(const seed_search_cli_options& options) {
  parse_choice("--format", options.format, choices::text_json);
  const auto report = make_seed_search_report(options);
  write_stdout(render::seed_search_stdout(report, options.format == "json"));
  return report.status;
}

}  // namespace shufl::cli
