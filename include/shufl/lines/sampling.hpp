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

/// Seeded reservoir sampling, Algorithm R (J. S. Vitter, "Random sampling with a reservoir",
/// ACM TOMS 11(1), 1985): the first k records are kept; record number m (0-based, m >= k)
/// replaces slot j = uniform_below(e, m + 1) when j < k. Draws come from
/// chacha20_engine(derive_key(key, "lines/reservoir", 0), stream 0). Memory is O(k + longest
/// record), whatever the input size. Every k-subset is equally likely.
class reservoir_sampler {
 public:
  /// k >= 1 records to keep.
  reservoir_sampler(std::uint64_t k, const seed_key& key);

  /// Offers the next record (with its delimiter).
  void offer(std::string_view record) {
    if (seen_ < k_) {
      slots_.emplace_back(record);
    } else {
      const std::uint64_t j = uniform_below(engine_, seen_ + 1);
      if (j < k_) slots_[j].assign(record);
    }
    ++seen_;
  }

  /// Records offered so far.
  std::uint64_t seen() const noexcept { return seen_; }

  /// The kept records (min(k, seen) of them) in a uniformly random order: Fisher–Yates over the
  /// slots with chacha20_engine(derive_key(key, "lines/reservoir", 0), stream 1).
  std::vector<std::string> take_shuffled();

 private:
  std::uint64_t k_;
  std::uint64_t seen_ = 0;
  seed_key key_;
  chacha20_engine engine_;
  std::vector<std::string> slots_;
};

/// GNU shuf's reservoir sampling with a GNU random source, draw for draw (coreutils
/// `read_input_reservoir_sampling`): the first k records fill the reservoir; once k are kept,
/// before every further read attempt, with m records seen, a draw in [0, m] is made (so one
/// extra draw happens at end of input), and a record read after a draw j < k replaces slot j.
/// Returns the kept records in slot order (GNU then permutes them with gnu_permutation).
/// Throws shufl::error on a read error or when the random source ends.
std::vector<std::string> gnu_reservoir_sample(record_reader& reader, std::uint64_t k,
                                              gnu_random_source& source);

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
