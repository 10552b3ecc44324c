// `shufl bias` trial counting: chunks of trials on threads (one stream per chunk), the table by
// rank or by path code, the position matrix with secondary sums and the birthday fingerprints,
// and tallies of permutations read from elsewhere.
#include "shufl/bias.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <numeric>
#include <span>
#include <thread>

#include "internal.hpp"
#include "shufl/detail/bias_loops.hpp"
#include "shufl/detail/path_lanes.hpp"
#include "shufl/detail/replay_engine.hpp"
#include "shufl/error.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

namespace detail {

void unrank_into(std::uint64_t rank, std::size_t n, std::uint8_t* out) noexcept {
  std::array<std::uint8_t, max_rank_n> code{}, unused{};
  for (std::size_t i = n; i-- > 0;) {
    const std::uint64_t base = n - i;
    code[i] = static_cast<std::uint8_t>(rank % base);
    rank /= base;
  }
  for (std::size_t i = 0; i < n; ++i) unused[i] = static_cast<std::uint8_t>(i);
  std::size_t left = n;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = unused[code[i]];
    std::copy(unused.begin() + code[i] + 1, unused.begin() + static_cast<std::ptrdiff_t>(left), unused.begin() + code[i]);
    --left;
  }
}

// Number of values that repeat an earlier one. LSD radix sort (four 16-bit digits) first: about
// twice as fast as std::sort on the million fingerprints of the birthday test (28 vs 58 ms).
// Below 2^16 values std::sort wins: the radix passes clear and sum a 2^16-entry offset table four
// times whatever the size (the position Monte Carlo counts repeats once per simulated table, of a
// handful of trials each: 10,000 tables of 5 trials took 4.9 s of CPU through the radix path, 0.04 s now).
std::uint64_t count_repeats(std::vector<std::uint64_t>& values) {
  if (values.size() < (std::size_t{1} << 16)) {
    std::sort(values.begin(), values.end());
    std::uint64_t repeats = 0;
    for (std::size_t i = 1; i < values.size(); ++i) repeats += values[i] == values[i - 1];
    return repeats;
  }
  std::vector<std::uint64_t> scratch(values.size());
  std::vector<std::size_t> offsets(65536);
  for (unsigned shift = 0; shift < 64; shift += 16) {
    std::fill(offsets.begin(), offsets.end(), 0);
    for (const auto v : values) ++offsets[(v >> shift) & 0xFFFF];
    std::size_t sum = 0;
    for (auto& o : offsets) {
      const std::size_t c = o;
      o = sum;
      sum += c;
    }
    for (const auto v : values) scratch[offsets[(v >> shift) & 0xFFFF]++] = v;
    values.swap(scratch);
  }
  std::uint64_t repeats = 0;
  for (std::size_t i = 1; i < values.size(); ++i) repeats += values[i] == values[i - 1];
  return repeats;
}

}  // namespace detail

