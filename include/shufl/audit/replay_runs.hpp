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
// Lag: decks back to the NEWEST copy in the window of the first window of the deck found.
//
// Memory (bytes): 8·slots per deck in the ring (allocated as decks come, up to `window` decks)
// and 4 per slot of an open-addressing index (linear probing, load <= 0.7, a power of two);
// full_bytes() gives the size of a full window. Both arrays go on huge pages when large
// (shufl/detail/huge_pages.hpp): their accesses are random, and 4 KiB pages would cost a TLB
// miss on nearly every one.
//
// Time: O(1) expected per card whatever the stream (newest_index: one index entry per DISTINCT
// key, so a key stored many times, e.g. one deck dealt again and again, costs no more than one).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shufl/detail/huge_pages.hpp"

namespace shufl::audit {

/// A vector whose large buffers go on huge pages (shufl/detail/huge_pages.hpp).
template <class T>
using huge_vector = std::vector<T, detail::huge_page_allocator<T>>;

/// An open-addressing index (linear probing, deletion by backward shift) from 64-bit keys to the
/// position of their NEWEST copy in a ring of keys the caller keeps: one 4-byte entry per
/// distinct key. An entry holds the position in its low bits (as many as `positions` needs),
/// then up to 3 bits of its distance from its home slot (the largest value: "read the ring"),
/// then tag bits of the key's mix: a probe reads the ring only when the tag matches, and a
/// deletion's backward shift only for an entry 7 or more slots from home. Used by run_window
/// and by replay_window (shufl/audit/detector.hpp).
class newest_index {
 public:
  static constexpr std::uint32_t empty = ~std::uint32_t{0};  ///< an empty slot
  static constexpr std::size_t npos = ~std::size_t{0};       ///< no such slot
  /// An index over ring positions 0 .. positions − 1 (0 < positions < 2^32 − 1); no slots yet.
  explicit newest_index(std::size_t positions);
  /// The slots for `entries` keys at most 70 % full (a power of two, at least 16).
  static std::size_t slots_for(std::size_t entries) noexcept;
  /// The SplitMix64 finaliser (a bijection): spreads keys over the slots.
  static std::uint64_t mix(std::uint64_t key) noexcept;
  [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }
  /// Empties the index and gives it `n` slots (a power of two).
  void reset(std::size_t n) { slots_.assign(n, empty); }
  /// Prefetches the home slot of a key of mix `m` (no-op without slots).
  void prefetch(std::uint64_t m) const noexcept {
    if (!slots_.empty()) __builtin_prefetch(&slots_[m & (slots_.size() - 1)]);
  }
  /// The slot of `key` (of mix `m`), or npos; `ring[pos]` is the key stored at position pos.
  [[nodiscard]] std::size_t find(std::uint64_t key, std::uint64_t m, std::span<const std::uint64_t> ring) const noexcept {
    if (slots_.empty()) return npos;
    const std::size_t mask = slots_.size() - 1;
    const std::uint32_t t = tag(m);
    for (std::size_t i = m & mask;; i = (i + 1) & mask) {
      const std::uint32_t e = slots_[i];
      if (e == empty) return npos;
      if ((e & tag_mask_) == t && ring[e & pos_mask_] == key) return i;
    }
  }
  /// The ring position held in slot `i`.
  [[nodiscard]] std::size_t position(std::size_t i) const noexcept { return slots_[i] & pos_mask_; }
  /// Makes `pos` (holding `key`, of mix `m`) the key's newest copy; true if the key was new.
  /// The slots must have room (at most 70 % full after it).
  bool put(std::uint64_t key, std::uint64_t m, std::size_t pos, std::span<const std::uint64_t> ring) noexcept;
  /// Removes slot `i`; `ring` must still hold the keys of the other entries.
  void erase(std::size_t i, std::span<const std::uint64_t> ring) noexcept;

 private:
  [[nodiscard]] std::uint32_t tag(std::uint64_t m) const noexcept { return static_cast<std::uint32_t>(m >> 32) & tag_mask_; }
  // The distance field for `distance` slots from home (saturated at far_).
  [[nodiscard]] std::uint32_t field(std::size_t distance) const noexcept {
    return far_ == 0 ? 0 : static_cast<std::uint32_t>(std::min<std::size_t>(distance, far_)) << pos_bits_;
  }
  unsigned pos_bits_;                 // the position bits
  std::uint32_t pos_mask_;            // (1 << pos_bits_) − 1
  std::uint32_t far_;                 // the largest distance field ("read the ring"; 0: no field)
  std::uint32_t field_mask_;          // far_ << pos_bits_
  std::uint32_t tag_mask_;            // the bits above the field
  huge_vector<std::uint32_t> slots_;  // tag | distance | position, or empty
};

class run_window {
 public:
  /// A window of the last `window` decks (> 0), each with `slots` aligned windows of `length`
  /// cards of `bits` bits per face (length·bits <= 63, slots·window < 2^32 − 1).
  run_window(std::size_t window, unsigned length, unsigned bits, std::size_t slots);
  /// What the window said of one deck.
  struct look {
    std::size_t matches = 0;  ///< windows of the deck found among the stored ones
    std::uint64_t lag = 0;    ///< decks back to the newest copy of the first window found (0: none)
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
  void grow(std::size_t entries);

  std::size_t window_;
  unsigned length_, bits_;
  std::size_t slots_;
  huge_vector<std::uint64_t> ring_;   // slots_ keys per deck, deck s at (s mod window)·slots_
  newest_index index_;                // the newest ring position of each distinct key
  std::size_t entries_ = 0;           // stored keys (ring slots other than `none`)
  std::uint64_t seen_ = 0;
  std::vector<std::uint64_t> keys_;   // scratch: this deck's aligned windows
  std::vector<std::uint64_t> all_;    // scratch: all its windows
  std::vector<std::uint64_t> mixes_;  // scratch: their mixes
};

}  // namespace shufl::audit
