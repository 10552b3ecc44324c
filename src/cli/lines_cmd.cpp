// `shufl lines` / `shuf`: GNU shuf's command line, parsed with glibc getopt_long so that
// prefixes of long options, "ambiguous option" messages, options after operands, `--` and
// repeated options behave exactly as in GNU shuf (CLI11 cannot do these).
#include "lines_cmd.hpp"

#include <getopt.h>
#include <langinfo.h>

#include <cerrno>
#include <charconv>
#include <clocale>
#include <cwchar>
#include <cwctype>
#include <locale.h>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include <algorithm>

#include "common.hpp"
#include "shufl/error.hpp"
#include "shufl/size.hpp"
#include "shufl/lines/modes.hpp"

namespace shufl::cli {

namespace lines {

namespace {

// A usage error: "PROG: MESSAGE" then "Try 'PROG --help' for more information.".
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool c_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

enum class number_status { ok, overflow, invalid };

// GNU xstrtoumax in base 10 with no suffixes: leading white space and '+' accepted, a '-' is
// invalid, digits required, nothing may follow; a too-large value is `overflow` unless garbage
// follows it (then `invalid`).
number_status parse_gnu_number(std::string_view text, std::uint64_t& value) {
  std::size_t i = 0;
  while (i < text.size() && c_space(text[i])) ++i;
  if (i < text.size() && text[i] == '-') return number_status::invalid;
  if (i < text.size() && text[i] == '+') ++i;
  const std::size_t digits_start = i;
  bool overflow = false;
  std::uint64_t v = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    const auto d = static_cast<std::uint64_t>(text[i] - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = true;
    v = overflow ? UINT64_MAX : v * 10 + d;
    ++i;
  }
  if (i == digits_start || i != text.size()) return number_status::invalid;
  value = v;
  return overflow ? number_status::overflow : number_status::ok;
}

// GNU xdectoumax for -i: any failure is "invalid input range: ‘PART’", plus ": Value too large
// for defined data type" for a plain overflow.
std::uint64_t parse_range_part(std::string_view part) {
  std::uint64_t v = 0;
  switch (parse_gnu_number(part, v)) {
    case number_status::ok: return v;
    case number_status::overflow:
      throw error("invalid input range: " + quote(part) + ": " + std::strerror(EOVERFLOW));
    case number_status::invalid: break;
  }
  throw error("invalid input range: " + quote(part));
}

void print_help(const std::string& usage_name) {
  const std::string& p = usage_name;
  std::string text;
  text += "Usage: " + p + " [OPTION]... [FILE]\n";
  text += "  or:  " + p + " -e [OPTION]... [ARG]...\n";
  text += "  or:  " + p + " -i LO-HI [OPTION]...\n";
  text += R"(Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE (byte-compatible with GNU shuf)
  -r, --repeat              output lines can be repeated
      --seed=STRING         reproducible output: any string, hashed (BLAKE2b) to a
                              256-bit ChaCha20 key; same seed and input, same output
  -z, --zero-terminated     line delimiter is NUL, not newline

Extensions (shufl):
      --delimiter=C         line delimiter is the byte C: one character, or \0 \t
                              \n \r \v \f \\ \xHH (-z is --delimiter='\0')
      --header=N            output the first N lines first, in place; shuffle (or
                              sample, with -n COUNT) the lines after them. Given
                              twice, the smallest N wins; the header lines may
                              take at most half of --memory
      --memory=SIZE         shuffle in RAM up to SIZE (bytes, or with one of GNU
                              sort -S's suffixes: b K M G T P E, powers of 1024,
                              or % of physical memory: 512M, 2G, 50%; at least
                              16M), beyond it through
                              temporary files; default: half the available memory.
                              The output for a --seed never depends on it
      --temp-dir=DIR        temporary files go to DIR (default $TMPDIR, else /tmp);
                              they have no name, so nothing is ever left behind

Sampler modes (shufl; see "which mode when" in the README):
      --keep-order          with -n COUNT: the sampled lines come out in input
                              order (the same lines as without it, for a seed)
      --prob=P              Bernoulli sampling: keep each line independently
                              with probability P (0 < P <= 1), in input order,
                              streaming; with -n COUNT at most COUNT lines
      --key-fields=LIST     with --prob: distinct sampling; keep the lines whose
                              key (the fields LIST as cut -f reads it: 1,3-4,
                              2- or -3; a set, in field order) hashes below P,
                              so all lines of a key are kept or dropped
                              together, the same keys for a seed in any file; a
                              line lacking a key field is an error naming it
                              (exit 1) after the lines kept before it (output
                              streams; with -o FILE nothing is written)
      --field-delimiter=C   fields are separated by the byte C (default TAB, with
                              --csv a comma; escapes as --delimiter)
      --csv                 records and fields are CSV (RFC 4180): a quoted
                              field may hold the field delimiter, "" and line
                              breaks; a record ends at a newline outside quotes
                              and is written verbatim; field values are read
                              unquoted. Malformed CSV is an error naming the line
      --weight-field=F      weighted sampling without replacement: field F of
                              each line is its weight (a non-negative decimal);
                              F (and each item of --key-fields) may be a name
                              from header line 1 (with --header N, N >= 1);
                              -n COUNT picks COUNT lines, heavier ones likelier,
                              in weighted random order; without -n, a weighted
                              shuffle. Zero weights come after all positive ones
      --bad-weights=ACTION  a negative, invalid or missing weight is an error
                              naming the line (ACTION error, the default), or
                              the line is skipped with a warning (skip)
      --with-replacement    with -n COUNT: COUNT independent draws, uniform or
                              (with --weight-field) proportional to the weights
      --help        display this help and exit
      --version     output version information and exit

Without --seed or --random-source the ChaCha20 key comes from the operating system.
Inputs larger than --memory are shuffled through temporary files (full shuffle only:
-n COUNT keeps COUNT lines, -r keeps every line in memory, -e and -i are in memory).
--random-source (GNU mode) holds the input in memory as GNU shuf does and cannot be
combined with --memory nor with the sampler modes.
The sampler modes stream and hold at most COUNT lines, except a weighted
shuffle (--weight-field without -n) and --with-replacement: they hold every
line in memory, at most --memory.
)";
  write_stdout(text);
}

constexpr int kRandomSourceOption = 256;
constexpr int kSeedOption = 257;
constexpr int kHelpOption = 258;
constexpr int kVersionOption = 259;
constexpr int kMemoryOption = 260;
constexpr int kTempDirOption = 261;
constexpr int kDelimiterOption = 262;
constexpr int kHeaderOption = 263;  // reported by getopt_long as 'n' with index kHeaderIndex
constexpr int kKeepOrderOption = 264;
constexpr int kProbOption = 265;
constexpr int kKeyFieldsOption = 266;
constexpr int kFieldDelimiterOption = 267;
constexpr int kWeightFieldOption = 268;
constexpr int kWithReplacementOption = 269;
constexpr int kBadWeightsOption = 270;
constexpr int kCsvOption = 271;

// GNU shuf's table (same order, so ambiguity messages list the same possibilities), plus our
// extensions. --header has the same (has_arg, flag, val) as --head-count and comes right after
// it: glibc then treats a prefix of both (`--head=3`, `--hea`) as --head-count, not as
// ambiguous, and leaves --header out of the possibilities listed for `--h` — exactly GNU shuf's
// behaviour. Only an exact `--header` or a prefix of it alone (`--heade`) reports its own index.
constexpr int kHeaderIndex = 3;
const option kLongOptions[] = {
    {"echo", no_argument, nullptr, 'e'},
    {"input-range", required_argument, nullptr, 'i'},
    {"head-count", required_argument, nullptr, 'n'},
    {"header", required_argument, nullptr, 'n'},
    {"output", required_argument, nullptr, 'o'},
    {"random-source", required_argument, nullptr, kRandomSourceOption},
    {"repeat", no_argument, nullptr, 'r'},
    {"seed", required_argument, nullptr, kSeedOption},
    {"zero-terminated", no_argument, nullptr, 'z'},
    {"delimiter", required_argument, nullptr, kDelimiterOption},
    {"memory", required_argument, nullptr, kMemoryOption},
    {"temp-dir", required_argument, nullptr, kTempDirOption},
    // The sampler modes (issue 17). Their names share no prefix with a GNU option, so every
    // unambiguous GNU prefix (--e, --i, --hea, --o, --ra, --re, --z, --v, --hel) stays so
    // (tests/e2e_lines_modes_test.cpp checks all of them).
    {"keep-order", no_argument, nullptr, kKeepOrderOption},
    {"prob", required_argument, nullptr, kProbOption},
    {"key-fields", required_argument, nullptr, kKeyFieldsOption},
    {"field-delimiter", required_argument, nullptr, kFieldDelimiterOption},
    {"weight-field", required_argument, nullptr, kWeightFieldOption},
    {"with-replacement", no_argument, nullptr, kWithReplacementOption},
    {"bad-weights", required_argument, nullptr, kBadWeightsOption},
    {"csv", no_argument, nullptr, kCsvOption},
    {"help", no_argument, nullptr, kHelpOption},
    {"version", no_argument, nullptr, kVersionOption},
    {nullptr, 0, nullptr, 0},
};

}  // namespace

std::uint64_t parse_memory(std::string_view text) {
  const auto v = parse_size(text, physical_memory_bytes());
  if (!v) throw error("invalid memory size: " + quote(text) + "; expected " + std::string(size_forms));
  if (*v < min_memory) {
    throw error("--memory " + std::string(text) + " is too small: the smallest workable amount is " +
                std::to_string(min_memory >> 20) + "M");
  }
  return *v;
}

char parse_delimiter(std::string_view text) {
  if (text.size() == 1) return text[0];
  if (text.size() == 2 && text[0] == '\\') {
    switch (text[1]) {
      case '0': return '\0';
      case 't': return '\t';
      case 'n': return '\n';
      case 'r': return '\r';
      case 'v': return '\v';
      case 'f': return '\f';
      case '\\': return '\\';
      default: break;
    }
  }
  const auto hex = [](char c) {
    return (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
  };
  if (text.size() == 4 && text[0] == '\\' && text[1] == 'x' && hex(text[2]) >= 0 && hex(text[3]) >= 0) {
    return static_cast<char>(hex(text[2]) * 16 + hex(text[3]));
  }
  throw error("invalid delimiter: " + quote(text) + " (one byte, or \\0 \\t \\n \\r \\v \\f \\\\ \\xHH)");
}

double parse_probability(std::string_view text) {
  // A decimal (correctly rounded by from_chars, so the same double everywhere), 0 < P <= 1.
  double p = 0;
  const char* end = text.data() + text.size();
  const auto r = text.empty() || !((text[0] >= '0' && text[0] <= '9') || text[0] == '.')
                     ? std::from_chars_result{text.data(), std::errc::invalid_argument}
                     : std::from_chars(text.data(), end, p, std::chars_format::general);
  if (r.ec != std::errc() || r.ptr != end || !(p > 0 && p <= 1)) {
    throw error("invalid probability: " + quote(text) + " (a decimal number P, 0 < P <= 1)");
  }
  return p;
}

void check_modes(const options& o) {
  const auto combine = [](const char* a, const char* b) {
    throw usage_error(std::string("cannot combine ") + a + " and " + b + " options");
  };
  const auto needs = [](const char* a, const char* b) {
    throw usage_error(std::string("option ") + a + " needs " + b);
  };
  if (o.csv) {
    // CSV records come from FILE or standard input and end at a newline outside quotes.
    if (o.delimiter != '\n') combine(o.delimiter == '\0' ? "-z" : "--delimiter", "--csv");
    if (o.echo) combine("-e", "--csv");
    if (o.input_range) combine("-i", "--csv");
    if (o.fields_by() == '"' || o.fields_by() == '\n' || o.fields_by() == '\r') {
      throw usage_error("with --csv the field delimiter cannot be a double quote, CR or LF");
    }
  }
  if (o.names_fields() && o.header == 0) {
    throw usage_error(fmt::format("{} {}: field names are read from the first header line: they need --header 1 "
                                  "(or more)", o.weight_field_name ? "--weight-field" : "--key-fields",
                                  quote(o.weight_field_name ? *o.weight_field_name : *o.key_field_names)));
  }
  const bool any = o.keep_order || o.prob || !o.key_fields.ranges.empty() || (o.field_delimiter && !o.csv) ||
                   o.weight_field || o.with_replacement || o.skip_bad_weights;
  if (!any) return;
  // GNU's byte-compatible mode reproduces GNU shuf; the sampler modes do not exist there.
  if (o.random_source) {
    combine(o.keep_order ? "--keep-order" : o.prob ? "--prob" : !o.key_fields.ranges.empty() ? "--key-fields"
            : o.field_delimiter ? "--field-delimiter" : o.weight_field ? "--weight-field"
            : o.with_replacement ? "--with-replacement" : "--bad-weights", "--random-source");
  }
  if (o.repeat) {  // -r repeats forever, GNU's; -r -n K stays GNU's
    combine("-r", o.keep_order ? "--keep-order" : o.prob ? "--prob" : o.with_replacement ? "--with-replacement"
                  : o.weight_field ? "--weight-field" : !o.key_fields.ranges.empty() ? "--key-fields"
                  : o.field_delimiter ? "--field-delimiter" : "--bad-weights");
  }
  if (o.prob && o.weight_field) combine("--prob", "--weight-field");
  if (o.prob && o.with_replacement) combine("--prob", "--with-replacement");
  if (!o.key_fields.ranges.empty() && !o.prob) needs("--key-fields", "--prob P (distinct sampling)");
  if (o.field_delimiter && o.key_fields.ranges.empty() && !o.weight_field && !o.csv) {
    needs("--field-delimiter", "--key-fields or --weight-field");
  }
  if ((!o.key_fields.ranges.empty() || o.weight_field) && o.fields_by() == o.delimiter) {
    throw usage_error("the field delimiter cannot be the line delimiter");
  }
  if (o.skip_bad_weights && !o.weight_field) needs("--bad-weights", "--weight-field");
  if (o.with_replacement && (!o.head_given || o.head == UINT64_MAX)) {
    needs("--with-replacement", "-n COUNT (-r repeats without end)");
  }
  if (o.keep_order && !o.head_given && !o.prob) needs("--keep-order", "-n COUNT");
}

// An option that takes one value: given again with the same value it is accepted, with another
// it is GNU shuf's error "multiple WHAT specified" (its rule for -o and --random-source, which
// shufl applies to all its single-valued options). `value` is already parsed, so "1" and "01"
// or '\t' and TAB compare equal.
template <class T, class U>
void set_once(std::optional<T>& slot, U&& value, std::string_view what) {
  if (slot && *slot != value) throw error(fmt::format("multiple {} specified", what));
  slot = std::forward<U>(value);
}

}  // namespace lines

int run_lines(int argc, char** argv, const char* program_name) {
  const std::string program = program_name;
  // The name for "Try '... --help'" and the usage text.
  const std::string usage_name = program == "shuf" ? "shuf" : "shufl lines";
  lines::options opts;
  bool header_given = false;
  std::optional<char> delimiter;                     // -z, --delimiter
  std::optional<shufl::lines::field_list> key_fields;  // --key-fields

  // getopt_long prints its diagnostics with argv[0]: give it the program name.
  std::vector<char*> args(argv, argv + argc);
  std::string argv0 = program;
  if (args.empty()) args.push_back(nullptr);
  args[0] = argv0.data();
  args.push_back(nullptr);
  const int count = static_cast<int>(args.size()) - 1;

  const auto try_help = [&] {
    std::fprintf(stderr, "Try '%s --help' for more information.\n", usage_name.c_str());
    return exit_error;
  };

  optind = 0;  // full re-initialisation of glibc's getopt
  opterr = 1;
  try {
    int c = 0;
    int index = -1;
    while ((c = getopt_long(count, args.data(), "ei:n:o:rz", lines::kLongOptions, &index)) != -1) {
      if (c == 'n' && index == lines::kHeaderIndex) c = lines::kHeaderOption;
      index = -1;
      switch (c) {
        case 'e':
          opts.echo = true;
          break;
        case 'i': {
          // GNU refuses a second -i even with the same range: not set_once's rule.
          if (opts.input_range) throw error("multiple -i options specified");
          opts.input_range = true;
          const std::string_view arg = optarg;
          const auto dash = arg.find('-');
          std::uint64_t lo = UINT64_MAX;
          if (dash != std::string_view::npos) lo = lines::parse_range_part(arg.substr(0, dash));
          const std::uint64_t hi =
              lines::parse_range_part(dash == std::string_view::npos ? arg : arg.substr(dash + 1));
          const std::uint64_t n = hi - lo + 1;
          if (dash == std::string_view::npos || (lo <= hi) == (n == 0)) {
            throw error("invalid input range: " + lines::quote(arg));
          }
          opts.lo = lo;
          opts.hi = hi;
          break;
        }
        case 'n': {
          std::uint64_t v = 0;
          const auto status = lines::parse_gnu_number(optarg, v);
          if (status == lines::number_status::invalid) {
            throw error("invalid line count: " + lines::quote(optarg));
          }
          opts.head_given = true;
          if (status == lines::number_status::ok) opts.head = std::min(opts.head, v);
          break;
        }
        case 'o':
          lines::set_once(opts.output, std::string(optarg), "output files");
          break;
        case lines::kRandomSourceOption:
          lines::set_once(opts.random_source, std::string(optarg), "random sources");
          break;
        case lines::kSeedOption:
          lines::set_once(opts.seed, std::string(optarg), "seeds");
          check_seed(*opts.seed);
          break;
        case 'r':
          opts.repeat = true;
          break;
        case 'z':
        case lines::kDelimiterOption: {
          lines::set_once(delimiter, c == 'z' ? '\0' : lines::parse_delimiter(optarg), "delimiters");
          opts.delimiter = *delimiter;
          break;
        }
        case lines::kHeaderOption: {
          std::uint64_t v = 0;
          const auto status = lines::parse_gnu_number(optarg, v);
          if (status == lines::number_status::invalid) {
            throw error("invalid header line count: " + lines::quote(optarg));
          }
          // Given more than once, the smallest wins (GNU's rule for -n); a value too large to
          // store means every line.
          opts.header = header_given ? std::min(opts.header, v) : v;
          header_given = true;
          break;
        }
        case lines::kMemoryOption:
          opts.memory = lines::parse_memory(optarg);
          break;
        case lines::kTempDirOption:
          opts.temp_dir = optarg;
          break;
        case lines::kKeepOrderOption:
          opts.keep_order = true;
          break;
        case lines::kProbOption: {
          lines::set_once(opts.prob, lines::parse_probability(optarg), "probabilities");
          break;
        }
        case lines::kKeyFieldsOption: {
          if (lines::is_field_name_spec(optarg)) {  // names, looked up in the header line
            if (key_fields) throw error("multiple key field lists specified");
            lines::set_once(opts.key_field_names, std::string(optarg), "key field lists");
            opts.key_fields = {{{0, 0}}};
            break;
          }
          std::string why;
          const auto list = shufl::lines::parse_field_list(optarg, &why);
          if (!list) throw error("invalid field list: " + lines::quote(optarg) + ": " + why + " (as cut -f: 2, 1,3, 2-4, 2- or -3)");
          if (opts.key_field_names) throw error("multiple key field lists specified");
          lines::set_once(key_fields, *list, "key field lists");
          opts.key_fields = *key_fields;
          break;
        }
        case lines::kFieldDelimiterOption: {
          lines::set_once(opts.field_delimiter, lines::parse_delimiter(optarg), "field delimiters");
          break;
        }
        case lines::kWeightFieldOption: {
          if (lines::is_field_name_spec(optarg)) {  // a name, looked up in the header line
            if (opts.weight_field && *opts.weight_field != 0) throw error("multiple weight fields specified");
            lines::set_once(opts.weight_field_name, std::string(optarg), "weight fields");
            opts.weight_field = 0;
            break;
          }
          const auto list = shufl::lines::parse_field_list(optarg);
          std::size_t number = 0;
          if (!list || !list->single(&number)) {
            throw error("invalid weight field: " + lines::quote(optarg) + " (a field number: 1, 2, ..., or a name)");
          }
          lines::set_once(opts.weight_field, number, "weight fields");
          break;
        }
        case lines::kWithReplacementOption:
          opts.with_replacement = true;
          break;
        case lines::kCsvOption:
          opts.csv = true;
          break;
        case lines::kBadWeightsOption: {
          const std::string_view a = optarg;
          if (a != "error" && a != "skip") throw error("invalid --bad-weights action: " + lines::quote(a) + " (error or skip)");
          opts.skip_bad_weights = a == "skip";
          break;
        }
        case lines::kHelpOption:
          lines::print_help(usage_name);
          return exit_ok;
        case lines::kVersionOption:
          write_stdout(fmt::format("{} (shufl) {}\n{}\n", usage_name, SHUFL_VERSION, license_notice));
          return exit_ok;
        default:
          return try_help();  // getopt_long has printed the first line
      }
    }
    for (int i = optind; i < count; ++i) opts.operands.emplace_back(args[static_cast<std::size_t>(i)]);

    if (opts.echo && opts.input_range) throw lines::usage_error("cannot combine -e and -i options");
    if (opts.input_range ? !opts.operands.empty() : !opts.echo && opts.operands.size() > 1) {
      throw lines::usage_error("extra operand " +
                               lines::quote(opts.operands[opts.input_range ? 0 : 1]));
    }
    if (opts.seed && opts.random_source) {
      throw lines::usage_error("cannot combine --seed and --random-source options");
    }
    if (opts.memory && opts.random_source) {
      throw lines::usage_error("cannot combine --memory and --random-source options");
    }
    lines::check_modes(opts);
  } catch (const lines::usage_error& e) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), e.what());
    return try_help();
  }
  return lines::run(opts);
}

}  // namespace shufl::cli
