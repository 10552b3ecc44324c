// The per-deck statistics of the audit battery and its accumulators (position tables, the
// serial table, totals, duplicate fingerprints). Every per-deck function is one O(n) pass over
// flat arrays, noexcept and allocation-free.
#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <thread>
#include <utility>

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

#include "shufl/audit.hpp"
#include "shufl/error.hpp"

// The per-deck passes below are built twice where GCC can (target_clones, chosen once at load
// time): for x86-64-v3 (BMI's tzcnt/lzcnt/andn and shifts by a register in one instruction, AVX2)
// and for the baseline; both compute the same integers.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define SHUFL_AUDIT_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SHUFL_AUDIT_CLONES
#endif

namespace shufl::audit {

namespace {

// Maps the pages of a fresh buffer about to be filled in one call (Linux 5.14's
// MADV_POPULATE_WRITE) instead of one page fault per 4 KiB page as they are first written; a
// no-op elsewhere or when the call fails.
void prefault(void* data, std::size_t bytes) noexcept {
#ifdef MADV_POPULATE_WRITE
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace

std::uint32_t fixed_points_of(const std::uint32_t* d, std::size_t n) noexcept {
  std::uint32_t k = 0;
  for (std::size_t p = 0; p < n; ++p) k += d[p] == p;
  return k;
}

std::uint32_t successions_of(const std::uint32_t* d, std::size_t n) noexcept {
  std::uint32_t k = 0;
  for (std::size_t p = 0; p + 1 < n; ++p) k += d[p + 1] == d[p] + 1;
  return k;
}

std::uint32_t adjacent_pairs_of(const std::uint32_t* d, std::size_t n) noexcept {
  std::uint32_t k = 0;
  // |a − b| = 1 ⇔ (a − b + 1) as unsigned is 0 or 2.
  for (std::size_t p = 0; p + 1 < n; ++p) k += ((d[p + 1] - d[p] + 1) | 2u) == 2u;
  return k;
}

std::uint32_t descents_of(const std::uint32_t* d, std::size_t n) noexcept {
  std::uint32_t k = 0;
  for (std::size_t p = 0; p + 1 < n; ++p) k += d[p] > d[p + 1];
  return k;
}

SHUFL_AUDIT_CLONES std::uint32_t rising_sequences_of(const std::uint32_t* d, std::size_t n, std::uint32_t* where) noexcept {
  for (std::size_t p = 0; p < n; ++p) where[d[p]] = static_cast<std::uint32_t>(p);
  std::uint32_t k = n > 0;
  for (std::size_t i = 0; i + 1 < n; ++i) k += where[i + 1] < where[i];
  return k;
}

std::uint32_t runs_up_down_of(const std::uint32_t* d, std::size_t n) noexcept {
  if (n < 2) return 0;
  std::uint32_t turns = 0;
  bool up = d[1] > d[0];
  for (std::size_t p = 1; p + 1 < n; ++p) {
    const bool next_up = d[p + 1] > d[p];
    turns += next_up != up;
    up = next_up;
  }
  return 1 + turns;
}

SHUFL_AUDIT_CLONES guess_counts guess_counts_of(const std::uint32_t* d, std::size_t n) noexcept {
  // One word of unseen cards; both strategies look at the nearest unseen card above and below
  // the card just shown. Original successor: up, else down. Shelf: the successor's guess on a
  // rising run (up, down when nothing is above); on a falling one down, up when nothing is
  // below. After the last card nothing is unseen and the guesses (then garbage: countr_zero(0)
  // = 64) are never used; before it, some card is unseen above or below. Selects, no branches:
  // the run's way is a coin flip.
  std::uint64_t u = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  std::uint32_t successor = 0, shelf = 0, right_successor = 0, right_shelf = 0;
  std::int64_t last = -1;  // the first card counts as rising
  for (std::size_t p = 0; p < n; ++p) {
    const std::uint32_t c = d[p];
    right_successor += c == successor;
    right_shelf += c == shelf;
    u &= ~(std::uint64_t{1} << c);
    const std::uint64_t above = u & ((~std::uint64_t{0} << c) << 1);
    const std::uint64_t below = u ^ above;  // u no longer holds c
    const auto up = static_cast<std::uint32_t>(std::countr_zero(above));
    const auto down = static_cast<std::uint32_t>(63 ^ std::countl_zero(below));
    successor = above != 0 ? up : down;
    const std::uint32_t falling = below != 0 ? down : up;
    shelf = static_cast<std::int64_t>(c) > last ? successor : falling;
    last = c;
  }
  return {right_successor, right_shelf};
}

namespace {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SHUFL_AUDIT_AVX2_LANES 1
// guess_rising_sums_of for `count` = a multiple of 8 decks: each group of 8 is turned
// position-major (col[p][lane], 64-bit lanes), then two halves of 4 decks run the pass of
// guess_counts_of in AVX2 lanes, testing the guess rather than finding it (no bit scans).
__attribute__((target("avx2"))) guess_rising_sums guess_rising_lanes(const std::uint32_t* decks, std::size_t count,
                                                                    std::size_t n) noexcept {
  alignas(32) std::int64_t col[64][8];
  const __m256i one = _mm256_set1_epi64x(1), zero = _mm256_setzero_si256(), ones = _mm256_set1_epi64x(-1);
  const __m256i full = _mm256_set1_epi64x(n == 64 ? -1 : static_cast<std::int64_t>((std::uint64_t{1} << n) - 1));
  __m256i successor = zero, shelf = zero, rising = zero;
  for (std::size_t g = 0; g < count; g += 8) {
    for (std::size_t l = 0; l < 8; ++l) {
      const std::uint32_t* d = decks + (g + l) * n;
      for (std::size_t p = 0; p < n; ++p) col[p][l] = d[p];
    }
    for (std::size_t h = 0; h < 8; h += 4) {
      __m256i c = _mm256_load_si256(reinterpret_cast<const __m256i*>(&col[0][h]));
      const __m256i first = _mm256_cmpeq_epi64(c, zero);  // both strategies guess card 0 first
      successor = _mm256_sub_epi64(successor, first);
      shelf = _mm256_sub_epi64(shelf, first);
      __m256i seen = zero, last = ones;  // the first card counts as rising
      for (std::size_t p = 0; p + 1 < n; ++p) {
        const __m256i b = _mm256_load_si256(reinterpret_cast<const __m256i*>(&col[p + 1][h]));
        const __m256i c1 = _mm256_add_epi64(c, one);
        // Card c+1 seen before c (a shift by 64 gives 0: no card n).
        rising = _mm256_add_epi64(rising, _mm256_and_si256(_mm256_srlv_epi64(seen, c1), one));
        seen = _mm256_or_si256(seen, _mm256_sllv_epi64(one, c));
        const __m256i unseen = _mm256_andnot_si256(seen, full);
        const __m256i up = _mm256_cmpgt_epi64(b, c);
        const __m256i lo = _mm256_blendv_epi8(b, c, up), hi = _mm256_blendv_epi8(c, b, up);
        const __m256i between =
            _mm256_andnot_si256(_mm256_sllv_epi64(ones, hi), _mm256_sllv_epi64(ones, _mm256_add_epi64(lo, one)));
        const __m256i none_between = _mm256_cmpeq_epi64(_mm256_and_si256(unseen, between), zero);
        const __m256i none_above = _mm256_cmpeq_epi64(_mm256_and_si256(unseen, _mm256_sllv_epi64(ones, c1)), zero);
        const __m256i none_below = _mm256_cmpeq_epi64(_mm256_andnot_si256(_mm256_sllv_epi64(ones, c), unseen), zero);
        const __m256i right_up = _mm256_and_si256(none_between, _mm256_or_si256(up, none_above));
        const __m256i right_down = _mm256_and_si256(none_between, _mm256_or_si256(_mm256_xor_si256(up, ones), none_below));
        successor = _mm256_sub_epi64(successor, right_up);
        shelf = _mm256_sub_epi64(shelf, _mm256_blendv_epi8(right_down, right_up, _mm256_cmpgt_epi64(c, last)));
        last = c;
        c = b;
      }
      rising = _mm256_add_epi64(rising, _mm256_and_si256(_mm256_srlv_epi64(seen, _mm256_add_epi64(c, one)), one));
    }
  }
  alignas(32) std::uint64_t lanes[3][4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[0]), successor);
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[1]), shelf);
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[2]), rising);
  guess_rising_sums r;
  for (std::size_t l = 0; l < 4; ++l) {
    r.successor += lanes[0][l];
    r.shelf += lanes[1][l];
    r.rising += lanes[2][l];
  }
  r.rising += count;  // 1 + the count of each deck
  return r;
}
#endif

}  // namespace

