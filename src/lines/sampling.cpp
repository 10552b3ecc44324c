#include "shufl/lines/sampling.hpp"

#include <algorithm>

#include "shufl/shuffle.hpp"

namespace shufl::lines {

reservoir_sampler::reservoir_sampler(std::uint64_t k, const seed_key& key)
    : k_(k), key_(derive_key(key, "lines/sample", 0)), engine_(key_, 0) {
  // Grow with the input rather than trusting a huge k (`-n 1000000000` on three lines).
  const auto expect = static_cast<std::size_t>(std::min<std::uint64_t>(k, 1024));
  slots_.reserve(expect);
  positions_.reserve(expect);
  heap_.reserve(expect);
}

void reservoir_sampler::fill(std::string_view record, byte_buffer* owner) {
  const double key = detmath::open_unit(engine_());
  heap_.push_back({key, slots_.size()});
  std::push_heap(heap_.begin(), heap_.end());
  keep_record(slots_.emplace_back(), record, owner);
  positions_.push_back(seen_);
  ++seen_;
}

void reservoir_sampler::next_skip() {
  // W = the largest key kept; each later record has a key below W with probability W.
  remaining_ = detmath::geometric_skip(detmath::open_unit(engine_()), heap_.front().key);
  have_skip_ = true;
}

void reservoir_sampler::replace(std::string_view record, byte_buffer* owner) {
  // The entering record's key is uniform in (0, W); it evicts the record whose key is W. The
  // order (key, slot) is strict, so the evicted slot is the same with every heap implementation.
  const double w = heap_.front().key;
  const double key = w * detmath::open_unit(engine_());
  std::pop_heap(heap_.begin(), heap_.end());
  const std::size_t slot = heap_.back().slot;
  heap_.back() = {key, slot};
  std::push_heap(heap_.begin(), heap_.end());
  keep_record(slots_[slot], record, owner);
  positions_[slot] = seen_;
  ++seen_;
  have_skip_ = false;
}

void reservoir_sampler::offer(std::string_view record, byte_buffer* owner) {
  if (seen_ < k_) {
    fill(record, owner);
    return;
  }
  if (!have_skip_) next_skip();
  if (remaining_ > 0) {
    --remaining_;
    ++seen_;
    return;
  }
  replace(record, owner);
}

void reservoir_sampler::sample(record_reader& reader) {
  std::string_view record;
  while (seen_ < k_) {
    if (!reader.next(record)) return;
    fill(record);
  }
  for (;;) {
    if (!have_skip_) next_skip();
    if (remaining_ > 0) {
      const std::uint64_t got = reader.skip(remaining_);
      seen_ += got;
      remaining_ -= got;
      if (remaining_ > 0) return;  // end of input
    }
    if (!reader.next(record)) return;
    replace(record);
  }
}

std::vector<byte_buffer> reservoir_sampler::take_shuffled() {
  chacha20_engine order(key_, 1);
  fisher_yates(std::span<byte_buffer>(slots_), order);
  return std::move(slots_);
}

std::vector<byte_buffer> reservoir_sampler::take_in_input_order() {
  std::vector<std::size_t> index(slots_.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
  std::sort(index.begin(), index.end(),
            [this](std::size_t a, std::size_t b) { return positions_[a] < positions_[b]; });
  std::vector<byte_buffer> out;
  out.reserve(index.size());
  for (const std::size_t i : index) out.push_back(std::move(slots_[i]));
  return out;
}

}  // namespace shufl::lines
