// Private to src/audit/: the one loop that fills a block of decks from a deck_reader, shared by
// the batch run's reader (run.cpp, one thread or a reader thread feeding workers) and by the
// parts of a tally (tally.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "shufl/cards.hpp"

namespace shufl::audit {

/// Copies `faces` (the deck read last, `positions` face ids) into `decks` and reads on from
/// `reader`, deck after deck, until `capacity` decks are there or the input ends. Returns the
/// number of decks copied (at least 1); `more` tells whether `faces` holds a deck read but not
/// yet copied. `each()` runs before each copy (tally.cpp prefetches the input there).
template <class Each>
std::size_t fill_block(cards::deck_reader& reader, std::vector<std::uint32_t>& faces, std::uint32_t* decks,
                       std::size_t positions, std::size_t capacity, bool& more, Each&& each) {
  std::size_t count = 0;
  do {
    each();
    std::memcpy(decks + count * positions, faces.data(), positions * sizeof(std::uint32_t));
    ++count;
    more = reader.next(faces);
  } while (more && count < capacity);
  return count;
}

/// fill_block with nothing to do before each copy.
inline std::size_t fill_block(cards::deck_reader& reader, std::vector<std::uint32_t>& faces, std::uint32_t* decks,
                              std::size_t positions, std::size_t capacity, bool& more) {
  return fill_block(reader, faces, decks, positions, capacity, more, [] {});
}

}  // namespace shufl::audit