guess_rising_sums guess_rising_sums_of(const std::uint32_t* decks, std::size_t count, std::size_t n) noexcept {
  guess_rising_sums r;
  std::size_t done = 0;
#ifdef SHUFL_AUDIT_AVX2_LANES
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2 && n >= 2 && n <= 64) {
    done = count / 8 * 8;
    r = guess_rising_lanes(decks, done, n);
  }
#endif
  std::uint32_t where[64];
  for (std::size_t i = done; i < count; ++i) {
    const std::uint32_t* d = decks + i * n;
    const guess_counts g = guess_counts_of(d, n);
    r.successor += g.successor;
    r.shelf += g.shelf;
    r.rising += rising_sequences_of(d, n, where);
  }
  return r;
}

std::uint32_t guesses_of(const std::uint32_t* d, std::size_t n, std::uint64_t* unseen) noexcept {
  if (n <= 64) return guess_counts_of(d, n).successor;
  const std::size_t words = (n + 63) / 64;
  for (std::size_t w = 0; w < words; ++w) unseen[w] = ~std::uint64_t{0};
  if (n % 64 != 0) unseen[words - 1] = (std::uint64_t{1} << (n % 64)) - 1;
  std::uint32_t guess = 0, right = 0;
  for (std::size_t p = 0; p < n; ++p) {
    const std::uint32_t c = d[p];
    right += c == guess;
    const std::size_t w = c >> 6;
    const unsigned bit = c & 63;
    unseen[w] &= ~(std::uint64_t{1} << bit);
    // The smallest unseen card above c ...
    std::uint64_t above = bit == 63 ? 0 : unseen[w] & (~std::uint64_t{0} << (bit + 1));
    std::size_t v = w;
    while (above == 0 && ++v < words) above = unseen[v];
    if (above != 0) {
      guess = static_cast<std::uint32_t>(v * 64 + static_cast<unsigned>(std::countr_zero(above)));
      continue;
    }
    // ... else the largest unseen below c (none after the last card).
    std::uint64_t below = unseen[w] & ((std::uint64_t{1} << bit) - 1);
    v = w;
    while (below == 0 && v > 0) below = unseen[--v];
    if (below != 0) guess = static_cast<std::uint32_t>(v * 64 + 63 - static_cast<unsigned>(std::countl_zero(below)));
  }
  return right;
}

