// `shufl bias --input`, `--save-counts` and `--merge`: reading and writing files of permutations
// and counts.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>

#include <unistd.h>

#include "bias_report.hpp"
#include "shufl/bias_counts.hpp"
#include "shufl/error.hpp"
#include "shufl/json_text.hpp"
#include "shufl/permutation.hpp"
#include "shufl/text_input.hpp"

namespace shufl::cli {

// Through a temporary file in the same directory, renamed into place: never a partial file.
void write_file(const std::string& path, const std::string& data) {
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    f << data;
    f.close();
    if (!f) {
      std::remove(tmp.c_str());
      throw error(fmt::format("cannot write '{}'", path));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw error(fmt::format("cannot write '{}'", path));
  }
}

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
