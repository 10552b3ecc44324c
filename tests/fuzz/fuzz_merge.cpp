// `shufl bias --merge` (src/cli/bias_files.cpp, merge_saved): the input is one counts file, merged
// with itself renamed (a second copy is refused) and alone. Property: a file is either refused with
// shufl::error or gives results whose tallies are consistent (cells sum to the trial count).
#include <numeric>
#include <string>
#include <vector>

#include "bias_report.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  fuzz::memory_file file(fuzz::bytes(data, size));
  bias_options o;
  o.threads = 1;
  try {
    const bias_report report = cli::merge_saved({file.path()}, o);
    for (const auto& r : report.results) {
      if (!r.counts.empty()) {
        const std::uint64_t sum = std::accumulate(r.counts.begin(), r.counts.end(), std::uint64_t{0});
        fuzz::check(sum == r.trials, "table cells sum to the trials");
      }
      (void)cli::json_report(report, 1);
      (void)cli::text_report(report, "none", 1);
    }
  } catch (const error&) {
  }
  return 0;
}
