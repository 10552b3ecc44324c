// Counts files, the merging: many files of one experiment added up (runs, shards, chunks never
// counted twice, birthday fingerprints in order), what is missing, and the merged report.
#include "shufl/bias_counts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>

#include "counts_internal.hpp"
#include "internal.hpp"
#include "shufl/error.hpp"
#include "shufl/permutation.hpp"

namespace shufl {

using detail::kMax64;

void bias_merge::add(const bias_counts& counts, const std::string& name) {
  const auto fail = [&](const std::string& what) { throw error(fmt::format("'{}' {}", name, what)); };
  const bool first = names_.empty();
  if (first) {
    n_ = counts.n;
    secondary_ = counts.secondary;
    counting_ = counts.counting;
    shufl_version_ = counts.shufl_version;
    for (const auto& r : counts.results) {
      order_.push_back(r.label);
      total t;
      t.definition = r.definition;
      t.test = r.test;
      t.positions.assign(n_ * n_, 0);
      if (r.test == "table") t.table.assign(factorial(n_), 0);
      totals_.emplace(r.label, std::move(t));
    }
  } else {
    if (counts.counting != counting_) fail(fmt::format("was counted by another scheme ({}, not {})", counts.counting, counting_));
    if (counts.n != n_) fail(fmt::format("has n = {}, the other files n = {}: not one experiment", counts.n, n_));
    if (counts.secondary != secondary_) {
      fail("differs from the other files in the secondary statistics (--no-secondary): not one experiment");
    }
    if (counts.results.size() != order_.size()) {
      fail(fmt::format("has {} algorithms, the other files {}: not one experiment", counts.results.size(), order_.size()));
    }
    for (const auto& r : counts.results) {
      auto it = totals_.find(r.label);
      if (it == totals_.end()) fail(fmt::format("has algorithm {}, the other files do not: not one experiment", r.label));
      if (!r.definition.empty() && !it->second.definition.empty() && r.definition != it->second.definition) {
        fail(fmt::format("defines {} differently from the other files (another shufl version?)", r.label));
      }
      if (r.test != it->second.test) fail(fmt::format("tests {} with the {} test, the other files with the {} test", r.label, r.test, it->second.test));
    }
  }
  // Runs: the same run must be the same experiment; all runs one engine.
  std::optional<engine_kind> engine;
  for (const auto& [k, run] : runs_) {
    if (run.input.empty()) engine = run.engine;
  }
  for (const auto& run : counts.runs) {
    if (run.input.empty()) {
      if (engine && *engine != run.engine) {
        fail(fmt::format("was run with engine {}, the other files with {}: not one experiment", engine_name(run.engine),
                         engine_name(*engine)));
      }
      engine = run.engine;
    }
    auto it = runs_.find(run.key());
    if (it != runs_.end() && (it->second.trials != run.trials || it->second.input != run.input)) {
      fail(fmt::format("holds {} with {} trials, another file the same seed with {}: not one experiment", run.describe(),
                       run.trials, it->second.trials));
    }
  }
  // Before any addition: no chunk of a run counted twice, and totals that fit in 64 bits.
  for (const auto& r : counts.results) {
    const auto& t = totals_.at(r.label);
    for (const auto& p : r.parts) {
      const auto& run = counts.runs[p.run];
      auto c = t.chunks.find(run.key());
      if (c != t.chunks.end() && c->second.overlaps(p.chunks)) {
        const chunk_set both = p.chunks.minus(p.chunks.minus(c->second));
        fail(fmt::format("repeats chunks {} of {} for {}, already merged: the same trials cannot be counted twice",
                         both.text(), run.describe(), r.label));
      }
    }
    if (uint128{t.trials} + r.trials > kMax64) {
      fail(fmt::format("brings the total trials of {} past 2^64 - 1: the total cannot be represented", r.label));
    }
  }
  names_.push_back(name);
  for (const auto& run : counts.runs) {
    auto [it, fresh] = runs_.emplace(run.key(), run);
    if (!fresh) {
      // Both lists are sorted and distinct (the reader checks it): their union in one pass.
      auto& mine = it->second.shards;
      std::vector<std::pair<std::uint64_t, std::uint64_t>> both;
      both.reserve(mine.size() + run.shards.size());
      std::set_union(mine.begin(), mine.end(), run.shards.begin(), run.shards.end(), std::back_inserter(both));
      mine.swap(both);
    }
  }
  for (const auto& r : counts.results) {
    auto& t = totals_.at(r.label);
    if (t.definition.empty()) t.definition = r.definition;
    t.trials += r.trials;
    for (std::size_t i = 0; i < r.counts.size() && i < t.table.size(); ++i) t.table[i] += r.counts[i];
    for (std::size_t i = 0; i < r.position_counts.size(); ++i) t.positions[i] += r.position_counts[i];
    t.sums += r.sums;
    for (const auto& p : r.parts) {
      const auto& run = counts.runs[p.run];
      const std::string key = run.key();
      t.chunks[key].add(p.chunks);
      // The part's fingerprints, chunk by chunk (the first birthday trials of the run).
      const std::uint64_t limit = std::min(run.trials, bias_birthday_trials);
      std::size_t at = 0;
      std::uint64_t expected = 0;
      for (const auto& [b, e] : p.chunks.ranges) {
        for (std::uint64_t c = b; c < e && c * bias_chunk_trials < limit; ++c) {
          const std::uint64_t size = std::min(bias_chunk_trials, limit - c * bias_chunk_trials);
          expected += size;
          const std::size_t take = std::min<std::size_t>(size, p.fingerprints.size() - at);
          if (take == 0) continue;
          auto& slot = t.fingerprints[{key, c}];
          slot.assign(p.fingerprints.begin() + static_cast<std::ptrdiff_t>(at),
                      p.fingerprints.begin() + static_cast<std::ptrdiff_t>(at + take));
          at += take;
          t.fingerprint_count += take;
        }
      }
      if (r.test == "position" && p.fingerprints.size() < expected) t.fingerprints_incomplete = true;
      // Keep the first bias_birthday_trials fingerprints in (run, chunk) order.
      while (t.fingerprint_count > bias_birthday_trials) {
        auto last = std::prev(t.fingerprints.end());
        const std::uint64_t excess = t.fingerprint_count - bias_birthday_trials;
        if (last->second.size() <= excess) {
          t.fingerprint_count -= last->second.size();
          t.fingerprints.erase(last);
        } else {
          last->second.resize(last->second.size() - excess);
          t.fingerprint_count -= excess;
        }
      }
    }
  }
}

bias_counts bias_merge::merged() const {
  bias_counts out;
  out.shufl_version = shufl_version_;
  out.counting = counting_;
  out.n = n_;
  out.secondary = secondary_;
  std::map<std::string, std::size_t> index;
  for (const auto& [key, run] : runs_) {
    index[key] = out.runs.size();
    out.runs.push_back(run);
  }
  for (const auto& label : order_) {
    const auto& t = totals_.at(label);
    bias_result r;
    r.label = label;
    r.definition = t.definition;
    r.test = t.test;
    r.n = n_;
    r.trials = t.trials;
    r.counts = t.table;
    r.position_counts = t.positions;
    r.sums = t.sums;
    for (const auto& [key, chunks] : t.chunks) {
      bias_part p;
      p.run = index.at(key);
      p.chunks = chunks;
      for (auto it = t.fingerprints.lower_bound({key, 0}); it != t.fingerprints.end() && it->first.first == key; ++it) {
        p.fingerprints.insert(p.fingerprints.end(), it->second.begin(), it->second.end());
      }
      r.parts.push_back(std::move(p));
    }
    out.results.push_back(std::move(r));
  }
  return out;
}

std::vector<std::string> bias_merge::missing() const {
  std::vector<std::string> out;
  for (const auto& entry : runs_) {
    const auto& key = entry.first;
    const auto& run = entry.second;  // a plain reference: C++17 lambdas cannot capture a structured binding
    if (!run.seed) continue;
    const chunk_set all = chunk_set::all_of(run.trials);
    chunk_set lacking;
    for (const auto& [label, t] : totals_) {
      auto it = t.chunks.find(key);
      lacking.add(it == t.chunks.end() ? all : all.minus(it->second));
    }
    if (lacking.empty()) continue;
    std::string shards;
    const bool one_count = !run.shards.empty() && std::all_of(run.shards.begin(), run.shards.end(), [&](const auto& s) {
      return s.second == run.shards.front().second;
    });
    if (one_count) {
      const std::uint64_t count = run.shards.front().second;
      // The shards holding the lacking chunks, found from the chunks (a run may have far more
      // shards than chunks, most of them empty): at most 21 names, whatever the count.
      std::vector<std::uint64_t> names;
      for (const auto& [b, e] : lacking.ranges) {
        for (std::uint64_t c = b; c < e && names.size() <= 20;) {
          const std::uint64_t i = bias_shard_of_chunk(run.trials, c, count);
          names.push_back(i);
          c = bias_shard_chunks(run.trials, i, count).ranges.back().second;  // past shard i's chunks
        }
        if (names.size() > 20) break;
      }
      std::string list;
      for (std::size_t k = 0; k < names.size() && k < 20; ++k) list += fmt::format("{}{}/{}", k ? ", " : "", names[k], count);
      if (names.size() > 20) list += ", ...";
      shards = fmt::format("shard{} {} ", names.size() == 1 ? "" : "s", list);
    }
    out.push_back(fmt::format("{}missing from {} (chunks {} of {}, {} of {} trials)", shards, run.describe(),
                              lacking.text(), bias_chunk_count(run.trials), lacking.trials_in(run.trials), run.trials));
  }
  return out;
}

bias_report bias_merge::report(bias_options o) const {
  if (names_.empty()) throw error("no counts files to merge");
  const bias_counts all = merged();
  bias_report rep;
  o.n = n_;
  o.secondary = secondary_;
  std::vector<const bias_run*> seeded;
  for (const auto& run : all.runs) {
    if (run.input.empty()) o.engine = run.engine;
    if (run.seed) seeded.push_back(&run);
  }
  o.seed.reset();
  if (all.runs.size() == 1 && seeded.size() == 1) o.seed = seeded[0]->seed;
  const seed_key key = o.seed ? key_from_seed(*o.seed) : key_from_os();
  o.trials = 0;
  rep.missing = missing();
  for (const auto& c : all.results) {
    const auto& t = totals_.at(c.label);
    if (c.trials == 0) {
      // A partial merge (a run stopped before this algorithm, its shards not all there) reports
      // on the algorithms it has and names this one among what is missing.
      if (rep.missing.empty()) throw error(fmt::format("the merged files hold no trials of {}", c.label));
      rep.missing.push_back(fmt::format("{}: no trials in the merged files (not reported)", c.label));
      continue;
    }
    bias_tallies tallies;
    tallies.n = n_;
    tallies.trials = c.trials;
    tallies.table = c.counts;
    tallies.positions = c.position_counts;
    tallies.sums = c.sums;
    for (const auto& p : c.parts) {
      tallies.fingerprints.insert(tallies.fingerprints.end(), p.fingerprints.begin(), p.fingerprints.end());
    }
    tallies.birthday_trials = tallies.fingerprints.size();
    std::vector<std::uint64_t> sorted = tallies.fingerprints;
    tallies.duplicates = detail::count_repeats(sorted);
    bias_result r = test_tallies(tallies, o, c.test, key);
    r.label = c.label;
    r.definition = c.definition;
    r.parts = c.parts;
    if (t.fingerprints_incomplete) {
      r.warnings.push_back(fmt::format(
          "some merged files carry no birthday fingerprints (version 1 files): the duplicates test covers {} trials",
          tallies.birthday_trials));
    }
    o.trials = std::max(o.trials, c.trials);
    rep.results.push_back(std::move(r));
  }
  rep.options = o;
  rep.runs = all.runs;
  rep.merged_files = names_;
  if (rep.results.empty()) throw error("the merged files hold no trials");
  for (const auto& r : rep.results) {
    if (r.correction == "holm") rep.correction = "holm";
  }
  return rep;
}

}  // namespace shufl
