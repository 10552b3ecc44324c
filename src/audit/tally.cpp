// Runs of the audit battery in parts (audit/tally.hpp): a text read by several threads, each a
// range of whole lines, and chunk ranges of an --algo run. The parts are appended in input
// order, so every sum, serial pair, fingerprint and first error is that of one sequential read.
#include "shufl/audit/tally.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <thread>

#include "fill_block.hpp"
#include "shufl/audit/plan.hpp"
#include "shufl/bias.hpp"
#include "shufl/detail/bias_loops.hpp"
#include "shufl/audit/pairs.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::audit {

audit_report report_of(const audit_tally& t, double alpha, unsigned threads) {
  audit_report r = battery_report(t.sums, t.pack, alpha, threads);
  r.skipped = t.skipped;
  r.skip_reasons = t.skip_reasons;
  return r;
}

namespace {

constexpr std::size_t kFetchAhead = 1024;

// Reads every deck of `reader` into `t` a block at a time (decks numbered from `index` on, the
// first without a deck before it); `memory`: the range `in` reads when it is in memory (lines
// ahead are prefetched), else null. Makes room for the fingerprints of `expect_bytes` of lines
// of `line_bytes`.
void read_part(deck_reader& reader, audit_tally& t, const text_reader& in, const char* memory, std::size_t expect_bytes,
               std::size_t line_bytes, std::uint64_t index) {
  const std::size_t K = t.sums.shape().positions;
  // Blocks small enough to stay in the core's cache between the copy and the battery.
  const std::size_t block = std::max<std::size_t>(1, (std::size_t{128} << 10) / (K * sizeof(std::uint32_t)));
  std::vector<std::uint32_t> faces, decks(block * K);
  bool more = reader.next(faces);
  // Room for the fingerprints of the decks at the first line's length (one allocation, not a
  // doubling series: fresh pages cost a fault each).
  if (more && line_bytes > 0) t.sums.duplicates.reserve_more(expect_bytes / line_bytes + expect_bytes / line_bytes / 64 + 16);
  while (more) {
    const std::size_t count = fill_block(reader, faces, decks.data(), K, block, more, [&] {
      // A line about 1 KiB on into the cache while this one is parsed and tallied.
      if (memory != nullptr && in.offset() + kFetchAhead < expect_bytes) __builtin_prefetch(memory + in.offset() + kFetchAhead);
    });
    if (t.first.empty()) t.first.assign(decks.begin(), decks.begin() + static_cast<std::ptrdiff_t>(K));
    t.sums.add_block(decks.data(), count, t.last.empty() ? nullptr : t.last.data(), index);
    t.last.assign(decks.begin() + static_cast<std::ptrdiff_t>((count - 1) * K),
                  decks.begin() + static_cast<std::ptrdiff_t>(count * K));
    index += count;
  }
  t.skipped = reader.skipped();
  t.skip_reasons = reader.skip_reasons();
}

// Below this many bytes after the first deck one thread reads the rest.
constexpr std::size_t kMinBytesPerThread = std::size_t{1} << 20;
constexpr std::size_t kRangesPerThread = 8;

}  // namespace

std::uint64_t line_start_at(const read_at_function& read_at, std::uint64_t size, std::uint64_t at) {
  if (at == 0 || at >= size) return std::min(at, size);
  char buffer[4096];
  for (std::uint64_t from = at - 1; from < size;) {  // a line starts at `at` when byte at - 1 is a newline
    const std::size_t got = read_at(from, buffer, static_cast<std::size_t>(std::min<std::uint64_t>(sizeof buffer, size - from)));
    if (got == 0) break;
    if (const void* nl = std::memchr(buffer, '\n', got); nl != nullptr) {
      return from + static_cast<std::uint64_t>(static_cast<const char*>(nl) - buffer) + 1;
    }
    from += got;
  }
  return size;
}

namespace {

// The text a tally reads: in memory, or through read_at (then `memory` is empty).
struct text_source {
  std::string_view memory;
  const read_at_function* read_at = nullptr;
  std::size_t size = 0;

