// Chunk sets (which chunks of a run a tally holds), shards, and run provenance.
#include <fmt/format.h>

#include <algorithm>

#include "shufl/bias.hpp"
#include "shufl/error.hpp"

namespace shufl {

chunk_set chunk_set::all_of(std::uint64_t trials) {
  chunk_set s;
  s.add(0, bias_chunk_count(trials));
  return s;
}

std::uint64_t chunk_set::count() const noexcept {
  std::uint64_t c = 0;
  for (const auto& [b, e] : ranges) c += e - b;
  return c;
}

bool chunk_set::contains(std::uint64_t c) const noexcept {
  auto it = std::upper_bound(ranges.begin(), ranges.end(), c, [](std::uint64_t v, const auto& r) { return v < r.first; });
  return it != ranges.begin() && c < std::prev(it)->second;
}

bool chunk_set::overlaps(const chunk_set& other) const noexcept {
  std::size_t i = 0, j = 0;
  while (i < ranges.size() && j < other.ranges.size()) {
    const auto& a = ranges[i];
    const auto& b = other.ranges[j];
    if (std::max(a.first, b.first) < std::min(a.second, b.second)) return true;
    (a.second < b.second) ? ++i : ++j;
  }
  return false;
}

bool chunk_set::covers(const chunk_set& other) const noexcept { return other.minus(*this).empty(); }

void chunk_set::add(std::uint64_t begin, std::uint64_t end) {
  if (begin >= end) return;
  // Ranges touching or overlapping [begin, end) join it.
  auto first = std::lower_bound(ranges.begin(), ranges.end(), begin,
                                [](const auto& r, std::uint64_t v) { return r.second < v; });
  auto last = first;
  while (last != ranges.end() && last->first <= end) {
    begin = std::min(begin, last->first);
    end = std::max(end, last->second);
    ++last;
  }
  first = ranges.erase(first, last);
  ranges.insert(first, {begin, end});
}

void chunk_set::add(const chunk_set& other) {
  if (other.ranges.empty()) return;
  if (ranges.empty() || ranges.back().second < other.ranges.front().first) {
    ranges.insert(ranges.end(), other.ranges.begin(), other.ranges.end());
    return;
  }
  // One pass over both sorted lists (linear, where adding range by range would be quadratic in
  // the number of ranges): take the lower start next, join it to the last range it touches.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  out.reserve(ranges.size() + other.ranges.size());
  std::size_t i = 0, j = 0;
  while (i < ranges.size() || j < other.ranges.size()) {
    const bool mine = j == other.ranges.size() || (i < ranges.size() && ranges[i].first <= other.ranges[j].first);
    const auto r = mine ? ranges[i++] : other.ranges[j++];
    if (!out.empty() && r.first <= out.back().second) {
      out.back().second = std::max(out.back().second, r.second);
    } else {
      out.push_back(r);
    }
  }
  ranges.swap(out);
}

chunk_set chunk_set::minus(const chunk_set& other) const {
  chunk_set out;
  std::size_t j = 0;
  for (auto [b, e] : ranges) {
    while (j < other.ranges.size() && other.ranges[j].second <= b) ++j;
    std::size_t k = j;
    while (b < e) {
      if (k == other.ranges.size() || other.ranges[k].first >= e) {
        out.ranges.emplace_back(b, e);
        break;
      }
      if (other.ranges[k].first > b) out.ranges.emplace_back(b, other.ranges[k].first);
      b = std::max(b, other.ranges[k].second);
      ++k;
    }
  }
  return out;
}

std::uint64_t chunk_set::nth(std::uint64_t k) const noexcept {
  for (const auto& [b, e] : ranges) {
    if (k < e - b) return b + k;
    k -= e - b;
  }
  return ranges.empty() ? 0 : ranges.back().second;
}

chunk_set chunk_set::prefix(std::uint64_t k) const {
  chunk_set out;
  for (const auto& [b, e] : ranges) {
    if (k == 0) break;
    const std::uint64_t take = std::min(k, e - b);
    out.ranges.emplace_back(b, b + take);
    k -= take;
  }
  return out;
}

std::uint64_t chunk_set::trials_in(std::uint64_t run_trials) const noexcept {
  const std::uint64_t chunks = bias_chunk_count(run_trials);
  std::uint64_t trials = 0;
  for (auto [b, e] : ranges) {
    e = std::min(e, chunks);
    if (b >= e) continue;
    trials += (e - b) * bias_chunk_trials;
    if (e == chunks) trials -= chunks * bias_chunk_trials - run_trials;  // the short last chunk
  }
  return trials;
}

std::string chunk_set::text() const {
  if (ranges.empty()) return "none";
  std::string out;
  for (const auto& [b, e] : ranges) {
    if (!out.empty()) out += ", ";
    out += e - b == 1 ? fmt::format("{}", b) : fmt::format("{}..{}", b, e - 1);
  }
  return out;
}

std::uint64_t bias_shard_of_chunk(std::uint64_t trials, std::uint64_t chunk, std::uint64_t shards) {
  // Shard i holds [floor(C i / N), floor(C (i + 1) / N)): the first i with C (i + 1) / N > chunk,
  // i.e. i + 1 = ceil((chunk + 1) N / C). C < 2^49 and N < 2^64: the product fits in 128 bits.
  const uint128 chunks = bias_chunk_count(trials);
  if (shards == 0 || chunk >= chunks) throw error(fmt::format("chunk {} is not a chunk of the run", chunk));
  const uint128 product = (uint128{chunk} + 1) * shards;
  return static_cast<std::uint64_t>((product + chunks - 1) / chunks - 1);
}

chunk_set bias_shard_chunks(std::uint64_t trials, std::uint64_t shard, std::uint64_t shards) {
  if (shards == 0 || shard >= shards) {
    throw error(fmt::format("shard {}/{} does not exist: shards are numbered 0 to N-1", shard, shards));
  }
  const uint128 chunks = bias_chunk_count(trials);
  chunk_set s;
  s.add(static_cast<std::uint64_t>(chunks * shard / shards), static_cast<std::uint64_t>(chunks * (shard + 1) / shards));
  return s;
}

std::string bias_run::key() const {
  if (seed) return fmt::format("seed/{}/{}", engine_name(engine), *seed);
  return fmt::format("id/{}", run_id);
}

std::string bias_run::describe() const {
  if (!input.empty()) return fmt::format("permutations read from '{}'", input);
  if (seed) return fmt::format("seed \"{}\" ({})", *seed, engine_name(engine));
  return fmt::format("unseeded run {} ({})", run_id.substr(0, 12), engine_name(engine));
}

}  // namespace shufl
