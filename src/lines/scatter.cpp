#include "shufl/lines/scatter.hpp"

namespace shufl::lines {

seed_key scatter_root_key(const seed_key& key) { return derive_key(key, "lines/shuffle", 0); }

seed_key scatter_child_key(const seed_key& node, std::size_t b) {
  return derive_key(node, "lines/bucket", b);
}

namespace detail {

void draw_bucket_labels(const seed_key& node, std::span<std::uint8_t> labels,
                        std::array<std::uint64_t, scatter_buckets>& counts) noexcept {
  chacha20_engine engine(node, 0);
  for (auto& label : labels) {
    label = static_cast<std::uint8_t>(uniform_below(engine, scatter_buckets));
    ++counts[label];
  }
}

}  // namespace detail

}  // namespace shufl::lines
