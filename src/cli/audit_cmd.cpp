// `shufl audit`: options → shufl::audit (a deck file, or decks of registered algorithms) → text
// or JSON (src/render/audit_output.cpp); exit 3 with --check when a test fails.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <sodium.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include "audit_follow.hpp"
#include "render/audit_groups_output.hpp"
#include "shufl/audit/groups.hpp"
#include "audit_plan.hpp"
#include "audit_scale.hpp"
#include "audit_seed_search.hpp"
#include "audit_sign.hpp"
#include "common.hpp"
#include "page_provenance.hpp"
#include "render/audit_report.hpp"
#include "render/audit_output.hpp"
#include "side_file.hpp"
#include "render/text_escape.hpp"
#include "shufl/cpus.hpp"
#include "shufl/audit.hpp"
#include "shufl/audit/counts.hpp"
#include "shufl/audit/deck_file.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/tally.hpp"
#include "shufl/bias.hpp"
#include "shufl/error.hpp"
#include "shufl/json_text.hpp"
#include "shufl/permutation.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"
#include "shufl/text_input.hpp"
#include "shufl/version.hpp"

namespace shufl::cli {

namespace {

struct audit_cli_options {
  std::string file;
  std::string pack;
  std::string decks = "1";
  std::string jokers = "0";
  std::string cards_file;
  std::string dealt;
  bool skip_bad = false;
  std::string alpha = "0.01";
  bool check = false;
  std::string format = "text";
  std::string threads;
  std::string algo;
  std::string trials = "100000";
  std::string seed;
  std::string rng = "xoshiro256pp";
  std::string game;
  std::string deal, lags = "2";
  // --seed-search (src/cli/audit_seed_search.cpp): FAMILY, --seeds, --reseed, --all, --max-chance, ...
  seed_search_cli_options search;
  std::string shard;
  // --follow (src/cli/audit_follow.cpp)
  bool follow = false;
  std::string every, interval, on_alarm, state, metrics, arl;
  follow_service_options service;
  bool keep_going = false, reset_alarm = false;
  // --group-by, --max-groups (src/cli/audit_groups.cpp)
  std::string group_by, max_groups;
  // --report and --plan (src/render/audit_report.cpp, src/cli/audit_plan.cpp)
  std::string report;
  std::vector<std::string> meta;  // --meta KEY=VALUE (provenance on the reports)
  audit_sign_options signing;     // --keygen, --sign, --verify, --key (src/cli/audit_sign.cpp)
  bool plan = false;
  std::string effect;
  std::string power = "0.9";
  // --save-counts, --merge (src/cli/audit_scale.cpp, src/audit/counts.cpp)
  std::string save_counts;
  std::vector<std::string> merge;
  bool allow_partial = false;
};

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
--power at --alpha (each test planned at alpha/m, m the tests in Holm's family); it reads no decks.

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

std::string to_hex_bytes(const unsigned char* data, std::size_t size) {
  std::string out;
  for (std::size_t i = 0; i < size; ++i) out += fmt::format("{:02x}", data[i]);
  return out;
}

audit::reader_options reader_options_of(const audit_cli_options& o, const CLI::App& sub) {
  audit::reader_options r;
  if (!o.pack.empty() && !o.cards_file.empty()) throw error("choose one of --pack and --cards-file");
  if (!o.pack.empty()) r.pack = parse_pack(o.pack);
  r.decks = parse_uint("--decks", o.decks);
  if (r.decks < 1) throw error("--decks must be at least 1");
  r.jokers = parse_uint("--jokers", o.jokers);
  if (r.jokers > 0 && !o.cards_file.empty()) throw error("--jokers applies to the named packs only");
  if (!o.cards_file.empty()) {
    text_reader labels = text_reader::open(o.cards_file, 2 * max_custom_label_bytes);
    r.custom_labels = read_card_labels(labels);
    if (r.custom_labels.empty()) throw error(fmt::format("no cards in '{}'", o.cards_file));
  }
  if (sub.count("--dealt") > 0) {
    const std::uint64_t k = parse_uint("--dealt", o.dealt);
    if (k < 1) throw error("--dealt must be at least 1");
    r.dealt = static_cast<std::size_t>(k);
  }
  r.skip_bad = o.skip_bad;
  return r;
}

// Prints the reader's note on how it inferred the pack.
void print_note(const std::string& note) { std::fprintf(stderr, "shufl %s\n", note.c_str()); }

// --game poker|blackjack and --deal HxC (defaults 1x5 and 2x2).
audit::game_deal parse_game(const std::string& game, const std::string& deal, bool has_game, bool has_deal) {
  audit::game_deal g;
  if (!has_game) {
    if (has_deal) throw error("--deal applies to --game");
    return g;
  }
  parse_choice("--game", game, {"poker", "blackjack"});
  g.game = game == "poker" ? audit::game_kind::poker : audit::game_kind::blackjack;
  g.hands = g.game == audit::game_kind::poker ? 1 : 2;
  g.cards = g.game == audit::game_kind::poker ? 5 : 2;
  if (has_deal) {
    const auto x = deal.find('x');
    if (x == std::string::npos || x == 0 || x + 1 == deal.size()) {
      throw error(fmt::format("--deal takes HxC (hands x cards each), e.g. 6x5, not '{}'", deal));
    }
    const std::uint64_t h = parse_uint("--deal", deal.substr(0, x)), c = parse_uint("--deal", deal.substr(x + 1));
    if (h < 1 || h > 1024) throw error("--deal: the number of hands must be between 1 and 1024");
    if (c > 1024) throw error("--deal: too many cards per hand");
    g.hands = static_cast<std::size_t>(h);
    g.cards = static_cast<std::size_t>(c);
  }
  return g;
}

int run_audit(const audit_cli_options& o, const CLI::App& sub) {
  if (const auto status = run_audit_sign(o.signing, o.file, !o.report.empty(), sub)) return *status;
  // A file option given an empty name would write nothing and say nothing.
  for (const auto& [name, value] : {std::pair<const char*, const std::string*>{"--report", &o.report},
                                    {"--state", &o.state}, {"--metrics", &o.metrics}, {"--save-counts", &o.save_counts}}) {
    if (sub.count(name) > 0 && value->empty()) throw error(fmt::format("{} needs a file name", name));
  }
  {  // No output over an input or another output (--state is read and rewritten, but is no other file).
    std::vector<named_file> files;
    for (const auto& [name, value] : {std::pair<const char*, const std::string*>{"--report", &o.report},
                                      {"--save-counts", &o.save_counts}, {"--metrics", &o.metrics}, {"--state", &o.state}}) {
      if (!value->empty()) files.push_back({name, *value, true});
    }
    const bool reads_stdin = o.file.empty() && o.merge.empty() && !o.plan && sub.count("--algo") == 0;
    if (!o.file.empty() || reads_stdin) files.push_back({"", o.file.empty() ? "-" : o.file, false});
    if (!o.cards_file.empty()) files.push_back({"--cards-file", o.cards_file, false});
    for (const auto& m : o.merge) files.push_back({"--merge", m, false, "--save-counts"});
    check_distinct_files(files);
  }
  audit::audit_options options;
  options.alpha = parse_double("--alpha", o.alpha);
  if (!(options.alpha > 0 && options.alpha < 1)) throw error(fmt::format("--alpha must be between 0 and 1, not {}", o.alpha));
  parse_choice("--format", o.format, {"text", "json"});
  if (o.threads.empty()) {
    options.threads = default_threads();
  } else {
    const auto t = parse_uint("--threads", o.threads);
    if (t < 1 || t > 1024) throw error("--threads must be between 1 and 1024");
    options.threads = static_cast<unsigned>(t);
  }
  options.game = parse_game(o.game, o.deal, sub.count("--game") > 0, sub.count("--deal") > 0);
  options.lags = static_cast<std::size_t>(parse_uint("--lags", o.lags));
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
    for (const char* name : {"--algo", "--seed-search", "--threads", "--check", "--report", "--plan"}) {
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
    fo.text_report = [](const audit::audit_report& r, const std::string& name, const std::string& sha256,
                        std::uint64_t bytes) {
      audit_input in;
      in.name = name;
      in.sha256 = sha256;
      in.bytes = bytes;
      return audit_text_report(r, in);
    };
    fo.json_report = [](const audit::audit_report& r, const audit::audit_pack& pack, const std::string& name,
                        const std::string& sha256, std::uint64_t bytes) {
      audit_input in;
      in.name = name;
      in.sha256 = sha256;
      in.bytes = bytes;
      return audit_json_report(r, in, pack);
    };
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
    return run_audit_plan({audit::make_audit_pack(ro), options.game, options.alpha, o.power, o.effect, o.format});
  }
  if (ro.group_field != 0) {  // one battery per group, Holm over all
    for (const char* name : {"--algo", "--merge", "--save-counts", "--shard", "--seed-search", "--report"})
      if (sub.count(name) > 0) throw error(fmt::format("{} does not apply to --group-by", name));
    if (o.file.empty() && isatty(STDIN_FILENO)) throw error("no input: give FILE or '-' for standard input");
    const auto g = audit::audit_groups_input(o.file.empty() ? "-" : o.file, ro, options, max_groups, print_note);
    const audit_input in{false, o.file.empty() ? "-" : o.file, g.sha256, g.bytes, {}, {}, {}, 0, {}, {}, parse_audit_meta(o.meta)};
    write_stdout(o.format == "json" ? audit_groups_json(g.report, in, g.pack).dump(2) + "\n" : audit_groups_text(g.report, in));
    return o.check && !g.report.decision.pass ? exit_audit_failed : exit_ok;
  }
  std::optional<side_file> report_file;
  if (!o.report.empty()) report_file.emplace("--report", o.report, side_format::html);
  std::vector<audit_page_section> page;
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
  for (const char* name : {"--seeds", "--reseed", "--all", "--progress", "--max-chance", "--deck-order", "--loop", "--reduce",
                           "--carry-over", "--try-variants"}) {
    if (sub.count(name) > 0 && !search) throw error(fmt::format("{} applies to --seed-search", name));
  }
  // One audit's report: stdout (text or JSON) and, with --report, the page; `info.name` as given.
  const auto meta = parse_audit_meta(o.meta);
  const auto emit = [&](const audit::audit_report& r, audit_input info, const audit::audit_pack& pack,
                        side_file_errors& side_errors) {
    info.meta = meta;
    nlohmann::ordered_json doc = audit_json_report(r, info, pack);
    if (search) doc["seed_search"] = search->json;
    const std::string given = info.merged.empty() ? info.name : fmt::format("{}", fmt::join(info.merged, ", "));
    if (o.format == "json") {
      write_stdout(doc.dump(2) + "\n");
    } else {
      if (!info.generated && info.merged.empty()) info.name = input_display_name(info.name);
      write_stdout(audit_text_report(r, info) + (search ? "\n" + search->text : std::string()));
    }
    if (report_file) {
      side_errors.commit(*report_file, audit_report_page_now({{r, info.generated, given, info.sha256, info.bytes, info.algorithm,
                                                           info.seed, info.engine, info.trials, doc}},
                                                          o.signing));
    }
  };
  // --save-counts, --shard, --merge: counts files (docs/scale.md).
  const bool sharded = !o.shard.empty();
  std::pair<std::uint64_t, std::uint64_t> shard{0, 1};
  if (sharded) {
    shard = parse_audit_shard(o.shard);
    if (o.save_counts.empty()) throw error("--shard needs --save-counts FILE: the part's counts go there");
    if (o.check) throw error("--shard counts one part and tests nothing: drop --check (the merge of the parts tests)");
  }
  if (o.allow_partial && o.merge.empty()) throw error("--allow-partial applies to --merge only");
  std::optional<side_file> counts_file;
  if (!o.save_counts.empty()) counts_file.emplace("--save-counts", o.save_counts);
  if (!o.merge.empty()) {
    for (const char* name : {"--algo", "--trials", "--seed", "--rng", "--shard", "--skip-bad", "--dealt", "--pack",
                             "--decks", "--jokers", "--cards-file", "--game", "--threads"}) {
      if (sub.count(name) > 0) throw error(fmt::format("--merge takes decks and battery from the counts files: drop {}", name));
    }
    if (!o.file.empty()) throw error(fmt::format("--merge reads counts files: drop the input '{}'", o.file));
    audit::audit_merge merge;
    for (const auto& f : o.merge) merge.add(audit::read_audit_counts(f), f);
    const audit::audit_counts merged = merge.merged();
    const audit::audit_report r = audit::report_of(*merged.tally, options.alpha, options.threads);
    audit_input in;
    in.merged = o.merge;
    for (const auto& part : merged.parts) in.parts.push_back(part.describe());
    side_file_errors side_errors;
    if (counts_file) side_errors.commit(*counts_file, audit::write_audit_counts(merged));
    emit(r, in, merged.tally->pack, side_errors);
    const auto missing = merge.missing();
    if (!missing.empty() && !o.allow_partial) {
      for (const auto& m : missing) std::fprintf(stderr, "shufl: partial merge: %s\n", escape_controls(m).c_str());
      return side_errors.finish(exit_partial);
    }
    return side_errors.finish(o.check && !r.decision.pass ? exit_audit_failed : exit_ok);
  }
  bool all_pass = true;

  if (generated) {
    if (!o.file.empty()) throw error(fmt::format("--algo generates its decks: drop the input '{}'", o.file));
    if (ro.dealt) throw error("--dealt applies to deck files");
    if (o.skip_bad) throw error("--skip-bad applies to deck files");
    const auto algorithms = parse_algorithm_list(o.algo);
    const std::uint64_t trials = parse_count("--trials", o.trials);
    if (trials < 1 || trials > bias_max_trials) throw error(fmt::format("--trials must be between 1 and {}", bias_max_trials));
    std::optional<std::string> seed;
    if (sub.count("--seed") > 0) seed = check_seed(o.seed);
    const engine_kind engine = parse_engine(o.rng);
    const audit::audit_pack pack = audit::make_audit_pack(ro);
    const seed_key key = seed ? key_from_seed(*seed) : key_from_os();
    if (counts_file) {
      if (algorithms.size() != 1) throw error("--save-counts holds the counts of one algorithm: give --algo one name");
      if (sharded && !seed) throw error("--shard needs --seed: the shards of one run share its seed");
      const std::uint64_t chunks = bias_chunk_count(trials);
      const chunk_set mine = sharded ? bias_shard_chunks(trials, shard.first, shard.second) : chunk_set::all_of(trials);
      // Every shard of a run cut into more shards than it has chunks is refused alike (not only
      // the empty ones), so a loop over I = 0..N-1 fails the same way for each I.
      if (mine.empty() || (sharded && shard.second > chunks)) {
        throw error(fmt::format("--shard {}: the run has only {} chunk{} of {} decks: use at most {} shards", o.shard, chunks,
                                chunks == 1 ? "" : "s", bias_chunk_trials, chunks));
      }
      const auto [begin, end] = mine.ranges.front();
      const audit::audit_tally t = audit::tally_algorithm(algorithms.front(), pack, trials, engine, key, options, begin, end);
      audit::audit_part part;
      part.generated = true;
      part.name = algorithms.front().label();
      part.seed = seed;
      if (!seed) part.run_id = to_hex(key_from_os()).substr(0, 32);
      part.engine = std::string(engine_name(engine));
      part.trials = trials;
      part.begin = begin;
      part.end = end;
      const std::string counts = audit::write_audit_counts(audit::counts_of(t, part));
      if (sharded) {
        if (std::string m = counts_file->commit(counts); !m.empty()) throw error(m);
        std::fprintf(stderr, "shufl audit: shard %llu/%llu: chunks %llu..%llu of %llu, %llu deck%s, saved to '%s'\n",
                     static_cast<unsigned long long>(shard.first), static_cast<unsigned long long>(shard.second),
                     static_cast<unsigned long long>(begin), static_cast<unsigned long long>(end - 1),
                     static_cast<unsigned long long>(chunks), static_cast<unsigned long long>(t.sums.decks()),
                     t.sums.decks() == 1 ? "" : "s", escape_controls(o.save_counts).c_str());
        return exit_ok;
      }
      const audit::audit_report r = audit::report_of(t, options.alpha, options.threads);
      audit_input in;
      in.generated = true;
      in.algorithm = part.name;
      in.seed = seed;
      in.engine = part.engine;
      in.trials = trials;
      side_file_errors side_errors;
      side_errors.commit(*counts_file, counts);
      emit(r, in, pack, side_errors);
      return side_errors.finish(o.check && !r.decision.pass ? exit_audit_failed : exit_ok);
    }
    if (sharded) throw error("--shard needs --save-counts FILE: the part's counts go there");
    std::vector<nlohmann::ordered_json> reports;
    std::string text;
    std::vector<std::string> failed;  // the labels of the algorithms whose audit failed
    for (const auto& a : algorithms) {
      const audit::audit_report r = audit::audit_algorithm(a, pack, trials, engine, key, options);
      audit_input in;
      in.generated = true;
      in.algorithm = a.label();
      in.seed = seed;
      in.engine = std::string(engine_name(engine));
      in.trials = trials;
      in.meta = meta;
      all_pass = all_pass && r.decision.pass;
      if (!r.decision.pass) failed.push_back(in.algorithm);
      if (report_file) {
        page.push_back({r, true, {}, {}, 0, in.algorithm, in.seed, in.engine, in.trials, audit_json_report(r, in, pack)});
      }
      if (o.format == "json") {
        reports.push_back(audit_json_report(r, in, pack));
      } else {
        if (!text.empty()) text += "\n";
        text += audit_text_report(r, in);
      }
    }
    if (o.format == "json") {
      if (reports.size() == 1) {
        write_stdout(reports.front().dump(2) + "\n");
      } else {
        nlohmann::ordered_json j;
        j["shufl_version"] = SHUFL_VERSION;
        j["command"] = "audit";
        j["alpha"] = options.alpha;
        j["result"] = all_pass ? "pass" : "fail";
        j["audits"] = reports;
        write_stdout(j.dump(2) + "\n");
      }
    } else {
      if (algorithms.size() > 1) text += audit_overall_text(algorithms.size(), failed, options.alpha);
      write_stdout(text);
    }
    side_file_errors errors;
    if (report_file) errors.commit(*report_file, audit_report_page_now(page, o.signing));
    return errors.finish(o.check && !all_pass ? exit_audit_failed : exit_ok);
  }

  std::string path = o.file;
  if (path.empty()) {
    if (isatty(STDIN_FILENO)) throw error("no input: give FILE, '-' for standard input, or --algo LIST");
    path = "-";
  }
  auto file = audit::deck_file::open(path);
  if (counts_file && !file) {
    throw error(fmt::format("--save-counts reads its input whole: give a regular file, not {}", input_display_name(path)));
  }
  if (file && counts_file) {
    const audit::byte_range range = sharded ? audit::shard_range(*file, shard.first, shard.second)
                                            : audit::byte_range{0, file->size()};
    const std::string name = sharded ? fmt::format("{} (shard {}/{} from byte {})", input_display_name(path), shard.first,
                                                   shard.second, range.begin)
                                     : input_display_name(path);
    auto [tally, sha] = audit::tally_deck_file(*file, range, name, ro, options, sharded, print_note);
    audit::audit_part part;
    part.name = path;
    part.size = file->size();
    part.sha256 = sha;
    part.shards = shard.second;
    part.begin = shard.first;
    part.end = shard.first + 1;
    part.file_id = audit::deck_file_id(*file);
    part.bytes_begin = range.begin;
    part.bytes_end = range.end;
    const std::string counts = audit::write_audit_counts(audit::counts_of(tally, part));
    if (sharded) {
      if (std::string m = counts_file->commit(counts); !m.empty()) throw error(m);
      std::fprintf(stderr, "shufl audit: shard %llu/%llu: bytes %llu..%llu of %llu, %llu deck%s, saved to '%s'\n",
                   static_cast<unsigned long long>(shard.first), static_cast<unsigned long long>(shard.second),
                   static_cast<unsigned long long>(range.begin), static_cast<unsigned long long>(range.end),
                   static_cast<unsigned long long>(part.size), static_cast<unsigned long long>(tally.sums.decks()),
                   tally.sums.decks() == 1 ? "" : "s", escape_controls(o.save_counts).c_str());
      return exit_ok;
    }
    const audit::audit_report r = audit::report_of(tally, options.alpha, options.threads);
    audit_input info;
    info.name = path;
    info.sha256 = sha;
    info.bytes = part.size;
    side_file_errors side_errors;
    side_errors.commit(*counts_file, counts);
    emit(r, info, tally.pack, side_errors);
    return side_errors.finish(worse_status(o.check && !r.decision.pass ? exit_audit_failed : exit_ok, search));
  }
  if (file) {
    // A regular file: read in parallel ranges of lines while another thread hashes it.
    auto [tally, sha] = audit::tally_deck_file(*file, {0, file->size()}, input_display_name(path), ro, options, false,
                                               print_note);
    const audit::audit_report r = audit::report_of(tally, options.alpha, options.threads);
    audit_input info;
    info.name = path;
    info.sha256 = sha;
    info.bytes = file->size();
    side_file_errors side_errors;
    emit(r, info, tally.pack, side_errors);
    return side_errors.finish(worse_status(o.check && !r.decision.pass ? exit_audit_failed : exit_ok, search));
  }
  text_reader in = text_reader::open(path);
  if (sodium_init() < 0) throw error("libsodium failed to initialise");
  crypto_hash_sha256_state sha;
  crypto_hash_sha256_init(&sha);
  std::uint64_t bytes = 0;
  in.observe_bytes([&](std::string_view b) {
    crypto_hash_sha256_update(&sha, reinterpret_cast<const unsigned char*>(b.data()), b.size());
    bytes += b.size();
  });
  audit::deck_reader reader(in, ro);
  options.on_pack = [&reader] {
    if (!reader.inference_note().empty()) std::fprintf(stderr, "shufl %s\n", reader.inference_note().c_str());
  };
  const audit::audit_report r = audit::audit_decks(reader, options);
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&sha, digest);
  audit_input info;
  info.name = path == "-" ? "-" : path;
  info.sha256 = to_hex_bytes(digest, sizeof digest);
  info.bytes = bytes;
  side_file_errors errors;
  emit(r, info, reader.pack(), errors);
  return errors.finish(worse_status(o.check && !r.decision.pass ? exit_audit_failed : exit_ok, search));
}

}  // namespace

subcommand audit_subcommand() {
  return {"audit", "Test decks any shuffler produced with the battery test labs use",
          [](CLI::App& sub) -> std::function<int()> {
            auto o = std::make_shared<audit_cli_options>();
            sub.footer(kAuditFooter);
            sub.add_option("file", o->file, "Deck file, one deck per line ('-' = standard input)")->type_name("FILE");
            sub.add_option("--pack", o->pack, "Declared pack: standard, piquet, euchre, tarot (default: inferred)")->type_name("NAME");
            sub.add_option("--decks", o->decks, "Decks in the shoe")->capture_default_str()->type_name("N");
            sub.add_option("--jokers", o->jokers, "Jokers per deck")->capture_default_str()->type_name("N");
            sub.add_option("--cards-file", o->cards_file, "A custom pack, one card per line, in canonical order")->type_name("FILE");
            sub.add_option("--dealt", o->dealt, "Each line holds only the first K cards dealt")->type_name("K");
            sub.add_flag("--skip-bad", o->skip_bad, "Count and skip invalid decks instead of stopping");
            sub.add_option("--alpha", o->alpha, "Family-wise significance level (Holm)")->capture_default_str()->type_name("A");
            sub.add_flag("--check", o->check, "Exit 3 when any test fails");
            sub.add_option("--format", o->format, "Output format: text or json")->capture_default_str()->type_name("FORMAT");
            sub.add_option("--threads", o->threads, "Worker threads (default: the CPUs this process may use); never changes the result")->type_name("N");
            sub.add_option("--game", o->game,
                           "Add the game's hands test: poker (5-card hand classes) or blackjack (the two-card "
                           "classes natural, pair, soft and hard totals)")
                ->type_name("GAME");
            sub.add_option("--deal", o->deal,
                           "With --game: H hands of C cards dealt round the table (card k to hand k mod H); "
                           "default poker 1x5, blackjack 2x2 (player cards 1 and 3, dealer 2 and 4)")
                ->type_name("HxC");
            sub.add_option("--lags", o->lags, "position-pairs: the cards 1..L positions apart (1 to 64)")->capture_default_str()->type_name("L");
            sub.add_option("--algo", o->algo, "Audit decks of these algorithms (see 'shufl bias --list') instead of a file")->type_name("LIST");
            sub.add_option("--trials", o->trials, "With --algo: decks per algorithm")->capture_default_str()->type_name("T");
            sub.add_option("--seed", o->seed, "With --algo: any string; the same seed gives the same decks")->type_name("SEED")->expected(0, 1);
            sub.add_option("--rng", o->rng, "With --algo: engine xoshiro256pp, chacha20, mt19937, minstd")->capture_default_str()->type_name("NAME");
            sub.add_option("--seed-search", o->search.family,
                           "Find the seed of a weak generator that reproduces the logged deals: python-random, c-rand, "
                           "cpp-mt19937, java-random, asf-poker, glibc-rand-r, msvc-rand, php-mt-rand, php-mt-rand-legacy, "
                           "go-math-rand, dotnet-random, node-math-random (no --seeds: its state is recovered from the "
                           "cards); exit 3 when found and E <= --max-chance, 4 when chance explains it; with --report "
                           "the battery runs too")
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
                           "With --seed-search: the list's starting order, suit-major|rank-major[:SUITS[:RANKS]] "
                           "(default suit-major:shdc:A23456789TJQK; e.g. rank-major:cdhs) or a FILE of the cards")
                ->type_name("ORDER");
            sub.add_option("--loop", o->search.loop,
                           "With --seed-search: down, up, naive, inside-out, sample[:K], pop or sort (docs/seed-search.md)")
                ->capture_default_str()->type_name("LOOP");
            sub.add_option("--reduce", o->search.reduce, "With --seed-search: mod (rand() % k; go: r.Intn) or div (rand() / (RAND_MAX/k + 1))")
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
