// Audits decks held in memory as an array of card numbers (audit/card_array.hpp): each worker
// converts its rows a block at a time into face ids, checking each row as the deck reader checks
// a line of numbers, and adds the block to its own battery; the batteries are merged in row order.
#include "shufl/audit/card_array.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "shufl/audit/pairs.hpp"
#include "shufl/error.hpp"

namespace shufl::audit {

namespace {

// The first bad row a worker found, and why.
struct row_error {
  std::size_t row = std::numeric_limits<std::size_t>::max();
  std::string message;
};

class row_converter {
 public:
  row_converter(const card_array& a, const audit_pack& pack, std::size_t positions)
      : a_(a), pack_(pack), positions_(positions), seen_(pack.size(), 0) {}

  // Converts rows [first, first + count) into face ids at out (count · K). false (and `err` set)
  // at the first bad row.
  bool convert(std::size_t first, std::size_t count, std::uint32_t* out, row_error& err) {
    switch (a_.type) {
      case card_int::i8: return run<std::int8_t>(first, count, out, err);
      case card_int::u8: return run<std::uint8_t>(first, count, out, err);
      case card_int::i16: return run<std::int16_t>(first, count, out, err);
      case card_int::u16: return run<std::uint16_t>(first, count, out, err);
      case card_int::i32: return run<std::int32_t>(first, count, out, err);
      case card_int::u32: return run<std::uint32_t>(first, count, out, err);
      case card_int::i64: return run<std::int64_t>(first, count, out, err);
      case card_int::u64: return run<std::uint64_t>(first, count, out, err);
    }
    return false;
  }

 private:
  template <class T>
  bool run(std::size_t first, std::size_t count, std::uint32_t* out, row_error& err) {
    const auto* base = static_cast<const char*>(a_.data);
    const std::size_t K = positions_, N = pack_.size();
    const std::uint64_t offset = a_.zero_based ? 0 : 1;
    const std::uint32_t* face_of = pack_.face_of.data();
    for (std::size_t r = first; r < first + count; ++r) {
      // A new stamp per row: seen_[i] == stamp means card i was in this row already.
      if (++stamp_ == 0) {
        std::fill(seen_.begin(), seen_.end(), 0);
        stamp_ = 1;
      }
      const char* row = base + static_cast<std::ptrdiff_t>(r) * a_.row_stride;
      for (std::size_t c = 0; c < K; ++c) {
        T v;
        std::memcpy(&v, row + static_cast<std::ptrdiff_t>(c) * a_.column_stride, sizeof(T));
        std::uint64_t index;
        bool in_range;
        if constexpr (std::is_signed_v<T>) {
          in_range = v >= static_cast<std::int64_t>(offset) && static_cast<std::uint64_t>(v) - offset < N;
          index = static_cast<std::uint64_t>(v) - offset;
        } else {
          in_range = v >= offset && static_cast<std::uint64_t>(v) - offset < N;
          index = static_cast<std::uint64_t>(v) - offset;
        }
        if (!in_range) {
          err = {r, fmt::format("{}: row {}, column {}: unknown card {} (numbers run from {} to {})", a_.name, r, c,
                                +v, offset, N - 1 + offset)};
          return false;
        }
        if (seen_[index] == stamp_) {
          err = {r, fmt::format("{}: row {}, column {}: card {} appears more often than the pack has it", a_.name,
                                r, c, +v)};
          return false;
        }
        seen_[index] = stamp_;
        *out++ = face_of[index];
      }
    }
    return true;
  }