namespace {

// The smallest unseen card above c, or n when there is none.
std::uint32_t unseen_above(const std::uint64_t* unseen, std::size_t words, std::uint32_t c, std::size_t n) noexcept {
  const std::size_t w = c >> 6;
  const unsigned bit = c & 63;
  std::uint64_t above = bit == 63 ? 0 : unseen[w] & (~std::uint64_t{0} << (bit + 1));
  std::size_t v = w;
  while (above == 0 && ++v < words) above = unseen[v];
  return above != 0 ? static_cast<std::uint32_t>(v * 64 + static_cast<unsigned>(std::countr_zero(above)))
                    : static_cast<std::uint32_t>(n);
}

// The largest unseen card below c, or n when there is none.
std::uint32_t unseen_below(const std::uint64_t* unseen, std::uint32_t c, std::size_t n) noexcept {
  std::size_t v = c >> 6;
  std::uint64_t below = unseen[v] & ((std::uint64_t{1} << (c & 63)) - 1);
  while (below == 0 && v > 0) below = unseen[--v];
  return below != 0 ? static_cast<std::uint32_t>(v * 64 + 63 - static_cast<unsigned>(std::countl_zero(below)))
                    : static_cast<std::uint32_t>(n);
}

}  // namespace

std::uint32_t shelf_guesses_of(const std::uint32_t* d, std::size_t n, std::uint64_t* unseen) noexcept {
  if (n <= 64) return guess_counts_of(d, n).shelf;
  const std::size_t words = (n + 63) / 64;
  for (std::size_t w = 0; w < words; ++w) unseen[w] = ~std::uint64_t{0};
  if (n % 64 != 0) unseen[words - 1] = (std::uint64_t{1} << (n % 64)) - 1;
  std::uint32_t guess = 0, right = 0;
  for (std::size_t p = 0; p < n; ++p) {
    const std::uint32_t c = d[p];
    right += c == guess;
    unseen[c >> 6] &= ~(std::uint64_t{1} << (c & 63));
    const bool rising = p == 0 || c > d[p - 1];
    const std::uint32_t up = unseen_above(unseen, words, c, n), down = unseen_below(unseen, c, n);
    if (rising) {
      guess = up != n ? up : down;
    } else {
      guess = down != n ? down : up;
    }
  }
  return right;
}

