// A whole seed search as `shufl audit --seed-search` and `shufl.seed_search` run it: the options
// as the command line writes them (family, --seeds, --reseed, --loop, ...), checked in its order,
// then the search (search_seeds, or search_variants with --try-variants), its chance accounting
// (assess_chance) and its predictions (predict_deals). The caller reads the logged deals
// (read_logged_deals, logged_deals_of_array) and hands the result to render/seed_search_output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shufl/audit/seed_search.hpp"
#include "shufl/deck.hpp"

namespace shufl::audit {

/// The options of a seed search as the command line takes them (the option names in the errors).
struct seed_search_request {
  std::string family;              ///< --seed-search FAMILY (a name of seed_families())
  std::string seeds;               ///< --seeds RANGE: A..B, time:START..END, uptime:A..B (empty for node-math-random)
  std::string reseed = "per-deal"; ///< --reseed per-deal|once
  std::string deck_order;          ///< --deck-order suit-major|rank-major[:SUITS[:RANKS]]|FILE (empty: canonical)
  std::string loop = "down";       ///< --loop down|up|naive|inside-out|sample[:K]|pop|sort
  std::string reduce;              ///< --reduce native|mod|div (empty: the family's own)
  bool carry_over = false;         ///< --carry-over (needs --reseed once)
  bool try_variants = false;       ///< --try-variants
  bool all = false;                ///< --all: every matching seed, not only the first
  unsigned threads = 0;            ///< --threads (0: default_threads())
  std::string shard;               ///< --shard I/N (empty: the whole range)
  double max_chance = 1e-3;        ///< --max-chance E: "predictable" only when E <= this
  bool whole = false;              ///< The search must be whole (audit --report): --shard is refused
};

/// What the options say, checked before any deal is read (the command line's first errors).
struct seed_search_setup {
  const seed_family_info* family = nullptr;
  seed_range full;                 ///< the whole --seeds range
  reseed_mode reseed = reseed_mode::per_deal;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> shard;  ///< --shard I/N
};

/// Parses family, --seeds, --reseed and --shard. Throws shufl::error in the command line's words:
/// an unknown family (naming the closest), a bad range, "invalid value 'X' for --reseed: expected
/// per-deal or once", --shard with node-math-random or with `whole`, a bad I/N.
seed_search_setup setup_seed_search(const seed_search_request& request);

/// What was searched, as the reports state it (render/seed_search_output.hpp).
struct seed_search_setting {
  const seed_family_info* family = nullptr;
  std::string seeds_text;                        ///< --seeds as given
  seed_range full;                               ///< the whole range of --seeds
  std::optional<seed_range> range;               ///< the seeds searched (nullopt: an empty shard)
  std::optional<std::pair<std::uint64_t, std::uint64_t>> shard;  ///< --shard I/N
  reseed_mode reseed = reseed_mode::per_deal;
  std::vector<std::vector<std::uint32_t>> deals;  ///< the logged deals (canonical indices)
  deck pack;                                      ///< the pack the cards are named in
  std::string deck_order;                         ///< --deck-order as given (empty: canonical)
  family_variant variant;                         ///< --loop, --reduce (with --try-variants: the one that matched)
  std::size_t variants_tried = 1;                 ///< --try-variants: H, the variants searched
};

/// A finished search: what was searched, what was found, its chance and its predictions (the
/// prediction is made only when the verdict is predictable).
struct seed_search_outcome {
  seed_search_setting setting;
  seed_search_result result;
  seed_chance chance;
  seed_prediction prediction;
};

/// How long a search will take, as the caller may state it before it starts: measured on the
/// search's first 2^17 seeds on one thread.
struct seed_search_cost {
  std::uint64_t seeds = 0;                       ///< seeds of one variant over its searches (0: 2^64)
  unsigned threads = 1;
  double rate_per_thread = 0;                    ///< seeds per second of one thread (0: too fast to time)
  const std::vector<search_variant>* variants = nullptr;  ///< --try-variants: every variant to try (else null)
};

/// What the caller hooks into a search. Every member may be empty.
struct seed_search_hooks {
  /// Called once, just before the seeds are searched (never for an empty shard or
  /// node-math-random's recovery), with --try-variants' list (empty without it); returns the
  /// progress callback of that search (seeds done of all seeds to try; called from worker threads,
  /// about every 2^16 seeds; not called with --try-variants).
  std::function<seed_search_progress(const std::vector<search_variant>& variants)> start;
  /// Called before a search of 2^30 seeds or more (or one whose count wraps) and before any
  /// --try-variants search, with its measured cost (the time the measuring takes is spent only
  /// when this is given). Called on the thread that runs the search.
  std::function<void(const seed_search_cost&)> cost;
  /// Polled on the calling thread about every 50 ms while the search runs on a thread of its own
  /// (without it the search runs on the calling thread); once it returns true the workers stop at
  /// their next block of 2^16 seeds and run_seed_search throws shufl::error "seed search: stopped".
  std::function<bool()> stop;
  /// Reads --deck-order FILE (any value but suit-major... and rank-major...): the list's starting
  /// order as read_deck_order gives it, for `pack`. Without it such a value is refused.
  std::function<std::vector<std::uint32_t>(const std::string& file, const deck& pack)> deck_order_file;
};

/// Runs the search of `request` (already set up) on `deals` (canonical indices of `pack`, as
/// read_logged_deals returns them). Throws shufl::error for a variant the family does not take,
/// a bad --deck-order, bad deals (see search_seeds), a bad --max-chance, and when stopped.
seed_search_outcome run_seed_search(const seed_search_request& request, const seed_search_setup& setup,
                                    std::vector<std::vector<std::uint32_t>> deals, const deck& pack,
                                    const seed_search_hooks& hooks = {});

}  // namespace shufl::audit
