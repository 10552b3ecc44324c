// `shufl lines`' sampler modes beyond GNU shuf: --prob (Bernoulli), --prob --key-fields
// (distinct sampling), --weight-field (weighted sampling or shuffle, --bad-weights) and
// --with-replacement, over a stream, the -e operands or an -i range, with --csv records and
// field values where asked. The samplers themselves are the library's (lines/modes.hpp).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "run_internal.hpp"
#include "shufl/lines/csv.hpp"

namespace shufl::lines::runner {

namespace {

// The record without its delimiter.
std::string_view body(std::string_view record) { return record.substr(0, record.size() - 1); }

// Where kept records go: straight to stdout as they come (streaming), or, with -o, held until
// all input is read, so that -o F F stays safe as in every other mode.
class kept_writer {
 public:
  kept_writer(const options& opts, output_sink& sink) : sink_(sink), hold_(opts.output.has_value()) {}
  void operator()(std::string_view record) {
    if (hold_) {
      held_.append(record);
    } else {
      sink_.open().write(record);
      streamed_ = true;
    }
  }
  void finish() {
    fd_writer& out = sink_.open();
    if (hold_) out.write(held_);
    sink_.finish();
  }
  // Before an error that ends the stream (a line without its key field, a read error): the
  // lines kept so far go out whole, as tsv-sample's do, so standard output always ends with
  // exactly the kept lines before the failing one, whatever their size. With -o nothing is
  // written (the file is not even opened).
  void flush_streamed() {
    if (!hold_ && streamed_) sink_.open().flush();
  }

 private:
  output_sink& sink_;
  bool hold_;
  bool streamed_ = false;
  std::string held_;
};

// Reads weights for --weight-field: a bad one is an error naming the line, or (--bad-weights=skip)
// the line is skipped and counted, with one warning at the end.
class weight_reader {
 public:
  // `csv`: the source of CSV records (--csv), whose fields are read unquoted; else nullptr.
  weight_reader(const options& opts, std::uint64_t first_line, const shufl::lines::record_source* csv)
      : field_(*opts.weight_field), by_(opts.fields_by()), skip_(opts.skip_bad_weights), first_line_(first_line),
        csv_(csv) {}
  // The weight of the record at 0-based position `position`, or −1 to skip it.
  double operator()(std::string_view record, std::uint64_t position) {
    // (A CSV record without quotes splits as plain text, up to a CR before its LF, which the
    // fast form refuses: the careful read handles it.)
    if (csv_ && body(record).find('"') != std::string_view::npos) return general(record, position);
    const double fast = shufl::lines::fast_field_weight(body(record), field_, by_);
    if (fast >= 0) [[likely]] return fast;
    return general(record, position);
  }
  // Any other field: exponents, long digit strings, or a bad weight.
  [[gnu::noinline]] double general(std::string_view record, std::uint64_t position) {
    std::string_view text;
    bool found = false;
    if (csv_) {
      found = shufl::lines::csv_field(shufl::lines::csv_body(record), field_, by_, value_);
      text = value_;
    } else {
      found = shufl::lines::find_field(body(record), field_, by_, text);
    }
    if (found) {
      const double w = shufl::lines::weight_or_negative(text);
      if (w >= 0) return w;
    }
    bad(found, text, position, !csv_ && body(record).find('"') != std::string_view::npos);
    return -1;
  }
  // A bad weight: an error, or counted for the warning.
  // Without --csv, a line with a double quote is likely quoted CSV ("New York, NY"), whose
  // fields are then split at every comma: the message says that quoted CSV needs --csv.
  void bad(bool found, std::string_view text, std::uint64_t position, bool quoted) {
    const std::uint64_t line = csv_ ? csv_->record_line() : first_line_ + position;
    std::string what = found ? "invalid weight " + quote(text) + " (a non-negative decimal number)"
                             : "no field " + std::to_string(field_) + " for the weight";
    if (quoted) {
      what += "; ";
      what += quoted_csv_hint;
      ++quoted_;
    }
    if (!skip_) throw error(fmt::format("line {}: {}", line, what));
    if (skipped_++ == 0) first_ = fmt::format("line {}: {}", line, what);
  }
  // The warning for skipped lines, printed at the end; when some held a double quote, a note
  // that quoted CSV needs --csv (so a file's quoted rows are never dropped silently).
  void warn() const {
    if (skipped_ == 0) return;
    std::fprintf(stderr, "shufl: warning: skipped %llu %s%s with a bad weight (first: %s)\n",
                 static_cast<unsigned long long>(skipped_), csv_ ? "record" : "line", skipped_ == 1 ? "" : "s",
                 first_.c_str());
    if (quoted_ > 0) {
      std::fprintf(stderr,
                   "shufl: note: %llu of the skipped lines hold a double quote: if the input is quoted CSV, "
                   "use --csv\n",
                   static_cast<unsigned long long>(quoted_));
    }
  }

