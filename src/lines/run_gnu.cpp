// `shufl lines --random-source FILE`: GNU shuf's byte-compatible mode. The same draws from the
// same bytes as coreutils shuf (reservoir sampling for large inputs with -n, partial
// Fisher–Yates otherwise, -r), so the same file gives the same output (gnu-shuf-compat.md).
#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "run_internal.hpp"
#include "shufl/lines/csv.hpp"

namespace shufl::lines::runner {

namespace {

// GNU shuf samples with a reservoir only for inputs larger than this (RESERVOIR_MIN_INPUT).
constexpr std::uint64_t kGnuReservoirMinInput = 8192 * 1024;

// Offsets of all records of a buffer, or indices 0..n-1, permuted by the first `h` steps of a
// forward partial Fisher–Yates with `draw`; then the first h are written. (GNU mode.)
template <class Item, class Draw>
void gnu_permute_and_write(output_sink& sink, const options& opts, const in_memory_input& in,
                           std::uint64_t h, Draw&& draw) {
  std::vector<Item> items(static_cast<std::size_t>(in.n));
  if (opts.echo || in.csv) {
    for (std::size_t i = 0; i < items.size(); ++i) items[i] = static_cast<Item>(i);
  } else {
    offset_generator<Item> next{in.data.data(), in.data.data() + in.data.size(), opts.delimiter};
    for (auto& item : items) item = next();
  }
  shufl::lines::partial_fisher_yates(std::span<Item>(items), h, draw);
  fd_writer& out = sink.open();
  write_items(out, opts, in, std::span<const Item>(items.data(), static_cast<std::size_t>(h)));
}

}  // namespace

void run_gnu(const options& opts, prepared& pre) {
  output_sink sink(opts, pre.header);
  const std::string& source_name = *opts.random_source;
  std::unique_ptr<fd_guard> source_fd;
  std::optional<gnu_random_source> source;
  const auto open_source = [&] {
    source_fd = std::make_unique<fd_guard>(open_or_throw(source_name, O_RDONLY));
    source.emplace(source_fd->get(), quote(source_name));
  };
  const auto draw = [&](std::uint64_t s) { return source->choose(s); };

  in_memory_input in;
  in.operands = &opts.operands;
  if (opts.head == 0) {
    if (opts.repeat) open_source();  // GNU opens it for -r even with -n 0
    sink.finish();
    return;
  }
  if (opts.input_range) {
    in.n = opts.hi - opts.lo + 1;
  } else if (opts.echo) {
    in.n = opts.operands.size();
  } else {
    auto input = open_input(opts, pre);
    if (!opts.repeat && opts.head != UINT64_MAX &&
        shufl::lines::remaining_input_size(input->get()) > kGnuReservoirMinInput) {
      // GNU's reservoir for -n from a large input or a pipe; over CSV records with --csv (GNU
      // shuf has no CSV: the same draws, so a file without quotes gives the same output).
      open_source();
      record_reader reader(input->get(), opts.csv ? '\n' : opts.delimiter, pre.pending);
      std::vector<byte_buffer> kept;
      if (opts.csv) {
        shufl::lines::csv_scanner csv(opts.fields_by(), pre.first_line);
        shufl::lines::record_source records(reader, csv);
        kept = shufl::lines::gnu_reservoir_sample(records, opts.head, *source);
      } else {
        kept = shufl::lines::gnu_reservoir_sample(reader, opts.head, *source);
      }
      input.reset();
      const auto order = shufl::lines::range_permutation(kept.size(), kept.size(), draw);
      fd_writer& out = sink.open();
      for (const auto i : order) out.write(kept[static_cast<std::size_t>(i)]);
      sink.finish();
      return;
    } else if (opts.csv) {  // GNU shuf has no CSV: all records in memory, GNU's draws over them
      load_csv(in, opts, input->get(), pre.pending, pre.first_line);
    } else {
      in.data = shufl::lines::input_data::load(input->get(), opts.delimiter, pre.pending);
      in.n = shufl::lines::count_records(in.data.view(), opts.delimiter);
    }
  }
  const std::uint64_t h = opts.repeat ? opts.head : std::min(opts.head, in.n);
  if (opts.repeat || h > 0) open_source();
  if (opts.repeat) {
    if (in.n == 0) {
      sink.open();  // GNU creates the -o file before it reports the empty input
      throw error(opts.csv ? "no records to repeat" : "no lines to repeat");  // GNU's words without --csv
    }
    write_repeated(sink, opts, in, draw);
  } else if (opts.input_range) {
    check_range_fits(opts, in.n);  // after opening the source, as GNU fails in that order
    const auto values = shufl::lines::range_permutation(in.n, h, draw);
    write_items(sink.open(), opts, in, std::span<const std::uint64_t>(values));
  } else if (in.data.size() < (std::uint64_t{1} << 32) && in.n < (std::uint64_t{1} << 32)) {
    gnu_permute_and_write<std::uint32_t>(sink, opts, in, h, draw);
  } else {
    gnu_permute_and_write<std::uint64_t>(sink, opts, in, h, draw);
  }
  sink.finish();
}

}  // namespace shufl::lines::runner
