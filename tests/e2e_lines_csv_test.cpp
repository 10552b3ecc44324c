// End-to-end tests of `shufl lines --csv` and of field names from the header line: CSV records
// (quoted fields with the field delimiter, doubled quotes, line breaks, CRLF) come out whole and
// byte for byte in every mode, field values are read unquoted, malformed CSV is an error naming
// the line; without --csv a quote in a failing field read says that quoted CSV needs --csv.
// Records are checked with Python's csv module (tests/reference/lines_csv/csv_oracle.py), an
// independent reader.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "support/run.hpp"

namespace {

using shufl::test::run_result;
using shufl::test::run_shell;
using shufl::test::run_shufl;
using shufl::test::split;
using shufl::test::temp_dir;

// Runs `shufl lines`; GNU's locale quotes '…' (UTF-8 locales) in messages become '…', so the
// expectations hold in any locale.
run_result lines(std::vector<std::string> args, const std::string& input = {}) {
  args.insert(args.begin(), "lines");
  run_result r = run_shufl(args, input);
  for (const std::string q : {"\u2018", "\u2019"}) {
    for (auto at = r.err.find(q); at != std::string::npos; at = r.err.find(q, at)) r.err.replace(at, q.size(), "'");
  }
  return r;
}

// A CSV file with a header, quoted fields holding commas, a doubled quote, a line break inside
// a field, a CRLF record and empty fields.
const std::string kCities =
    "city,state,amount\n"
    "\"New York, NY\",NY,3\n"
    "Boston,\"MA\",0\n"
    "\"Chicago\nIllinois\",IL,\"2.5\"\n"
    "\"The \"\"Big\"\" Easy\",LA,1\r\n"
    "Austin,TX,4\n"
    "\"Portland, OR\",\"OR\",1e0\n"
    ",,2\n";

// Runs the oracle once for several checks (each a mode and its arguments); returns its output,
// one line per check ("ok ..." when it passes).
std::vector<std::string> oracle(const std::vector<std::string>& checks) {
  std::string command = "python3 " + shufl::test::reference_dir() + "/lines_csv/csv_oracle.py";
  for (std::size_t i = 0; i < checks.size(); ++i) command += (i ? " \\; " : " ") + checks[i];
  return split(run_shell(command).out, '\n');
}

TEST(E2eLinesCsv, RecordsComeOutWholeInEveryMode) {
  temp_dir dir;
  const std::string in = dir.write("in.csv", kCities);
  // Each run and its check: "perm" (the records, permuted) or "sample K" (K of them).
  const std::vector<std::pair<std::vector<std::string>, std::string>> runs = {
      {{"--seed", "1"}, "perm"},
      {{"--seed", "2", "--header", "1"}, "perm"},
      {{"--seed", "3", "--header", "1", "-n", "3"}, "sample 3"},
      {{"--seed", "3", "--header", "1", "-n", "3", "--keep-order"}, "sample 3"},
      {{"--seed", "4", "--header", "1", "--prob", "1"}, "perm"},
      {{"--seed", "5", "--header", "1", "--weight-field", "amount"}, "perm"},
      {{"--seed", "6", "--header", "1", "--weight-field", "3", "-n", "2"}, "sample 2"},
      {{"--random-source", in, "--header", "1"}, "perm"},
      {{"--random-source", in, "-n", "4"}, "sample 4"},
      {{"--seed", "7", "--header", "1", "-r", "-n", "20"}, "count"},
      {{"--seed", "8", "--header", "1", "--with-replacement", "-n", "20"}, "count"},
  };
  std::vector<std::string> checks = {"count " + in};  // the header and 7 records, for Python too
  std::vector<std::string> expected = {"8"};
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& [args, check] = runs[i];
    const std::string out = dir.file("out" + std::to_string(i) + ".csv");
    std::vector<std::string> a = {"--csv", in, "-o", out};
    a.insert(a.end(), args.begin(), args.end());
    const auto r = lines(a);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "");
    const bool header = std::find(args.begin(), args.end(), "--header") != args.end();
    if (check == "count") {  // -r and --with-replacement: 20 draws of whole records
      checks.push_back("count " + out);
      expected.push_back("21");
    } else {
      checks.push_back(check.substr(0, check.find(' ')) + " " + in + " " + out + check.substr(std::min(check.size(), check.find(' '))) +
                       (header ? " 1" : " 0"));
      expected.push_back("ok");
    }
  }
  const auto got = oracle(checks);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].substr(0, expected[i].size()), expected[i]) << checks[i] << ": " << got[i];
}

