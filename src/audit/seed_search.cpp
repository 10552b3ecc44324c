// Seed search driver (see seed_search.hpp): a threaded search over a seed range with early exit,
// the vectorised per-family filters (seed_search/*.cpp) and confirmation by the reference deals.
#include "shufl/audit/seed_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "seed_search/loops.hpp"
#include "seed_search/mt19937.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

using namespace seeds;

lane_mask run_lanes(seed_family family, const kernel_args& args) noexcept {
  switch (family) {
    case seed_family::python_random: return python_random_lanes(args);
    case seed_family::c_rand: return c_rand_lanes(args);
    case seed_family::cpp_mt19937: return cpp_mt19937_lanes(args);
    case seed_family::php_mt_rand: return php_mt_rand_lanes(args, false);
    case seed_family::php_mt_rand_legacy: return php_mt_rand_lanes(args, true);
    case seed_family::dotnet_random: return dotnet_random_lanes(args);
    case seed_family::glibc_rand_r: return small_lcg_lanes(args, true);
    case seed_family::msvc_rand: return small_lcg_lanes(args, false);
    default: return 0;
  }
}

bool vectorised(seed_family family) noexcept {
  return family == seed_family::python_random || family == seed_family::c_rand ||
         family == seed_family::cpp_mt19937 || family == seed_family::php_mt_rand ||
         family == seed_family::php_mt_rand_legacy || family == seed_family::dotnet_random ||
         family == seed_family::glibc_rand_r || family == seed_family::msvc_rand;
}

// ---------------------------------------------------------------------------------------------
// Confirming a candidate with the reference deals.

bool confirms(const seed_search_options& o, std::size_t deal, std::uint64_t seed) {
  const std::size_t deals = o.reseed == reseed_mode::once ? o.deals.size() : 1;
  const auto made = family_deals(o.family, seed, o.n, deals, o.variant);
  for (std::size_t d = 0; d < deals; ++d) {
    const auto& logged = o.reseed == reseed_mode::once ? o.deals[d] : o.deals[deal];
    if (!std::equal(logged.begin(), logged.end(), made[d].begin())) return false;
  }
  return true;
}

void validate(const seed_search_options& o) {
  if (o.deals.empty()) throw error("seed search: no deals to reproduce");
  if (o.n < 2 || o.n > 32767) throw error(fmt::format("seed search: a deck of {} cards (2 to 32767)", o.n));
  const auto& info = family_info(o.family);
  if (o.family != seed_family::node_math_random && (o.range.last < o.range.first || o.range.last > info.max_seed))
    throw error(fmt::format("seed search: seeds {}..{} outside {}'s 0..{}", o.range.first, o.range.last, info.name,
                            info.max_seed));
  if (o.variant.loop == shuffle_loop::sample) {
    if (o.variant.sample_size == 0 || o.variant.sample_size > o.n)
      throw error(fmt::format("seed search: random.sample of {} cards from a deck of {}", o.variant.sample_size, o.n));
    for (std::size_t d = 0; d < o.deals.size(); ++d)
      if (o.deals[d].size() > o.variant.sample_size)
        throw error(fmt::format("seed search: deal {} has {} cards, more than the {} random.sample deals (--loop "
                                "sample:K)",
                                d + 1, o.deals[d].size(), o.variant.sample_size));
  }
  if (o.variant.carry_over && o.reseed != reseed_mode::once)
    throw error("--carry-over needs --reseed once: a list carried from deal to deal is shuffled by one generator "
                "running on");
  for (std::size_t d = 0; d < o.deals.size(); ++d) {
    const auto& deal = o.deals[d];
    if (deal.empty() || deal.size() > o.n)
      throw error(fmt::format("seed search: deal {} has {} cards (1 to {})", d + 1, deal.size(), o.n));
    std::vector<bool> seen(o.n);
    for (const auto c : deal) {
      if (c >= o.n || seen[c]) throw error(fmt::format("seed search: deal {} repeats a card or has one outside the deck", d + 1));
      seen[c] = true;
    }
  }
}

}  // namespace

namespace {

// The deals as list indices: with a deck order, card c sits at list index i where order[i] = c.
seed_search_options in_list_order(const seed_search_options& o) {
  seed_search_options m = o;
  m.deck_order.clear();
  if (o.deck_order.empty()) return m;
  if (o.deck_order.size() != o.n) throw error("seed search: the deck order does not fit the deck");
  std::vector<std::uint32_t> index(o.n);
  for (std::size_t i = 0; i < o.n; ++i) index[o.deck_order[i]] = static_cast<std::uint32_t>(i);
  for (auto& deal : m.deals)
    for (auto& c : deal)
      if (c < o.n) c = index[c];
  return m;
}

}  // namespace

