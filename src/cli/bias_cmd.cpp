// `shufl bias`: options → shufl::run_bias (or --merge) → text, JSON or CSV, the SVG plot and the
// report page (src/render/), and saved counts (shufl/bias_counts.hpp).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <csignal>

#include "choices.hpp"
#include "render/name_lists.hpp"
#include "common.hpp"
#include "page_provenance.hpp"
#include "render/bias_report.hpp"
#include "progress.hpp"
#include "shufl/io/side_file.hpp"
#include "render/text_escape.hpp"
#include "shufl/cpus.hpp"
#include "shufl/bias.hpp"
#include "shufl/error.hpp"

namespace shufl::cli {

namespace {

struct bias_cli_options {
  std::string n = "3";
  std::string trials = "60000";
  std::string seed;
  std::string algo = "fisher-yates,naive";
  std::string alpha = "0.01";
  std::string threads;
  std::string rng = "xoshiro256pp";
  std::string format = "text";
  std::string test = "auto";
  std::string input;
  std::string items;
  std::string monte_carlo;
  std::string plot;
  std::string report;
  std::string save_counts;
  std::vector<std::string> merge;
  std::string shard;
  std::string resume;
  bool allow_partial = false;
  bool check = false;
  bool exact = false;
  bool list = false;
  bool no_secondary = false;
  bool progress = false;
};

constexpr const char* kBiasFooter = R"(
Each algorithm shuffles the deck 1..n TRIALS times. The primary test: the table of the n! orders
(Pearson chi-squared, df = n! - 1, upper tail) when n! <= 10^6 and every expected count is at
least 5, else the element x position matrix (X2 scaled by (n-1)/n, df = (n-1)^2), which the fixed
point, cycle, inversion, rising-sequence and duplicate tests then join with Holm's correction
(they also join an invalid table). A test is valid at its sample size when its approximation
holds: chi-squared tests when every expected count is >= 5 (or with --monte-carlo), z-tests from
30 trials, duplicates whenever reported. Decision rule: "biased" when any valid test in the verdict
rejects at alpha family-wise (Holm); else "unreliable" when the primary test is not valid; else
"no evidence of bias". The verdict line names the test and the adjusted p that decided. No p is
printed below that of the most extreme outcomes under uniformity (one permutation T times:
n! (1/n!)^T): there it is a bound ("p <= ..."). Power: the stated TV is detected with
probability >= 90% (asymptotically) by this rule, because the primary test alone at alpha /
(number of tests in the verdict) reaches it (for the matrix, by laws near uniform). Exit status: 0
success, 1 error; with --check: 3 when any algorithm is biased, else 4 when any verdict is
unreliable, else 0; 5 when --merge lacks shards of a seeded run (unless --allow-partial); 128 +
the signal when SIGHUP, SIGINT, SIGPIPE or SIGTERM stops a --save-counts run (129, 130, 141, 143:
its finished chunks are saved; --resume continues).

Examples:
  shufl bias --n 3 --trials 60000                 the signature run: naive is biased
  shufl bias --n 4 --trials 240000 --seed 1       reproducible, any --threads
  shufl bias --algo naive --format json --check   machine-readable, exit 3 on bias
  shufl bias --n 52 --trials 1000000 --algo fisher-yates,riffle:7,weak-seed
  shufl bias --n 8 --exact --algo naive           exact law: every one of 8^8 paths
  shufl bias --n 52 --exact --algo riffle:1..10   Bayer-Diaconis, closed form
  python3 my_shuffle.py | shufl bias --input -    test anyone's shuffle
  shufl bias --list                               every algorithm, one line each
  shufl bias --n 4 --seed 1 --report r.html       the run as a page: pictures, tests, JSON
  shufl bias --n 52 --trials 1000000000 --seed 7 --shard 0/4 --save-counts part-0.json
  shufl bias --merge part-*.json                  the shards' report = the unsharded run's
)";

// SIGHUP/SIGINT/SIGPIPE/SIGTERM during a run that saves its counts: stop starting chunks, save
// what is done (the first signal is the one reported).
std::atomic<bool> g_stop{false};
volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_stop_signal(int sig) {
  if (g_signal == 0) g_signal = sig;
  g_stop.store(true);
}

// Every signal of side_file_signals that is not ignored (an ignored SIGHUP under nohup stays
// ignored) stops the run; they replace the side files' handler, as the run removes its
// temporaries on its way out.
void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (const int sig : io::side_file_signals) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

}  // namespace

