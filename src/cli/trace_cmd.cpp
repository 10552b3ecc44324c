// `shufl trace`: options → shufl::run_trace → text (colour only on a terminal), JSON, or the
// HTML page built from the JSON (src/render/trace_output.cpp, html_trace.cpp).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "choices.hpp"
#include "render/name_lists.hpp"
#include "common.hpp"
#include "render/text_escape.hpp"
#include "render/text_width.hpp"
#include "render/html_pages.hpp"
#include "render/trace_output.hpp"
#include "shufl/error.hpp"
#include "shufl/trace.hpp"

namespace shufl::cli {

namespace {

struct trace_cli_options {
  std::string algo = "fisher-yates";
  std::string n;
  std::vector<std::string> items;
  std::string seed;
  std::string draws;
  std::string format = "text";
  std::string runs;
  CLI::Option* seed_option = nullptr;
  CLI::Option* draws_option = nullptr;
};

// The many-runs view's seed when the trace has none (--draws, or keyed from the OS): fixed, so
// the page stays a function of its arguments, and stated on the page.
constexpr const char* kRunsSeed = "trace-page";
// At most this many runs per algorithm (about a second for three algorithms at n = 64).
constexpr std::uint64_t kMaxRuns = 1000000;

constexpr const char* kTraceFooter = R"(
Each step shows the cursor i, the value drawn and the range it was drawn from, what was done
(swap, comparison, cut, key, ...) and the array after it. For algorithms with a finalized region
(Fisher-Yates and its relatives), '|' separates the unshuffled part from the finalized part.
Then a line with the number of random draws and the counting argument for this n, and last
'result: ' with the final order.

Items: ITEM... operands, or --n N for the items 1..N (default: --n 5); at most 255 items.
Randomness: --draws LIST replays the given draws (each in [0, s-1] for a draw of s choices; for
Fisher-Yates, j itself); --seed S uses ChaCha20 keyed by derive_key(BLAKE2b-256(S), "trace", 0);
otherwise ChaCha20 keyed from the operating system.

Examples:
  shufl trace A B C D E --draws 2,0,2,0       the classic worked example: result: B D E A C
  shufl trace --algo naive --n 4 --seed 1     watch the naive shuffle, and why it is biased
  shufl trace --n 6 --seed 2 --format json    the steps as data
  shufl trace --algo naive --n 5 --seed 1 --format html > trace.html
                                              step through it in a browser (works offline)
  (a run without --draws prints "replay: --draws LIST": edit one value and watch what changes)
)";


bool use_colour() {
  const char* no_colour = std::getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) == 1 && (no_colour == nullptr || *no_colour == '\0');
}

}  // namespace

subcommand trace_subcommand() {
  return {"trace", "Show every step of a shuffle algorithm on a small deck, and why it is (un)fair",
          [](CLI::App& sub) -> std::function<int()> {
            auto o = std::make_shared<trace_cli_options>();
            sub.footer(kTraceFooter);
            sub.add_option("--algo", o->algo, "One algorithm, as 'shufl bias --list' shows them")
                ->type_name("NAME")
                ->capture_default_str();
            sub.add_option("-n,--n", o->n, "Trace the items 1..N (default 5; instead of ITEM...)")->type_name("N");
            o->seed_option = sub.add_option("--seed", o->seed, "Any string; the same seed gives the same trace")
                                 ->type_name("SEED")->expected(0, 1);
            o->draws_option = sub.add_option("--draws", o->draws, "Comma-separated draws to replay, e.g. 2,0,2,0")
                                  ->type_name("LIST");
            sub.add_option("--format", o->format,
                           "Output format: " + render::listed(choices::trace_format) + " (html: a self-contained page to step through in a browser)")
                ->type_name("FORMAT")
                ->capture_default_str();
            sub.add_option("--runs", o->runs,
                           "--format html: run each algorithm N times for the page's many-runs view (default 6000; 0: none)")
                ->type_name("N");
            sub.add_option("items", o->items, "The items to shuffle (instead of --n; after -- if one starts with -)")
                ->type_name("ITEM");
            return [o]() -> int {
              trace_options t;
              const auto specs = parse_algorithm_list(o->algo);
              if (specs.size() != 1) {
                throw error(fmt::format("--algo takes one algorithm for trace (got {})", specs.size()));
              }
              t.algorithm = specs.front();
              const auto format = parse_choice("--format", o->format, choices::trace_format);
              std::vector<std::string> labels;
              if (!o->items.empty()) {
                if (!o->n.empty()) throw error("give either --n or ITEM..., not both");
                labels = o->items;
                for (std::size_t k = 0; k < labels.size(); ++k) {
                  if (labels[k].empty()) throw error(fmt::format("item {} is empty", k + 1));
                }
              } else {
                const std::uint64_t n = o->n.empty() ? 5 : parse_uint("--n", o->n);
                if (n < 1 || n > max_trace_n) {
                  throw error(fmt::format("--n must be between 1 and {} (got {})", max_trace_n, n));
                }
                for (std::uint64_t k = 1; k <= n; ++k) labels.push_back(std::to_string(k));
              }
              if (labels.size() > max_trace_n) {
                throw error(fmt::format("at most {} items can be traced (got {})", max_trace_n, labels.size()));
              }
              t.n = labels.size();
              std::uint64_t runs_wanted = many_runs_default;
              if (!o->runs.empty()) {
                if (format != 2) throw error("--runs draws the many-runs view of --format html");
                runs_wanted = parse_uint("--runs", o->runs);
                if (runs_wanted > kMaxRuns) throw error(fmt::format("--runs is at most {} (got {})", kMaxRuns, runs_wanted));
              }
              if (o->draws_option->count() > 0 && o->seed_option->count() > 0) {
                throw error("--draws and --seed cannot be used together");
              }
              if (o->draws_option->count() > 0) t.draws = parse_draw_list(o->draws);
              if (o->seed_option->count() > 0) t.seed = check_seed(o->seed);
              // Text: labels as a terminal shows them safely (control characters quoted), and so the seed.
              std::vector<std::string> shown_labels;
              if (format == 0) {
                for (const auto& l : labels) shown_labels.push_back(shown(l));
              }
              t.step_bytes = render::trace_step_bytes(format == 0 ? shown_labels : labels, format, format == 0 && use_colour());
              const trace_result result = run_trace(t);
              if (format == 0) {
                trace_options shown_options = t;
                if (t.seed) shown_options.seed = escape_controls(*t.seed);
                write_stdout(trace_text_report(shown_options, result, shown_labels, use_colour()));
              } else if (format == 1) {
                write_stdout(trace_json(t, result, labels).dump(2) + "\n");
              } else {
                std::string runs;
                try {
                  runs = many_runs_section(t.algorithm, labels, t.seed.value_or(std::string(kRunsSeed)), t.seed.has_value(),
                                           runs_wanted);
                } catch (const error& e) {
                  runs = fmt::format("<section id=\"many-runs\"><h2>Many runs</h2><p class=\"muted\">{}</p></section>\n",
                                     xml_escape(e.what()));
                }
                write_stdout(trace_page(trace_json(t, result, labels), runs));
              }
              return exit_ok;
            };
          }};
}

}  // namespace shufl::cli