void fill_below(const std::uint32_t* prev, std::size_t n, std::uint32_t* below) noexcept {
  for (std::size_t p = 0; p + 1 < n; ++p) below[prev[p]] = prev[p + 1];
  if (n > 0) below[prev[n - 1]] = static_cast<std::uint32_t>(n);
}

std::uint32_t serial_successions_of(const std::uint32_t* next, std::size_t n, const std::uint32_t* below) noexcept {
  std::uint32_t k = 0;
  for (std::size_t p = 0; p + 1 < n; ++p) k += below[next[p]] == next[p + 1];
  return k;
}

SHUFL_AUDIT_CLONES std::uint32_t serial_successions_at(const std::uint32_t* prev, std::size_t n, const std::uint32_t* where_next) noexcept {
  std::uint32_t k = 0;
  for (std::size_t q = 0; q + 1 < n; ++q) k += where_next[prev[q + 1]] == where_next[prev[q]] + 1;
  return k;
}

SHUFL_AUDIT_CLONES std::uint64_t deck_fingerprint(const std::uint32_t* d, std::size_t k) noexcept {
  // Two 64-bit multiply-xorshift lanes over pairs of ids, then a final mix (splitmix64's).
  std::uint64_t a = 0x9E3779B97F4A7C15ull ^ k, b = 0xD1B54A32D192ED03ull;
  std::size_t p = 0;
  for (; p + 4 <= k; p += 4) {
    a = (a ^ (static_cast<std::uint64_t>(d[p]) | static_cast<std::uint64_t>(d[p + 1]) << 32)) * 0xFF51AFD7ED558CCDull;
    a ^= a >> 32;
    b = (b ^ (static_cast<std::uint64_t>(d[p + 2]) | static_cast<std::uint64_t>(d[p + 3]) << 32)) * 0xC4CEB9FE1A85EC53ull;
    b ^= b >> 29;
  }
  for (; p < k; ++p) b = (b ^ d[p]) * 0x100000001B3ull;
  std::uint64_t h = a ^ (b >> 17) ^ (b << 47);
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}

position_table::position_table(std::vector<std::uint32_t> row_of_face, std::size_t rows, std::size_t positions)
    : row_of_(std::move(row_of_face)), rows_(rows), positions_(positions), counts_(rows * positions, 0) {}

void position_table::merge(const position_table& other) {
  if (other.counts_.size() != counts_.size()) throw error("audit: merging position tables of different shapes");
  for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  decks_ += other.decks_;
}

void position_table::add_counts(std::span<const std::uint64_t> counts, std::uint64_t decks) {
  if (counts.size() != counts_.size()) throw error("audit: saved position table of another shape");
  for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += counts[i];
  decks_ += decks;
}

serial_table::serial_table(std::size_t faces, std::size_t positions)
    : faces_(faces), positions_(positions), counts_(faces * faces, 0) {}

void serial_table::merge(const serial_table& other) {
  if (other.counts_.size() != counts_.size()) throw error("audit: merging serial tables of different shapes");
  for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  pairs_ += other.pairs_;
}

void serial_table::add_counts(std::span<const std::uint64_t> counts, std::uint64_t pairs) {
  if (counts.size() != counts_.size()) throw error("audit: saved serial table of another shape");
  for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += counts[i];
  pairs_ += pairs;
}

void duplicate_finder::reserve_more(std::size_t count) {
  const std::size_t room = static_cast<std::size_t>(limit) - std::min<std::size_t>(fingerprints_.size(), limit);
  const std::size_t want = fingerprints_.size() + std::min(count, room);
  if (want > fingerprints_.capacity()) {
    fingerprints_.reserve(std::max(want, std::min(2 * fingerprints_.capacity(), fingerprints_.size() + room)));
    const std::size_t used = fingerprints_.size();
    prefault(fingerprints_.data() + used, (fingerprints_.capacity() - used) * sizeof(std::uint64_t));
  }
}

std::span<const std::uint64_t> duplicate_finder::kept(std::size_t begin, std::size_t end) const {
  if (begin > end || end > fingerprints_.size()) throw error("audit: fingerprints out of range");
  return std::span<const std::uint64_t>(fingerprints_).subspan(begin, end - begin);
}

std::vector<std::uint64_t> duplicate_finder::fingerprints() const {
  return std::vector<std::uint64_t>(fingerprints_.begin(), fingerprints_.end());
}

void duplicate_finder::merge(const duplicate_finder& other) { append(other.fingerprints_); }