TEST(E2eLinesCsv, UnquotedCsvGivesTheOutputOfPlainLines) {
  // Without quotes, CSV records are lines and CSV fields are the comma-split fields: --csv
  // changes nothing, whatever the mode.
  std::string plain = "name,amount,group\n";
  for (int i = 1; i <= 40; ++i) plain += "n" + std::to_string(i) + "," + std::to_string(i % 7) + ",g" + std::to_string(i % 5) + "\n";
  const std::vector<std::vector<std::string>> modes = {
      {"--seed", "a"},
      {"--seed", "b", "--header", "1", "-n", "5"},
      {"--seed", "c", "--header", "1", "--field-delimiter", ",", "--weight-field", "2", "-n", "6"},
      {"--seed", "d", "--header", "1", "--field-delimiter", ",", "--weight-field", "2"},
      {"--seed", "e", "--header", "1", "--field-delimiter", ",", "--key-fields", "3", "--prob", "0.5"},
  };
  for (const auto& args : modes) {
    auto with_csv = args;
    with_csv.push_back("--csv");
    const auto a = lines(args, plain), b = lines(with_csv, plain);
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.out, b.out) << args[1];
    EXPECT_EQ(b.err, "");
  }
}

TEST(E2eLinesCsv, FieldValuesAreReadUnquoted) {
  // The weights: "2.5" is 2.5; Boston's 0 comes after every positive weight.
  const auto w = lines({"--csv", "--seed", "s", "--header", "1", "--weight-field", "amount"}, kCities);
  ASSERT_EQ(w.status, 0) << w.err;
  EXPECT_EQ(w.err, "");
  EXPECT_TRUE(w.out.ends_with("\nBoston,\"MA\",0\n")) << w.out;
  // A single positive weight: -n 1 is that record, always.
  const std::string one = "k,w\n\"a, b\",0\n\"c\nd\",\"0.5\"\n\"e\",0\n";
  for (const char* seed : {"1", "2", "3", "4"}) {
    EXPECT_EQ(lines({"--csv", "--seed", seed, "--header", "1", "--weight-field", "w", "-n", "1"}, one).out,
              "k,w\n\"c\nd\",\"0.5\"\n");
  }
  // Keys: "NY" and NY are one key, so both records are kept or dropped together, for any seed;
  // a key holding the field delimiter is one value ("a,b" is not a then b).
  const std::string keyed = "id,state\n1,\"NY\"\n2,NY\n3,\"a,b\"\n4,a\n5,\"TX\"\n6,TX\n";
  temp_dir dir;
  const std::string in = dir.write("keyed.csv", keyed);
  int kept_sizes = 0;
  std::vector<std::string> checks;
  for (int seed = 0; seed < 12; ++seed) {
    const std::string out = dir.file("out" + std::to_string(seed) + ".csv");
    const auto r = lines({"--csv", "--seed", std::to_string(seed), "--header", "1", "--key-fields", "state", "--prob",
                          "0.5", in, "-o", out});
    ASSERT_EQ(r.status, 0) << r.err;
    checks.push_back("keys " + in + " " + out + " 2 1");
    kept_sizes |= 1 << (split(shufl::test::read_file(out), '\n').size() - 1);
  }
  for (const auto& got : oracle(checks)) EXPECT_EQ(got.rfind("ok", 0), 0u) << got;
  EXPECT_GT(__builtin_popcount(static_cast<unsigned>(kept_sizes)), 1);  // not always all or nothing
}

