// The seed-search report of `shufl audit` (see audit_seed_search.hpp).
#include "audit_seed_search.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>

#include <unistd.h>

#include "choices.hpp"
#include "common.hpp"
#include "progress.hpp"
#include "render/seed_search_output.hpp"
#include "shufl/audit/seed_search_input.hpp"
#include "shufl/audit/seed_search_run.hpp"
#include "shufl/error.hpp"

namespace shufl::cli {

seed_search_report make_seed_search_report(const seed_search_cli_options& o, bool with_battery) {
  audit::seed_search_request request = o;
  request.whole = with_battery;
  const auto setup = audit::setup_seed_search(request);
  if (with_battery && (o.input == "-" || !std::filesystem::is_regular_file(o.input)))
    throw error("--seed-search with --report reads the input twice (the search, then the battery): give a regular file");
  auto input = text_reader::open(o.input);
  audit::audit_pack pack;
  auto deals = audit::read_logged_deals(input, o.reader, pack);

  // The bar of bias (on a terminal after 0.5 s, or forced by --progress); its rate counts seeds.
  const std::string label = std::string(setup.family->name) + " seeds";
  std::optional<progress_bar> bar;
  bias_progress callback;
  audit::seed_search_hooks hooks;
  hooks.start = [&](const std::vector<audit::search_variant>& variants) -> audit::seed_search_progress {
    if (!variants.empty() || !(o.progress || isatty(STDERR_FILENO) == 1)) return {};
    bar.emplace(std::vector<std::string>{label}, o.progress);
    callback = bar->callback();
    return [&callback, &label](std::uint64_t done, std::uint64_t total) { callback(done, total, label); };
  };
  hooks.cost = [&](const audit::seed_search_cost& c) {
    std::fputs((c.variants != nullptr
                    ? render::seed_search_variants_cost(*setup.family, *c.variants, c.seeds, c.threads, c.rate_per_thread)
                    : render::seed_search_estimate(c.seeds, c.threads, c.rate_per_thread))
                   .c_str(),
               stderr);
  };
  hooks.deck_order_file = [](const std::string& file, const deck& cards) {
    auto in = text_reader::open(file, std::uint64_t{1} << 20);
    return audit::read_deck_order(in, cards);
  };
  const auto outcome = audit::run_seed_search(request, setup, std::move(deals), pack.cards, hooks);
  if (bar) bar->stop();
  return render::seed_search_output(outcome);
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
