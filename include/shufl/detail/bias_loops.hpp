// The bias trial loops of each registered algorithm, as function pointers: what src/bias/ binds
// to the registry's algorithms (src/bias/bindings.cpp builds the table from
// registered_algorithms; the loops themselves are in src/bias/trial_loops.hpp). Internal to the
// library; tests and benchmarks use it to run single chunks.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "shufl/permutation.hpp"
#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::detail {

/// One of the four chunks count_positions_lanes runs together: its stream, where its secondary
/// sums go (null: none), and where the fingerprints of its first hash_count trials go.
struct positions_lane {
  std::uint64_t stream = 0;                ///< The chunk's stream (its index).
  permutation_sums* stats = nullptr;       ///< The chunk's secondary sums, or null.
  std::uint64_t* hashes = nullptr;         ///< The chunk's fingerprints, hashes[0, hash_count).
  std::uint64_t hash_count = 0;            ///< How many of its first trials are fingerprinted.
};

/// One algorithm's trial loops, instantiated per (algorithm, engine) so nothing is virtual in
/// them. Each runs one chunk: `trials` shuffles of the identity deck 0..n-1 with an engine of
/// `kind` keyed by (key, stream). Allocation-free apart from the position loops' chunk-local matrix (and draw buffer),
/// and noexcept.
struct bias_loops {
  std::string_view name;  ///< The registry name the loops were bound to.
  /// Adds 1 to counts[rank] for the lexicographic rank of each result (n ≤ 20; n! entries).
  void (*count_table)(engine_kind kind, const seed_key& key, std::uint64_t stream,
                      std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                      std::uint64_t* counts) = nullptr;
  /// Like count_table, but adds 1 to counts[code] for the mixed-radix code of each trial's draws
  /// (code = code · s + draw). Only meaningful for algorithms with fixed_bounds, whose codes then
  /// name the paths of random choices.
  void (*count_paths)(engine_kind kind, const seed_key& key, std::uint64_t stream,
                      std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                      std::uint64_t* counts) = nullptr;
  /// For n ≤ 255: adds 1 to positions[e * n + p] when card e ends at position p; when `stats` is
  /// not null, adds each permutation's fixed points, cycles, inversions and rising sequences to
  /// it; the first `hash_count` trials also store their permutation_fingerprint in hashes[0, hash_count).
  /// The draws (and so the results) are those of one stream whatever is asked for.
  void (*count_positions)(engine_kind kind, const seed_key& key, std::uint64_t stream,
                          std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                          std::uint64_t* positions, permutation_sums* stats,
                          std::uint64_t* hashes, std::uint64_t hash_count) = nullptr;
  /// count_positions for four chunks of `trials` trials each with xoshiro256++ streams
  /// (key, lanes[l].stream), all adding to `positions`. Only for algorithms with fixed_bounds,
  /// whose draws are below `bounds` (in order, each in [1, 2^32)): their draws come four chunks at
  /// a time from AVX2 lanes where the CPU has them (half_word_lanes). The same results as
  /// count_positions on each chunk.
  void (*count_positions_lanes)(const seed_key& key, const std::array<positions_lane, 4>& lanes,
                                std::span<const std::uint64_t> bounds, std::uint64_t parameter,
                                std::size_t n, std::uint64_t trials, std::uint64_t* positions) = nullptr;
  /// The decks count_positions counts for the same chunk (same engine, draws and order), written
  /// to decks[t * n, (t + 1) * n) for trial t (n ≤ 255): what `shufl audit --algo` tests.
  void (*generate_decks)(engine_kind kind, const seed_key& key, std::uint64_t stream,
                         std::uint64_t parameter, std::size_t n, std::uint64_t trials,
                         std::uint8_t* decks) = nullptr;
};

/// The trial loops bound to a registered algorithm. Throws shufl::error for an algorithm_info
/// that is not one of algorithms() (a hand-made entry, as some tests build).
const bias_loops& bias_loops_for(const algorithm_info& info);

}  // namespace shufl::detail
