// `shufl bias --resume` and `--merge`: the checks and the merge of saved counts files
// (shufl/bias_counts.hpp).
#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shufl/bias.hpp"
#include "shufl/bias_counts.hpp"
#include "shufl/error.hpp"
#include "shufl/random.hpp"

namespace shufl {

// --resume: the saved part must be the same experiment as the command that resumes it.
void check_resume(const bias_counts& saved, const bias_options& b, const std::string& file) {
  const auto fail = [&](const std::string& what) {
    throw error(fmt::format("--resume '{}': {}: run the same command that saved it", file, what));
  };
  if (saved.runs.size() != 1 || !saved.runs[0].seed) fail("not the counts of one seeded run");
  const auto& run = saved.runs[0];
  if (!b.seed || *run.seed != *b.seed) fail(fmt::format("saved with seed \"{}\"", *run.seed));
  if (run.engine != b.engine) fail(fmt::format("saved with --rng {}", engine_name(run.engine)));
  if (run.trials != b.trials) fail(fmt::format("saved with --trials {}", run.trials));
  if (saved.n != b.n) fail(fmt::format("saved with --n {}", saved.n));
  if (saved.secondary != b.secondary) fail("saved with a different --no-secondary");
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> shards =
      b.shard.second ? std::vector<std::pair<std::uint64_t, std::uint64_t>>{b.shard} : std::vector<std::pair<std::uint64_t, std::uint64_t>>{};
  if (run.shards != shards) fail("saved with a different --shard");
  if (saved.results.size() != b.algorithms.size()) fail("saved with a different --algo");
  for (std::size_t a = 0; a < b.algorithms.size(); ++a) {
    const auto& r = saved.results[a];
    if (r.label != b.algorithms[a].label() || r.definition != b.algorithms[a].info->definition) fail("saved with a different --algo");
    if (r.test != choose_test(b.test, b.n, b.trials)) fail("saved with a different --test");
  }
}

std::optional<bias_counts> plan_chunks(bias_options& b, const std::string& resume_file) {
  const chunk_set target = b.shard.second != 0 ? bias_shard_chunks(b.trials, b.shard.first, b.shard.second)
                                               : chunk_set::all_of(b.trials);
  b.chunks.assign(b.algorithms.size(), target);
  if (resume_file.empty()) return std::nullopt;
  bias_counts resumed = read_counts_file(resume_file);
  check_resume(resumed, b, resume_file);
  for (std::size_t a = 0; a < b.algorithms.size(); ++a) {
    for (const auto& part : resumed.results[a].parts) b.chunks[a] = b.chunks[a].minus(part.chunks);
  }
  b.evaluate = false;
  return resumed;
}

bias_counts resumed_counts(const bias_counts& resumed, const std::string& name, bias_report& report, bias_options& b) {
  bias_merge both;
  both.add(resumed, name);
  both.add(counts_of_report(report), "this run");
  if (!report.interrupted && b.shard.second == 0) {
    b.evaluate = true;
    report = both.report(b);
    report.merged_files.clear();  // one run, reported as if never interrupted
    report.missing.clear();
  }
  return both.merged();
}

bias_merge merge_counts_files(const std::vector<std::string>& files) {
  bias_merge merge;
  for (const auto& file : files) merge.add(read_counts_file(file), file);
  return merge;
}

}  // namespace shufl
