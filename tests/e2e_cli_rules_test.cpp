// End-to-end tests of the leftovers of issue 13 (handed cases U03, U04, U05 and U06 in their
// kinds): `shufl help` about itself, flags given a value, the --exact range, empty deck labels,
// picture formats, and `lines`' single-valued options. Each runs the real binary and checks
// stdout, stderr and the exit status.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "support/run.hpp"

namespace shufl {
namespace {

using test::run_result;
using test::run_shufl;

// A usage error of `shufl COMMAND`: the message, GNU's pointer to the help, nothing on stdout.
void expect_usage_error(const run_result& r, const std::string& message, const std::string& command,
                        const std::string& what) {
  EXPECT_EQ(r.status, 1) << what;
  EXPECT_EQ(r.out, "") << what;
  const std::string help = command.empty() ? "shufl --help" : "shufl " + command + " --help";
  EXPECT_EQ(r.err, "shufl: " + message + "\nTry '" + help + "' for more information.\n") << what;
}

// An error without a usage hint: "shufl: MESSAGE", nothing on stdout, exit 1.
void expect_error(const run_result& r, const std::string& message, const std::string& what) {
  EXPECT_EQ(r.status, 1) << what;
  EXPECT_EQ(r.out, "") << what;
  EXPECT_EQ(r.err, "shufl: " + message + "\n") << what;
}

// U03 (issue 13 leftovers, item 3): as git does, `shufl help help` and `shufl help --help` show
// the help of `help` itself, and `shufl help COMMAND --help` (or -h) is `shufl COMMAND --help`,
// for every command; the pointer "Try 'shufl help --help'" of help's own errors now works.
TEST(E2eCliRules, U03HelpAboutHelpAndCommandHelpFlags) {
  const auto help_help = run_shufl({"help", "help"});
  EXPECT_EQ(help_help.status, 0);
  EXPECT_EQ(help_help.err, "");
  EXPECT_TRUE(help_help.out.starts_with("Usage: shufl help [COMMAND]\n")) << help_help.out;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"help", "--help"}, {"help", "-h"}, {"help", "help", "--help"}, {"help", "--help", "help"}}) {
    const auto r = run_shufl(args);
    EXPECT_EQ(r.status, 0) << args.back();
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, help_help.out) << args[1];
  }
  for (const std::string command : {"lines", "bias", "deck", "trace"}) {
    const auto direct = run_shufl({command, "--help"});
    ASSERT_EQ(direct.status, 0) << command;
    ASSERT_FALSE(direct.out.empty());
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"help", command, "--help"}, {"help", command, "-h"}, {"help", "--help", command}}) {
      const auto r = run_shufl(args);
      EXPECT_EQ(r.status, 0) << command;
      EXPECT_EQ(r.err, "") << command;
      EXPECT_EQ(r.out, direct.out) << command;
    }
  }
  expect_usage_error(run_shufl({"help", "--all"}), "unrecognized option '--all'", "help", "help --all");
  expect_usage_error(run_shufl({"help", "--help=x"}), "option '--help' doesn't allow an argument", "help", "help --help=x");
  expect_usage_error(run_shufl({"help", "bias", "deck"}), "'help' takes at most one command", "help", "two commands");
  // The pointer of help's own errors leads somewhere.
  EXPECT_EQ(run_shufl({"help", "--help"}).status, 0);
}

