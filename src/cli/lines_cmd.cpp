// `shufl lines` / `shuf`: GNU shuf's command line, parsed with glibc getopt_long so that
// prefixes of long options, "ambiguous option" messages, options after operands, `--` and
// repeated options behave exactly as in GNU shuf (CLI11 cannot do these). The values are read by
// lines_options.cpp, the help text is lines_help.cpp, and lines::run (lines_progress.cpp) hands
// them to the library's runner (shufl/lines/run.hpp).
#include "lines_cmd.hpp"

#include <getopt.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "common.hpp"
#include "shufl/error.hpp"
#include "shufl/lines/modes.hpp"
#include "shufl/version.hpp"

namespace shufl::cli {

namespace lines {

namespace {

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

// An option that takes one value: given again with the same value it is accepted, with another
// it is GNU shuf's error "multiple WHAT specified" (its rule for -o and --random-source, which
// shufl applies to all its single-valued options). `value` is already parsed, so "1" and "01"
// or '\t' and TAB compare equal.
template <class T, class U>
void set_once(std::optional<T>& slot, U&& value, std::string_view what) {
  if (slot && *slot != value) throw error(fmt::format("multiple {} specified", what));
  slot = std::forward<U>(value);
}

}  // namespace

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
