// Sampling for `shufl lines -n COUNT`: reservoir sampling of a record stream (seeded, and GNU's
// byte-exact variant), and partial Fisher–Yates over a range, dense or sparse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <algorithm>
#include <vector>

#include "shufl/lines/records.hpp"
#include "shufl/random.hpp"

namespace shufl::lines {

/// Arithmetic that decides seeded output where a logarithm is needed (skip lengths of sampling).
/// libm's log differs between C libraries in the last bit, so these use only the correctly
/// rounded IEEE-754 binary64 operations + − × ÷ in a fixed order (src/lines/detmath.cpp is
/// compiled with -ffp-contract=off and requires FLT_EVAL_METHOD == 0): the same bits on every
/// platform, compiler and library.
namespace detmath {

/// ln x for finite x > 0: x = m·2^e with m in [√½, √2) (exact, from the bits), then
/// ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| ≤ 0.1716, by its odd series to s^25 (truncation
/// below 2^-60 relative), plus e·ln 2 in two parts. Relative error below 2^-50 (tested against
/// libm over many values). Returns −inf for 0 (not used).
double log(double x) noexcept;

/// ln(1 − p) for 0 ≤ p < 1, accurate also for tiny p (Goldberg's log1p form:
/// u = 1 − p; ln(u)·(−p)/(u − 1) when u ≠ 1, else −p). Relative error below 2^-49.
double log1m(double p) noexcept;

/// A uniform double in the open interval (0, 1) from a 64-bit word: (2j + 1)·2^-53 with j its
/// top 52 bits (exact; never 0 or 1).
inline double open_unit(std::uint64_t word) noexcept {
  return static_cast<double>((word >> 12) * 2 + 1) * 0x1p-53;
}

/// The number of failures before the first success in independent Bernoulli(p) trials
/// (a geometric variate, P(S ≥ s) = (1 − p)^s) from u uniform in (0, 1):
/// floor(ln u / ln(1 − p)), saturating at UINT64_MAX; 0 when p ≥ 1. Precondition p > 0.
/// Why this is (nearly) exactly right: S ≥ s ⇔ u ≤ (1 − p)^s, so with exact logarithms S has
/// exactly the geometric law. Here the quotient carries a relative error |η| < 2^-47 (two
/// logarithms and a division), so the computed S differs from the exact floor only when
/// ln u / ln(1 − p) lies within a relative 2^-47 of an integer, which has probability below
/// about 2^-46·(E[S] + 1); u's grid of 2^-52 adds at most 2^-52 per possible value. Over a
/// whole run the total variation distance from the exact law is below about 2^-45 times the
/// number of records passed over.
std::uint64_t geometric_skip(double u, double p) noexcept;

}  // namespace detmath

/// Stores `record` in `slot`. A record of 64 KiB or more whose bytes are exactly `*owner`'s (a
/// record a reader assembled across reads or lines) is moved: `slot` takes owner's buffer and
/// its own old bytes are freed, `*owner` is left empty, so a huge record is held once, not
/// twice. Anything else (small records, records that are views of a read) is copied
/// (byte_buffer::assign).
inline void keep_record(byte_buffer& slot, std::string_view record, byte_buffer* owner) {
  if (owner && record.size() >= (std::size_t{1} << 16) && owner->data() == record.data() &&
      owner->size() == record.size()) {
    slot = std::move(*owner);
  } else {
    slot.assign(record);
  }
}

/// Seeded reservoir sampling of K records that touches only the records that enter the
/// reservoir: bottom-K keys with geometric skips (K.-H. Li, "Reservoir-sampling algorithms of
/// time complexity O(n(1 + log(N/n)))", ACM TOMS 20(4), 1994, Algorithm L; with the keys kept
/// explicitly so that no rounding accumulates). Every record carries a uniform key in (0, 1);
/// the sample is the K records with the smallest keys, which is a uniform K-subset. The first K
/// records draw their keys; then, with W the largest key kept, each later record enters
/// independently with probability W, so the number passed over before the next one enters is
/// geometric (detmath::geometric_skip) and the one that enters gets a key uniform in (0, W)
/// (W·u) and evicts the record with key W. Expected work: K·(1 + ln(N/K)) entries; the records
/// between are skipped by counting delimiters (record_reader::skip). Draws come from
/// chacha20_engine(derive_key(key, "lines/sample", 0), stream 0) in this order: K keys, then
/// per entry one word for the skip and one for the key. Memory O(K + longest record).
class reservoir_sampler {
 public:
  /// k >= 1 records to keep.
  reservoir_sampler(std::uint64_t k, const seed_key& key);

  /// Offers the next record (with its delimiter): the same result as `sample` on the same
  /// records, one at a time. `owner`: the string that holds the record's bytes, if any (see
  /// keep_record), whose buffer a large record that enters takes instead of a copy.
  void offer(std::string_view record, byte_buffer* owner = nullptr);

  /// Offers every remaining record of `reader`, skipping over those that cannot enter.
  void sample(record_reader& reader);

  /// Offers records 0 .. n − 1 given by `get(i)` (e.g. the -e operands), skipping.
  template <class Get>
  void sample_indexed(std::uint64_t n, Get&& get) {
    std::uint64_t i = 0;
    while (seen_ < k_ && i < n) fill(get(i++));
    while (i < n) {
      if (!have_skip_) next_skip();
      const std::uint64_t step = std::min(remaining_, n - i);
      i += step;
      seen_ += step;
      remaining_ -= step;
      if (i == n) break;
      replace(get(i++));
    }
  }

  /// Records offered so far.
  std::uint64_t seen() const noexcept { return seen_; }