// U04 (item 4): a flag given a value is GNU getopt's error "option '--exact' doesn't allow an
// argument", for every flag of every CLI11 command (including --help and the top level's
// --version), whatever the value ("3", "", "true"); an option taking a value still takes
// "--seed=x", and "--x=1" after "--" is an operand.
TEST(E2eCliRules, U04FlagsRefuseValues) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> flags = {
      {"bias", {"--exact", "--list", "--no-secondary", "--allow-partial", "--progress", "--check", "--help"}},
      {"deck", {"--explain", "--commit", "--help"}},
      {"trace", {"--help"}},
  };
  for (const auto& [command, names] : flags) {
    for (const auto& name : names) {
      for (const std::string value : {"3", "", "true"}) {
        expect_usage_error(run_shufl({command, name + "=" + value}),
                           "option '" + name + "' doesn't allow an argument", command, command + " " + name + "=" + value);
      }
    }
  }
  expect_usage_error(run_shufl({"--version=2"}), "option '--version' doesn't allow an argument", "", "--version=2");
  expect_usage_error(run_shufl({"--help="}), "option '--help' doesn't allow an argument", "", "--help=");
  // The handed case, among other options: refused before any work, whatever follows.
  expect_usage_error(run_shufl({"bias", "--n", "3", "--exact=3", "--algo", "naive"}),
                     "option '--exact' doesn't allow an argument", "bias", "bias --exact=3");
  // Options with a value keep '='.
  const auto seeded = run_shufl({"bias", "--n=3", "--trials=600", "--seed=x", "--algo=naive", "--format=json"});
  EXPECT_EQ(seeded.status, 0) << seeded.err;
  // lines is GNU's getopt itself (GNU shuf's message).
  const auto lines = run_shufl({"lines", "--echo=3", "a"});
  EXPECT_EQ(lines.status, 1);
  EXPECT_EQ(lines.out, "");
  EXPECT_EQ(lines.err, "shufl: option '--echo' doesn't allow an argument\nTry 'shufl lines --help' for more information.\n");
}

// U03's kind (found with item 4): `trace` items that start with '-' come after "--", as its --help
// says, also right after --seed's value (CLI11 took that "--" as the end of --seed's optional
// value) and without it; the "--" itself is not reported as an unknown option.
TEST(E2eCliRules, DoubleDashEndsOptions) {
  // Fisher-Yates by hand on (-x, y, z) with draws j = 2 then 0: i = 2 keeps z, i = 1 swaps -x, y.
  const auto drawn = run_shufl({"trace", "--draws", "2,0", "--", "-x", "y", "z"});
  EXPECT_EQ(drawn.status, 0) << drawn.err;
  EXPECT_EQ(drawn.err, "");
  EXPECT_TRUE(drawn.out.ends_with("result: y -x z\n")) << drawn.out;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"trace", "--seed", "s", "--", "-x", "y", "z"},
        {"trace", "--seed=s", "--", "-x", "y", "z"}}) {
    const auto r = run_shufl(args);
    EXPECT_EQ(r.status, 0) << args[1] << ": " << r.err;
    EXPECT_EQ(r.err, "");
    const auto rows = test::lines(r.out);
    ASSERT_FALSE(rows.empty());
    ASSERT_TRUE(rows.back().starts_with("result: ")) << rows.back();
    const auto items = test::split(rows.back().substr(8), ' ');
    EXPECT_EQ(std::multiset<std::string>(items.begin(), items.end()), (std::multiset<std::string>{"-x", "y", "z"}));
  }
  // Without "--" a leading '-' is still an option.
  expect_usage_error(run_shufl({"trace", "--seed", "s", "-x", "y"}), "unrecognized option '-x'", "trace", "no --");
  // An operand after "--" that a command does not take gets the same message as one before it
  // (CLI11's own "The following argument was not expected" before), never "unrecognized option".
  for (const std::string command : {"bias", "deck"}) {
    expect_usage_error(run_shufl({command, "x"}), "unexpected argument 'x'", command, command + " x");
    expect_usage_error(run_shufl({command, "--", "x"}), "unexpected argument 'x'", command, command + " -- x");
    expect_usage_error(run_shufl({command, "--", "-x", "y"}), "unexpected argument '-x'", command, command + " -- -x y");
  }
  // `--seed $UNSET` before "--" stays S09's error.
  const auto unset = run_shufl({"trace", "--seed", "--", "a", "b"});
  EXPECT_EQ(unset.status, 1);
  EXPECT_TRUE(unset.err.starts_with("shufl: empty --seed")) << unset.err;
}

