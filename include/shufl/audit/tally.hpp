// What a run of the audit battery adds up before its tests, for runs split into parts: parts of
// one file read by several threads, shards of a file or of an --algo run (`--shard I/N`), and
// counts files added up by `--merge` (audit/counts.hpp). Every accumulator is a sum, so parts
// add up exactly; the order-dependent pieces are kept alongside: the first and last deck of a
// part (the serial tests' pair where two adjacent parts meet) and the duplicates test's
// fingerprints in input order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/deck_reader.hpp"

namespace shufl::audit {

/// The sums of one part of a run.
struct audit_tally {
  audit_pack pack;
  battery sums;
  std::uint64_t skipped = 0;                ///< Invalid decks skipped (--skip-bad).
  std::vector<std::string> skip_reasons;    ///< The first max_skip_reasons of them, in input order.
  std::vector<std::uint32_t> first, last;   ///< The first and last deck counted (K face ids); empty when none.

  audit_tally(audit_pack p, const battery_shape& shape) : pack(std::move(p)), sums(shape) {}
};

/// Reads the decks of `text` (a whole file in memory, or whole lines of one: a shard) with
/// options.threads threads: the first deck fixes the pack on the calling thread, the rest is cut
/// into one range of whole lines per thread, each read by deck_reader::continue_on, and the
/// parts are appended in input order, so the result is that of one reader over the text: the
/// same sums, the same serial pairs (also where two threads' ranges meet), the same first error
/// (with its line number: line numbers count from `lines_before` + 1). `name` is the input's
/// name in messages. Throws the first error in input order; "NAME: no decks" when the text has
/// none, unless `allow_empty` (a shard): then an empty tally of the declared pack (an inferred
/// pack throws, since no deck shows it). `on_inferred` gets the reader's inference note (when the
/// pack was inferred) once the first deck is read, before the rest.
audit_tally tally_text(std::string_view text, const std::string& name, std::uint64_t lines_before,
                       const reader_options& reader, const audit_options& options, bool allow_empty = false,
                       const std::function<void(const std::string&)>& on_inferred = {});

/// Reads bytes at offsets: read_at(offset, buffer, size) stores up to `size` bytes from `offset`
/// in `buffer` and returns how many, as pread(2) does (deck_file::read_at); what it throws passes
/// through.
using read_at_function = std::function<std::size_t(std::uint64_t offset, char* buffer, std::size_t size)>;

/// The start of the first line at or after byte `at` of a text of `size` bytes read through
/// `read_at`: `at` when a line starts there (byte 0, or the byte after a newline), else the byte
/// after the next newline, else `size`.
std::uint64_t line_start_at(const read_at_function& read_at, std::uint64_t size, std::uint64_t at);

/// As tally_text over a text of `size` bytes that is not in memory: every byte is read through
/// `read_at` into small buffers (a deck file: no mapping's pages, which a file truncated while
/// read would turn into SIGBUS). The result is tally_text's over the same bytes.
audit_tally tally_text_at(std::uint64_t size, const read_at_function& read_at, const std::string& name,
                          std::uint64_t lines_before, const reader_options& reader, const audit_options& options,
                          bool allow_empty = false, const std::function<void(const std::string&)>& on_inferred = {});

/// Chunks [chunk_begin, chunk_end) of the decks audit_algorithm generates (same streams), on
/// options.threads threads; the duplicates test keeps the decks among the run's first
/// duplicate_finder::limit. Throws as audit_algorithm.
audit_tally tally_algorithm(const algorithm_spec& algorithm, const audit_pack& pack, std::uint64_t trials,
                            engine_kind engine, const seed_key& key, const audit_options& options,
                            std::uint64_t chunk_begin, std::uint64_t chunk_end);


/// The battery evaluated over a tally, with Holm's decision at `alpha` (`threads` for the
/// duplicates test).
audit_report report_of(const audit_tally& tally, double alpha, unsigned threads = 1);

}  // namespace shufl::audit
