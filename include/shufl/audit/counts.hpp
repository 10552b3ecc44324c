// Counts files of `shufl audit` (--save-counts, --merge, --shard): the format
// `shufl-audit-counts-2` (the battery's identity, its sums, and the parts they came from), its
// strict reader, its writer, and the merge of many files into the tally of one run. Described in
// docs/scale.md and schema/audit-counts-2.schema.json.
//
// Every accumulator of the battery is a sum, so files add up. What depends on order is kept per
// part: the first and last deck (where two adjacent parts of one input meet, the merge adds the
// serial tests' pair of consecutive decks, so a merge of every shard equals the unsharded run)
// and the duplicates test's fingerprints (of a file part, its first decks; of an --algo part,
// its decks among the run's first 2^20; the merge keeps the first 2^20 in input order).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/audit/tally.hpp"

namespace shufl::audit {

inline constexpr std::string_view audit_counts_format = "shufl-audit-counts-2";
/// The guessing test's strategy (part of the battery's identity).
inline constexpr std::string_view audit_guess_strategy = "original-successor,shelf";
/// Limits of the reader: file size, JSON nesting depth, cards of the pack.
inline constexpr std::uint64_t audit_counts_max_bytes = std::uint64_t{256} << 20;
inline constexpr int audit_counts_max_depth = 6;
inline constexpr std::size_t audit_counts_max_cards = 1024;

/// Where the decks of one part came from: a deck file (whole: shards 1, or shards [begin, end)
/// of `shards` byte ranges), or chunks [begin, end) of an --algo run.
struct audit_part {
  bool generated = false;
  std::string name;              ///< File: as given. --algo: the algorithm's label.
  // A file.
  std::uint64_t size = 0;        ///< The whole file's bytes.
  std::string sha256;            ///< Of the bytes read (a whole file, or one shard); empty for joined shards.
  std::uint64_t shards = 1;      ///< Byte ranges the file was cut into (1: read whole).
  /// What identifies the file's content: SHA-256 (64 hex digits) of its first and last MiB
  /// (audit/deck_file.hpp's deck_file_id); with `size`, the file's identity, whatever its name.
  /// Empty in counts files of earlier versions (then name, size and N identify the file).
  std::string file_id;
  std::uint64_t bytes_begin = 0, bytes_end = 0;  ///< With file_id: the bytes read, [begin, end).
  // --algo.
  std::optional<std::string> seed;
  std::string run_id;            ///< Unseeded runs: 32 hex digits naming the run.
  std::string engine;
  std::uint64_t trials = 0;
  // Both: shards (file) or chunks (--algo) [begin, end).
  std::uint64_t begin = 0, end = 1;
  std::uint64_t decks = 0;
  std::uint64_t skipped = 0;
  std::vector<std::uint32_t> first, last;     ///< K face ids each; empty when decks = 0.
  std::vector<std::uint64_t> fingerprints;    ///< See the file comment.
  /// What identifies the input or run the part belongs to.
  [[nodiscard]] std::string group() const;
  /// Whether this part and `other` (of the same group) hold decks in common: overlapping byte
  /// ranges of a file (whatever the N each was cut with; the same shard twice), overlapping
  /// chunks of a run.
  [[nodiscard]] bool overlaps(const audit_part& other) const;
  /// "shard 2/4 of 'decks.txt'", "chunks 0..15 of riffle:3 (seed "1", xoshiro256pp)".
  [[nodiscard]] std::string describe() const;
};

/// The validated contents of a counts file.
struct audit_counts {
  std::string shufl_version;
  std::string pack_name, pack_description;
  std::uint64_t pack_decks = 1, jokers = 0;
  std::vector<std::string> labels;     ///< Every card of the pack in canonical order (poker codes where named).
  std::size_t positions = 0;           ///< K (the pack's size unless --dealt).
  std::string game;                    ///< "" (no --game) or the game and its deal: "poker 1x5", "blackjack 2x2".
  /// The sums, without fingerprints (those are in the parts); skip reasons of the first parts.
  std::optional<audit_tally> tally;
  std::vector<audit_part> parts;
  std::size_t lags = 2;                ///< --lags of position-pairs (part of the battery's identity).
};

/// The counts of a tally read from one part.
audit_counts counts_of(const audit_tally& tally, audit_part part);

/// Writes counts as `shufl-audit-counts-2` JSON (one line and a newline).
std::string write_audit_counts(const audit_counts& counts);

/// Parses and validates a counts file before any arithmetic: every field's type and range, the
/// pack rebuilt from its name (or custom labels) and compared card by card, array sizes, the
/// tables' column sums (each position holds one card of each deck), the totals within their
/// possible range, the parts' decks adding up. Throws shufl::error "NAME: FIELD: ...".
audit_counts parse_audit_counts(std::string_view text, std::string_view name);

/// Reads and parses a counts file; refuses files over audit_counts_max_bytes.
audit_counts read_audit_counts(const std::string& path);

/// Adds counts files into the tally of one run.
class audit_merge {
 public:
  /// Adds one file; throws shufl::error naming `name` when its battery differs (pack, --dealt,
  /// game, strategy) or a part repeats decks already added (audit_part::overlaps: the same file
  /// whole and in shards, shards of it cut with two N that overlap, overlapping chunks of one
  /// run).
  void add(audit_counts counts, const std::string& name);
  [[nodiscard]] std::size_t files() const noexcept { return names_.size(); }
  /// The merged counts: parts of one input in order, adjacent ones joined (their serial pair
  /// counted), fingerprints in input order (the first 2^20 kept).
  [[nodiscard]] audit_counts merged() const;
  /// For each sharded input or run lacking parts: a description naming them.
  [[nodiscard]] std::vector<std::string> missing() const;

 private:
  std::vector<std::string> names_;
  std::optional<audit_counts> sum_;
  std::vector<std::string> group_order_;
  std::map<std::string, std::vector<std::pair<audit_part, std::string>>> parts_;  // by group: part, file
};

}  // namespace shufl::audit
