// Runs repeated from earlier decks, for the change detector's `replay` predictor
// (include/shufl/audit/detector.hpp; docs/monitor.md, "Replays at any lag").
//
// Per deck in the window, the keys of its ALIGNED windows of L cards (cards 0..L−1, L..2L−1, ...;
// floor(len/L) of them, at most `slots` per deck) are kept; each new deck looks up ALL its
// len − L + 1 windows of L consecutive cards among them, then adds its own aligned windows. A
// run of 2L or more consecutive cards copied from a deck in the window contains one whole aligned
// window of that deck, so it is found (a run of 2L − 1 may be missed). A key is the L faces
// packed `bits` bits each (L·bits <= 63): exact, no hash collisions.
//
// Memory (bytes): 8·slots per deck in the ring (allocated as decks come, up to `window` decks)
// and 4 per slot of an open-addressing index (linear probing, load <= 0.7, a power of two);
// full_bytes() gives the size of a full window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace shufl::audit {

class run_window {
 public:
  /// A window of the last `window` decks (> 0), each with `slots` aligned windows of `length`
  /// cards of `bits` bits per face (length·bits <= 63, slots·window < 2^32 − 1).
  run_window(std::size_t window, unsigned length, unsigned bits, std::size_t slots);
  /// What the window said of one deck.
  struct look {
    std::size_t matches = 0;  ///< windows of the deck found among the stored ones
    std::uint64_t lag = 0;    ///< decks back to the deck of the first match (0: none)
    std::size_t stored = 0;   ///< aligned windows stored before this deck (the union bound's count)
  };
  /// Looks every window of `faces` (each < 2^bits) up, then stores its aligned windows (the
  /// oldest deck leaves a full window).
  look add(std::span<const std::uint32_t> faces);
  [[nodiscard]] unsigned length() const noexcept { return length_; }
  [[nodiscard]] std::size_t slots() const noexcept { return slots_; }
  /// Bytes held now (ring capacity·8 + index slots·4).
  [[nodiscard]] std::size_t bytes() const noexcept { return ring_.capacity() * 8 + index_.size() * 4; }
  /// Bytes of a full window of `window` decks with `slots` windows each.
  static std::size_t full_bytes(std::size_t window, std::size_t slots) noexcept;

 private:
  static constexpr std::uint64_t none = ~std::uint64_t{0};   // an empty ring slot
  static constexpr std::uint32_t empty = ~std::uint32_t{0};  // an empty index slot
  static std::size_t index_size(std::size_t entries) noexcept;
  [[nodiscard]] std::size_t home(std::uint64_t key) const noexcept;
  [[nodiscard]] std::uint32_t find(std::uint64_t key) const noexcept;
  void insert(std::uint32_t pos);
  void erase(std::uint32_t pos);
  void grow(std::size_t entries);

  std::size_t window_;
  unsigned length_, bits_;
  std::size_t slots_;
  std::vector<std::uint64_t> ring_;   // slots_ keys per deck, deck s at (s mod window)·slots_
  std::vector<std::uint32_t> index_;  // ring positions, by key
  std::size_t entries_ = 0;           // stored keys (ring slots other than `none`)
  std::uint64_t seen_ = 0;
  std::vector<std::uint64_t> keys_;   // scratch: this deck's aligned windows
  std::vector<std::uint64_t> all_;    // scratch: all its windows
  std::vector<std::size_t> homes_;    // scratch: their home slots
};

}  // namespace shufl::audit