namespace {

// Path-code counting (detail::path_coder) is used when an algorithm's paths number at most this.
constexpr std::uint64_t kMaxPathCodes = std::uint64_t{1} << 20;

// The chunks a call computes: the plan's (within the trials), else all of them.
chunk_set planned_chunks(std::uint64_t trials, const chunk_plan& plan) {
  const chunk_set all = chunk_set::all_of(trials);
  return plan.only ? plan.only->minus(plan.only->minus(all)) : all;
}

// Runs chunks(thread, indices) for every planned chunk of bias_chunk_trials, on `threads` threads
// taking up to `batch` (≤ 4) consecutive planned chunks at a time. Which thread runs a chunk
// never matters: each chunk has its own stream and writes only to its thread's accumulators or
// its own slice. With plan.stop set, no new batch starts; the batches started are finished, and
// their chunks are exactly the first `taken` chunks of the plan (recorded in plan.done).
template <class F>
void run_chunks(std::uint64_t trials, const chunk_set& todo, unsigned threads, std::uint64_t batch, F&& chunks_of,
                const bias_progress& progress, const std::string& label, const chunk_plan& plan) {
  const std::uint64_t chunks = todo.count();
  const std::uint64_t total = todo.trials_in(trials);
  std::atomic<std::uint64_t> next{0}, done{0};
  // An exception in a thread (the progress callback may throw) must not reach std::terminate:
  // the first one is kept, every thread stops taking chunks, and it is rethrown here.
  std::mutex failure_mutex;
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&](unsigned t) {
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) break;
      if (plan.stop != nullptr && plan.stop->load(std::memory_order_relaxed)) break;
      const std::uint64_t k = next.fetch_add(batch, std::memory_order_relaxed);
      if (k >= chunks) break;
      const auto count = static_cast<std::size_t>(std::min(batch, chunks - k));
      std::array<std::uint64_t, 4> cs{};
      std::uint64_t size = 0;
      for (std::size_t i = 0; i < count; ++i) {
        cs[i] = todo.nth(k + i);
        size += std::min(bias_chunk_trials, trials - cs[i] * bias_chunk_trials);
      }
      chunks_of(t, std::span<const std::uint64_t>(cs.data(), count));
      const std::uint64_t so_far = done.fetch_add(size, std::memory_order_relaxed) + size;
      if (progress) progress(so_far, total, label);
    }
  };
  auto worker = [&](unsigned t) noexcept {
    try {
      work(t);
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      failed.store(true);
    }
  };
  if (progress) progress(0, total, label);  // this algorithm starts (a bar shows "k of m" at once)
  std::vector<std::thread> pool;
  try {
    pool.reserve(threads);
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  } catch (...) {
    // No memory or no thread left for another thread: the threads started share the chunks
    // (which thread counts a chunk never changes a count).
  }
  worker(0);
  for (auto& th : pool) th.join();
  if (failure) std::rethrow_exception(failure);
  if (plan.done != nullptr) *plan.done = todo.prefix(std::min(next.load(), chunks));
}

unsigned clamp_threads(unsigned threads, const chunk_set& todo) {
  return static_cast<unsigned>(std::clamp<std::uint64_t>(threads, 1, std::max<std::uint64_t>(todo.count(), 1)));
}

// Per-thread accumulators, each its own allocation padded to whole cache lines so threads never
// write to the same line.
std::vector<std::vector<std::uint64_t>> padded_tables(unsigned threads, std::uint64_t cells) {
  constexpr std::size_t pad = 64 / sizeof(std::uint64_t);
  return std::vector<std::vector<std::uint64_t>>(threads, std::vector<std::uint64_t>(cells + pad, 0));
}

// The bounds of an algorithm's draws (when they are fixed): one run along the all-zero path.
std::vector<std::uint64_t> fixed_path_bounds(const algorithm_spec& algorithm, std::size_t n) {
  auto engine = std::make_unique<detail::replay_engine>();
  std::array<std::uint8_t, 256> deck{};
  algorithm.info->run_replay(std::span<std::uint8_t>(deck.data(), n), *engine, algorithm.parameter);
  if (engine->overflow) return {};
  return {engine->bounds.begin(), engine->bounds.begin() + static_cast<std::ptrdiff_t>(engine->used)};
}

}  // namespace

