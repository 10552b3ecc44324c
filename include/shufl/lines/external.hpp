// The external-memory (larger than RAM) full shuffle of `shufl lines`: THE RULE of scatter.hpp
// with buckets in temporary files, so the output is byte-identical to the in-memory shuffle for
// every key, whatever the memory limit (P. Sanders, "Random permutations on distributed, external
// and hierarchical memory", IPL 67(6), 1998).
//
// How it runs (three phases; only the last one writes output):
//   1. Read: records are collected in RAM until the input ends or the memory budget is exceeded.
//      Past the budget, if more than leaf_records records were seen, every record (in input order)
//      goes to bucket uniform_below(chacha20_engine(root, 0), 256), a temporary file; otherwise
//      all records go to one temporary file (the root may still be a leaf of big records).
//   2. Plan: a node (a temporary file with its record count and size) that fits the budget is
//      kept for the output phase; a node of at most leaf_records records that does not fit is a
//      "big leaf"; any other node is scattered again into 256 files by the same rule (key
//      scatter_child_key), depth first. All temporary writing ends here, so a full disk is
//      reported before any output exists.
//   3. Write: nodes in bucket order; a node that fits is read into RAM and shuffled by
//      scatter_shuffle; a big leaf gets Fisher–Yates over its record indices
//      (chacha20_engine(key, 1)) and its records are copied with pread(2), in chunks.
//
// Temporary files are unlinked as soon as they are created (O_TMPFILE, or mkstemp + unlink), so
// nothing is left behind on success, error or any signal; mode 0600.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "shufl/lines/records.hpp"
#include "shufl/lines/scatter.hpp"
#include "shufl/random.hpp"

namespace shufl::lines {

/// Bytes of RAM charged per record when a node is shuffled in memory, on top of its bytes: the
/// item (offset, 8 bytes), its bucket label (1 byte) and the copy made while scattering (8 bytes),
/// rounded up.
inline constexpr std::uint64_t in_memory_bytes_per_record = 24;

/// RAM needed to shuffle `records` records of `bytes` bytes in memory.
constexpr std::uint64_t in_memory_cost(std::uint64_t bytes, std::uint64_t records) noexcept {
  return bytes + in_memory_bytes_per_record * records;
}

/// What a progress callback is told (for a display; never affects the result).
struct external_progress {
  std::string_view phase;       ///< "reading", "scattering" or "writing"
  std::uint64_t done = 0;       ///< bytes read so far (reading, scattering) or written (writing)
  std::uint64_t total = 0;      ///< bytes expected in this phase; 0 when unknown (reading a pipe)
};

/// Settings of the external shuffle. Only `leaf_records` affects the order.
struct external_settings {
  /// Bytes of records (costed by in_memory_cost) that may sit in RAM at once; the buffers below
  /// come on top.
  std::uint64_t memory_budget = std::uint64_t{1} << 30;
  /// Directory for the temporary files.
  std::string temp_dir = "/tmp";
  /// Write buffer of each of the 256 bucket files, in bytes.
  std::size_t bucket_buffer = std::size_t{64} << 10;
  /// THE RULE's leaf size. Tests lower it to exercise several levels on small inputs; the
  /// command line never changes it (the order depends on it).
  std::uint64_t leaf_records = scatter_leaf_records;
  /// Called now and then (at most every few MiB and once per node); may be empty.
  std::function<void(const external_progress&)> progress;
};

/// Counters of one external shuffle, for tests and the --explain-style note of the benchmark.
struct external_stats {
  std::uint64_t records = 0;        ///< records read
  std::uint64_t bytes = 0;          ///< bytes of records (with delimiters)
  bool in_memory = false;           ///< everything fitted: no temporary file was made
  std::uint64_t temp_files = 0;     ///< temporary files created (non-empty ones)
  std::uint64_t temp_bytes = 0;     ///< bytes written to temporary files
  std::uint64_t big_leaves = 0;     ///< leaves written with pread (did not fit the budget)
  std::uint64_t max_depth = 0;      ///< deepest scatter level that went to files (1 = root only)
};

namespace detail {
struct external_plan;
}

/// A full shuffle of the records of a stream by THE RULE of scatter.hpp with root key `root`
/// (scatter_root_key of the seed key), holding at most about settings.memory_budget bytes of
/// records in RAM. The output is the same bytes for every budget.
class external_shuffle {
 public:
  /// Phases 1 and 2: reads every record from `reader` (input order; a last record without
  /// delimiter has one added) and writes temporary files as needed. Throws shufl::error for
  /// read errors, "cannot create temporary file in 'DIR': ..." and
  /// "write error: DIR: STRERROR" (e.g. a full disk); std::bad_alloc when out of memory.
  external_shuffle(record_reader& reader, char delimiter, const seed_key& root,
                   external_settings settings);
  ~external_shuffle();
  external_shuffle(const external_shuffle&) = delete;
  external_shuffle& operator=(const external_shuffle&) = delete;

  /// Phase 3: writes the shuffled records to `out` (call once). Throws on read errors of the
  /// temporary files and as fd_writer does.
  void write(fd_writer& out);

  /// Counters so far.
  const external_stats& stats() const noexcept;

 private:
  std::unique_ptr<detail::external_plan> plan_;
};

}  // namespace shufl::lines
