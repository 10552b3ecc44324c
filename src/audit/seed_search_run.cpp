// A whole seed search from the command line's options (see seed_search_run.hpp).
#include "shufl/audit/seed_search_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "shufl/cpus.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

// Runs `work` on the calling thread, or with `stop` on a thread of its own while the calling
// thread asks stop() every 50 ms and sets `stopped` when it says so.
template <class Work>
void run_stoppable(const std::function<bool()>& stop, std::atomic<bool>& stopped, Work&& work) {
  if (!stop) {
    work();
    return;
  }
  if (stop()) {  // asked once before the work begins
    stopped = true;
    return;
  }
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::exception_ptr failure;
  std::thread worker([&] {
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
    {
      const std::lock_guard lock(mutex);
      done = true;
    }
    finished.notify_all();
  });
  {
    std::unique_lock lock(mutex);
    while (!done) {
      finished.wait_for(lock, std::chrono::milliseconds(50));
      if (!done && !stopped) {
        lock.unlock();
        if (stop()) stopped = true;
        lock.lock();
      }
    }
  }
  worker.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

seed_search_setup setup_seed_search(const seed_search_request& o) {
  seed_search_setup s;
  s.family = &parse_seed_family(o.family);
  s.full = parse_seed_range(o.seeds, *s.family);  // node-math-random: no seeds, none to give
  // node-math-random's generator is never reseeded: its state is recovered from the cards.
  const bool node = s.family->family == seed_family::node_math_random;
  if (o.reseed != "per-deal" && o.reseed != "once")
    throw error(fmt::format("invalid value '{}' for --reseed: expected per-deal or once", o.reseed));
  s.reseed = o.reseed == "per-deal" && !node ? reseed_mode::per_deal : reseed_mode::once;
  if (!o.shard.empty() && (node || o.whole))
    throw error(node ? "--shard: node-math-random has no seed range to split" : "--shard: a --report shows a whole search");
  if (!o.shard.empty()) s.shard = parse_shard(o.shard);
  return s;
}

seed_search_outcome run_seed_search(const seed_search_request& o, const seed_search_setup& setup,
                                    std::vector<std::vector<std::uint32_t>> deals, const deck& pack,
                                    const seed_search_hooks& hooks) {
  const seed_family_info& family = *setup.family;
  seed_search_options options;
  options.family = family.family;
  options.n = pack.cards.size();
  options.deals = std::move(deals);
  options.reseed = setup.reseed;
  options.all = o.all;
  options.variant = parse_family_variant(family, o.loop, o.reduce, o.carry_over, o.try_variants, options);
  if (o.deck_order.starts_with("suit-major") || o.deck_order.starts_with("rank-major")) {
    options.deck_order = parse_deck_order(o.deck_order, options.n);
  } else if (!o.deck_order.empty()) {
    if (!hooks.deck_order_file) throw error(fmt::format("--deck-order: '{}' is no deck order", o.deck_order));
    options.deck_order = hooks.deck_order_file(o.deck_order, pack);
  }
  std::vector<search_variant> variants;
  if (o.try_variants) variants = family_variants(options, o.deck_order);
  options.threads = o.threads != 0 ? o.threads : default_threads();
  std::atomic<bool> stopped{false};
  options.stop = &stopped;

  seed_search_outcome out;
  seed_search_setting& in = out.setting;
  in.deck_order = o.deck_order;
  std::optional<seed_range> range = setup.full;
  if (setup.shard) range = shard_of(setup.full, setup.shard->first, setup.shard->second);

  seed_search_result& result = out.result;
  result.searches = setup.reseed == reseed_mode::once ? 1 : options.deals.size();
  if (range) {
    options.range = *range;
    if (hooks.start) options.progress = hooks.start(variants);
    if (!variants.empty()) options.progress = nullptr;
    // A long search can say first how long it will take (measured on its first seeds);
    // --try-variants always can, measured on its second variant (the first has the fast filters).
    const std::uint64_t total = range->count() * result.searches;
    run_stoppable(hooks.stop, stopped, [&] {
      if (!variants.empty()) {
        if (hooks.cost) {
          const double rate = measure_seed_rate(options, std::uint64_t{1} << 17, &variants[variants.size() > 1 ? 1 : 0]);
          hooks.cost({total, options.threads, rate, &variants});
        }
        auto found = search_variants(options, variants);  // options: the variant that matched
        result = std::move(found.result);
        in.deck_order = variants[found.variant < variants.size() ? found.variant : 0].deck_order_name;
      } else {
        if (hooks.cost &&
            (range->count() == 0 || total / result.searches != range->count() || total >= (std::uint64_t{1} << 30))) {
          const double rate = measure_seed_rate(options);
          if (rate > 0) hooks.cost({total, options.threads, rate, nullptr});
        }
        result = search_seeds(options);
      }
    });
  }
  if (stopped) throw error("seed search: stopped");

  options.stop = nullptr;
  options.progress = nullptr;
  in.family = &family;
  in.seeds_text = o.seeds;
  in.full = setup.full;
  in.range = range;
  in.shard = setup.shard;
  in.reseed = setup.reseed;
  in.pack = pack;
  in.variant = options.variant;
  in.variants_tried = std::max<std::size_t>(1, variants.size());
  out.chance = assess_chance(options, result, distinct_states(family.family, setup.full), o.max_chance, in.variants_tried);
  if (out.chance.verdict == seed_verdict::predictable) out.prediction = predict_deals(options, result);
  in.deals = std::move(options.deals);
  return out;
}

}  // namespace shufl::audit