  const card_array& a_;
  const audit_pack& pack_;
  std::size_t positions_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t stamp_ = 0;
};

}  // namespace

void card_array_faces(const card_array& a, const audit_pack& pack, std::size_t positions, std::size_t first,
                      std::size_t count, std::uint32_t* out) {
  if (a.columns != positions) {
    throw error(fmt::format("{}: {} card{} per row, the {} has {}", a.name, a.columns, a.columns == 1 ? "" : "s",
                            positions < pack.size() ? "deal" : "pack", positions));
  }
  if (first > a.rows || count > a.rows - first) throw error(fmt::format("{}: rows out of range", a.name));
  row_converter convert(a, pack, positions);
  row_error err;
  if (!convert.convert(first, count, out, err)) throw error(err.message);
}

audit_report audit_array(const card_array& a, const audit_pack& pack, std::optional<std::size_t> dealt,
                         const audit_options& options, const std::function<bool()>& stop) {
  if (!(options.alpha > 0 && options.alpha < 1)) {
    throw error(fmt::format("--alpha must be in (0, 1), not {}", options.alpha));
  }
  if (options.threads < 1) throw error("--threads must be at least 1");
  if (options.lags < 1 || options.lags > 64) throw error(fmt::format("--lags must be 1 to 64, not {}", options.lags));
  if (dealt && *dealt == 0) throw error("--dealt must be at least 1");
  if (dealt && *dealt > pack.size()) {
    throw error(fmt::format("--dealt {} is more than the pack's {} cards", *dealt, pack.size()));
  }
  const std::size_t K = dealt ? *dealt : pack.size();
  if (a.columns != K) {
    throw error(fmt::format("{}: {} card{} per row, the {} has {}", a.name, a.columns, a.columns == 1 ? "" : "s",
                            dealt ? "deal" : "pack", K));
  }
  if (a.rows == 0) throw error(fmt::format("{}: no decks", a.name));
  battery_shape shape = make_shape(pack, dealt);
  set_game(shape, pack, options.game);
  shape.lags = options.lags;
  if (options.on_pack) options.on_pack();

  if (stop && stop()) throw error(fmt::format("{}: stopped", a.name));  // asked before it began
  // Contiguous ranges of whole blocks, one per worker.
  const std::size_t blocks = (a.rows + audit_block_decks - 1) / audit_block_decks;
  const std::size_t workers = std::min<std::size_t>(pair_table_threads(shape, options.threads), blocks);
  std::vector<battery> batteries(workers, battery(shape));
  std::vector<row_error> errors(workers);
  std::vector<std::exception_ptr> failures(workers);
  std::atomic<std::size_t> first_bad{std::numeric_limits<std::size_t>::max()};
  std::atomic<bool> stopped{false};
  std::mutex mutex;
  std::condition_variable finished;
  std::size_t running = workers;

  const auto work = [&](std::size_t w) {
    try {
      const std::size_t begin = std::min(a.rows, blocks * w / workers * audit_block_decks);
      const std::size_t end = std::min(a.rows, blocks * (w + 1) / workers * audit_block_decks);
      row_converter convert(a, pack, K);
      std::vector<std::uint32_t> decks(audit_block_decks * K), previous(K);
      // The serial tests' pair across the range's start: the row before it, when it is valid
      // (when not, the worker before this one reports it).
      bool has_previous = begin > 0 && convert.convert(begin - 1, 1, previous.data(), errors[w]);
      errors[w] = {};
      for (std::size_t row = begin; row < end; row += audit_block_decks) {
        if (stopped.load(std::memory_order_relaxed) || row > first_bad.load(std::memory_order_relaxed)) break;
        const std::size_t count = std::min(audit_block_decks, end - row);
        if (!convert.convert(row, count, decks.data(), errors[w])) {
          std::size_t seen = first_bad.load();
          while (errors[w].row < seen && !first_bad.compare_exchange_weak(seen, errors[w].row)) {
          }
          break;
        }
        batteries[w].add_block(decks.data(), count, has_previous ? previous.data() : nullptr, row);
        std::copy_n(decks.data() + (count - 1) * K, K, previous.data());
        has_previous = true;
      }
    } catch (...) {
      failures[w] = std::current_exception();
      stopped = true;
    }
    {
      std::lock_guard lock(mutex);
      --running;
    }
    finished.notify_all();
  };
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (std::size_t w = 0; w < workers; ++w) threads.emplace_back(work, w);
  {
    std::unique_lock lock(mutex);
    while (running > 0) {
      finished.wait_for(lock, std::chrono::milliseconds(50));
      if (stop && running > 0 && !stopped) {
        lock.unlock();
        if (stop()) stopped = true;
        lock.lock();
      }
    }
  }
  for (auto& t : threads) t.join();
  for (const auto& f : failures) {
    if (f) std::rethrow_exception(f);
  }
  const row_error* bad = nullptr;
  for (const auto& e : errors) {
    if (e.row != std::numeric_limits<std::size_t>::max() && (bad == nullptr || e.row < bad->row)) bad = &e;
  }
  if (bad != nullptr) throw error(bad->message);
  if (stopped) throw error(fmt::format("{}: stopped", a.name));

  battery total(shape);
  for (const auto& b : batteries) total.merge(b);
  return battery_report(total, pack, options.alpha, options.threads);
}

}  // namespace shufl::audit