  // A reader of bytes [begin, end).
  [[nodiscard]] text_reader reader(std::size_t begin, std::size_t end, const std::string& name) const {
    if (read_at == nullptr) return text_reader(memory.substr(begin, end - begin), name);
    return text_reader(text_reader::byte_source([r = read_at, at = begin, left = end - begin](char* buffer, std::size_t want) mutable {
                         const std::size_t got = left > 0 ? (*r)(at, buffer, std::min(want, left)) : 0;
                         at += got;
                         left -= got;
                         return got;
                       }),
                       name);
  }
  [[nodiscard]] std::size_t line_start(std::size_t at) const {
    if (read_at != nullptr) return static_cast<std::size_t>(line_start_at(*read_at, size, at));
    if (at == 0 || at >= size) return std::min(at, size);
    const std::size_t nl = memory.find('\n', at - 1);
    return nl == std::string_view::npos ? size : nl + 1;
  }
  // The offset after the first `lines` lines (size when the text has fewer newlines).
  [[nodiscard]] std::size_t after_lines(std::uint64_t lines) const {
    std::vector<char> buffer(std::size_t{64} << 10);
    for (std::size_t at = 0; at < size && lines > 0;) {
      const std::size_t got = (*read_at)(at, buffer.data(), std::min(buffer.size(), size - at));
      if (got == 0) break;
      for (std::size_t i = 0; i < got; ++i) {
        if (buffer[i] == '\n' && --lines == 0) return at + i + 1;
      }
      at += got;
    }
    return size;
  }
  [[nodiscard]] std::uint64_t newlines(std::size_t begin, std::size_t end) const {
    if (read_at == nullptr) {
      const std::string_view part = memory.substr(begin, end - begin);
      return static_cast<std::uint64_t>(std::count(part.begin(), part.end(), '\n'));
    }
    std::uint64_t count = 0;
    std::vector<char> buffer(std::size_t{64} << 10);
    for (std::size_t at = begin; at < end;) {
      const std::size_t got = (*read_at)(at, buffer.data(), std::min(buffer.size(), end - at));
      if (got == 0) break;
      count += static_cast<std::uint64_t>(std::count(buffer.data(), buffer.data() + got, '\n'));
      at += got;
    }
    return count;
  }
};

audit_tally tally_source(const text_source& text, const std::string& name, std::uint64_t lines_before,
                         const reader_options& ro, const audit_options& options, bool allow_empty,
                         const std::function<void(const std::string&)>& on_inferred) {
  text_reader main = text.reader(0, text.size, name);
  if (lines_before > 0) main.continue_after_lines(lines_before);
  deck_reader reader(main, ro);
  std::vector<std::uint32_t> faces;
  if (!reader.next(faces)) {
    const bool declared = ro.pack || !ro.custom_labels.empty() || ro.decks != 1 || ro.jokers != 0;
    if (!allow_empty || !declared) {
      throw error(allow_empty ? fmt::format("{}: no decks in this part: declare the pack (--pack, --decks, --jokers or "
                                            "--cards-file) to save an empty part",
                                            name)
                              : std::string("no decks in the input"));
    }
    audit_pack pack = make_audit_pack(ro);
    battery_shape shape = make_shape(pack, ro.dealt);
    set_game(shape, pack, options.game);
    shape.lags = options.lags;
  shape.batch_size = options.batch_size;
    audit_tally t(std::move(pack), shape);
    t.skipped = reader.skipped();
    t.skip_reasons = reader.skip_reasons();
    return t;
  }
  battery_shape shape = make_shape(reader.pack(), faces.size());
  set_game(shape, reader.pack(), options.game);
  shape.lags = options.lags;
  shape.batch_size = options.batch_size;
  if (on_inferred && !reader.inference_note().empty()) on_inferred(reader.inference_note());
  audit_tally total(reader.pack(), shape);
  total.sums.add_block(faces.data(), 1, nullptr, 0);
  total.first = faces;
  total.last = faces;
  total.skipped = reader.skipped();
  total.skip_reasons = reader.skip_reasons();

  // The rest, in one range of whole lines per thread.
  const std::uint64_t lines_at_begin = main.line_number();
  const std::size_t begin = text.read_at == nullptr ? main.offset() : text.after_lines(lines_at_begin - lines_before);
  const std::size_t rest = text.size - begin;
  // More ranges than threads, each thread taking the next range when done with one, so a thread
  // slowed by the others (the SHA-256 reader, the machine's load) leaves no one waiting long.
  const std::size_t threads =
      std::max<std::size_t>(1, std::min<std::size_t>(pair_table_threads(shape, options.threads), rest / kMinBytesPerThread));
  const std::size_t parts =
      threads == 1 ? 1 : std::max(threads, std::min<std::size_t>(threads * kRangesPerThread, rest / kMinBytesPerThread));
  std::vector<std::size_t> cut(parts + 1);
  cut[0] = begin;
  cut[parts] = text.size;
  for (std::size_t p = 1; p < parts; ++p) cut[p] = std::max(cut[p - 1], text.line_start(begin + rest / parts * p));
  const auto for_each_part = [&](auto&& body) {
    std::atomic<std::size_t> next{0};
    const auto take = [&](std::size_t t) {
      for (std::size_t p; (p = next.fetch_add(1)) < parts;) body(p, t);
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(take, t);
    take(0);
    for (auto& th : pool) th.join();
  };
  // Each range is read with line numbers counted from its own start; only a range whose
  // messages are shown (an error, skip reasons) is read again with its true line numbers,
  // counted then, so a clean input is never scanned twice.
  //
  // A thread folds each range it has read into its own sums (they add up in any order) and
  // keeps of the range only what depends on input order: its first and last decks, its skips
  // and the place of its fingerprints in the thread's own store (ranges a thread takes come in
  // input order). The range's tally is then freed, and the next range's reuses its memory:
  // fresh pages cost a fault each.
  struct range_record {
    std::vector<std::uint32_t> first, last;
    std::uint64_t skipped = 0;
    std::vector<std::string> skip_reasons;
    std::size_t thread = 0, fingerprints_begin = 0, fingerprints_end = 0;
  };
  std::vector<range_record> records(parts);
  std::vector<std::optional<battery>> thread_sums(threads);
  std::vector<duplicate_finder> thread_fingerprints(threads);
  if (begin > 0) {  // room for each thread's share of the fingerprints, at the first deck's length
    for (auto& f : thread_fingerprints) f.reserve_more(rest / begin / threads + rest / begin / threads / 4 + 1024);
  }
  std::vector<std::exception_ptr> errors(parts);
  const auto read_range = [&](std::size_t p, std::size_t t, std::uint64_t lines, bool fold) {
    errors[p] = nullptr;
    try {
      text_reader in = text.reader(cut[p], cut[p + 1], name);
      in.continue_after_lines(lines);
      deck_reader part = reader.continue_on(in);
      audit_tally tally(reader.pack(), shape);
      read_part(part, tally, in, text.read_at == nullptr ? text.memory.data() + cut[p] : nullptr, cut[p + 1] - cut[p], begin,
                p == 0 ? 1 : 0);
      range_record& r = records[p];
      r.skipped = tally.skipped;
      r.skip_reasons = std::move(tally.skip_reasons);
      if (!fold) return;  // read again for its messages: the sums are in already
      r.first = std::move(tally.first);
      r.last = std::move(tally.last);
      r.thread = t;
      r.fingerprints_begin = static_cast<std::size_t>(thread_fingerprints[t].decks());
      thread_fingerprints[t].merge(tally.sums.duplicates);  // a copy: the range's buffer is reused
      r.fingerprints_end = static_cast<std::size_t>(thread_fingerprints[t].decks());
      tally.sums.duplicates = duplicate_finder{};
      if (thread_sums[t]) {
        thread_sums[t]->merge(tally.sums);
      } else {
        thread_sums[t].emplace(std::move(tally.sums));
      }
    } catch (...) {
      errors[p] = std::current_exception();
    }
  };
  // (Any nonzero count in the first pass: a range's first line is never line 1, so has no BOM.)
  for_each_part([&](std::size_t p, std::size_t t) { read_range(p, t, p == 0 ? lines_at_begin : 1, true); });
  if (errors[0]) std::rethrow_exception(errors[0]);
  std::size_t shown = parts;  // the first range whose messages are shown
  for (std::size_t p = parts; p-- > 1;) {
    if (errors[p] || !records[p].skip_reasons.empty()) shown = p;
  }
  std::uint64_t lines = lines_at_begin;
  for (std::size_t p = 1; p < parts && shown < parts; ++p) {
    lines += text.newlines(cut[p - 1], cut[p]);
    if (errors[p] || !records[p].skip_reasons.empty()) read_range(p, 0, lines, false);
    if (errors[p]) break;
  }
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  // In input order: the fingerprints, the serial pairs where ranges meet, the skips.
  std::size_t fingerprints = 0;
  for (const auto& f : thread_fingerprints) fingerprints += static_cast<std::size_t>(f.decks());
  total.sums.duplicates.reserve_more(fingerprints);
  for (auto& r : records) {
    total.sums.duplicates.append(thread_fingerprints[r.thread].kept(r.fingerprints_begin, r.fingerprints_end));
    if (!total.last.empty() && !r.first.empty()) total.sums.add_serial_pair(total.last.data(), r.first.data());
    total.skipped += r.skipped;
    for (auto& reason : r.skip_reasons) {
      if (total.skip_reasons.size() < max_skip_reasons) total.skip_reasons.push_back(std::move(reason));
    }
    if (total.first.empty()) total.first = std::move(r.first);
    if (!r.last.empty()) total.last = std::move(r.last);
  }
  for (auto& s : thread_sums) {
    if (s) total.sums.merge(*s);  // their fingerprints are in thread_fingerprints, not here
  }
  return total;
}

}  // namespace

audit_tally tally_text(std::string_view text, const std::string& name, std::uint64_t lines_before,
                       const reader_options& reader, const audit_options& options, bool allow_empty,
                       const std::function<void(const std::string&)>& on_inferred) {
  return tally_source({text, nullptr, text.size()}, name, lines_before, reader, options, allow_empty, on_inferred);
}

audit_tally tally_text_at(std::uint64_t size, const read_at_function& read_at, const std::string& name,
                          std::uint64_t lines_before, const reader_options& reader, const audit_options& options,
                          bool allow_empty, const std::function<void(const std::string&)>& on_inferred) {
  if (size > std::numeric_limits<std::size_t>::max()) throw error(fmt::format("{} is too large to read", name));
  return tally_source({{}, &read_at, static_cast<std::size_t>(size)}, name, lines_before, reader, options, allow_empty,
                      on_inferred);
}

audit_tally tally_algorithm(const algorithm_spec& algorithm, const audit_pack& pack, std::uint64_t trials,
                            engine_kind engine, const seed_key& key, const audit_options& options,
                            std::uint64_t chunk_begin, std::uint64_t chunk_end) {
  const std::size_t n = pack.size();
  if (n < 2 || n > bias_max_n) {
    throw error(fmt::format("--algo shuffles decks of 2 to {} cards; this pack has {}", bias_max_n, n));
  }
  if (trials == 0) throw error("--trials must be at least 1");
  if (algorithm.info == nullptr) throw error("audit: no algorithm");
  const detail::bias_loops& loops = detail::bias_loops_for(*algorithm.info);
  battery_shape shape = make_shape(pack);
  set_game(shape, pack, options.game);
  shape.lags = options.lags;
  shape.batch_size = options.batch_size;
  const seed_key algorithm_key = derive_key(key, "bias/" + algorithm.label(), 0);
  chunk_end = std::min(chunk_end, bias_chunk_count(trials));
  chunk_begin = std::min(chunk_begin, chunk_end);
  const std::uint64_t chunks = chunk_end - chunk_begin;
  audit_tally total(pack, shape);
  if (chunks == 0) return total;
  // The first and last deck of every chunk, for the serial pairs at chunk boundaries.
  std::vector<std::uint32_t> firsts(chunks * n), lasts(chunks * n);
  constexpr std::size_t kSub = 1024;  // decks per add_block
  const unsigned workers =
      static_cast<unsigned>(std::min<std::uint64_t>(pair_table_threads(shape, std::max(1u, options.threads)), chunks));
  std::vector<battery> batteries(workers, battery(shape));
  std::atomic<std::uint64_t> next{0};
  std::vector<std::exception_ptr> errors(workers);
  const auto work_on = [&](unsigned w) {
    std::vector<std::uint8_t> raw(bias_chunk_trials * n);
    std::vector<std::uint32_t> faces(kSub * n);
    for (std::uint64_t k; (k = next.fetch_add(1)) < chunks;) {
      const std::uint64_t c = chunk_begin + k;
      const std::uint64_t size = std::min(bias_chunk_trials, trials - c * bias_chunk_trials);
      loops.generate_decks(engine, algorithm_key, c, algorithm.parameter, n, size, raw.data());
      for (std::uint64_t begin = 0; begin < size; begin += kSub) {
        const std::size_t count = static_cast<std::size_t>(std::min<std::uint64_t>(kSub, size - begin));
        for (std::size_t i = 0; i < count * n; ++i) faces[i] = pack.face_of[raw[begin * n + i]];
        // The deck before this sub-block, re-read from the raw chunk.
        std::uint32_t previous[256];
        if (begin > 0) {
          for (std::size_t i = 0; i < n; ++i) previous[i] = pack.face_of[raw[(begin - 1) * n + i]];
        }
        batteries[w].add_block(faces.data(), count, begin > 0 ? previous : nullptr, c * bias_chunk_trials + begin);
        const auto at = [&](std::size_t deck) { return faces.begin() + static_cast<std::ptrdiff_t>(deck * n); };
        if (begin == 0) std::copy(at(0), at(1), firsts.begin() + static_cast<std::ptrdiff_t>(k * n));
        if (begin + count == size) std::copy(at(count - 1), at(count), lasts.begin() + static_cast<std::ptrdiff_t>(k * n));
      }
    }
  };
  const auto work = [&](unsigned w) noexcept {
    try {
      work_on(w);
    } catch (...) {
      errors[w] = std::current_exception();
      next = chunks;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work, w);
  work(0);
  for (auto& t : threads) t.join();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  for (const auto& b : batteries) total.sums.merge(b);
  for (std::uint64_t k = 1; k < chunks; ++k) total.sums.add_serial_pair(lasts.data() + (k - 1) * n, firsts.data() + k * n);
  total.first.assign(firsts.begin(), firsts.begin() + static_cast<std::ptrdiff_t>(n));
  total.last.assign(lasts.end() - static_cast<std::ptrdiff_t>(n), lasts.end());
  return total;
}

}  // namespace shufl::audit
