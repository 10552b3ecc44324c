// `shufl bias --input`, `--save-counts` and `--merge`: reading and writing files of permutations
// and counts.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <sstream>


#include "bias_files.hpp"
#include "shufl/bias_counts.hpp"
#include "shufl/error.hpp"
#include "shufl/json_text.hpp"
#include "shufl/permutation.hpp"
#include "shufl/text_input.hpp"

namespace shufl::cli {

std::string read_all(const std::string& path) {
  // The input-text convention (text_input.hpp): strerror in read errors, BOM dropped, UTF-8 checked.
  return read_text_file(path);
}

// --save-counts: the tallies of every result with their provenance (shufl-bias-counts-2).
std::string saved_counts(const bias_report& report) { return write_counts_file(counts_of_report(report)); }

// --merge: reads, validates and adds the files one at a time (memory: the totals, not the files).
bias_merge merge_files(const std::vector<std::string>& files) {
  bias_merge merge;
  for (const auto& file : files) merge.add(read_counts_file(file), file);
  return merge;
}

}  // namespace shufl::cli
