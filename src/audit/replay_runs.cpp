// Runs repeated from earlier decks (include/shufl/audit/replay_runs.hpp; docs/monitor.md).
//
// The keys are exact (L faces packed into one word), built by shifting in one face per card, so
// a deck of n cards costs O(n) work: n − L + 1 lookups and floor(n/L) insertions, each O(1)
// expected in an index of linear probing kept at most 70 % full (deletion by backward shift, no
// tombstones, so a window that has turned over many times probes as fast as a new one).
#include "shufl/audit/replay_runs.hpp"

#include <algorithm>

#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

// The finaliser of SplitMix64 (a bijection of 64-bit words): spreads packed keys over the index.
std::uint64_t mix(std::uint64_t x) noexcept {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

run_window::run_window(std::size_t window, unsigned length, unsigned bits, std::size_t slots)
    : window_(window), length_(length), bits_(bits), slots_(slots) {
  if (window == 0 || length == 0 || bits == 0 || slots == 0 || length * bits > 63 ||
      window > (std::size_t{0xfffffffe} / slots))
    throw shufl::error("change detector: a run window out of range");
}

std::size_t run_window::index_size(std::size_t entries) noexcept {
  std::size_t n = 16;
  while (entries * 10 > n * 7) n *= 2;
  return n;
}

std::size_t run_window::full_bytes(std::size_t window, std::size_t slots) noexcept {
  return window * slots * 8 + index_size(window * slots) * 4;
}

std::size_t run_window::home(std::uint64_t key) const noexcept { return mix(key) & (index_.size() - 1); }

std::uint32_t run_window::find(std::uint64_t key) const noexcept {
  if (index_.empty()) return empty;
  const std::size_t m = index_.size() - 1;
  for (std::size_t i = home(key);; i = (i + 1) & m) {
    const std::uint32_t p = index_[i];
    if (p == empty || ring_[p] == key) return p;
  }
}

void run_window::insert(std::uint32_t pos) {
  const std::size_t m = index_.size() - 1;
  std::size_t i = home(ring_[pos]);
  while (index_[i] != empty) i = (i + 1) & m;
  index_[i] = pos;
}

void run_window::erase(std::uint32_t pos) {
  const std::size_t m = index_.size() - 1;
  std::size_t i = home(ring_[pos]);
  while (index_[i] != pos) i = (i + 1) & m;
  // Backward shift: move up every later entry of the cluster whose home is not in (i, j].
  for (std::size_t j = (i + 1) & m; index_[j] != empty; j = (j + 1) & m) {
    const std::size_t k = home(ring_[index_[j]]);
    const bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
    if (!stays) {
      index_[i] = index_[j];
      i = j;
    }
  }
  index_[i] = empty;
}

void run_window::grow(std::size_t entries) {
  const std::size_t want = index_size(entries);
  if (want <= index_.size()) return;
  index_.assign(want, empty);
  for (std::size_t p = 0; p < ring_.size(); ++p)
    if (ring_[p] != none) insert(static_cast<std::uint32_t>(p));
}

run_window::look run_window::add(std::span<const std::uint32_t> faces) {
  look l;
  l.stored = entries_;
  const std::uint64_t mask = (std::uint64_t{1} << (length_ * bits_)) - 1;
  const std::uint64_t face_mask = (std::uint64_t{1} << bits_) - 1;
  const std::size_t deck_slot = static_cast<std::size_t>(seen_ % window_);
  // Every window of L consecutive cards, looked up among the decks before this one. The lookups
  // touch a large index at random: first every key and its home slot (prefetched), then the
  // ring entries those slots name (prefetched), then the probes, so the cache misses overlap.
  keys_.clear();
  all_.clear();
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < faces.size(); ++i) {
    key = ((key << bits_) | (faces[i] & face_mask)) & mask;
    if (i + 1 < length_) continue;
    if ((i + 1) % length_ == 0 && keys_.size() < slots_) keys_.push_back(key);
    all_.push_back(key);
  }
  if (!index_.empty()) {
    homes_.resize(all_.size());
    for (std::size_t j = 0; j < all_.size(); ++j) {
      homes_[j] = home(all_[j]);
      __builtin_prefetch(&index_[homes_[j]]);
    }
    for (std::size_t j = 0; j < all_.size(); ++j)
      if (const std::uint32_t p = index_[homes_[j]]; p != empty) __builtin_prefetch(&ring_[p]);
    for (const std::uint64_t k : all_) {
      const std::uint32_t p = find(k);
      if (p == empty) continue;
      if (l.matches++ == 0) {
        const std::size_t d = p / slots_;
        const std::size_t back = (deck_slot + window_ - d) % window_;
        l.lag = back == 0 ? window_ : back;
      }
    }
  }
  // This deck's aligned windows replace those of the deck `window` back.
  const std::size_t base = deck_slot * slots_;
  if (seen_ >= window_) {
    for (std::size_t j = 0; j < slots_; ++j)
      if (ring_[base + j] != none) {
        erase(static_cast<std::uint32_t>(base + j));
        ring_[base + j] = none;
        --entries_;
      }
  } else {
    if (ring_.capacity() < base + slots_)
      ring_.reserve(std::min(std::max<std::size_t>(2 * ring_.capacity(), 16 * slots_), window_ * slots_));
    ring_.resize(base + slots_, none);
  }
  grow(std::min(entries_ + keys_.size(), window_ * slots_));
  for (std::size_t j = 0; j < keys_.size(); ++j) {
    ring_[base + j] = keys_[j];
    insert(static_cast<std::uint32_t>(base + j));
    ++entries_;
  }
  ++seen_;
  return l;
}

}  // namespace shufl::audit
