// The seeded full shuffle of `shufl lines`: scatter into buckets, shuffle each bucket, concatenate.
//
// THE RULE (a contract: golden tests pin it, and the external-memory shuffle of issue 6 must
// reproduce it byte for byte; the word "records" below means the items being permuted — record
// offsets for lines, indices for -i):
//
//   shuffle(items, K):                       items in input order, K a 256-bit node key
//     m = |items|
//     if m <= scatter_leaf_records (65536):
//       Fisher–Yates (shufl::fisher_yates, Durstenfeld: i = m-1 down to 1, j = uniform_below(i+1))
//       with chacha20_engine(K, stream 1); done.
//     else:
//       e = chacha20_engine(K, stream 0); for each item in input order, its bucket is
//       uniform_below(e, scatter_buckets = 256);
//       bucket b holds its items in input order (a stable partition);
//       shuffle(bucket b, derive_key(K, "lines/bucket", b)) for every b;
//       the output is bucket 0, then bucket 1, ..., then bucket 255.
//   The root key is derive_key(seed key, "lines/shuffle", 0).
//
// Bucket sizes are counted in records only (never bytes), so where a bucket lives — RAM or a
// temporary file — cannot change the order: an external version spills buckets to files in the
// same stable order and applies the same rule to each. The result is exactly uniform: each
// record's bucket is an independent uniform draw, and a uniform order within every bucket
// composed with that labelling gives every permutation probability 1/m! (P. Sanders, "Random
// permutations on distributed, external and hierarchical memory", IPL 67(6), 1998). Cache use:
// one sequential pass writes 256 streams, then each bucket (about m/256 records) is shuffled
// inside the cache.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shufl/random.hpp"
#include "shufl/shuffle.hpp"

namespace shufl::lines {

/// Number of buckets per scatter level.
inline constexpr std::size_t scatter_buckets = 256;
/// A node with at most this many records is shuffled directly with Fisher–Yates.
inline constexpr std::uint64_t scatter_leaf_records = 65536;

/// The key of the root node for the seed key `key` (`derive_key(key, "lines/shuffle", 0)`).
seed_key scatter_root_key(const seed_key& key);

/// The key of bucket `b` of the node keyed `node` (`derive_key(node, "lines/bucket", b)`).
seed_key scatter_child_key(const seed_key& node, std::size_t b);

namespace detail {

/// Draws the bucket label of each of `labels.size()` records from chacha20_engine(node, 0) and
/// counts them; `counts` must be zero on entry.
void draw_bucket_labels(const seed_key& node, std::span<std::uint8_t> labels,
                        std::array<std::uint64_t, scatter_buckets>& counts) noexcept;

}  // namespace detail

/// Permutes `items` in place by THE RULE above with node key `node` (use scatter_root_key for a
/// whole input). Allocates one label byte and one item per record for a node above the leaf
/// size; the loops themselves do not allocate. `leaf_records` is THE RULE's leaf size; only
/// tests change it (to exercise several levels on small inputs), since it changes the order.
template <class Item>
void scatter_shuffle(std::span<Item> items, const seed_key& node,
                     std::uint64_t leaf_records = scatter_leaf_records) {
  const std::size_t m = items.size();
  if (m <= leaf_records) {
    chacha20_engine engine(node, 1);
    fisher_yates(items, engine);
    return;
  }
  std::array<std::uint64_t, scatter_buckets> counts{};
  std::vector<std::uint8_t> labels(m);
  detail::draw_bucket_labels(node, labels, counts);
  std::vector<Item> copy(items.begin(), items.end());
  std::array<std::uint64_t, scatter_buckets> next{};
  std::uint64_t sum = 0;
  for (std::size_t b = 0; b < scatter_buckets; ++b) {
    next[b] = sum;
    sum += counts[b];
  }
  for (std::size_t i = 0; i < m; ++i) items[next[labels[i]]++] = copy[i];
  labels = {};
  copy = {};
  std::uint64_t start = 0;
  for (std::size_t b = 0; b < scatter_buckets; ++b) {
    scatter_shuffle(items.subspan(start, counts[b]), scatter_child_key(node, b), leaf_records);
    start += counts[b];
  }
}

/// The same permutation as `scatter_shuffle` of the n = out.size() items that `next_item()`
/// returns (called exactly n times, in input order), written to `out` without first storing the
/// items in input order: the root level places each item straight into its bucket.
template <class Item, class Next>
void scatter_shuffle_generated(std::span<Item> out, const seed_key& root, Next&& next_item) {
  const std::size_t n = out.size();
  if (n <= scatter_leaf_records) {
    for (auto& item : out) item = next_item();
    scatter_shuffle(out, root);
    return;
  }
  std::array<std::uint64_t, scatter_buckets> counts{};
  std::vector<std::uint8_t> labels(n);
  detail::draw_bucket_labels(root, labels, counts);
  std::array<std::uint64_t, scatter_buckets> next{};
  std::uint64_t sum = 0;
  for (std::size_t b = 0; b < scatter_buckets; ++b) {
    next[b] = sum;
    sum += counts[b];
  }
  for (std::size_t i = 0; i < n; ++i) out[next[labels[i]]++] = next_item();
  labels = {};
  std::uint64_t start = 0;
  for (std::size_t b = 0; b < scatter_buckets; ++b) {
    scatter_shuffle(out.subspan(start, counts[b]), scatter_child_key(root, b));
    start += counts[b];
  }
}

}  // namespace shufl::lines
