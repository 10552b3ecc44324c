// Delphi's Random: the reference generator of the asf-poker seed-search family.
#pragma once

#include <cstdint>

namespace shufl::audit::seeds {

// Delphi's Random as a word engine for uniform_below: returns RandSeed·2^32 + 1 after the update,
// so Lemire's multiply-high gives exactly RandSeed·m div 2^32 and never rejects (the low word
// is at least m for m < 2^32).
struct delphi_engine {
  std::uint32_t seed;
  std::uint64_t operator()() noexcept {
    seed = seed * 134775813u + 1u;
    return (std::uint64_t{seed} << 32) | 1u;
  }
};

}  // namespace shufl::audit::seeds