seed_search_result search_seeds(const seed_search_options& options) {
  if (!options.deck_order.empty()) return search_seeds(in_list_order(options));
  const seed_search_options& o = options;
  validate(o);
  check_variant(o.family, o.variant);
  seed_search_result result;
  if (o.family == seed_family::node_math_random) {
    result.searches = 1;
    result.recovery = recover_node_state(o);
    for (std::size_t i = 0; i < result.recovery->states.size(); ++i) result.matches.push_back({i, 0});
    return result;
  }
  const std::size_t searches = o.reseed == reseed_mode::once ? 1 : o.deals.size();
  result.searches = searches;
  const std::uint64_t per_search = o.range.last - o.range.first + 1;
  const std::uint64_t total = per_search * searches;
  constexpr std::uint64_t block = std::uint64_t{1} << 16;
  const std::uint64_t blocks = (per_search + block - 1) / block;
  const unsigned threads = std::max(1u, o.threads);

  std::array<std::uint32_t, 624> genrand{};
  {
    mt19937_state g;
    g.init_genrand(19650218u);
    genrand = g.mt;
  }
  if (o.family == seed_family::c_rand) prepare_c_rand_table();
  // cpp-mt19937: outputs the vector part provides (about n/2 draws plus a margin for rejections).
  const std::size_t mt_outputs = std::min<std::size_t>(226, o.n / 2 + 16);
  std::vector<std::uint64_t> mod_m(o.n + 1);
  for (std::size_t d = 1; d <= o.n; ++d) mod_m[d] = UINT64_MAX / d + 1;

  std::atomic<std::uint64_t> done{0};
  std::mutex mutex;
  for (std::size_t s = 0; s < searches; ++s) {
    const auto& filter_deal = o.deals[o.reseed == reseed_mode::once ? 0 : s];
    const log_view log = make_view(o.n, filter_deal);
    std::atomic<std::uint64_t> next_block{0};
    std::atomic<std::uint64_t> best{UINT64_MAX};
    std::atomic<bool> stop{false};
    std::vector<std::uint64_t> found;

    auto worker = [&]() {
      std::vector<std::uint32_t> scratch(2 * o.n);
      identity({scratch.data(), o.n});
      auto mt = std::make_unique<mt_buffer>();
      auto consider = [&](std::uint64_t seed) {
        if (!confirms(o, s, seed)) return;
        const std::lock_guard lock(mutex);
        found.push_back(seed);
        if (!o.all) {
          std::uint64_t b = best.load();
          while (seed < b && !best.compare_exchange_weak(b, seed)) {
          }
        } else if (found.size() >= o.max_matches) {
          result.truncated = true;
          stop = true;
        }
      };
      for (;;) {
        const std::uint64_t b = next_block.fetch_add(1);
        if (b >= blocks || stop || (o.stop != nullptr && o.stop->load(std::memory_order_relaxed))) break;
        const std::uint64_t lo = o.range.first + b * block;
        if (!o.all && lo > best.load()) break;
        // lo + block - 1 would wrap past 2^64 - 1 in the last block below it: compare the distance.
        const std::uint64_t hi = o.range.last - lo < block - 1 ? o.range.last : lo + block - 1;
        std::uint64_t seed = lo;
        if (vectorised(o.family) && o.variant.standard()) {
          while (seed <= hi && seed < two_32 - (lanes - 1)) {  // seed + lanes - 1 < 2^32, without wrapping
            const auto count = static_cast<unsigned>(std::min<std::uint64_t>(lanes, hi - seed + 1));
            const kernel_args args{&log,           static_cast<std::uint32_t>(seed), count, mt_outputs,
                                   genrand.data(), mod_m.data(), mt.get(),    scratch.data()};
            lane_mask c = run_lanes(o.family, args);
            while (c != 0) {
              const int l = std::countr_zero(c);
              c &= c - 1;
              consider(seed + static_cast<unsigned>(l));
            }
            seed += count;
          }
        }
        for (; seed <= hi && seed >= lo; ++seed)
          if (o.variant.standard() ? scalar_filter(o.family, log, seed, scratch.data())
                                   : variant_filter(o.family, o.variant, log, seed, scratch.data()))
            consider(seed);
        identity({scratch.data(), o.n});  // the kernels expect the identity on entry
        const std::uint64_t d = done.fetch_add(hi - lo + 1) + (hi - lo + 1);
        if (o.progress) o.progress(d, total);
      }
    };
    if (threads == 1) {
      worker();
    } else {
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
      for (auto& t : pool) t.join();
    }
    std::sort(found.begin(), found.end());
    const std::size_t keep = o.all ? found.size() : std::min<std::size_t>(found.size(), 1);
    for (std::size_t i = 0; i < keep; ++i) result.matches.push_back({found[i], o.reseed == reseed_mode::once ? 0 : s});
  }
  result.seeds_tried = done.load();
  return result;
}