TEST(E2eLinesCsv, HeaderNames) {
  // Names for both options, from a header that is itself CSV (a quoted name with a comma).
  const std::string input = "\"id, long\",amount,city\n1,2,x\n2,0,y\n3,5,x\n";
  const auto w = lines({"--csv", "--seed", "1", "--header", "1", "--weight-field", "amount", "-n", "2", "--keep-order"}, input);
  EXPECT_EQ(w.out, "\"id, long\",amount,city\n1,2,x\n3,5,x\n");
  const auto k = lines({"--csv", "--seed", "1", "--header", "1", "--key-fields", "city,id, long", "--prob", "1"}, input);
  EXPECT_EQ(k.status, 1);  // "id, long" is not one item of a comma-separated list
  EXPECT_NE(k.err.find("--key-fields 'id': no field of that name in header record 1"), std::string::npos) << k.err;
  const auto k2 = lines({"--csv", "--seed", "1", "--header", "1", "--key-fields", "city,1", "--prob", "1"}, input);
  EXPECT_EQ(k2.out, input);
  // Without --csv, names come from the header line split at the field delimiter (TAB here).
  EXPECT_EQ(lines({"--seed", "1", "--header", "1", "--weight-field", "w", "-n", "1"}, "k\tw\na\t0\nb\t1\n").out,
            "k\tw\nb\t1\n");
  // An unknown name lists the names; a long list is cut.
  const auto unknown = lines({"--csv", "--header", "1", "--weight-field", "amont"}, input);
  EXPECT_EQ(unknown.status, 1);
  EXPECT_EQ(unknown.out, "");
  EXPECT_EQ(unknown.err,
            "shufl: --weight-field 'amont': no field of that name in header record 1 (its fields: 'id, long', "
            "'amount', 'city')\n");
  std::string wide;
  for (int i = 0; i < 100; ++i) wide += (i ? "," : "") + std::string("column") + std::to_string(i);
  const auto cut = lines({"--csv", "--header", "1", "--weight-field", "x"}, wide + "\n");
  EXPECT_NE(cut.err.find(", ... (100 fields))\n"), std::string::npos) << cut.err;
  EXPECT_LT(cut.err.size(), 400u);
  // A name needs --header; an empty input has no header line.
  const auto no_header = lines({"--csv", "--weight-field", "amount"}, input);
  EXPECT_EQ(no_header.status, 1);
  EXPECT_EQ(no_header.err,
            "shufl: --weight-field 'amount': field names are read from the first header record: they need --header 1 "
            "(or more)\nTry 'shufl lines --help' for more information.\n");
  const auto empty = lines({"--csv", "--header", "1", "--weight-field", "amount"}, "");
  EXPECT_EQ(empty.status, 1);
  EXPECT_EQ(empty.err, "shufl: --weight-field 'amount': the input has no header record to read field names from\n");
}

TEST(E2eLinesCsv, ByteOrderMarkBeforeAQuotedHeader) {
  // Excel's "CSV UTF-8" export: a byte order mark, then quoted names. The names are found and
  // the header comes out verbatim, mark and all, from a file and from a pipe, in every mode.
  temp_dir dir;
  const std::string input = "\xEF\xBB\xBF\"name\",\"w\"\n\"x\",\"1\"\ny,0\n";
  const std::string file = dir.write("bom.csv", input);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--weight-field", "w"}, {"--weight-field", "w", "-n", "1"}, {"--key-fields", "name", "--prob", "1"}}) {
    std::vector<std::string> a = {"--csv", "--seed", "1", "--header", "1"};
    a.insert(a.end(), args.begin(), args.end());
    const auto piped = lines(a, input);
    a.push_back(file);
    const auto from_file = lines(a);
    for (const auto& r : {piped, from_file}) {
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.err, "");
      EXPECT_EQ(r.out.substr(0, 22), "\xEF\xBB\xBF\"name\",\"w\"\n\"x\",\"1\"\n") << args[0];
    }
  }
  // Without a header the first record's quoted field is read past the mark: "3" weighs 3.
  EXPECT_EQ(lines({"--csv", "--seed", "1", "--weight-field", "1", "-n", "1"}, "\xEF\xBB\xBF\"3\",a\n0,b\n").out,
            "\xEF\xBB\xBF\"3\",a\n");
  // Elsewhere the mark is data, and a quote after it malformed.
  EXPECT_EQ(lines({"--csv"}, "a\n\xEF\xBB\xBF\"b\"\n").err.rfind("shufl: line 2: a double quote inside an unquoted", 0), 0u);
  // A header that is the whole input, ending in a CR after a closing quote without the newline,
  // gets the newline, as the records of every mode do.
  const auto cr = lines({"--csv", "--header", "1"}, "\"a\"\r");
  EXPECT_EQ(cr.status, 0) << cr.err;
  EXPECT_EQ(cr.out, "\"a\"\r\n");
}

