// Four xoshiro256++ chunks at once in AVX2 lanes: path-code counting, used by count_permutations,
// and the half-word draws of the position-matrix loops, used by count_positions
// (src/bias/counting.cpp). Internal to the library; tests use it directly.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "shufl/random.hpp"

namespace shufl::detail {

/// Whether count_paths_xoshiro_lanes runs its AVX2 kernel on this CPU (else it runs the scalar
/// loop, which gives the same counts).
bool path_lanes_available() noexcept;

/// For a fixed-bounds algorithm whose draws are below `bounds` (in order, each in [1, 2^20],
/// their product at most 2^20): `trials` trials of each of the four chunks whose xoshiro256++
/// streams are (key, streams[l]), adding 1 to counts[code] for each trial's mixed-radix path code
/// (code = code · s + draw). The same words, draws and counts as trial_loops::count_paths on each
/// chunk in turn: the four streams advance in the four 64-bit lanes of AVX2 registers, and a trial
/// where Lemire's rejection may occur is redone for that lane by the scalar method. Noexcept,
/// allocation-free.
void count_paths_xoshiro_lanes(const seed_key& key, const std::array<std::uint64_t, 4>& streams,
                               std::span<const std::uint64_t> bounds, std::uint64_t trials,
                               std::uint64_t* counts) noexcept;

/// A xoshiro256++ state s0..s3 (as xoshiro256pp_engine::from_state takes it).
using xoshiro_state = std::array<std::uint64_t, 4>;

/// count_paths_xoshiro_lanes from the four lanes' raw states (advanced in place): the kernel the
/// keyed form runs, open to tests that craft states whose words hit Lemire's rejection.
/// Precondition: bounds as for count_paths_xoshiro_lanes.
void count_paths_from_states(std::array<xoshiro_state, 4>& lanes, std::span<const std::uint64_t> bounds,
                             std::uint64_t trials, std::uint64_t* counts) noexcept;

/// The draws of four xoshiro256++ streams below a fixed sequence of bounds (one trial's draws,
/// trial after trial), each exactly as the position-matrix loops' half_word_engine makes it (one
/// 32-bit half of a word per draw, low half first; Lemire's method at 32 bits with its rejection
/// loop; a half left over at a trial's end starts the next trial). Where the CPU has AVX2 the four
/// streams advance in the four 64-bit lanes of vector registers; a call where a lane's Lemire low
/// part falls below its bound (a possible rejection: about once in 3 million trials at n = 52) is redone
/// for that lane by the scalar engine, and a lane left holding half a word goes on scalar. So the
/// draws are those of four half_word_engine<xoshiro256pp_engine> started from the four states.
class half_word_lanes {
 public:
  /// Four streams from their raw states, drawing below `bounds` (not empty, each in [1, 2^32)).
  half_word_lanes(const std::array<xoshiro_state, 4>& states, std::span<const std::uint64_t> bounds);
  /// Writes the draws of the next `trials` trials of stream l to out[l][0, trials · bounds.size()),
  /// trial after trial. Noexcept, allocation-free.
  void draw(std::uint64_t trials, const std::array<std::uint32_t*, 4>& out) noexcept;

 private:
  std::array<xoshiro_state, 4> states_;
  std::array<std::uint64_t, 4> halves_{};  // the word whose high half is pending, per stream
  std::array<bool, 4> pending_{};          // whether a stream holds a pending high half
  std::vector<std::uint64_t> bounds_;
  std::vector<std::array<std::uint64_t, 2>> pairs_;  // the bounds of each word's low and high half
};

}  // namespace shufl::detail