void duplicate_finder::append(std::span<const std::uint64_t> fingerprints) {
  const std::size_t room = static_cast<std::size_t>(limit) - std::min<std::size_t>(fingerprints_.size(), limit);
  const std::size_t take = std::min(room, fingerprints.size());
  fingerprints_.insert(fingerprints_.end(), fingerprints.begin(), fingerprints.begin() + static_cast<std::ptrdiff_t>(take));
}

std::uint64_t duplicate_finder::repeats(unsigned threads) const {
  // Equal fingerprints share their top bits (a hash's: about uniform): a counting pass spreads
  // them into 1024 buckets by the top ten bits, then each bucket (about a thousand at the limit)
  // goes into an open-addressing set in the core's cache (linear probing on the low bits, at
  // most half full, 0 marking an empty slot; zeros are counted aside); a fingerprint already
  // there is a repeat. Linear passes, no sort. With two threads each takes the buckets of one
  // value of the top bit (its own spread buffer: fresh pages cost a fault each, in parallel).
  constexpr unsigned bits = 10;
  constexpr std::size_t buckets = std::size_t{1} << bits;
  const std::size_t n = static_cast<std::size_t>(decks());
  if (n < 2) return 0;
  const unsigned halves = threads >= 2 && n >= (std::size_t{1} << 16) ? 2 : 1;
  struct counted {
    std::uint64_t repeats = 0, zeros = 0;
  };
  // The buckets [first, last) of `buckets`.
  const auto count_range = [&](std::size_t first, std::size_t last) {
    std::vector<std::size_t> start(buckets + 1, 0);
    for (const std::uint64_t f : fingerprints_) ++start[(f >> (64 - bits)) + 1];
    start[first] = 0;
    std::size_t largest = 0;
    for (std::size_t b = first + 1; b <= last; ++b) {
      largest = std::max(largest, start[b]);
      start[b] += start[b - 1];
    }
    const std::size_t m_all = start[last];
    counted c;
    if (m_all == 0) return c;
    // One spare slot takes the fingerprints of the other buckets (no branch on the bucket).
    const std::size_t bytes = (m_all + 1) * sizeof(std::uint64_t);
    const auto release = [bytes](std::uint64_t* p) {
      if (bytes >= detail::huge_page_min_bytes) {
        detail::huge_page_free(p, bytes);
      } else {
        delete[] p;
      }
    };
    const std::unique_ptr<std::uint64_t[], decltype(release)> bucketed(
        bytes >= detail::huge_page_min_bytes ? static_cast<std::uint64_t*>(detail::huge_page_alloc(bytes))
                                             : new std::uint64_t[m_all + 1],
        release);
    prefault(bucketed.get(), bytes);
    {
      std::vector<std::size_t> at(buckets, m_all);
      for (std::size_t b = first; b < last; ++b) at[b] = start[b];
      std::vector<std::size_t> step(buckets, 0);
      for (std::size_t b = first; b < last; ++b) step[b] = 1;
      for (const std::uint64_t f : fingerprints_) {
        const std::size_t b = f >> (64 - bits);
        bucketed[at[b]] = f;
        at[b] += step[b];
      }
    }
    std::vector<std::uint64_t> set(std::bit_ceil(std::max<std::size_t>(16, 2 * largest)));
    for (std::size_t b = first; b < last; ++b) {
      const std::size_t m = start[b + 1] - start[b];
      if (m == 0) continue;
      const std::size_t mask = std::bit_ceil(2 * m) - 1;
      std::fill(set.begin(), set.begin() + static_cast<std::ptrdiff_t>(mask + 1), std::uint64_t{0});
      for (const std::uint64_t* f = bucketed.get() + start[b]; f != bucketed.get() + start[b + 1]; ++f) {
        const std::uint64_t v = *f;
        if (v == 0) {
          ++c.zeros;
          continue;
        }
        for (std::size_t i = v & mask;; i = (i + 1) & mask) {
          if (set[i] == 0) {
            set[i] = v;
            break;
          }
          if (set[i] == v) {
            ++c.repeats;
            break;
          }
        }
      }
    }
    return c;
  };
  counted total;
  if (halves == 1) {
    total = count_range(0, buckets);
  } else {
    counted upper;
    std::thread other([&] { upper = count_range(buckets / 2, buckets); });
    total = count_range(0, buckets / 2);
    other.join();
    total.repeats += upper.repeats;
  }
  return total.repeats + (total.zeros > 1 ? total.zeros - 1 : 0);
}

}  // namespace shufl::audit
