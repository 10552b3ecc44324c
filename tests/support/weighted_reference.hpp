// The reference driver of the weighted sampler (lines/modes.hpp), shared by the unit tests
// (lines_modes_test.cpp) and the fuzz harness (fuzz/fuzz_weights.cpp), which does not link the
// test tree: header-only.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/lines/modes.hpp"
#include "shufl/random.hpp"

namespace shufl::test {

/// The records a sampler kept (byte_buffers) as strings, for comparisons in tests.
inline std::vector<std::string> as_strings(const std::vector<lines::byte_buffer>& kept) {
  std::vector<std::string> out;
  out.reserve(kept.size());
  for (const auto& r : kept) out.emplace_back(r.view());
  return out;
}

/// Feeds `data` (records ending with '\n', weights in 1-based TSV field `field`) to a
/// weighted_sampler of size `k` keyed by `key`, record by record (pass/offer: the reference) or,
/// with `bulk`, as the CLI does (pass_records, then pass/offer for the record where it stops).
/// Returns the sample in key order; with `bulk`, adds to *bulk_passed (when given) how many
/// records pass_records passed. Throws std::logic_error if pass_records reports more bytes
/// than its window holds.
inline std::vector<std::string> weighted_sample_by(std::string_view data, std::size_t field, std::uint64_t k,
                                                   const seed_key& key, bool bulk,
                                                   std::uint64_t* bulk_passed = nullptr) {
  lines::weighted_sampler sampler(k, key);
  std::string_view window = data;
  std::uint64_t position = 0;
  while (!window.empty()) {
    if (bulk) {
      std::uint64_t passed = 0;
      const std::size_t bytes = sampler.pass_records(window, '\n', field, '\t', passed);
      if (bytes > window.size()) throw std::logic_error("pass_records passed the end of its window");
      window.remove_prefix(bytes);
      position += passed;
      if (bulk_passed) *bulk_passed += passed;
      if (window.empty()) break;
    }
    const std::string_view r = window.substr(0, window.find('\n') + 1);
    std::string_view text;
    const bool found = lines::find_field(r.substr(0, r.size() - 1), field, '\t', text);
    const double w = found ? lines::weight_or_negative(text) : -1;
    if (w >= 0 && !sampler.pass(w)) sampler.offer(r, w, position);
    ++position;
    window.remove_prefix(r.size());
  }
  return as_strings(sampler.take_in_key_order());
}

}  // namespace shufl::test