 private:
  std::size_t field_;
  char by_;
  bool skip_;
  std::uint64_t first_line_;
  const shufl::lines::record_source* csv_;
  std::string value_;
  std::uint64_t skipped_ = 0;
  std::uint64_t quoted_ = 0;
  std::string first_;
};

}  // namespace

void run_modes(const options& opts, prepared& pre, output_sink& sink, const seed_key& key) {
  // The source of records, and the input line number of record 0 (after --header lines).
  std::unique_ptr<fd_guard> input;
  std::optional<record_reader> reader;
  std::optional<shufl::lines::csv_scanner> csv;
  std::optional<shufl::lines::record_source> source;
  const char d = opts.delimiter;
  if (opts.input_range) {
    source.emplace(opts.lo, opts.hi - opts.lo + 1, d);
  } else if (opts.echo) {
    source.emplace(std::span<const std::string>(opts.operands), d);
  } else {
    input = open_input(opts, pre);
    reader.emplace(input->get(), d, pre.pending);
    if (opts.csv) {
      csv.emplace(opts.fields_by(), pre.first_line);
      source.emplace(*reader, *csv);
    } else {
      source.emplace(*reader);
    }
  }
  const std::uint64_t first_line = opts.header + 1;  // records exist only after a whole header
  // The input line of the record last read, for messages.
  const auto line_of_last = [&] { return csv ? source->record_line() : first_line + source->position() - 1; };
  std::string_view record;

  if (opts.prob) {
    kept_writer out(opts, sink);
    try {
      if (opts.key_fields.ranges.empty()) {
        shufl::lines::bernoulli_sample(*source, *opts.prob, key, opts.head, out);
      } else {
        shufl::lines::distinct_filter filter(*opts.prob, opts.key_fields, opts.fields_by(), key);
        std::uint64_t kept = 0;
        std::string joined;  // --csv: the key, values unquoted (csv_key)
        while (kept < opts.head && source->next(record)) {
          const auto keep = !csv ? filter.keep(body(record))
                            : shufl::lines::csv_key(shufl::lines::csv_body(record), opts.key_fields, opts.fields_by(), joined)
                                ? std::optional<bool>(filter.keep_key(joined))
                                : std::nullopt;
          if (!keep) {
            const bool quoted = !csv && record.find('"') != std::string_view::npos;
            throw error(fmt::format("line {}: fewer fields than --key-fields needs{}{}", line_of_last(),
                                    quoted ? "; " : "", quoted ? quoted_csv_hint : ""));
          }
          if (*keep) {
            out(record);
            ++kept;
          }
        }
      }
    } catch (const error&) {
      out.flush_streamed();  // the kept lines before the failing one, whole; then the error
      throw;
    }
    input.reset();
    out.finish();
    return;
  }

  std::optional<weight_reader> weights;
  if (opts.weight_field) weights.emplace(opts, first_line, csv ? &*source : nullptr);
  // The weighted shuffle and --with-replacement hold every line: at most --memory (default:
  // half the available memory), else an error before any output.
  const std::uint64_t budget = opts.memory ? *opts.memory : default_memory();
  std::uint64_t held = 0;
  const auto hold = [&](std::string_view r, const char* what) {
    held += r.size() + 48;  // the record and its bookkeeping
    if (held > budget) {
      throw error(fmt::format("{} holds every {} in memory, and the input needs more than {} "
                              "bytes (--memory SIZE raises the limit)", what, opts.csv ? "record" : "line", budget));
    }
  };

  // --with-replacement: the draws stream out one by one, as GNU's -r -n does (memory: the
  // lines, or nothing for -i). --keep-order needs them all before the first: counts per line
  // when there are more draws than lines, else the draws sorted, within --memory.
  const auto write_draws = [&](std::uint64_t n, std::span<const double> w, auto&& write) {
    shufl::lines::replacement_draws draws(n, w, key);
    if (!opts.keep_order) {
      sink.open();
      for (std::uint64_t i = 0; i < opts.head; ++i) write(draws.next());
      return;
    }
    const std::uint64_t held_items = std::min(opts.head, n);
    if (held_items > (budget - std::min(budget, held)) / 8) {
      throw error(fmt::format("--keep-order with --with-replacement holds {} draws or counts in memory, "
                              "more than {} bytes (--memory SIZE raises the limit)", held_items, budget));
    }
    if (opts.head >= n) {
      std::vector<std::uint64_t> counts(static_cast<std::size_t>(n), 0);
      for (std::uint64_t i = 0; i < opts.head; ++i) ++counts[static_cast<std::size_t>(draws.next())];
      sink.open();
      for (std::uint64_t i = 0; i < n; ++i) {
        for (std::uint64_t c = counts[static_cast<std::size_t>(i)]; c > 0; --c) write(i);
      }
    } else {
      std::vector<std::uint64_t> drawn(static_cast<std::size_t>(opts.head));
      for (auto& i : drawn) i = draws.next();
      std::sort(drawn.begin(), drawn.end());
      sink.open();
      for (const auto i : drawn) write(i);
    }
  };
  if (opts.with_replacement && opts.input_range && !weights) {
    // -i LO-HI: the draws are the numbers themselves, whatever the size of the range.
    const std::uint64_t n = opts.hi - opts.lo + 1;
    if (n == 0) {
      sink.open();
      throw error("no lines to draw from");
    }
    write_draws(n, {}, [&](std::uint64_t i) { sink.open().write_number(opts.lo + i, d); });
    sink.finish();
    return;
  }
  if (opts.with_replacement) {
    // Every line (and weight) in memory; then COUNT independent draws.
    // Records are read straight into one buffer that grows without copying: a huge record costs
    // its size once.
    byte_buffer data;
    std::vector<std::size_t> starts;
    std::vector<double> w;
    for (std::size_t start = data.size(); source->append_next(data); start = data.size()) {
      record = data.view().substr(start);
      if (weights) {
        const double weight = (*weights)(record, source->position() - 1);
        if (weight < 0) {
          data.set_size(start);
          continue;
        }
        w.push_back(weight);
      }
      hold(record, "--with-replacement");
      starts.push_back(start);
    }
    input.reset();
    if (weights) weights->warn();
    if (starts.empty()) {
      sink.open();  // as -r: the -o file is created before the error
      throw error(opts.csv ? "no records to draw from" : "no lines to draw from");
    }
    starts.push_back(data.size());
    const std::string_view all_data = data.view();
    write_draws(starts.size() - 1, w, [&](std::uint64_t i) {
      sink.open().write(all_data.substr(starts[i], starts[i + 1] - starts[i]));
    });
    sink.finish();
    return;
  }

  // --weight-field: weighted sample of -n COUNT lines (A-ExpJ), or a weighted shuffle.
  shufl::lines::weighted_sampler sampler(opts.head, key);
  const bool all = opts.head == UINT64_MAX;
  std::uint64_t position = 0;
  // `fast`: the weight when its field is a plain decimal (fast_field_weight), else −1.
  const auto offer = [&](std::string_view r, double fast, byte_buffer* owner) {
    const double weight = fast >= 0 ? fast : weights->general(r, position);
    if (all && weight >= 0) hold(r, "a weighted shuffle (--weight-field without -n)");
    if (weight >= 0 && !sampler.pass(weight)) sampler.offer(r, weight, position, owner);
    ++position;
  };
  if (reader && !csv) {
    // The tight loop: records found 64 bytes at a time, weights read by words.
    const std::size_t field = *opts.weight_field;
    const char by = opts.fields_by();
    reader->for_each_window([&](std::string_view window) {
      while (!window.empty()) {
        if (!all) {  // the records A-ExpJ passes over, in bulk
          std::uint64_t passed = 0;
          window.remove_prefix(sampler.pass_records(window, d, field, by, passed));
          position += passed;
          if (window.empty()) break;
        }
        const std::string_view r = window.substr(0, window.find(d) + 1);
        offer(r, shufl::lines::fast_field_weight(body(r), field, by), nullptr);
        window.remove_prefix(r.size());
      }
    });
  } else {
    while (source->next(record)) offer(record, -1, source->owner(record));
  }
  input.reset();
  weights->warn();
  const auto kept = opts.keep_order ? sampler.take_in_input_order() : sampler.take_in_key_order();
  write_strings(sink, kept);
  sink.finish();
}

}  // namespace shufl::lines::runner
