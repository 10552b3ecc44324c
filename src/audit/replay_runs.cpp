// Runs repeated from earlier decks (include/shufl/audit/replay_runs.hpp; docs/monitor.md).
//
// The keys are exact (L faces packed into one word), built by shifting in one face per card, so
// a deck of n cards costs O(n) work: n − L + 1 lookups and floor(n/L) insertions, each O(1)
// expected in an index of linear probing kept at most 70 % full (deletion by backward shift, no
// tombstones, so a window that has turned over many times probes as fast as a new one). The
// index holds one entry per distinct key (its newest copy): a key stored again and again
// replaces its entry instead of lengthening a cluster, and leaves when its newest copy leaves.
#include "shufl/audit/replay_runs.hpp"

#include <algorithm>
#include <bit>

#include "shufl/error.hpp"

namespace shufl::audit {

newest_index::newest_index(std::size_t positions) {
  if (positions == 0 || positions >= std::size_t{0xffffffff})
    throw shufl::error("change detector: a replay index out of range");
  // Position positions − 1 < 2^bits − 1: no entry is `empty`.
  pos_bits_ = static_cast<unsigned>(std::bit_width(positions));
  pos_mask_ = pos_bits_ >= 32 ? empty : (std::uint32_t{1} << pos_bits_) - 1;
  const unsigned field_bits = std::min(3u, 32 - pos_bits_);
  far_ = (std::uint32_t{1} << field_bits) - 1;
  field_mask_ = far_ == 0 ? 0 : far_ << pos_bits_;
  tag_mask_ = pos_bits_ + field_bits >= 32 ? 0 : ~((std::uint32_t{1} << (pos_bits_ + field_bits)) - 1);
}

std::size_t newest_index::slots_for(std::size_t entries) noexcept {
  std::size_t n = 16;
  while (entries * 10 > n * 7) n *= 2;
  return n;
}

std::uint64_t newest_index::mix(std::uint64_t x) noexcept {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

bool newest_index::put(std::uint64_t key, std::uint64_t m, std::size_t pos, std::span<const std::uint64_t> ring) noexcept {
  const std::size_t mask = slots_.size() - 1;
  const std::uint32_t t = tag(m);
  const std::size_t home = m & mask;
  for (std::size_t i = home;; i = (i + 1) & mask) {
    const std::uint32_t e = slots_[i];
    if (e == empty) {
      slots_[i] = t | field((i - home) & mask) | static_cast<std::uint32_t>(pos);
      return true;
    }
    if ((e & tag_mask_) == t && ring[e & pos_mask_] == key) {
      slots_[i] = (e & ~pos_mask_) | static_cast<std::uint32_t>(pos);
      return false;
    }
  }
}

void newest_index::erase(std::size_t i, std::span<const std::uint64_t> ring) noexcept {
  const std::size_t mask = slots_.size() - 1;
  // Backward shift: move up every later entry of the cluster whose home is not in (i, j], that
  // is whose distance from home is at least j − i (read from the entry, or from the ring when
  // the field is saturated).
  for (std::size_t j = (i + 1) & mask; slots_[j] != empty; j = (j + 1) & mask) {
    const std::uint32_t e = slots_[j];
    const std::uint32_t f = far_ == 0 ? 0 : (e >> pos_bits_) & far_;
    const std::size_t distance = f < far_ ? f : ((j - (mix(ring[e & pos_mask_]) & mask)) & mask);
    const std::size_t gap = (j - i) & mask;
    if (distance >= gap) {
      slots_[i] = (e & ~field_mask_) | field(distance - gap);
      i = j;
    }
  }
  slots_[i] = empty;
}

namespace {

// The ring positions of a run window (window·slots), after checking its shape.
std::size_t run_positions(std::size_t window, unsigned length, unsigned bits, std::size_t slots) {
  if (window == 0 || length == 0 || bits == 0 || slots == 0 || length * bits > 63 ||
      window > (std::size_t{0xfffffffe} / slots))
    throw shufl::error("change detector: a run window out of range");
  return window * slots;
}

}  // namespace

run_window::run_window(std::size_t window, unsigned length, unsigned bits, std::size_t slots)
    : window_(window), length_(length), bits_(bits), slots_(slots), index_(run_positions(window, length, bits, slots)) {}

std::size_t run_window::full_bytes(std::size_t window, std::size_t slots) noexcept {
  return window * slots * 8 + newest_index::slots_for(window * slots) * 4;
}

// Rebuilds the index with room for `entries` keys: the decks in the ring from the oldest to the
// newest, so each key ends at its newest copy.
void run_window::grow(std::size_t entries) {
  const std::size_t want = newest_index::slots_for(entries);
  if (want <= index_.size()) return;
  index_.reset(want);
  const std::size_t decks = ring_.size() / slots_;
  const std::size_t now = static_cast<std::size_t>(seen_ % window_);
  for (std::size_t d = 1; d <= decks; ++d) {
    const std::size_t base = (now + d) % decks * slots_;
    for (std::size_t j = 0; j < slots_; ++j)
      if (const std::uint64_t k = ring_[base + j]; k != none) index_.put(k, newest_index::mix(k), base + j, ring_);
  }
}

run_window::look run_window::add(std::span<const std::uint32_t> faces) {
  look l;
  l.stored = entries_;
  const std::uint64_t mask = (std::uint64_t{1} << (length_ * bits_)) - 1;
  const std::uint64_t face_mask = (std::uint64_t{1} << bits_) - 1;
  const std::size_t deck_slot = static_cast<std::size_t>(seen_ % window_);
  // Every window of L consecutive cards, looked up among the decks before this one. The lookups
  // touch a large index at random: first every key's home slot is prefetched, then the probes,
  // so the cache misses overlap; a probe reads the ring only when an entry's tag matches.
  keys_.clear();
  all_.clear();
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < faces.size(); ++i) {
    key = ((key << bits_) | (faces[i] & face_mask)) & mask;
    if (i + 1 < length_) continue;
    if ((i + 1) % length_ == 0 && keys_.size() < slots_) keys_.push_back(key);
    all_.push_back(key);
  }
  mixes_.resize(all_.size());
  for (std::size_t j = 0; j < all_.size(); ++j) {
    mixes_[j] = newest_index::mix(all_[j]);
    index_.prefetch(mixes_[j]);
  }
  // The leaving deck's keys are looked up after the probes: their slots are fetched meanwhile.
  const std::size_t base = deck_slot * slots_;
  if (seen_ >= window_)
    for (std::size_t j = 0; j < slots_; ++j)
      if (const std::uint64_t k = ring_[base + j]; k != none) index_.prefetch(newest_index::mix(k));
  for (std::size_t j = 0; j < all_.size(); ++j) {
    const std::size_t i = index_.find(all_[j], mixes_[j], ring_);
    if (i == newest_index::npos) continue;
    if (l.matches++ == 0) {
      const std::size_t d = index_.position(i) / slots_;
      const std::size_t back = (deck_slot + window_ - d) % window_;
      l.lag = back == 0 ? window_ : back;
    }
  }
  // This deck's aligned windows replace those of the deck `window` back: a key leaves the index
  // when its newest copy is in that deck.
  if (seen_ >= window_) {
    for (std::size_t j = 0; j < slots_; ++j)
      if (const std::uint64_t k = ring_[base + j]; k != none) {
        const std::size_t i = index_.find(k, newest_index::mix(k), ring_);
        if (i != newest_index::npos && index_.position(i) / slots_ == deck_slot) index_.erase(i, ring_);
        --entries_;
      }
    std::fill_n(ring_.begin() + static_cast<std::ptrdiff_t>(base), slots_, none);
  } else {
    if (ring_.capacity() < base + slots_)
      ring_.reserve(std::min(std::max<std::size_t>(2 * ring_.capacity(), 16 * slots_), window_ * slots_));
    ring_.resize(base + slots_, none);
  }
  grow(std::min(entries_ + keys_.size(), window_ * slots_));
  for (std::size_t j = 0; j < keys_.size(); ++j) {
    ring_[base + j] = keys_[j];
    index_.put(keys_[j], newest_index::mix(keys_[j]), base + j, ring_);
    ++entries_;
  }
  ++seen_;
  return l;
}

}  // namespace shufl::audit