std::vector<std::uint64_t> count_permutations(const algorithm_spec& algorithm, std::size_t n,
                                              std::uint64_t trials, engine_kind engine,
                                              const seed_key& key, unsigned threads,
                                              const bias_progress& progress, const chunk_plan& plan) {
  const std::uint64_t cells = factorial(n);
  const seed_key algorithm_key = derive_key(key, "bias/" + algorithm.label(), 0);
  const chunk_set todo = planned_chunks(trials, plan);
  threads = clamp_threads(threads, todo);
  const detail::bias_loops& loops = detail::bias_loops_for(*algorithm.info);

  // Path codes: when the draws' bounds are fixed and their product is small, count codes (cheap)
  // and map each code to the rank of its permutation once at the end. Same draws, same counts.
  std::uint64_t codes = 0;
  std::vector<std::uint64_t> bounds;
  if (algorithm.info->fixed_bounds) {
    bounds = fixed_path_bounds(algorithm, n);
    codes = 1;
    for (const auto s : bounds) {
      if (s == 0 || codes > kMaxPathCodes / s) {
        codes = 0;
        break;
      }
      codes *= s;
    }
    if (bounds.empty()) codes = 0;
  }

  // xoshiro256++ path codes run four chunks at once in AVX2 lanes where the CPU has them.
  const bool lanes = codes != 0 && engine == engine_kind::xoshiro256pp && detail::path_lanes_available();
  auto tables = padded_tables(threads, codes ? codes : cells);
  run_chunks(trials, todo, threads, lanes ? 4 : 1, [&](unsigned t, std::span<const std::uint64_t> cs) {
    const auto full = [&](std::uint64_t c) { return trials - c * bias_chunk_trials >= bias_chunk_trials; };
    if (lanes && cs.size() == 4 && std::all_of(cs.begin(), cs.end(), full)) {
      detail::count_paths_xoshiro_lanes(algorithm_key, {cs[0], cs[1], cs[2], cs[3]}, bounds, bias_chunk_trials,
                                        tables[t].data());
      return;
    }
    for (const std::uint64_t c : cs) {
      const std::uint64_t size = std::min(bias_chunk_trials, trials - c * bias_chunk_trials);
      if (codes) {
        loops.count_paths(engine, algorithm_key, c, algorithm.parameter, n, size, tables[t].data());
      } else {
        loops.count_table(engine, algorithm_key, c, algorithm.parameter, n, size, tables[t].data());
      }
    }
  }, progress, algorithm.label(), plan);

  std::vector<std::uint64_t> total(cells, 0);
  if (!codes) {
    for (const auto& table : tables) {
      for (std::uint64_t i = 0; i < cells; ++i) total[i] += table[i];
    }
    return total;
  }
  auto replay = std::make_unique<detail::replay_engine>();
  std::array<std::uint8_t, 256> deck{};
  const std::span<std::uint8_t> d(deck.data(), n);
  for (std::uint64_t code = 0; code < codes; ++code) {
    std::uint64_t sum = 0;
    for (const auto& table : tables) sum += table[code];
    if (sum == 0) continue;
    std::uint64_t rest = code;
    for (std::size_t k = bounds.size(); k-- > 0;) {
      replay->draws[k] = rest % bounds[k];
      rest /= bounds[k];
    }
    replay->prefix = bounds.size();
    replay->restart();
    for (std::size_t i = 0; i < n; ++i) deck[i] = static_cast<std::uint8_t>(i);
    algorithm.info->run_replay(d, *replay, algorithm.parameter);
    total[rank_permutation(std::span<const std::uint8_t>(d))] += sum;
  }
  return total;
}

