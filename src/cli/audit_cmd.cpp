// `shufl audit`: the options, their checks, and the dispatch to --follow (audit_follow.cpp), --plan
// (audit_plan.cpp), --seed-search (audit_seed_search.cpp) or the battery (audit_battery.cpp).
#include <fmt/format.h>
#include <unistd.h>

#include <memory>
#include <optional>

#include "audit_cmd.hpp"
#include "audit_follow.hpp"
#include "shufl/audit/groups.hpp"
#include "audit_plan.hpp"
#include "audit_seed_search.hpp"
#include "choices.hpp"
#include "render/name_lists.hpp"
#include "audit_sign.hpp"
#include "common.hpp"
#include "shufl/io/side_file.hpp"
#include "shufl/cpus.hpp"
#include "shufl/audit/tier.hpp"
#include "shufl/error.hpp"

namespace shufl::cli {

namespace {

constexpr const char* kAuditFooter = R"(
Input: one deck per line, top card first, cards separated by spaces: labels as 'shufl deck'
prints them (poker codes As Td 9c, unicode, glyphs, names, jokers RJ/BJ, tarot trumps) or numbers
1..N, k naming the k-th card of the pack's canonical order (standard: As 2s ... Ks, Ah ... Kh,
Ad ... Kd, Ac ... Kc), which is also the original order of successions and guessing. Without
--pack/--cards-file the pack is inferred from the first deck (one line on stderr says how).

The battery: card-position, suit-position, rank-position (position tables: Pearson X2 x (N-1)/N);
successions, adjacent-pairs, descents, rising-sequences, runs-up-down, fixed-points (totals against
exact laws, two-sided); guessing, guessing-shelf (correct guesses with feedback, upper tail);
permutation-3, permutation-4 (Knuth); position-pairs (cards 1..--lags apart, Wald); coupon-collector-
suits and -ranks (cards until every suit/rank shows, exact law); gap (gaps within a suit, Wald);
serial-successions and serial-position (a card's successor or place repeated in the next deck,
against the decks' own margins: dependence only); duplicates (identical decks, Poisson); with
--game poker or blackjack, poker-hands or blackjack-hands (the hands --deal deals, per seat).
Every report states what each planned test could detect at its decks (power about 0.9) and which
rule clauses the tests answer. Each test is pass, fail, not-valid (too few decks for its
approximation) or not-applicable (e.g. a shoe for successions, --dealt for whole-deck tests).
Decision: Holm over the valid tests at --alpha (family-wise). The result says "no evidence of
non-randomness", never that decks are fair. Exit status: 0 success, 1 error; with --check, 3
when a test fails; 5 when --merge lacks shards (unless --allow-partial); with --seed-search, 3 when
a seed reproduces the deals and E (chance matches expected) <= --max-chance, 4 when seeds match but
E is larger (chance explains them).

--follow: monitors a live stream (docs/monitor.md). After every deck a change detector (position,
successor, repeat, suit-rank learning the last 32 and 1024 decks; replay of the last 2^20) and the
since-the-start e-process are updated; a status (UTC time, decks, log10 e of each predictor, p, the
detector's log10 M and alarm level) comes every --every N decks or --interval S seconds, as text or
JSON Lines (--format json). The alarm, when M reaches --arl A (default 1e9), names the leading
predictor and runs --on-alarm; a fair shuffler raises it on average no sooner than after A decks. It
ends the run unless --keep-going (the detector then restarts from 0). A pipe is read to its end, a
file followed like tail -F (rotations too; SIGHUP reopens it). The end of input, SIGINT and SIGTERM
print a final status and the battery's report (--alpha, default 0.001) on this run's decks. Exit
status: 0; 3: the detector alarmed (only then); 6: the final battery failed; 1: an error.
--report FILE.html also writes a printable test report (A4; heatmaps, each total against its law).
--plan prints the decks each test needs to detect an effect of size --effect with probability
--power at --alpha/m (m: Holm's family) for the battery of --lags and --batch-size, or of --tier
(and whether its decks suffice); it reads no decks.

Examples:
  shufl deck --count 100000 --seed s | shufl audit -
  shufl audit decks.txt --format json
  shufl audit --algo riffle:3,fisher-yates --trials 20000 --seed 1
  shufl audit shoe.txt --pack standard --decks 6 --game blackjack
  shufl audit --follow dealt.log --state monitor.json --metrics shufl.prom
  shufl audit decks.txt --report audit.html
  shufl audit --plan --effect 0.02
  shufl audit decks.txt --shard 0/4 --save-counts part-0.json   (a quarter)
  shufl audit --merge part-*.json       the report of the whole file
)";

int run_audit(const audit_cli_options& o, const CLI::App& sub) {
  if (const auto status = run_audit_sign(o.signing, o.file, !o.report.empty(), sub)) return *status;
  // A file option given an empty name would write nothing and say nothing.
  for (const auto& [name, value] : {std::pair<const char*, const std::string*>{"--report", &o.report},
                                    {"--state", &o.state}, {"--metrics", &o.metrics}, {"--save-counts", &o.save_counts}}) {
    if (sub.count(name) > 0 && value->empty()) throw error(fmt::format("{} needs a file name", name));
  }
  {  // No output over an input or another output (--state is read and rewritten, but is no other file).
    std::vector<io::named_file> files;
    for (const auto& [name, value] : {std::pair<const char*, const std::string*>{"--report", &o.report},
                                      {"--save-counts", &o.save_counts}, {"--metrics", &o.metrics}, {"--state", &o.state}}) {
      if (!value->empty()) files.push_back({name, *value, true});
    }
    const bool reads_stdin = o.file.empty() && o.merge.empty() && !o.plan && sub.count("--algo") == 0;
    if (!o.file.empty() || reads_stdin) files.push_back({"", o.file.empty() ? "-" : o.file, false});
    if (!o.cards_file.empty()) files.push_back({"--cards-file", o.cards_file, false});
    for (const auto& m : o.merge) files.push_back({"--merge", m, false, "--save-counts"});
    io::check_distinct_files(files);
  }
  audit::audit_options options;
  options.alpha = parse_double("--alpha", o.alpha);
  if (!(options.alpha > 0 && options.alpha < 1)) throw error(fmt::format("--alpha must be between 0 and 1, not {}", o.alpha));
  parse_choice("--format", o.format, choices::text_json);
  if (o.threads.empty()) {
    options.threads = default_threads();
  } else {
    const auto t = parse_uint("--threads", o.threads);
    if (t < 1 || t > 1024) throw error("--threads must be between 1 and 1024");
    options.threads = static_cast<unsigned>(t);
  }
  const auto given = [&](const char* name, const std::string& value) {
    return sub.count(name) > 0 ? std::optional<std::string_view>(value) : std::nullopt;
  };
  options.game = audit::parse_game(given("--game", o.game), given("--deal", o.deal));
  // A negative count of lags is out of the same 1 to 64 as 0 (and says so in the same words).
  if (o.lags.size() > 1 && o.lags[0] == '-' && o.lags.find_first_not_of("0123456789", 1) == std::string::npos)
    throw error(fmt::format("--lags must be 1 to 64, not {}", o.lags));
  options.lags = static_cast<std::size_t>(parse_uint("--lags", o.lags));
  if ((options.batch_size = parse_uint("--batch-size", o.batch_size)) > 0 && (!o.save_counts.empty() || !o.merge.empty())) throw error(audit::batches_counts_refusal);
  if (!o.tier.empty()) audit::apply_tier(options, o.tier, [&](const char* name) { return sub.count(name) > 0; });
  const bool generated = sub.count("--algo") > 0;
  if (!generated) {
    for (const char* name : {"--trials", "--seed", "--rng"}) {
      if (sub.count(name) > 0) throw error(fmt::format("{} applies to --algo (decks shufl generates)", name));
    }
  }
  audit::reader_options ro = reader_options_of(o, sub);
  std::size_t max_groups = audit::default_max_groups;  // --group-by N --max-groups M (docs/audit-input.md)
  if (sub.count("--group-by") > 0 && ((ro.group_field = parse_uint("--group-by", o.group_by)) < 1 || ro.group_field > 1000))
    throw error(fmt::format("--group-by must be a field number from 1 to 1000, not {}", o.group_by));
  if (sub.count("--max-groups") > 0 && ((max_groups = parse_uint("--max-groups", o.max_groups)) < 1 || max_groups > 10000000))
    throw error(fmt::format("--max-groups must be from 1 to 10000000, not {}", o.max_groups));
  if (sub.count("--max-groups") > 0 && ro.group_field == 0) throw error("--max-groups applies to --group-by");
  if (o.follow) {
    for (const char* name : {"--algo", "--seed-search", "--threads", "--check", "--report", "--plan", "--batch-size"}) {
      if (sub.count(name) > 0) throw error(fmt::format("{} does not apply to --follow", name));
    }
    follow_cli_options fo;
    fo.input = o.file;
    if (fo.input.empty()) {
      if (isatty(STDIN_FILENO)) throw error("no input: give FILE or '-' for standard input");
      fo.input = "-";
    }
    fo.reader = ro;
    fo.max_groups = max_groups;
    if (sub.count("--alpha") > 0) fo.alpha = o.alpha;
    fo.game = options.game;
    fo.format = o.format;
    if (sub.count("--every") > 0) fo.every = o.every;
    if (sub.count("--interval") > 0) fo.interval = o.interval;
    fo.on_alarm = o.on_alarm;
    fo.keep_going = o.keep_going;
    if (sub.count("--arl") > 0) fo.arl = o.arl;
    fo.reset_alarm = o.reset_alarm;
    fo.state = o.state;
    fo.metrics = o.metrics;
    fo.service = o.service;
    return run_follow(fo);
  }
  for (const char* name : {"--every", "--interval", "--on-alarm", "--keep-going", "--state", "--metrics", "--arl",
                           "--reset-alarm", "--on-alarm-timeout", "--metrics-label", "--metrics-interval"}) {
    if (sub.count(name) > 0) throw error(fmt::format("{} applies to --follow", name));
  }
  if (!o.plan) {
    for (const char* name : {"--effect", "--power"}) {
      if (sub.count(name) > 0) throw error(fmt::format("{} applies to --plan", name));
    }
  } else {
    if (!o.file.empty()) throw error(fmt::format("--plan reads no decks: drop the input '{}'", o.file));
    for (const char* name : {"--algo", "--dealt", "--skip-bad", "--check", "--seed-search", "--report"}) {
      if (sub.count(name) > 0) throw error(fmt::format("--plan reads no decks: drop {}", name));
    }
    return run_audit_plan({audit::make_audit_pack(ro), options, o.power, o.effect, o.format});
  }
  if (ro.group_field != 0) {  // one battery per group, Holm over all
    for (const char* name : {"--algo", "--merge", "--save-counts", "--shard", "--seed-search", "--report", "--batch-size", "--tier"})
      if (sub.count(name) > 0) throw error(fmt::format("{} does not apply to --group-by", name));
    return run_audit_groups(o, options, ro, max_groups);
  }
  std::optional<seed_search_report> search;  // --seed-search with --report: both run, every output shows both
  if (sub.count("--seed-search") > 0) {
    if (generated) throw error("--seed-search reads logged deals: drop --algo");
    for (const char* name : {"--skip-bad", "--save-counts", "--merge", "--allow-partial"}) {
      if (sub.count(name) > 0) throw error(fmt::format("{} applies to the test battery, not to --seed-search", name));
    }
    for (const char* name : {"--check", "--alpha", "--game", "--deal"}) {
      if (sub.count(name) > 0 && o.report.empty())
        throw error(fmt::format("{} applies to the test battery, not to --seed-search (with --report both run)", name));
    }
    seed_search_cli_options so = o.search;
    so.threads = options.threads;
    so.shard = o.shard;
    so.format = o.format;
    so.reader = ro;
    so.input = o.file.empty() && isatty(STDIN_FILENO) == 0 ? "-" : o.file;
    if (so.input.empty()) throw error("no input: give FILE or '-' for standard input");
    if (o.report.empty()) return run_seed_search(so);
    search = make_seed_search_report(so, true);
  }
  return run_audit_battery(o, sub, options, ro, generated, search);
}

}  // namespace

subcommand audit_subcommand() {
  return {"audit", "Test decks any shuffler produced with the battery test labs use",
          [](CLI::App& sub) -> std::function<int()> {
            auto o = std::make_shared<audit_cli_options>();
            sub.footer(kAuditFooter);
            sub.add_option("file", o->file, "Deck file, one deck per line ('-' = standard input)")->type_name("FILE");
            sub.add_option("--pack", o->pack, "Declared pack: " + render::listed(pack_names()) + " (default: inferred)")->type_name("NAME");
            sub.add_option("--decks", o->decks, "Decks in the shoe")->capture_default_str()->type_name("N");
            sub.add_option("--jokers", o->jokers, "Jokers per deck")->capture_default_str()->type_name("N");
            sub.add_option("--cards-file", o->cards_file, "A custom pack, one card per line, in canonical order")->type_name("FILE");
            sub.add_option("--dealt", o->dealt, "Each line holds only the first K cards dealt")->type_name("K");
            sub.add_flag("--skip-bad", o->skip_bad, "Count and skip invalid decks instead of stopping");
            sub.add_option("--alpha", o->alpha, "Family-wise significance level (Holm)")->capture_default_str()->type_name("A");
            sub.add_flag("--check", o->check, "Exit 3 when any test fails");
            sub.add_option("--format", o->format, "Output format: " + render::listed(choices::text_json))->capture_default_str()->type_name("FORMAT");
            sub.add_option("--threads", o->threads, "Worker threads (default: the CPUs this process may use); never changes the result")->type_name("N");
            sub.add_option("--game", o->game,
                           "Add the game's hands test: poker (5-card hand classes) or blackjack (the two-card "
                           "classes natural, pair, soft and hard totals)")
                ->type_name("GAME");
            sub.add_option("--deal", o->deal,
                           "With --game: H hands of C cards dealt round the table (card k to hand k mod H); "
                           "default poker 1x5, blackjack 2x2 (player cards 1 and 3, dealer 2 and 4)")
                ->type_name("HxC");
            sub.add_option("--lags", o->lags, "position-pairs: the cards 1..L positions apart (1 to 64; L x cards^2 at most 2^24)")->capture_default_str()->type_name("L");
            sub.add_option("--tier", o->tier, "A named tier: " + render::tiers_text() + "; fixes tests, alpha, batch size, lags, decks (docs/audit.md)")->type_name("TIER");
            sub.add_option("--batch-size", o->batch_size, "batches: test every sample of K consecutive decks, then the samples' p-values by Kolmogorov-Smirnov (10 to 10^7; 0: off)")->capture_default_str()->type_name("K");
            sub.add_option("--algo", o->algo, "Audit decks of these algorithms (see 'shufl bias --list') instead of a file")->type_name("LIST");
            sub.add_option("--trials", o->trials, "With --algo: decks per algorithm")->capture_default_str()->type_name("T");
            sub.add_option("--seed", o->seed, "With --algo: any string; the same seed gives the same decks")->type_name("SEED")->expected(0, 1);
            sub.add_option("--rng", o->rng, "With --algo: engine " + render::listed(engine_names()))->capture_default_str()->type_name("NAME");
            sub.add_option("--seed-search", o->search.family,
                           "Find the seed of a weak generator that reproduces the logged deals: " + render::listed(render::family_names()) +
                               " (node-math-random needs no --seeds: its state is recovered from the cards); exit 3 when "
                               "found and E <= --max-chance, 4 when chance explains it; with --report the battery runs too")
                ->type_name("FAMILY");
            sub.add_option("--seeds", o->search.seeds,
                           "With --seed-search: seeds to try, A..B (2^K, 2^K-1 allowed), time:YYYY-MM-DDTHH:MM:SSZ.."
                           "YYYY-MM-DDTHH:MM:SSZ or (dotnet-random) uptime:A..B, e.g. uptime:0..7d")
                ->type_name("RANGE");
            sub.add_option("--reseed", o->search.reseed,
                           "With --seed-search: per-deal (each deal seeded anew) or once (one seed, the generator "
                           "running on across deals)")
                ->capture_default_str()
                ->type_name("MODE");
            sub.add_flag("--all", o->search.all, "With --seed-search: every matching seed, not only the first");
            sub.add_option("--max-chance", o->search.max_chance,
                           "With --seed-search: a match is \"predictable\" (exit 3) only when the expected number of "
                           "chance matches E is at most this (else exit 4)")
                ->capture_default_str()
                ->type_name("E");
            sub.add_option("--deck-order", o->search.deck_order,
                           "With --seed-search: the list's starting order, " + render::listed(choices::deck_order, "|") +
                               "[:SUITS[:RANKS]] (default suit-major:shdc:A23456789TJQK; e.g. rank-major:cdhs), or a "
                               "FILE listing every card of the pack once in that order (on one line or several)")
                ->type_name("ORDER|FILE");
            sub.add_option("--loop", o->search.loop,
                           "With --seed-search: " + render::listed(audit::shuffle_loop_names) + " (sample[:K] deals K cards; docs/seed-search.md)")
                ->capture_default_str()->type_name("LOOP");
            sub.add_option("--reduce", o->search.reduce, "With --seed-search: " + render::listed(audit::draw_reduction_names) +
                                                             " (mod: rand() % k, go: r.Intn; div: rand() / (RAND_MAX/k + 1); native: each family's own rule)")
                ->type_name("RULE");
            sub.add_flag("--carry-over", o->search.carry_over, "With --seed-search --reseed once: one list reshuffled every deal");
            sub.add_flag("--try-variants", o->search.try_variants, "With --seed-search: every loop, draw and deck order at once");
            sub.add_option("--shard", o->shard,
                           "With --save-counts: count only shard I of N (a deck file: the lines starting in bytes "
                           "floor(I*S/N) to floor((I+1)*S/N)-1 of its S bytes; --algo: chunks as bias --shard); with "
                           "--seed-search: search only part I of N of the seeds")
                ->type_name("I/N");
            sub.add_option("--meta", o->meta,
                           "Provenance shown on the reports (text, JSON meta, --report page), repeatable: game, "
                           "software version, time window, exported by, lab, tester (e.g. --meta lab=\"Acme Labs\")")
                ->type_name("KEY=VALUE");
            sub.add_option("--save-counts", o->save_counts,
                           "Save the battery's sums (pack, input, first and last deck, fingerprints) to FILE for --merge")
                ->type_name("FILE");
            sub.add_option("--merge", o->merge,
                           "Add up counts saved by --save-counts (shards, other files or runs) and test the sums; exit 5 "
                           "when shards are missing")
                ->type_name("FILE");
            sub.add_flag("--allow-partial", o->allow_partial, "With --merge: report on the shards present without exit status 5");
            sub.add_flag("--progress", o->search.progress,
                         "With --seed-search: show the progress bar even when stderr is not a terminal");
            sub.add_flag("--follow", o->follow,
                         "Monitor decks as they arrive (a pipe, or a file followed like tail -f): an "
                         "anytime-valid alarm (docs/monitor.md)");
            sub.add_option("--every", o->every, "With --follow: a status every N decks (default 1000 when not on a terminal)")
                ->type_name("N");
            sub.add_option("--interval", o->interval, "With --follow: a status every S seconds (default 1 on a terminal)")
                ->type_name("S");
            sub.add_option("--on-alarm", o->on_alarm, "With --follow: run CMD (/bin/sh -c) at the alarm, the alarm as JSON on its stdin")
                ->type_name("CMD");
            sub.add_flag("--keep-going", o->keep_going,
                         "With --follow: after each alarm restart the detector from 0 and go on (exit 3 at the end)");
            sub.add_option("--arl", o->arl,
                           "With --follow: the detector's threshold A: on a fair stream the average run length to a "
                           "false alarm is at least A decks (default 1e9)")
                ->type_name("DECKS");
            sub.add_option("--group-by", o->group_by,
                           "Field N of each line (separated like the cards) names its group (a table, a machine) "
                           "and is not a card: a battery per group (Holm over all), with --follow a detector per group")
                ->type_name("N");
            sub.add_option("--max-groups", o->max_groups, "With --group-by: the most groups (default 10000)")->type_name("M");
            sub.add_flag("--reset-alarm", o->reset_alarm, "With --follow: re-arm the alarm a restored --state holds");
            sub.add_option("--state", o->state, "With --follow: keep the e-process in FILE, continued by a restart")
                ->type_name("FILE");
            sub.add_option("--metrics", o->metrics, "With --follow: Prometheus text file (node_exporter textfile collector)")
                ->type_name("FILE");
            add_follow_service_options(sub, o->service);
            sub.add_option("--report", o->report, "Also write a printable test report (HTML, A4) to FILE.html")
                ->type_name("FILE");
            add_audit_sign_options(sub, o->signing);
            sub.add_flag("--plan", o->plan, "Print the decks each test needs to detect --effect with --power; reads no decks");
            sub.add_option("--effect", o->effect,
                           "With --plan: effect size D for every test, or TEST=D,... (defaults in docs/audit.md)")
                ->type_name("LIST");
            sub.add_option("--power", o->power, "With --plan: power wanted per test")->capture_default_str()->type_name("P");
            return [o, &sub]() -> int { return run_audit(*o, sub); };
          }};
}

}  // namespace shufl::cli
