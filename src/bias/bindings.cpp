// Binds the registry's algorithms to the bias trial loops: one bias_loops entry per element of
// registered_algorithms (same order as algorithms()), built here so the algorithm layer never
// includes the loops.
#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "shufl/detail/bias_loops.hpp"
#include "shufl/error.hpp"
#include "shufl/shuffle/registered.hpp"
#include "trial_loops.hpp"

namespace shufl::detail {

namespace {

template <class Registered>
constexpr bias_loops bind(const Registered& r) {
  using loops = trial_loops<typename Registered::type>;
  bias_loops b;
  b.name = r.name;
  b.count_table = &loops::count_table;
  b.count_paths = &loops::count_paths;
  b.count_positions = &loops::count_positions;
  b.count_positions_lanes = &loops::count_positions_lanes;
  b.generate_decks = &loops::generate_decks;
  return b;
}

constexpr auto kLoops = std::apply([](const auto&... r) { return std::array<bias_loops, sizeof...(r)>{bind(r)...}; },
                                   registered_algorithms);

}  // namespace

const bias_loops& bias_loops_for(const algorithm_info& info) {
  const auto all = algorithms();
  // The registry's entries follow registered_algorithms: the index is the entry's position.
  if (all.data() <= &info && &info < all.data() + all.size()) {
    const auto i = static_cast<std::size_t>(&info - all.data());
    if (i < kLoops.size() && kLoops[i].name == info.name) return kLoops[i];
  }
  throw error(fmt::format("algorithm '{}' has no bias trial loops (not a registered algorithm)", info.name));
}

}  // namespace shufl::detail
