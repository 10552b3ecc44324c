// The inputs of one `shufl audit` battery run as the library reads them: a stream of decks with
// the SHA-256 of its bytes, and the parts counted for --save-counts (a deck file or one of its
// --shard byte ranges; an --algo run or one of its shards of chunks), each with its counts file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "shufl/audit.hpp"
#include "shufl/audit/counts.hpp"
#include "shufl/audit/deck_file.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/tally.hpp"
#include "shufl/bias.hpp"
#include "shufl/random.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {

/// A stream audited whole: the battery's report, the pack read, and the SHA-256 (64 lowercase hex
/// digits, libsodium) and length of every byte the reader took from the stream.
struct audited_stream {
  audit_report report;
  audit_pack pack;
  std::string sha256;
  std::uint64_t bytes = 0;
};

/// audit_decks on the decks of `in` (a pipe or standard input: read once, hashed as it is read).
/// `on_inferred` gets the reader's note on how it inferred the pack, when it made one. Throws
/// shufl::error as audit_decks and deck_reader do.
audited_stream audit_stream(text_reader& in, const reader_options& reader, audit_options options,
                            const std::function<void(const std::string&)>& on_inferred);

/// One part counted for --save-counts: its sums, what it covers (`part`, with the SHA-256 of a
/// file's bytes read) and the counts file's text (write_audit_counts of counts_of(tally, part)).
struct counted_part {
  audit_tally tally;
  audit_part part;
  std::string counts;
};

/// Shard `shard.first` of `shard.second` byte ranges of the deck file `file` opened from `path`
/// (shard_range; `sharded` false: the whole file, shard 0 of 1), counted by tally_deck_file (an
/// empty shard allowed). Messages name the input as input_display_name(path), a shard as
/// "NAME (shard I/N from byte B)". Throws as tally_deck_file.
counted_part count_file_part(const deck_file& file, const std::string& path, std::pair<std::uint64_t, std::uint64_t> shard,
                             bool sharded, const reader_options& reader, const audit_options& options,
                             const std::function<void(const std::string&)>& on_inferred);

/// The chunks of shard `shard.first` of `shard.second` (bias_shard_chunks; `sharded` false: every
/// chunk) of the decks audit_algorithm generates for `algorithm` (tally_algorithm). An unseeded
/// run (`seed` empty) is named by a run id of 32 hex digits from the OS. Throws shufl::error
/// "--shard TEXT: the run has only C chunks of 65536 decks: use at most C shards" when the shards
/// outnumber the run's chunks (`shard_text`: --shard as given).
counted_part count_algorithm_part(const algorithm_spec& algorithm, const audit_pack& pack, std::uint64_t trials,
                                  engine_kind engine, const seed_key& key, const std::optional<std::string>& seed,
                                  const audit_options& options, std::pair<std::uint64_t, std::uint64_t> shard,
                                  bool sharded, const std::string& shard_text);

}  // namespace shufl::audit
