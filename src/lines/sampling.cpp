#include "shufl/lines/sampling.hpp"

#include <algorithm>

#include "shufl/shuffle.hpp"

namespace shufl::lines {

reservoir_sampler::reservoir_sampler(std::uint64_t k, const seed_key& key)
    : k_(k), key_(derive_key(key, "lines/reservoir", 0)), engine_(key_, 0) {
  // Grow with the input rather than trusting a huge k (`-n 1000000000` on three lines).
  slots_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(k, 1024)));
}

std::vector<std::string> reservoir_sampler::take_shuffled() {
  chacha20_engine order(key_, 1);
  fisher_yates(std::span<std::string>(slots_), order);
  return std::move(slots_);
}

std::vector<std::string> gnu_reservoir_sample(record_reader& reader, std::uint64_t k,
                                              gnu_random_source& source) {
  std::vector<std::string> slots;
  slots.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(k, 1024)));
  std::string_view record;
  bool more = true;
  while (slots.size() < k && (more = reader.next(record))) slots.emplace_back(record);
  if (!more || k == 0) return slots;
  std::uint64_t seen = k;
  for (;;) {
    const std::uint64_t j = source.draw_max(seen);  // 0 .. seen, drawn before reading
    if (!reader.next(record)) break;
    if (j < k) slots[static_cast<std::size_t>(j)].assign(record);
    ++seen;
  }
  return slots;
}

}  // namespace shufl::lines
