// `shufl lines` as a library (shufl/lines/run.hpp): reads the --header lines (looking up field names in them), picks the mode
// (GNU random source, the sampler modes, or seeded/unseeded ChaCha20), and for ChaCha20 computes
// the order — a reservoir sample for -n, the scatter shuffle in memory, or for a full shuffle
// larger than --memory through temporary files — and only then opens -o and writes. See
// DESIGN.md and gnu-shuf-compat.md for the behaviour this reproduces.
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "run_internal.hpp"
#include "shufl/lines/csv.hpp"

namespace shufl::lines::runner {

namespace {

// Seeded full shuffle by the scatter rule (scatter.hpp) of the records of a buffer, of -e
// operands or of a range.
template <class Item>
void scatter_and_write(output_sink& sink, const options& opts, const in_memory_input& in,
                       const seed_key& key) {
  std::vector<Item> items(static_cast<std::size_t>(in.n));
  const seed_key root = shufl::lines::scatter_root_key(key);
  if (opts.echo || opts.input_range || in.csv) {
    Item next = 0;
    shufl::lines::scatter_shuffle_generated(std::span<Item>(items), root, [&next]() noexcept { return next++; });
  } else {
    offset_generator<Item> next{in.data.data(), in.data.data() + in.data.size(), opts.delimiter};
    shufl::lines::scatter_shuffle_generated(std::span<Item>(items), root, next);
  }
  fd_writer& out = sink.open();
  write_items(out, opts, in, std::span<const Item>(items));
}

void run_chacha(const options& opts, prepared& pre, const progress_factory& progress) {
  output_sink sink(opts, pre.header);
  if (opts.head == 0) {
    sink.finish();
    return;
  }
  const seed_key key = opts.seed ? key_from_seed(*opts.seed) : key_from_os();
  in_memory_input in;
  in.operands = &opts.operands;
  if (opts.prob || opts.weight_field || opts.with_replacement) {
    run_modes(opts, pre, sink, key);
    return;
  }
  // --keep-order with an unlimited -n: a "sample" of every line, in input order.
  const bool sample = !opts.repeat && (opts.head != UINT64_MAX || opts.keep_order);

  if (sample && !opts.input_range) {
    // -n K: reservoir sampling whatever the input is, so a file and a pipe give the same output.
    shufl::lines::reservoir_sampler sampler(opts.head, key);
    if (opts.echo) {
      std::string record;
      sampler.sample_indexed(opts.operands.size(), [&](std::uint64_t i) -> std::string_view {
        (record = opts.operands[static_cast<std::size_t>(i)]) += opts.delimiter;
        return record;
      });
    } else if (opts.csv) {
      auto input = open_input(opts, pre);
      record_reader reader(input->get(), '\n', pre.pending);
      shufl::lines::csv_scanner csv(opts.fields_by(), pre.first_line);
      shufl::lines::record_source source(reader, csv);
      std::string_view record;
      while (source.next(record)) sampler.offer(record, source.owner(record));
    } else {
      auto input = open_input(opts, pre);
      record_reader reader(input->get(), opts.delimiter, pre.pending);
      sampler.sample(reader);
    }
    const auto kept = opts.keep_order ? sampler.take_in_input_order() : sampler.take_shuffled();
    write_strings(sink, kept);
    sink.finish();
    return;
  }

  if (opts.input_range) {
    in.n = opts.hi - opts.lo + 1;
    check_range_fits(opts, in.n);
  } else if (opts.echo) {
    in.n = opts.operands.size();
  } else if (opts.repeat) {
    auto input = open_input(opts, pre);
    if (opts.csv) {
      load_csv(in, opts, input->get(), pre.pending, pre.first_line);
    } else {
      in.data = shufl::lines::input_data::load(input->get(), opts.delimiter, pre.pending);
      in.n = shufl::lines::count_records(in.data.view(), opts.delimiter);
    }
  } else if (opts.csv) {
    // The full shuffle of CSV records: in memory only (the temporary files of the external
    // shuffle hold newline-ended lines), within --memory.
    auto input = open_input(opts, pre);
    std::uint64_t budget = external_settings_for(opts).memory_budget;
    budget -= std::min(budget, pre.header_bytes);
    // The budget is what --memory leaves for the records once shufl's own share and the header
    // are taken; the need is the input's bytes (known in advance for a file) or, once read, the
    // records with their offsets.
    const auto too_large = [&](std::uint64_t need, bool at_least) {
      return error(fmt::format("--csv shuffles in memory: this input needs {}{} bytes, and --memory leaves {} "
                               "bytes for it (--memory SIZE raises the limit)",
                               at_least ? "more than " : "", need, budget));
    };
    if (const auto size = shufl::lines::remaining_input_size(input->get()); size != UINT64_MAX && size > budget) {
      throw too_large(size, true);
    }
    load_csv(in, opts, input->get(), pre.pending, pre.first_line);
    if (const auto need = shufl::lines::in_memory_cost(in.data.size(), in.n) + in.starts.size() * 8; need > budget) {
      throw too_large(need, false);
    }
  } else {
    // The full shuffle of FILE or stdin: in memory when it fits --memory, else external; the
    // same bytes either way (THE RULE of scatter.hpp).
    auto input = open_input(opts, pre);
    const int fd = input->get();
    shufl::lines::external_settings settings = external_settings_for(opts);
    settings.memory_budget -= std::min(settings.memory_budget, pre.header_bytes);
    if (shufl::lines::remaining_input_size(fd) <= settings.memory_budget) {
      const off_t start = ::lseek(fd, 0, SEEK_CUR);
      in.data = shufl::lines::input_data::load(fd, opts.delimiter);  // a file: nothing pending
      in.n = shufl::lines::count_records(in.data.view(), opts.delimiter);
      if (shufl::lines::in_memory_cost(in.data.size(), in.n) > settings.memory_budget) {
        in.data = shufl::lines::input_data();  // short records: their offsets do not fit
        if (::lseek(fd, start, SEEK_SET) < 0) throw error(std::string("read error: ") + std::strerror(errno));
        in.n = UINT64_MAX;
      }
    } else {
      in.n = UINT64_MAX;
    }
    if (in.n == UINT64_MAX) {
      const std::unique_ptr<progress_view> display = progress ? progress() : nullptr;
      auto with_display = settings;
      if (display) with_display.progress = std::ref(*display);
      std::optional<shufl::lines::external_shuffle> ext;
      {
        record_reader reader(fd, opts.delimiter, pre.pending);
        ext.emplace(reader, opts.delimiter, shufl::lines::scatter_root_key(key), std::move(with_display));
      }
      input.reset();  // all input read before -o is opened (-o F F)
      ext->write(sink.open());
      ext.reset();
      if (display) display->clear();
      sink.finish();
      return;
    }
  }

  if (opts.repeat) {
    if (in.n == 0) {
      sink.open();  // GNU creates the -o file before it reports the empty input
      throw error(opts.csv ? "no records to repeat" : "no lines to repeat");  // GNU's words without --csv
    }
    chacha20_engine engine(derive_key(key, "lines/repeat", 0), 0);
    write_repeated(sink, opts, in, [&engine](std::uint64_t s) { return uniform_below(engine, s); });
  } else if (sample) {
    // -i LO-HI -n K: partial Fisher–Yates, sparse for huge ranges.
    chacha20_engine engine(derive_key(key, "lines/range-sample", 0), 0);
    auto values = shufl::lines::range_permutation(
        in.n, opts.head, [&engine](std::uint64_t s) { return uniform_below(engine, s); });
    if (opts.keep_order) std::sort(values.begin(), values.end());
    write_items(sink.open(), opts, in, std::span<const std::uint64_t>(values));
  } else {
    const std::uint64_t size = opts.input_range || opts.echo ? in.n : in.data.size();
    if (in.n > (std::uint64_t{1} << 40)) throw error("memory exhausted");
    if (size < (std::uint64_t{1} << 32) && in.n < (std::uint64_t{1} << 32)) {
      scatter_and_write<std::uint32_t>(sink, opts, in, key);
    } else {
      scatter_and_write<std::uint64_t>(sink, opts, in, key);
    }
  }
  sink.finish();
}

// --csv without --header: a UTF-8 byte order mark at the start of the input (Excel's "CSV
// UTF-8") is taken from it and written at the start of the output, so it neither travels with
// the record it preceded (into the middle of the output, where no reader takes it for a mark)
// nor becomes part of that record's first field (its key, its weight, its messages).
void take_csv_bom(const options& opts, prepared& pre) {
  static constexpr std::string_view kBom = "\xEF\xBB\xBF";
  pre.input = open_input(opts, pre);
  const int fd = pre.input->get();
  if (const off_t at = ::lseek(fd, 0, SEEK_CUR); at >= 0) {
    // A file: looked at in place, and passed over only when it is a mark.
    char b[3];
    if (::pread(fd, b, sizeof b, at) != 3 || std::string_view(b, 3) != kBom || ::lseek(fd, at + 3, SEEK_SET) < 0) return;
  } else {
    // A pipe: the bytes read come back as pending when they are no mark.
    while (pre.pending.size() < kBom.size() && kBom.starts_with(pre.pending)) {
      char b[1];
      const ssize_t got = ::read(fd, b, 1);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;  // the end, or an error the next read reports
      pre.pending.append(b, 1);
    }
    if (pre.pending != kBom) return;
    pre.pending.clear();
  }
  pre.header_bytes = kBom.size();
  pre.header = [](fd_writer& out) { out.write(kBom); };
}


// --header, field names, then the mode.
void run_all(const options& given, const progress_factory& progress) {
  // --header N: the first N records are written first, in place; the modes see the rest.
  options opts = given;
  prepared pre;
  std::optional<std::string> first_header_line;  // header line 1 without its delimiter, for field names
  if (opts.header > 0) {
    if (opts.input_range) {
      if (opts.hi - opts.lo + 1 > 0) first_header_line = std::to_string(opts.lo);
      const std::uint64_t n = opts.hi - opts.lo + 1;
      const std::uint64_t k = std::min(opts.header, n);
      const std::uint64_t lo = opts.lo;
      const char d = opts.delimiter;
      pre.header = [lo, k, d](fd_writer& out) {
        for (std::uint64_t i = 0; i < k; ++i) out.write_number(lo + i, d);
      };
      opts.lo += k;
    } else if (opts.echo) {
      const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(opts.header, opts.operands.size()));
      if (k > 0) first_header_line = opts.operands[0];
      std::string text;
      for (std::size_t i = 0; i < k; ++i) (text += opts.operands[i]) += opts.delimiter;
      opts.operands.erase(opts.operands.begin(), opts.operands.begin() + static_cast<std::ptrdiff_t>(k));
      pre.header = [text = std::move(text)](fd_writer& out) { out.write(text); };
    } else {
      pre.input = open_input(opts, pre);
      // The header waits in memory until the output opens: at most half of --memory.
      const std::uint64_t limit = (opts.memory ? *opts.memory : default_memory()) / 2;
      std::optional<shufl::lines::csv_scanner> csv;
      if (opts.csv) csv.emplace(opts.fields_by());
      header_input h = read_header(pre.input->get(), opts.header, opts.delimiter, limit, csv ? &*csv : nullptr);
      if (csv) {
        pre.first_line = csv->record_line();  // header records may span lines
        if (!h.text.empty()) {
          const auto starts = shufl::lines::csv_record_starts(h.text, opts.fields_by());
          first_header_line = std::string(shufl::lines::csv_body(std::string_view(h.text).substr(0, starts[1])));
        }
      } else {
        pre.first_line = opts.header + 1;
        if (!h.text.empty()) first_header_line = h.text.substr(0, h.text.find(opts.delimiter));
      }
      pre.header_bytes = h.text.size();
      pre.pending = std::move(h.pending);
      pre.header = [text = std::move(h.text)](fd_writer& out) { out.write(text); };
    }
  }
  if (opts.csv && opts.header == 0 && opts.head != 0 && !opts.echo && !opts.input_range) take_csv_bom(opts, pre);
  if (opts.names_fields()) {
    if (!first_header_line) {
      throw error(fmt::format("{} {}: the input has no header {} to read field names from",
                              opts.weight_field_name ? "--weight-field" : "--key-fields",
                              quote(opts.weight_field_name ? *opts.weight_field_name : *opts.key_field_names),
                              opts.csv ? "record" : "line"));
    }
    resolve_field_names(opts, *first_header_line);
  }
  if (opts.random_source) {
    run_gnu(opts, pre);
  } else {
    run_chacha(opts, pre, progress);
  }
}

}  // namespace

}  // namespace shufl::lines::runner

namespace shufl::lines {

void run(const run_options& opts, const progress_factory& progress) { runner::run_all(opts, progress); }

}  // namespace shufl::lines
