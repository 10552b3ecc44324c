// `shufl audit`'s battery run (audit_cmd.hpp): a deck file read in parallel ranges, standard
// input, --algo decks or --merge'd counts, through shufl/audit/parts.hpp, with the reports of
// src/render/audit_outputs.hpp; --save-counts, --shard and --report side files.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "audit_cmd.hpp"
#include "choices.hpp"
#include "common.hpp"
#include "render/audit_groups_output.hpp"
#include "render/audit_outputs.hpp"
#include "render/text_escape.hpp"
#include "shufl/io/side_file.hpp"
#include "shufl/audit.hpp"
#include "shufl/audit/counts.hpp"
#include "shufl/audit/deck_file.hpp"
#include "shufl/audit/groups.hpp"
#include "shufl/audit/parts.hpp"
#include "shufl/bias.hpp"
#include "shufl/error.hpp"
#include "shufl/random.hpp"
#include "shufl/text_input.hpp"

namespace shufl::cli {

namespace {

// Prints the reader's note on how it inferred the pack.
void print_note(const std::string& note) { std::fprintf(stderr, "shufl %s\n", note.c_str()); }

}  // namespace

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

int run_audit_battery(const audit_cli_options& o, const CLI::App& sub, audit::audit_options options,
                      const audit::reader_options& ro, bool generated, const std::optional<seed_search_report>& search) {
  std::optional<io::side_file> report_file;
  if (!o.report.empty()) report_file.emplace("--report", o.report, io::side_format::html);
  for (const char* name : {"--seeds", "--reseed", "--all", "--progress", "--max-chance", "--deck-order", "--loop", "--reduce",
                           "--carry-over", "--try-variants"}) {
    if (sub.count(name) > 0 && !search) throw error(fmt::format("{} applies to --seed-search", name));
  }
  // One audit's report: stdout (text or JSON) and, with --report, the page; `info.name` as given.
  const auto meta = render::parse_audit_meta(o.meta);
  const auto emit = [&](const audit::audit_report& r, render::audit_input info, const audit::audit_pack& pack,
                        side_file_errors& side_errors) {
    info.meta = meta;
    const auto outputs = render::audit_outputs_of(r, info, pack, o.format == "json", report_file.has_value(),
                                                  search ? &*search : nullptr);
    write_stdout(outputs.out);
    if (report_file) side_errors.commit(*report_file, audit_report_page_now(outputs.page, o.signing));
  };
  // --save-counts, --shard, --merge: counts files (docs/scale.md).
  const bool sharded = !o.shard.empty();
  std::pair<std::uint64_t, std::uint64_t> shard{0, 1};
  if (sharded) {
    shard = parse_shard(o.shard, std::uint64_t{1} << 32);
    if (o.save_counts.empty()) throw error("--shard needs --save-counts FILE: the part's counts go there");
    if (o.check) throw error("--shard counts one part and tests nothing: drop --check (the merge of the parts tests)");
  }
  if (o.allow_partial && o.merge.empty()) throw error("--allow-partial applies to --merge only");
  std::optional<io::side_file> counts_file;
  if (!o.save_counts.empty()) counts_file.emplace("--save-counts", o.save_counts);
  const auto status = [&](bool pass) { return worse_status(o.check && !pass ? exit_audit_failed : exit_ok, search); };
  // A shard's part is saved, named on stderr, and tested by the merge of the parts.
  const auto save_shard = [&](const audit::counted_part& c) {
    if (std::string m = counts_file->commit(c.counts); !m.empty()) throw error(m);
    std::fputs(render::audit_shard_saved_text(c.part, shard, c.tally.sums.decks(), o.save_counts).c_str(), stderr);
    return exit_ok;
  };
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
    side_file_errors side_errors;
    if (counts_file) side_errors.commit(*counts_file, audit::write_audit_counts(merged));
    emit(r, render::merged_audit_input(o.merge, merged), merged.tally->pack, side_errors);
    const auto missing = merge.missing();
    if (!missing.empty() && !o.allow_partial) {
      for (const auto& m : missing) std::fprintf(stderr, "shufl: partial merge: %s\n", escape_controls(m).c_str());
      return side_errors.finish(exit_partial);
    }
    return side_errors.finish(status(r.decision.pass));
  }
  if (generated) {
    if (!o.file.empty()) throw error(fmt::format("--algo generates its decks: drop the input '{}'", o.file));
    if (ro.dealt) throw error("--dealt applies to deck files");
    if (o.skip_bad) throw error("--skip-bad applies to deck files");
    const auto algorithms = parse_algorithm_list(o.algo);
    const std::uint64_t trials = options.tier ? options.tier->decks : parse_count("--trials", o.trials);  // a tier's own
    if (trials < 1 || trials > bias_max_trials) throw error(fmt::format("--trials must be between 1 and {}", bias_max_trials));
    std::optional<std::string> seed;
    if (sub.count("--seed") > 0) seed = check_seed(o.seed);
    const engine_kind engine = parse_engine(o.rng);
    const audit::audit_pack pack = audit::make_audit_pack(ro);
    const seed_key key = seed ? key_from_seed(*seed) : key_from_os();
    if (counts_file) {
      if (algorithms.size() != 1) throw error("--save-counts holds the counts of one algorithm: give --algo one name");
      if (sharded && !seed) throw error("--shard needs --seed: the shards of one run share its seed");
      const audit::counted_part c = audit::count_algorithm_part(algorithms.front(), pack, trials, engine, key, seed,
                                                                options, shard, sharded, o.shard);
      if (sharded) return save_shard(c);
      const audit::audit_report r = audit::report_of(c.tally, options.alpha, options.threads);
      side_file_errors side_errors;
      side_errors.commit(*counts_file, c.counts);
      emit(r, render::generated_audit_input(c.part.name, seed, c.part.engine, trials), pack, side_errors);
      return side_errors.finish(status(r.decision.pass));
    }
    if (sharded) throw error("--shard needs --save-counts FILE: the part's counts go there");
    std::vector<std::pair<audit::audit_report, render::audit_input>> runs;
    bool all_pass = true;
    for (const auto& a : algorithms) {
      render::audit_input in = render::generated_audit_input(a.label(), seed, std::string(engine_name(engine)), trials);
      in.meta = meta;
      runs.emplace_back(audit::audit_algorithm(a, pack, trials, engine, key, options), std::move(in));
      all_pass = all_pass && runs.back().first.decision.pass;
    }
    const auto outputs = render::audit_algorithms_outputs(runs, pack, options.alpha, o.format == "json", report_file.has_value());
    write_stdout(outputs.out);
    side_file_errors errors;
    if (report_file) errors.commit(*report_file, audit_report_page_now(outputs.page, o.signing));
    return errors.finish(status(all_pass));
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
  render::audit_input info;
  info.name = path;
  side_file_errors side_errors;
  if (file && !counts_file && options.batch_size == 0) {
    // A regular file: parallel ranges of lines, hashed meanwhile (not batches: samples need decks in order).
    auto [tally, sha] = audit::tally_deck_file(*file, {0, file->size()}, input_display_name(path), ro, options, false,
                                               print_note);
    info.sha256 = sha;
    info.bytes = file->size();
    const audit::audit_report r = audit::report_of(tally, options.alpha, options.threads);
    emit(r, info, tally.pack, side_errors);
    return side_errors.finish(status(r.decision.pass));
  }
  if (file && counts_file) {  // --save-counts: the whole file, or one shard of its bytes
    const audit::counted_part c = audit::count_file_part(*file, path, shard, sharded, ro, options, print_note);
    if (sharded) return save_shard(c);
    const audit::audit_report r = audit::report_of(c.tally, options.alpha, options.threads);
    info.sha256 = c.part.sha256;
    info.bytes = c.part.size;
    side_errors.commit(*counts_file, c.counts);
    emit(r, info, c.tally.pack, side_errors);
    return side_errors.finish(status(r.decision.pass));
  }
  text_reader in = text_reader::open(path);
  const audit::audited_stream s = audit::audit_stream(in, ro, options, print_note);
  info.sha256 = s.sha256;
  info.bytes = s.bytes;
  emit(s.report, info, s.pack, side_errors);
  return side_errors.finish(status(s.report.decision.pass));
}

int run_audit_groups(const audit_cli_options& o, const audit::audit_options& options, const audit::reader_options& ro,
                     std::size_t max_groups) {
  if (o.file.empty() && isatty(STDIN_FILENO)) throw error("no input: give FILE or '-' for standard input");
  const std::string path = o.file.empty() ? "-" : o.file;
  const auto g = audit::audit_groups_input(path, ro, options, max_groups, print_note);
  render::audit_input in;
  in.name = path;
  in.sha256 = g.sha256;
  in.bytes = g.bytes;
  in.meta = render::parse_audit_meta(o.meta);
  write_stdout(render::audit_groups_stdout(g.report, in, g.pack, o.format == "json"));
  return o.check && !g.report.decision.pass ? exit_audit_failed : exit_ok;
}

}  // namespace shufl::cli