double measure_seed_rate(const seed_search_options& o, std::uint64_t sample, const search_variant* as) {
  seed_search_options probe = o;
  if (as != nullptr) {
    probe.variant = as->variant;
    probe.deck_order = as->deck_order;
  }
  probe.progress = nullptr;
  probe.threads = 1;
  probe.all = true;
  probe.max_matches = 1;
  probe.reseed = reseed_mode::once;  // one search of the first deal
  probe.deals.resize(1);
  const std::uint64_t count = o.range.last - o.range.first;
  probe.range.last = o.range.first + std::min(count, sample - 1);
  const auto start = std::chrono::steady_clock::now();
  const auto r = search_seeds(probe);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  return took.count() > 0 ? static_cast<double>(r.seeds_tried) / took.count() : 0;
}

namespace {

// node-math-random: the recovered states run on (the generator is never reseeded), every one of
// them; the cards they disagree on are unknown.
seed_prediction predict_node(const seed_search_options& o, const seed_search_result& result) {
  seed_prediction p;
  if (!result.recovery) return p;
  const std::size_t last = o.deals.size() - 1;
  for (const auto& s : result.recovery->states) {
    const auto made = node_deals(s, o.n, o.deals.size() + 1, o.variant.loop);
    const std::span<const std::uint32_t> rest(made[last].begin() + static_cast<std::ptrdiff_t>(o.deals[last].size()),
                                              made[last].end());
    if (p.seeds == 0) {
      p.made_last_deal = true;
      p.rest_of_last_deal.assign(rest.begin(), rest.end());
      p.next_deal = made.back();
    } else {
      for (std::size_t i = 0; i < rest.size(); ++i)
        if (p.rest_of_last_deal[i] != rest[i]) p.rest_of_last_deal[i] = unknown_card;
      for (std::size_t i = 0; i < made.back().size(); ++i)
        if (p.next_deal[i] != made.back()[i]) p.next_deal[i] = unknown_card;
    }
    ++p.seeds;
  }
  return p;
}

}  // namespace

seed_prediction predict_deals(const seed_search_options& options, const seed_search_result& result) {
  if (!options.deck_order.empty()) {
    auto p = predict_deals(in_list_order(options), result);
    for (auto* cards : {&p.rest_of_last_deal, &p.next_deal})
      for (auto& c : *cards)
        if (c != unknown_card) c = options.deck_order[c];
    return p;
  }
  const seed_search_options& o = options;
  seed_prediction p;
  if (o.family == seed_family::node_math_random) return predict_node(o, result);
  const std::size_t last_deal = o.deals.size() - 1;
  const std::size_t made = o.reseed == reseed_mode::once ? o.deals.size() + 1 : 1;
  for (const auto& m : result.matches) {
    if (o.reseed != reseed_mode::once && m.deal != last_deal) continue;
    const auto predicted = family_deals(o.family, m.seed, o.n, made, o.variant);
    const auto& last = predicted[made == 1 ? 0 : last_deal];
    const std::span<const std::uint32_t> rest(last.begin() + static_cast<std::ptrdiff_t>(o.deals[last_deal].size()),
                                              last.end());
    const std::span<const std::uint32_t> next =
        o.reseed == reseed_mode::once ? std::span<const std::uint32_t>(predicted.back()) : std::span<const std::uint32_t>();
    if (p.seeds == 0) {
      p.made_last_deal = true;
      p.rest_of_last_deal.assign(rest.begin(), rest.end());
      p.next_deal.assign(next.begin(), next.end());
    } else {
      for (std::size_t i = 0; i < rest.size(); ++i)
        if (p.rest_of_last_deal[i] != rest[i]) p.rest_of_last_deal[i] = unknown_card;
      for (std::size_t i = 0; i < next.size(); ++i)
        if (p.next_deal[i] != next[i]) p.next_deal[i] = unknown_card;
    }
    ++p.seeds;
  }
  return p;
}

}  // namespace shufl::audit