bias_tallies count_positions(const algorithm_spec& algorithm, std::size_t n, std::uint64_t trials,
                             engine_kind engine, const seed_key& key, unsigned threads,
                             bool secondary, const bias_progress& progress, const chunk_plan& plan) {
  const seed_key algorithm_key = derive_key(key, "bias/" + algorithm.label(), 0);
  const chunk_set todo = planned_chunks(trials, plan);
  threads = clamp_threads(threads, todo);
  const detail::bias_loops& loops = detail::bias_loops_for(*algorithm.info);
  auto tables = padded_tables(threads, n * n);
  std::vector<bias_sums> sums(threads);
  bias_tallies out;
  out.n = n;
  const std::uint64_t birthday_limit = std::min(trials, bias_birthday_trials);
  std::vector<std::uint64_t> hashes(birthday_limit);
  chunk_set done;
  chunk_plan inner = plan;
  inner.done = &done;
  // xoshiro256++ chunks of a fixed-bounds algorithm draw four at a time in AVX2 lanes where the
  // CPU has them (half-word draws below 2^32). Same draws, same results.
  std::vector<std::uint64_t> bounds;
  if (engine == engine_kind::xoshiro256pp && algorithm.info->fixed_bounds && detail::path_lanes_available()) {
    bounds = fixed_path_bounds(algorithm, n);
    if (std::any_of(bounds.begin(), bounds.end(), [](std::uint64_t s) { return s == 0 || (s >> 32) != 0; })) bounds.clear();
  }
  const bool lanes = !bounds.empty();
  run_chunks(trials, todo, threads, lanes ? 4 : 1, [&](unsigned t, std::span<const std::uint64_t> cs) {
    const auto hash_count = [&](std::uint64_t begin, std::uint64_t size) {
      return begin < birthday_limit ? std::min(size, birthday_limit - begin) : std::uint64_t{0};
    };
    const auto full = [&](std::uint64_t c) { return trials - c * bias_chunk_trials >= bias_chunk_trials; };
    if (lanes && cs.size() == 4 && std::all_of(cs.begin(), cs.end(), full)) {
      std::array<permutation_sums, 4> local;
      std::array<detail::positions_lane, 4> four;
      for (std::size_t l = 0; l < 4; ++l) {
        const std::uint64_t begin = cs[l] * bias_chunk_trials;
        four[l].stream = cs[l];
        four[l].stats = secondary ? &local[l] : nullptr;
        four[l].hash_count = hash_count(begin, bias_chunk_trials);
        four[l].hashes = four[l].hash_count ? hashes.data() + begin : nullptr;
      }
      loops.count_positions_lanes(algorithm_key, four, bounds, algorithm.parameter, n, bias_chunk_trials,
                                  tables[t].data());
      for (const auto& s : local) sums[t] += s;  // 64-bit per chunk (65536 trials), 128-bit totals
      return;
    }
    for (const std::uint64_t c : cs) {
      const std::uint64_t begin = c * bias_chunk_trials;
      const std::uint64_t size = std::min(bias_chunk_trials, trials - begin);
      const std::uint64_t hashed = hash_count(begin, size);
      permutation_sums local;
      loops.count_positions(engine, algorithm_key, c, algorithm.parameter, n, size,
                            tables[t].data(), secondary ? &local : nullptr,
                            hashed ? hashes.data() + begin : nullptr, hashed);
      sums[t] += local;  // 64-bit per chunk (65536 trials), 128-bit totals
    }
  }, progress, algorithm.label(), inner);
  if (plan.done != nullptr) *plan.done = done;
  out.chunks = done;
  out.trials = done.trials_in(trials);
  out.positions.assign(n * n, 0);
  for (const auto& table : tables) {
    for (std::size_t i = 0; i < n * n; ++i) out.positions[i] += table[i];
  }
  for (const auto& s : sums) out.sums += s;
  // The fingerprints of the counted chunks among the first birthday_limit trials, in trial order.
  for (const auto& [b, e] : done.ranges) {
    for (std::uint64_t c = b; c < e && c * bias_chunk_trials < birthday_limit; ++c) {
      const std::uint64_t first = c * bias_chunk_trials;
      const std::uint64_t last = std::min(first + bias_chunk_trials, birthday_limit);
      out.fingerprints.insert(out.fingerprints.end(), hashes.begin() + static_cast<std::ptrdiff_t>(first),
                              hashes.begin() + static_cast<std::ptrdiff_t>(last));
    }
  }
  out.birthday_trials = out.fingerprints.size();
  std::vector<std::uint64_t> sorted = out.fingerprints;
  out.duplicates = detail::count_repeats(sorted);
  return out;
}

bias_tallies tally_permutations(std::span<const std::uint8_t> perms, std::size_t n, bool table) {
  bias_tallies out;
  out.n = n;
  out.trials = n ? perms.size() / n : 0;
  out.positions.assign(n * n, 0);
  if (table) out.table.assign(factorial(n), 0);
  out.birthday_trials = std::min(out.trials, bias_birthday_trials);
  out.chunks = chunk_set::all_of(out.trials);
  std::vector<std::uint64_t> hashes;
  hashes.reserve(out.birthday_trials);
  for (std::uint64_t t = 0; t < out.trials; ++t) {
    const auto perm = perms.subspan(t * n, n);
    for (std::size_t p = 0; p < n; ++p) ++out.positions[perm[p] * n + p];
    out.sums.add(perm);
    if (table) ++out.table[rank_permutation(perm)];
    if (t < out.birthday_trials) hashes.push_back(permutation_fingerprint(perm));
  }
  out.fingerprints = hashes;
  out.duplicates = detail::count_repeats(hashes);
  return out;
}

}  // namespace shufl