TEST(E2eLinesCsv, RandomSourceFromAPipeDrawsAsGnu) {
  // With -n from a pipe (or a file above 8 MiB) GNU shuf samples with a reservoir, drawing per
  // record: --csv makes the same draws over CSV records, so a file without quotes gives GNU's
  // output with and without --csv (it gave a partial Fisher–Yates's), and quoted records stay whole.
  temp_dir dir;
  std::string bytes;
  for (int i = 0; i < 4096; ++i) bytes += static_cast<char>((i * 151 + 7) % 256);
  const std::string source = dir.write("source.bin", bytes);
  std::string plain;
  for (int i = 1; i <= 30; ++i) plain += "r" + std::to_string(i) + "," + std::to_string(i % 4) + "\n";
  const auto without = lines({"--random-source", source, "-n", "4"}, plain);
  const auto with = lines({"--csv", "--random-source", source, "-n", "4"}, plain);
  ASSERT_EQ(without.status, 0) << without.err;
  EXPECT_EQ(with.out, without.out);
  EXPECT_EQ(split(with.out, '\n').size(), 4u);
  if (::access("/usr/bin/shuf", X_OK) == 0) {
    const auto gnu = shufl::test::run_program("/usr/bin/shuf", {"--random-source", source, "-n", "4"}, plain, "shuf");
    EXPECT_EQ(with.out, gnu.out);
  }
  const std::string quoted = "\"a\nb\",1\n\"c,d\",2\ne,3\n\"f\"\"\",4\n";
  const auto q = lines({"--csv", "--random-source", source, "-n", "4"}, quoted);
  EXPECT_EQ(q.status, 0) << q.err;
  EXPECT_EQ(q.out.size(), quoted.size());
  for (const char* r : {"\"a\nb\",1\n", "\"c,d\",2\n", "e,3\n", "\"f\"\"\",4\n"}) EXPECT_NE(q.out.find(r), std::string::npos) << r;
  const auto bad = lines({"--csv", "--random-source", source, "-n", "1"}, "a\nb\n\"c\n");
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err.rfind("shufl: line 3: a quoted CSV field opens here", 0), 0u) << bad.err;
}

TEST(E2eLinesCsv, MalformedCsvIsAnErrorNamingTheLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a,b\nc,d\"e\n", "line 2: a double quote inside an unquoted CSV field"},
      {"a,b\n\"x\ny\"z,1\n", "line 3: text after the closing quote of a quoted CSV field"},
      {"a,b\nc,\"d\ne\nf", "line 2: a quoted CSV field opens here and the input ends inside it"},
  };
  for (const auto& [input, message] : cases) {
    for (const auto& extra : std::vector<std::vector<std::string>>{{}, {"-n", "1"}, {"--prob", "1"}, {"--header", "2"}}) {
      std::vector<std::string> args = {"--csv", "--seed", "1"};
      args.insert(args.end(), extra.begin(), extra.end());
      const auto r = lines(args, input);
      EXPECT_EQ(r.status, 1) << input;
      // Output streams with --prob: the records kept before the error come out, as for lines.
      EXPECT_EQ(r.out, extra.size() == 2 && extra[0] == "--prob" ? "a,b\n" : "") << input;
      EXPECT_EQ(r.err.rfind("shufl: " + message, 0), 0u) << r.err;
    }
  }
  // Lines are counted through header records that span lines, from a file and from a pipe.
  temp_dir dir;
  const std::string spanning = "\"a\nb\",c\nx,1\ny,2\"\n";
  const std::string file = dir.write("spanning.csv", spanning);
  EXPECT_EQ(lines({"--csv", "--header", "1", file}).err.rfind("shufl: line 4: a double quote inside an unquoted", 0), 0u);
  EXPECT_EQ(lines({"--csv", "--header", "1", "-n", "1"}, spanning).err.rfind("shufl: line 4: a double quote", 0), 0u);
  // CRLF ends a record after a closing quote; a missing final newline is added, as for lines.
  EXPECT_EQ(lines({"--csv", "--seed", "1", "--prob", "1"}, "\"a\"\r\n\"b\"").out, "\"a\"\r\n\"b\"\n");
}

