// Counts files (`shufl bias --merge`, --resume; include/shufl/bias_counts.hpp): the input is one
// counts file given to the strict validator parse_counts_file. Properties: a file is either
// refused with shufl::error or is internally consistent (every table sums to its trials, every
// position row and column too); what write_counts_file writes back parses to the same counts; and
// the merge of the file alone, and of it with itself (refused unless the chunks are disjoint,
// which they never are), either refuses with shufl::error or reports the same trials.
#include <numeric>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/bias.hpp"
#include "shufl/bias_counts.hpp"

namespace {

void check_consistent(const shufl::bias_counts& c) {
  using shufl::fuzz::check;
  for (const auto& r : c.results) {
    if (!r.counts.empty()) {
      const std::uint64_t sum = std::accumulate(r.counts.begin(), r.counts.end(), std::uint64_t{0});
      check(sum == r.trials, "table cells sum to the trials");
    }
    if (!r.position_counts.empty()) {
      check(r.position_counts.size() == c.n * c.n, "position matrix is n x n");
      for (std::size_t i = 0; i < c.n; ++i) {
        std::uint64_t row = 0, col = 0;
        for (std::size_t j = 0; j < c.n; ++j) {
          row += r.position_counts[i * c.n + j];
          col += r.position_counts[j * c.n + i];
        }
        check(row == r.trials && col == r.trials, "position rows and columns sum to the trials");
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  shufl::bias_counts counts;
  try {
    counts = parse_counts_file(fuzz::bytes(data, size), "fuzz.json");
  } catch (const error&) {
    return 0;
  }
  check_consistent(counts);
  const std::string written = write_counts_file(counts);
  bias_counts again;
  try {
    again = parse_counts_file(written, "written.json");
  } catch (const error&) {
    fuzz::check(false, "what write_counts_file writes parses again");
  }
  fuzz::check(write_counts_file(again) == written, "write, parse, write is stable");
  check_consistent(again);
  try {
    bias_merge m;
    m.add(counts, "a.json");
    (void)m.missing();
    const bias_counts merged = m.merged();
    fuzz::check(merged.results.size() == counts.results.size(), "a merge of one file keeps its algorithms");
    for (std::size_t k = 0; k < merged.results.size(); ++k) {
      fuzz::check(merged.results[k].trials == counts.results[k].trials, "a merge of one file keeps its trials");
    }
    bias_options o;
    o.threads = 1;
    const bias_report report = m.report(o);
    fuzz::check(report.results.size() == counts.results.size(), "the report tests every algorithm");
    m.add(again, "b.json");
  } catch (const error&) {
  }
  return 0;
}