// Item 5: `bias --exact` states the range it really accepts (n from 2, --n's own bound, to 10 for
// enumeration), the same in the message and the rule; riffle:K's closed form takes larger n; the
// refusal comes before any algorithm is computed.
TEST(E2eCliRules, ExactRangeMessageMatchesRule) {
  for (const std::string n : {"2", "3"}) {
    const auto ok = run_shufl({"bias", "--exact", "-n", n, "--algo", "fisher-yates", "--format", "json"});
    EXPECT_EQ(ok.status, 0) << n << ": " << ok.err;
    EXPECT_EQ(ok.err, "");
  }
  // n = 10 is inside the range (enumerating it takes minutes, so an algorithm refused for
  // another reason shows that the range let it through).
  expect_error(run_shufl({"bias", "--exact", "-n", "10", "--algo", "weak-seed"}),
               "weak-seed draws a 32-bit seed: 2^32 paths, too many to enumerate", "n = 10");
  expect_error(run_shufl({"bias", "--exact", "-n", "1"}), "--n must be between 2 and 255 (got 1)", "n = 1");
  expect_error(run_shufl({"bias", "--exact", "-n", "11", "--algo", "riffle:2,naive"}),
               "--exact enumerates every path of naive: it needs 2 <= n <= 10 (got 11); only riffle:K has a "
               "closed form for larger n",
               "n = 11");
  const auto riffle = run_shufl({"bias", "--exact", "-n", "11", "--algo", "riffle:2"});
  EXPECT_EQ(riffle.status, 0) << riffle.err;
  EXPECT_TRUE(riffle.out.starts_with("shufl bias --exact: n = 11")) << riffle.out;
  // --help states the same range.
  EXPECT_NE(run_shufl({"bias", "--help"}).out.find("(n <= 10)"), std::string::npos);
}

// U06's inputs (item 6): an empty deck label is an error naming its position, never dropped:
// --cards and --symbols by 1-based position in the list (doubled, leading, trailing comma, or
// only spaces). A --cards-file's blank lines are skipped as --input skips them (not labels).
TEST(E2eCliRules, EmptyLabelsAreErrorsNamingThePosition) {
  const std::string hint = " is empty (a doubled, leading or trailing comma?)";
  for (const auto& [list, position] : std::vector<std::pair<std::string, std::string>>{
           {"a,,b", "2"}, {",a,b", "1"}, {"a,b,", "3"}, {"a, ,b", "2"}}) {
    expect_error(run_shufl({"deck", "--cards", list, "--seed", "1"}), "--cards: card " + position + hint, list);
    expect_error(run_shufl({"deck", "--pairs", "2", "--symbols", list, "--seed", "1"}),
                 "--symbols: symbol " + position + hint, list);
  }
  expect_error(run_shufl({"deck", "--grid", "2x2", "--symbols", "x,,y"}), "--symbols: symbol 2" + hint, "grid");
  test::temp_dir dir;
  const auto file = dir.write("cards.txt", "Ace\n\nTwo\n");
  for (const auto& r : {run_shufl({"deck", "--cards-file", file, "--seed", "1"}),
                        run_shufl({"deck", "--cards-file", "-", "--seed", "1"}, "Ace\nTwo\n  \n")}) {
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(test::record_multiset(r.out), (std::multiset<std::string>{"Ace", "Two"}));
  }
  // The same labels without the empty one deal as before.
  const auto ok = run_shufl({"deck", "--cards", "a, b", "--seed", "1"});
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(test::record_multiset(ok.out), (std::multiset<std::string>{"a", "b"}));
}