TEST(E2eLinesCsv, RefusalsAndHintsWithoutCsv) {
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--csv", "-z"}, "cannot combine -z and --csv options"},
           {{"--csv", "--delimiter", ";"}, "cannot combine --delimiter and --csv options"},
           {{"--csv", "-e", "a"}, "cannot combine -e and --csv options"},
           {{"--csv", "-i", "1-3"}, "cannot combine -i and --csv options"},
           {{"--csv", "--field-delimiter", "\""}, "with --csv the field delimiter cannot be a double quote, CR or LF"},
       }) {
    const auto r = lines(args, "a\n");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "shufl: " + message + "\nTry 'shufl lines --help' for more information.\n");
  }
  // The case: without --csv, "New York, NY" splits and the error says --csv.
  const auto e = lines({"--field-delimiter", ",", "--header", "1", "--weight-field", "amount"}, kCities);
  EXPECT_EQ(e.status, 1);
  EXPECT_NE(e.err.find("shufl: line 2: invalid weight 'NY'"), std::string::npos) << e.err;
  EXPECT_NE(e.err.find("quoted CSV fields need --csv\n"), std::string::npos) << e.err;
  // --bad-weights=skip skips, but says at the end that skipped lines held quotes.
  const auto s = lines({"--seed", "1", "--field-delimiter", ",", "--header", "1", "--weight-field", "3",
                        "--bad-weights", "skip"}, kCities);
  EXPECT_EQ(s.status, 0);
  EXPECT_NE(s.err.find("shufl: note: 5 of the skipped lines hold a double quote: if the input is quoted CSV, use "
                       "--csv\n"), std::string::npos) << s.err;
  // So does a name missing from a quoted header line (its names keep their quotes without --csv).
  const auto n = lines({"--header", "1", "--field-delimiter", ",", "--weight-field", "w"}, "\"name\",\"w\"\nx,1\n");
  EXPECT_EQ(n.status, 1);
  EXPECT_EQ(n.out, "");
  EXPECT_EQ(n.err, "shufl: --weight-field 'w': no field of that name in header line 1 (its fields: '\"name\"', '\"w\"'); "
                   "the line holds a double quote: without --csv, fields are split at every field delimiter and quotes "
                   "are data; quoted CSV fields need --csv\n");
  // A missing key field on a line with a quote says so too.
  const auto k = lines({"--prob", "1", "--field-delimiter", ",", "--key-fields", "3"}, "\"a,\nb\",c\n");
  EXPECT_EQ(k.status, 1);
  EXPECT_NE(k.err.find("shufl: line 1: fewer fields than --key-fields needs; the line holds a double quote"),
            std::string::npos) << k.err;
}

TEST(E2eLinesCsv, LargerThanMemoryIsRefusedBeforeAnyOutput) {
  temp_dir dir;
  std::string big;
  big.reserve(20u << 20);
  while (big.size() < (20u << 20)) big += "\"a, b\",1234567890123456789012345678901234567890\n";
  const std::string in = dir.write("big.csv", big);
  const auto r = lines({"--csv", "--memory", "16M", "--seed", "1", in});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  // The message states the input's size (the file's bytes) and what --memory leaves for it.
  EXPECT_NE(r.err.find(fmt::format("shufl: --csv shuffles in memory: this input needs more than {} bytes, and --memory "
                                   "leaves ", big.size())),
            std::string::npos)
      << r.err;
  // -n COUNT streams: no limit.
  const auto n = lines({"--csv", "--memory", "16M", "--seed", "1", "-n", "2", in});
  EXPECT_EQ(n.status, 0) << n.err;
  EXPECT_EQ(n.out, "\"a, b\",1234567890123456789012345678901234567890\n\"a, b\",1234567890123456789012345678901234567890\n");
}

}  // namespace