subcommand bias_subcommand() {
  return {"bias", "Run shuffle algorithms many times and test the permutation counts for bias",
          [](CLI::App& sub) -> std::function<int()> {
            auto o = std::make_shared<bias_cli_options>();
            sub.footer(kBiasFooter);
            sub.add_option("-n,--n", o->n, "Deck size: cards 1..N (2 to 255)")->type_name("N")->capture_default_str();
            sub.add_option("--trials", o->trials, "Shuffles per algorithm (an integer; 1e6 or 2.5e6 also do)")
                ->type_name("N")
                ->capture_default_str();
            sub.add_option("--seed", o->seed, "Any string; the same seed gives the same counts")->type_name("SEED")->expected(0, 1);
            sub.add_option("--algo", o->algo, "Comma-separated algorithms (see --list; riffle:1..10 expands)")
                ->type_name("LIST")
                ->capture_default_str();
            sub.add_flag("--list", o->list, "List every algorithm with its one-line definition");
            sub.add_option("--alpha", o->alpha, "Significance level per algorithm (family-wise), in (0, 1)")
                ->type_name("FLOAT")
                ->capture_default_str();
            sub.add_option("--test", o->test, "Primary test: " + render::listed(choices::bias_test))->type_name("NAME")->capture_default_str();
            sub.add_flag("--no-secondary", o->no_secondary,
                         "Skip the fixed point, cycle, inversion and rising-sequence tests (about 2.5x faster at n = 52)");
            sub.add_flag("--exact", o->exact, "Exact laws, no trials: enumeration of every path (n <= 10), or the riffle:K closed form (any n)");
            sub.add_option("--input", o->input, "Test permutations read from FILE ('-': stdin), one per line")
                ->option_text("FILE");
            sub.add_option("--items", o->items,
                           "--input: the identity order of the items, as a comma-separated list or a file of one item "
                           "per line (default: numbers by value, cards in the pack's order, else by bytes)")
                ->option_text("LIST|FILE");
            sub.add_option("--monte-carlo", o->monte_carlo,
                           "Monte-Carlo p-value from N simulated tables (1 to 1000000; 1e5 also does)")
                ->type_name("N");
            sub.add_option("--plot", o->plot, "Write the position matrices as an SVG heatmap (colour: each cell's z-score, clipped at +-4)")->option_text("FILE.svg");
            sub.add_option("--report", o->report,
                           "Write a self-contained HTML page of the run (pictures, tests, the JSON document)")
                ->option_text("FILE.html");
            sub.add_option("--save-counts", o->save_counts, "Save the counts (with engine, seed, version) to FILE")
                ->option_text("FILE");
            sub.add_option("--merge", o->merge,
                           "Add up counts saved by --save-counts (runs, shards) and test the sums; exit 5 when "
                           "shards of a seeded run are missing")
                ->option_text("FILE...");
            sub.add_flag("--allow-partial", o->allow_partial,
                         "With --merge: report on the shards present without exit status 5");
            sub.add_option("--shard", o->shard,
                           "Count only shard I of N (0 <= I < N: chunks floor(I*C/N) to floor((I+1)*C/N)-1 of the "
                           "C chunks of 65536 trials) into --save-counts; needs --seed; merge the parts with --merge")
                ->option_text("I/N");
            sub.add_option("--resume", o->resume,
                           "Continue an interrupted --save-counts run: count only the chunks FILE lacks (same command)")
                ->option_text("FILE");
            sub.add_option("--threads", o->threads, "Worker threads (default: the CPUs this process may use); never changes the counts")->type_name("N");
            sub.add_option("--rng", o->rng, "Engine: " + render::listed(engine_names()))
                ->type_name("NAME")
                ->capture_default_str();
            sub.add_flag("--progress", o->progress,
                         "Show the progress bar on stderr even when stderr is not a terminal, from the "
                         "start (as pv -f); on a terminal it appears by itself after 0.5 s");
            sub.add_flag("--check", o->check, "Exit 3 when any algorithm is biased, else 4 when any verdict is unreliable");
            sub.add_option("--format", o->format, "Output format: " + render::listed(choices::bias_format))->type_name("FORMAT")->capture_default_str();
            return [o, &sub]() -> int {
              if (o->list) {
                write_stdout(render::algorithm_list_text());
                return exit_ok;
              }
              bias_options b;
              b.n = static_cast<std::size_t>(std::min<std::uint64_t>(parse_uint("--n", o->n), 1000));
              b.trials = parse_count("--trials", o->trials);
              if (sub.count("--seed") > 0) b.seed = check_seed(o->seed);
              b.algorithms = parse_algorithm_list(o->algo);
              b.alpha = parse_double("--alpha", o->alpha);
              b.engine = parse_engine(o->rng);
              b.exact = o->exact;
              b.secondary = !o->no_secondary;
              parse_choice("--format", o->format, choices::bias_format);
              constexpr bias_test tests[] = {bias_test::automatic, bias_test::table, bias_test::position};
              b.test = tests[parse_choice("--test", o->test, choices::bias_test)];
              if (!o->monte_carlo.empty()) {
                b.monte_carlo = parse_count("--monte-carlo", o->monte_carlo);
                if (b.monte_carlo < 1 || b.monte_carlo > 1'000'000) throw error("--monte-carlo must be between 1 and 1000000");
              }
              if (o->threads.empty()) {
                b.threads = default_threads();
              } else {
                const auto t = parse_uint("--threads", o->threads);
                if (t < 1 || t > 1024) throw error("--threads must be between 1 and 1024");
                b.threads = static_cast<unsigned>(t);
              }
              if (b.exact && (!o->input.empty() || !o->merge.empty())) {
                throw error("--exact cannot be combined with --input or --merge");
              }
              if (b.exact && sub.count("--report") > 0) {
                throw error("--report draws a run of trials (counts, heatmaps, tests) and --exact runs none: drop "
                            "--report (the exact laws are in --format json)");
              }
              if (b.exact) {
                // --exact runs no trials: refuse what only trials use instead of ignoring it.
                for (const char* name : {"--trials", "--seed", "--monte-carlo", "--plot", "--save-counts", "--test", "--threads", "--rng", "--progress"}) {
                  if (sub.count(name) > 0) {
                    throw error(fmt::format("--exact computes the exact law and runs no trials: drop {}", name));
                  }
                }
              }
              if (!o->input.empty() && !o->merge.empty()) throw error("--input cannot be combined with --merge");
              if (o->allow_partial && o->merge.empty()) throw error("--allow-partial applies to --merge only");
              const bool sharded = !o->shard.empty();
              if (sharded) {
                for (const char* name : {"--check", "--exact", "--input", "--monte-carlo", "--merge", "--plot"}) {
                  if (sub.count(name) > 0) {
                    throw error(fmt::format("--shard counts one part of a run and tests nothing: drop {} (the merge of "
                                            "the parts tests them)", name));
                  }
                }
                if (!b.seed) throw error("--shard needs --seed: the shards of one run share its seed");
                if (o->save_counts.empty()) throw error("--shard needs --save-counts FILE: the part's counts go there");
                b.shard = parse_shard(o->shard);
                b.evaluate = false;
              }
              if (!o->resume.empty()) {
                if (!o->merge.empty() || !o->input.empty() || b.exact) throw error("--resume continues a run of trials: drop --merge, --input and --exact");
                if (!b.seed) throw error("--resume needs the --seed of the interrupted run");
              }
              // Two outputs in one file would leave only the last written; a picture or page over
              // an input would destroy it (the counts file may be the --resume or --merge file it
              // extends: read whole before it is replaced).
              {
                std::vector<io::named_file> files;
                if (sub.count("--save-counts") > 0) files.push_back({"--save-counts", o->save_counts, true});
                if (sub.count("--plot") > 0) files.push_back({"--plot", o->plot, true});
                if (sub.count("--report") > 0) files.push_back({"--report", o->report, true});
                for (const auto& m : o->merge) files.push_back({"--merge", m, false, "--save-counts"});
                if (!o->input.empty()) files.push_back({"--input", o->input, false});
                if (!o->resume.empty()) files.push_back({"--resume", o->resume, false, "--save-counts"});
                io::check_distinct_files(files);
              }
              // A run of trials that saves its counts stops cleanly on a signal: the handler goes in
              // before the side files exist (theirs then stays out), so a signal during the setup
              // too saves a valid part (of no chunk) instead of dying without one.
              const bool stops_cleanly = !o->save_counts.empty() && o->merge.empty() && !b.exact && o->input.empty();
              if (stops_cleanly) catch_stop_signals();
              // Side files are created now, before the work, so a bad path fails at once (U05).
              std::optional<io::side_file> counts_file, plot_file, report_file;
              if (sub.count("--save-counts") > 0) counts_file.emplace("--save-counts", o->save_counts);
              if (sub.count("--plot") > 0) plot_file.emplace("--plot", o->plot, io::side_format::svg);
              if (sub.count("--report") > 0) report_file.emplace("--report", o->report, io::side_format::html);
              bias_report report;
              std::string counts_text;
              if (!o->merge.empty()) {
                const bias_merge merge = merge_counts_files(o->merge);
                report = merge.report(b);
                if (!o->save_counts.empty()) counts_text = write_counts_file(merge.merged());
              } else {
                if (!o->items.empty() && o->input.empty()) throw error("--items orders the items of --input: add --input FILE");
                if (!o->input.empty()) {
                  if (sub.count("--algo") || sub.count("--n") || sub.count("--trials")) {
                    throw error("--input infers n and the trial count and tests no algorithm: drop --n, --trials and --algo");
                  }
                  // Streamed: memory holds the permutations (n bytes each), not the file.
                  auto list = read_permutation_input(o->input, o->items);
                  b.n = list.n;
                  b.input = std::move(list.perms);
                  b.input_symbols = std::move(list.symbols);
                  b.input_order = list.order;
                  b.input_name = o->input == "-" ? "stdin" : o->input;
                  if (list.order == item_order::bytes) {
                    // Fixed points, inversions, cycles and rising sequences depend on the order: say which.
                    std::fprintf(stderr, "shufl: note: %s\n",
                                 escape_controls(item_order_sentence(b.input_order, b.input_symbols)).c_str());
                  }
                }
                // Each thread of the table test keeps its own n! counts: cap the threads, and say so.
                if (!b.exact && choose_test(b.test, b.n, b.input ? 1 : b.trials) == "table" &&
                    b.threads > bias_max_table_threads(b.n) && !b.input) {
                  const auto cap = static_cast<unsigned>(bias_max_table_threads(b.n));
                  std::fprintf(stderr, "shufl: note: --threads %u capped to %u for n = %zu (each thread keeps its own "
                               "table of n! counts; at most %llu MiB in all)\n", b.threads, cap, b.n,
                               static_cast<unsigned long long>(bias_max_table_memory >> 20));
                  b.threads = cap;
                }
                // The chunks to count: a shard's, less what a resumed file holds.
                std::optional<bias_counts> resumed;
                if (!b.input && !b.exact && (sharded || !o->resume.empty())) resumed = plan_chunks(b, o->resume);
                // A bar on a terminal (or forced) for runs of trials; erased before any output (U02).
                std::optional<progress_bar> bar;
                if ((o->progress || isatty(STDERR_FILENO) == 1) && !b.exact && !b.input) {
                  std::vector<std::string> labels;
                  for (const auto& a : b.algorithms) labels.push_back(a.label());
                  bar.emplace(std::move(labels), o->progress);
                  b.progress = bar->callback();
                }
                if (stops_cleanly) b.stop = &g_stop;
                report = run_bias(b);
                if (bar) bar->stop();
                const bias_counts counts = resumed ? resumed_counts(*resumed, o->resume, report, b) : counts_of_report(report);
                if (!o->save_counts.empty()) counts_text = write_counts_file(counts);
                if (report.interrupted || sharded) {
                  if (!counts_file) throw error("--shard needs --save-counts FILE");
                  if (std::string m = counts_file->commit(counts_text); !m.empty()) throw error(m);
                  if (report.interrupted) {
                    const int sig = g_signal == 0 ? SIGINT : g_signal;
                    std::fputs(render::bias_interrupted_text(counts, b, io::signal_name(sig), o->save_counts).c_str(), stderr);
                    return 128 + sig;
                  }
                  std::fputs(render::bias_shard_saved_text(b, o->save_counts).c_str(), stderr);
                  return exit_ok;
                }
              }
              const std::string seed_text = b.seed ? fmt::format("\"{}\"", escape_controls(*b.seed)) : "none (from the OS)";
              side_file_errors side_errors;
              if (counts_file) side_errors.commit(*counts_file, counts_text);
              if (plot_file) side_errors.commit(*plot_file, svg_plot(report));
              if (report_file) {
                side_errors.commit(*report_file,
                                   bias_report_page(report, b.threads, page_provenance_now()));
              }
              if (o->format == "text") render::make_text_safe(report);  // after the side files, which escape their own way
              write_stdout(o->format == "json"  ? json_report(report, b.threads)
                           : o->format == "csv" ? csv_report(report)
                                                : escape_controls(text_report(report, seed_text, b.threads), true));
              if (!report.missing.empty() && !o->allow_partial) {
                for (const auto& m : report.missing) {
                  std::fprintf(stderr, "shufl: partial merge: %s\n", escape_controls(m).c_str());
                }
                return side_errors.finish(exit_partial);
              }
              const auto any = [&](verdict v) {
                return std::any_of(report.results.begin(), report.results.end(),
                                   [v](const auto& r) { return r.outcome == v; });
              };
              if (!o->check) return side_errors.finish(exit_ok);
              return side_errors.finish(any(verdict::biased)       ? exit_bias_found
                                        : any(verdict::unreliable) ? exit_bias_unreliable
                                                                   : exit_ok);
            };
          }};
}

}  // namespace shufl::cli