// U05's kind (item 7): a picture option writes SVG only, so a name with another extension is
// refused at once (matplotlib's savefig would write a PNG into x.png; shufl would have written
// SVG into it), before any simulation and without creating the file; --report likewise writes
// HTML only. A name without an extension, or .svg/.html in any case, is accepted.
TEST(E2eCliRules, PictureFormatsFollowTheExtension) {
  test::temp_dir dir;
  for (const std::string name : {"x.png", "x.PNG", "x.pdf", "x.svgz", "x.jpeg"}) {
    const auto path = dir.file(name);
    const double cpu = test::children_cpu_seconds();
    expect_error(run_shufl({"bias", "--n", "52", "--trials", "20000000", "--plot", path}),
                 "--plot '" + path + "': only SVG is supported; name the file .svg (rsvg-convert turns SVG into PNG or PDF)",
                 name);
    // The simulation takes 12 s of CPU in Release; start-up alone up to 0.5 s under sanitizers.
    EXPECT_LT(test::children_cpu_seconds() - cpu, 2.0) << name << ": refused before the simulation";
    EXPECT_FALSE(std::filesystem::exists(path)) << name;
  }
  const auto page = dir.file("r.pdf");
  expect_error(run_shufl({"bias", "--n", "3", "--report", page}),
               "--report '" + page + "': only HTML is supported; name the file .html", "report");
  EXPECT_FALSE(std::filesystem::exists(page));
  const auto ok = run_shufl({"bias", "--n", "3", "--trials", "600", "--seed", "1", "--plot", dir.file("P.SVG"),
                             "--report", dir.file("r.htm")});
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_TRUE(test::read_file(dir.file("P.SVG")).starts_with("<svg")) << "SVG written";
  EXPECT_TRUE(std::filesystem::exists(dir.file("r.htm")));
  const auto plain = run_shufl({"bias", "--n", "3", "--trials", "600", "--seed", "1", "--plot", dir.file("heatmap")});
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_TRUE(test::read_file(dir.file("heatmap")).starts_with("<svg"));
}

// Item 8: `lines`' single-valued options share one rule (GNU's, for -o and --random-source): the
// same value again is accepted (compared after parsing), another is "multiple X specified" in
// GNU's words; -i is refused twice even with the same range, as GNU does.
TEST(E2eCliRules, LinesSingleValuedOptions) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> twice = {
      {{"-o", "a", "-o", "b"}, "multiple output files specified"},
      {{"--random-source=/dev/zero", "--random-source=/dev/null"}, "multiple random sources specified"},
      {{"--seed", "1", "--seed", "2"}, "multiple seeds specified"},
      {{"--seed", "1", "--seed", ""}, "multiple seeds specified"},
      {{"-z", "--delimiter=,"}, "multiple delimiters specified"},
      {{"--prob", "0.5", "--prob", "0.6"}, "multiple probabilities specified"},
      {{"--prob", "0.5", "--key-fields", "1", "--key-fields", "2"}, "multiple key field lists specified"},
      {{"--weight-field", "1", "--weight-field", "2"}, "multiple weight fields specified"},
      {{"--field-delimiter", ",", "--field-delimiter", ";", "--weight-field", "1"}, "multiple field delimiters specified"},
  };
  for (const auto& [options, message] : twice) {
    auto args = options;
    args.insert(args.begin(), "lines");
    args.insert(args.end(), {"-e", "1"});
    expect_error(run_shufl(args), message, message);
  }
  expect_error(run_shufl({"lines", "-i", "1-2", "-i", "1-2"}), "multiple -i options specified", "-i twice");
  // The same value again (after parsing: 0.5 = 0.50, -z = --delimiter='\0') is accepted.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"lines", "--prob", "0.5", "--prob", "0.50", "--seed", "s", "-e", "1", "2"},
        {"lines", "-z", "--delimiter=\\0", "--seed", "s", "--seed", "s", "-e", "1", "2"},
        {"lines", "--prob", ".5", "--key-fields", "1", "--key-fields", "1", "--seed", "s", "-e", "1", "2"},
        {"lines", "-o", "/dev/null", "-o", "/dev/null", "-e", "1"}}) {
    const auto r = run_shufl(args);
    EXPECT_EQ(r.status, 0) << args[1] << ": " << r.err;
    EXPECT_EQ(r.err, "");
  }
  // GNU shuf itself, when installed, agrees on its own options.
  if (std::filesystem::exists("/usr/bin/shuf")) {
    const auto gnu = test::run_program("/usr/bin/shuf", {"-o", "a", "-o", "b", "-e", "1"}, {}, "shuf");
    EXPECT_EQ(gnu.err, "shuf: multiple output files specified\n");
    const auto ours = test::run_program(test::shufl_binary(), {"-o", "a", "-o", "b", "-e", "1"}, {}, "shuf");
    EXPECT_EQ(ours.err, gnu.err);
    EXPECT_EQ(ours.status, gnu.status);
  }
}

}  // namespace
}  // namespace shufl