namespace {

// Without --header, a byte order mark belongs to the output's start, not to the record it
// preceded: the shuffle moved it into the middle (where shufl itself then refused the quote after
// it), and it became part of that record's first field, splitting the record's key group.
TEST(E2eLinesCsv, ByteOrderMarkStaysAtTheStartWithoutAHeader) {
  const std::string bom = "\xEF\xBB\xBF";
  const std::string input = bom + "\"a\",1\n\"b\",2\n\"c\",3\n\"d\",4\n";
  for (const std::string seed : {"1", "2", "3", "4", "5", "6"}) {
    for (const auto& mode : std::vector<std::vector<std::string>>{{}, {"-n", "3"}, {"--prob", "1"}}) {
      std::vector<std::string> a = {"--csv", "--seed", seed};
      a.insert(a.end(), mode.begin(), mode.end());
      const run_result r = lines(a, input);
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out.rfind(bom, 0), 0u) << r.out;
      EXPECT_EQ(r.out.find(bom, 1), std::string::npos) << r.out;
      // shufl reads its own output.
      const run_result again = lines({"--csv", "--seed", "9"}, r.out);
      EXPECT_EQ(again.status, 0) << again.err;
      EXPECT_EQ(again.out.size(), r.out.size());
    }
  }
  // A key group is one group whether its first record starts the file or not.
  const std::string grouped = bom + "x,1\nx,2\ny,3\ny,4\n";
  for (int seed = 1; seed <= 12; ++seed) {
    const run_result r = lines({"--csv", "--seed", std::to_string(seed), "--key-fields", "1", "--prob", "0.5"}, grouped);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string body = r.out.rfind(bom, 0) == 0 ? r.out.substr(3) : r.out;
    const auto count = [&](const std::string& key) {
      std::size_t n = 0;
      for (std::size_t at = body.find(key); at != std::string::npos; at = body.find(key, at + 1)) n += at == 0 || body[at - 1] == '\n';
      return n;
    };
    EXPECT_NE(count("x,"), 1u) << seed << ": " << r.out;
    EXPECT_NE(count("y,"), 1u) << seed << ": " << r.out;
  }
}

// A record with a field of 30 MB (quoted, without line breaks, then with 300,000 of them) before
// two small ones: -n 1 and the weighted -n 1 hold it once (the sample takes the buffer it was
// assembled in instead of a copy; the weight's field is unquoted alone), so they run in an
// address space where a second copy does not fit.
TEST(E2eLinesCsv, SamplingAHugeFieldHoldsItOnce) {
#ifdef SHUFL_SANITIZED
  GTEST_SKIP() << "AddressSanitizer reserves more address space than any ulimit -v here";
#endif
  temp_dir dir;
  const std::string flat = "\"" + std::string(30'000'000, 'x') + "\",1000000000\n";
  std::string broken = "\"";
  for (int i = 0; i < 300'000; ++i) broken += std::string(99, 'y') + "\n";
  broken += "\",1000000000\n";
  // Address space (KiB): before, -n 1 needed about 81 MB and 100 MB, the weighted -n 1 112 MB
  // and 131 MB; now both need about 69 MB and 97 MB (the line breaks' record grows in steps).
  const std::pair<const std::string*, const char*> cases[] = {{&flat, "75000"}, {&broken, "115000"}};
  for (const auto& [big, limit] : cases) {
    const std::string path = dir.write("big.csv", *big + "a,0.000000001\nb,0.000000001\n");
    for (const std::string mode : {"-n 1 --seed 4", "-n 1 --weight-field 2 --seed 1"}) {
      SCOPED_TRACE(mode);
      const std::string out = dir.file("out.csv");
      const run_result r = run_shell( std::string("ulimit -v ") + limit + "; '" + shufl::test::shufl_binary() + "' lines --csv " + mode +
                                     " -o '" + out + "' '" + path + "'");
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.err, "");
      EXPECT_TRUE(shufl::test::read_file(out) == *big);  // (not printed: 30 MB)
    }
  }
}

}  // namespace