  /// The kept records (min(k, seen) of them) in a uniformly random order: Fisher–Yates over the
  /// slots with chacha20_engine(derive_key(key, "lines/sample", 0), stream 1).
  std::vector<byte_buffer> take_shuffled();

  /// The kept records in input order (--keep-order): the same records as take_shuffled.
  std::vector<byte_buffer> take_in_input_order();

 private:
  void fill(std::string_view record, byte_buffer* owner = nullptr);
  void next_skip();
  void replace(std::string_view record, byte_buffer* owner = nullptr);
  struct entry {
    double key;
    std::size_t slot;
    friend bool operator<(const entry& a, const entry& b) noexcept {
      return a.key < b.key || (a.key == b.key && a.slot < b.slot);  // a strict total order
    }
  };
  std::uint64_t k_;
  std::uint64_t seen_ = 0;
  bool have_skip_ = false;
  std::uint64_t remaining_ = 0;  // records still to pass over before the next one enters
  seed_key key_;
  chacha20_engine engine_;
  std::vector<byte_buffer> slots_;
  std::vector<std::uint64_t> positions_;  // input index of each slot's record
  std::vector<entry> heap_;               // max-heap of (key, slot)
};

/// GNU shuf's reservoir sampling with a GNU random source, draw for draw (coreutils
/// `read_input_reservoir_sampling`): the first k records fill the reservoir; once k are kept,
/// before every further read attempt, with m records seen, a draw in [0, m] is made (so one
/// extra draw happens at end of input), and a record read after a draw j < k replaces slot j.
/// Returns the kept records in slot order (GNU then permutes them with gnu_permutation).
/// `records`: a record_reader, or a record_source of CSV records (modes.hpp): anything with
/// `bool next(std::string_view&)` and `byte_buffer* owner(std::string_view)` (keep_record: a
/// huge record is moved into its slot, not copied). Throws shufl::error on a read error, when
/// the random source ends, or as `records.next` does (malformed CSV).
template <class Records>
std::vector<byte_buffer> gnu_reservoir_sample(Records& records, std::uint64_t k, gnu_random_source& source) {
  std::vector<byte_buffer> slots;
  slots.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(k, 1024)));
  std::string_view record;
  bool more = true;
  while (slots.size() < k && (more = records.next(record))) keep_record(slots.emplace_back(), record, records.owner(record));
  if (!more || k == 0) return slots;
  std::uint64_t seen = k;
  for (;;) {
    const std::uint64_t j = source.draw_max(seen);  // 0 .. seen, drawn before reading
    if (!records.next(record)) break;
    if (j < k) keep_record(slots[static_cast<std::size_t>(j)], record, records.owner(record));
    ++seen;
  }
  return slots;
}

/// Forward partial Fisher–Yates, GNU randperm's order of draws: for i = 0 .. h − 1,
/// j = i + draw(n − i) with n = items.size(); swap items[i] and items[j]. The first h items are
/// then a uniform random h-permutation. `draw(s)` returns a uniform integer in [0, s).
/// Precondition h <= n. Allocation-free.
template <class Item, class Draw>
void partial_fisher_yates(std::span<Item> items, std::uint64_t h, Draw&& draw) {
  const std::uint64_t n = items.size();
  for (std::uint64_t i = 0; i < h; ++i) {
    const std::uint64_t j = i + draw(n - i);
    using std::swap;
    swap(items[i], items[j]);
  }
}

/// The first h values of partial_fisher_yates applied to the identity 0 .. n − 1, with the same
/// draws, storing only the positions touched (a hash map of at most h entries): O(h) time and
/// memory whatever n is, so `-i 1-18446744073709551615 -n 3` is instant. Precondition h <= n.
template <class Draw>
std::vector<std::uint64_t> sparse_partial_fisher_yates(std::uint64_t n, std::uint64_t h,
                                                       Draw&& draw) {
  std::vector<std::uint64_t> out;
  out.reserve(static_cast<std::size_t>(h));
  std::unordered_map<std::uint64_t, std::uint64_t> moved;
  moved.reserve(static_cast<std::size_t>(h));
  for (std::uint64_t i = 0; i < h; ++i) {
    const std::uint64_t j = i + draw(n - i);
    const auto at_j = moved.find(j);
    const std::uint64_t value_j = at_j == moved.end() ? j : at_j->second;
    const auto at_i = moved.find(i);
    const std::uint64_t value_i = at_i == moved.end() ? i : at_i->second;
    out.push_back(value_j);
    moved[j] = value_i;  // position i is final from now on and is never read again
  }
  return out;
}

/// The first h = min(h, n) values of a random h-permutation of 0 .. n − 1 by partial
/// Fisher–Yates (draws as partial_fisher_yates), dense when that is cheap, sparse otherwise
/// (the same values either way). Throws shufl::error "memory exhausted" when a dense table of n
/// entries is needed and cannot exist.
template <class Draw>
std::vector<std::uint64_t> range_permutation(std::uint64_t n, std::uint64_t h, Draw&& draw) {
  if (h > n) h = n;
  if (n > (std::uint64_t{1} << 20) && h < n / 8) return sparse_partial_fisher_yates(n, h, draw);
  if (n > (std::uint64_t{1} << 40)) throw error("memory exhausted");
  std::vector<std::uint64_t> items(static_cast<std::size_t>(n));
  for (std::uint64_t i = 0; i < n; ++i) items[i] = i;
  partial_fisher_yates(std::span<std::uint64_t>(items), h, draw);
  items.resize(static_cast<std::size_t>(h));
  items.shrink_to_fit();
  return items;
}

}  // namespace shufl::lines
