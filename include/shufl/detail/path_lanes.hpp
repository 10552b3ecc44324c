// Path-code counting of four xoshiro256++ chunks at once (AVX2 lanes), used by
// count_permutations (src/bias/counting.cpp). Internal to the library; tests use it directly.
#pragma once

#include <array>
#include <cstdint>
#include <span>

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

}  // namespace shufl::detail
