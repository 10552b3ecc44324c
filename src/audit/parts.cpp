// The inputs of an audit battery run: a stream hashed as it is read, and the parts of
// --save-counts (shufl/audit/parts.hpp).
#include "shufl/audit/parts.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include "shufl/error.hpp"

namespace shufl::audit {

audited_stream audit_stream(text_reader& in, const reader_options& reader_opts, audit_options options,
                            const std::function<void(const std::string&)>& on_inferred) {
  if (sodium_init() < 0) throw error("libsodium failed to initialise");
  crypto_hash_sha256_state sha;
  crypto_hash_sha256_init(&sha);
  std::uint64_t bytes = 0;
  in.observe_bytes([&](std::string_view b) {
    crypto_hash_sha256_update(&sha, reinterpret_cast<const unsigned char*>(b.data()), b.size());
    bytes += b.size();
  });
  deck_reader reader(in, reader_opts);
  options.on_pack = [&reader, &on_inferred] {
    if (!reader.inference_note().empty() && on_inferred) on_inferred(reader.inference_note());
  };
  audit_report report = audit_decks(reader, options);
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&sha, digest);
  std::string hex;
  for (const unsigned char byte : digest) hex += fmt::format("{:02x}", byte);
  return {std::move(report), reader.pack(), std::move(hex), bytes};
}

counted_part count_file_part(const deck_file& file, const std::string& path, std::pair<std::uint64_t, std::uint64_t> shard,
                             bool sharded, const reader_options& reader, const audit_options& options,
                             const std::function<void(const std::string&)>& on_inferred) {
  const byte_range range = sharded ? shard_range(file, shard.first, shard.second) : byte_range{0, file.size()};
  const std::string name = sharded ? fmt::format("{} (shard {}/{} from byte {})", input_display_name(path), shard.first,
                                                 shard.second, range.begin)
                                   : input_display_name(path);
  auto [tally, sha] = tally_deck_file(file, range, name, reader, options, sharded, on_inferred);
  audit_part part;
  part.name = path;
  part.size = file.size();
  part.sha256 = sha;
  part.shards = shard.second;
  part.begin = shard.first;
  part.end = shard.first + 1;
  part.file_id = deck_file_id(file);
  part.bytes_begin = range.begin;
  part.bytes_end = range.end;
  std::string counts = write_audit_counts(counts_of(tally, part));
  return {std::move(tally), std::move(part), std::move(counts)};
}

counted_part count_algorithm_part(const algorithm_spec& algorithm, const audit_pack& pack, std::uint64_t trials,
                                  engine_kind engine, const seed_key& key, const std::optional<std::string>& seed,
                                  const audit_options& options, std::pair<std::uint64_t, std::uint64_t> shard,
                                  bool sharded, const std::string& shard_text) {
  const std::uint64_t chunks = bias_chunk_count(trials);
  const chunk_set mine = sharded ? bias_shard_chunks(trials, shard.first, shard.second) : chunk_set::all_of(trials);
  // Every shard of a run cut into more shards than it has chunks is refused alike (not only
  // the empty ones), so a loop over I = 0..N-1 fails the same way for each I.
  if (mine.empty() || (sharded && shard.second > chunks)) {
    throw error(fmt::format("--shard {}: the run has only {} chunk{} of {} decks: use at most {} shards", shard_text, chunks,
                            chunks == 1 ? "" : "s", bias_chunk_trials, chunks));
  }
  const auto [begin, end] = mine.ranges.front();
  audit_tally tally = tally_algorithm(algorithm, pack, trials, engine, key, options, begin, end);
  audit_part part;
  part.generated = true;
  part.name = algorithm.label();
  part.seed = seed;
  if (!seed) part.run_id = to_hex(key_from_os()).substr(0, 32);
  part.engine = std::string(engine_name(engine));
  part.trials = trials;
  part.begin = begin;
  part.end = end;
  std::string counts = write_audit_counts(counts_of(tally, part));
  return {std::move(tally), std::move(part), std::move(counts)};
}

}  // namespace shufl::audit