namespace {

// Peak RSS (KiB) of `shufl lines --csv ARGS` reading `input` from a pipe (`cat`).
long peak_rss_kib(const std::string& args, const std::string& input) {
  const run_result r = run_shell("cat '" + input + "' | /usr/bin/time -f %M '" + shufl::test::shufl_binary() +
                                 "' lines --csv " + args + " 2>&1 >/dev/null");
  EXPECT_EQ(r.status, 0) << r.out.substr(0, 300);
  return r.status == 0 ? std::stol(r.out.substr(r.out.find_last_of('\n', r.out.size() - 2) + 1)) : 0;
}

// A 64 MiB quoted field (with line breaks every 100 bytes, then without any) costs at most 1.25
// times its size above what the same run costs on a small file: the record grows in one buffer
// without copies (a doubling std::string peaked at 2 to 3 times). Every mode that keeps records
// (-n with ChaCha20 and with GNU's draws, --prob, the weighted sample, --with-replacement) and the
// full shuffle of a pipe.
TEST(E2eLinesCsv, AHugeQuotedFieldCostsAboutItsSize) {
  if (::access("/usr/bin/time", X_OK) != 0) GTEST_SKIP() << "/usr/bin/time not present";
#if defined(__SANITIZE_ADDRESS__) || defined(SHUFL_SANITIZED)
  GTEST_SKIP() << "peak RSS is not meaningful under AddressSanitizer";
#endif
  temp_dir dir;
  constexpr std::size_t kField = std::size_t{64} << 20;
  std::string broken;
  broken.reserve(kField + 64);
  broken += "a,w\n1,2\n3,\"";
  while (broken.size() < kField) broken += std::string(99, 'y') + "\n";
  broken += "\"\n4,5\n";
  const std::string flat = "a,w\n1,2\n3,\"" + std::string(kField, 'x') + "\"\n4,5\n";
  const std::string small = dir.write("small.csv", "a,w\n1,2\n3,\"y\ny\"\n4,5\n");
  for (const std::string* big : std::vector<const std::string*>{&broken, &flat}) {
    const std::string path = dir.write("big.csv", *big);
    for (const std::string& mode : std::vector<std::string>{"--seed 4 -n 1", "-n 1 --random-source=" + path, "--seed 1 --prob 1",
                                   "--seed 1 --header 1 --weight-field a -n 3", "--seed 1 --with-replacement -n 1",
                                   "--seed 1"}) {
      SCOPED_TRACE(mode);
      const long base = peak_rss_kib(mode, small);
      const long peak = peak_rss_kib(mode, path);
      EXPECT_LT(static_cast<double>(peak - base), 1.25 * (kField >> 10)) << "peak " << peak << " KiB, base " << base;
    }
  }
}

// With --csv, messages count records, not lines (a record may span lines); "line L" still names
// the input line where something is; without --csv GNU's words stay.
TEST(E2eLinesCsv, MessagesSayRecords) {
  EXPECT_EQ(lines({"--csv", "-r", "--seed", "1"}, "").err, "shufl: no records to repeat\n");
  EXPECT_EQ(lines({"-r", "--seed", "1"}, "").err, "shufl: no lines to repeat\n");
  EXPECT_EQ(lines({"--csv", "-r"}, "").err, "shufl: no records to repeat\n");  // GNU's draws
  EXPECT_EQ(lines({"--csv", "--with-replacement", "-n", "2", "--seed", "1"}, "").err, "shufl: no records to draw from\n");
  const auto skipped = lines({"--csv", "--weight-field", "2", "--bad-weights=skip", "--seed", "1"},
                             "a,x\n\"b\nc\",1\nd,y\n");
  EXPECT_EQ(skipped.status, 0) << skipped.err;
  EXPECT_EQ(skipped.err, "shufl: warning: skipped 2 records with a bad weight (first: line 1: invalid weight 'x' "
                         "(a non-negative decimal number))\n");
  temp_dir dir;
  const std::string big = dir.write("big.csv", "\"" + std::string(17u << 20, 'a') + "\"\n");
  const auto held = lines({"--csv", "--with-replacement", "-n", "1", "--memory", "16M", "--seed", "1", big});
  EXPECT_EQ(held.status, 1);
  EXPECT_EQ(held.err.find("shufl: --with-replacement holds every record in memory"), 0u) << held.err;
  const auto header = lines({"--csv", "--header", "1", "--key-fields", "zz", "--prob", "1", "--seed", "1"}, "a,b\n1,2\n");
  EXPECT_EQ(header.status, 1);
  EXPECT_EQ(header.err, "shufl: --key-fields 'zz': no field of that name in header record 1 (its fields: 'a', 'b')\n");
  const auto plain = lines({"--field-delimiter", ",", "--header", "1", "--key-fields", "zz", "--prob", "1", "--seed", "1"},
                           "a,b\n1,2\n");
  EXPECT_EQ(plain.err, "shufl: --key-fields 'zz': no field of that name in header line 1 (its fields: 'a', 'b')\n");
}

}  // namespace
