// End-to-end tests of the sampler modes of `shufl lines` (issue 17): --keep-order, --prob,
// --key-fields, --weight-field, --with-replacement and their refusals; that GNU's unambiguous
// option prefixes stay unambiguous with the new long options (checked against GNU shuf where
// present); golden seeded outputs (tests/golden/lines/, recomputed independently in Python by
// independent_modes.py in ctest golden.independent).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/run.hpp"

namespace {

using shufl::test::read_file;
using shufl::test::run_program;
using shufl::test::run_result;
using shufl::test::run_shell;
using shufl::test::run_shufl;
using shufl::test::split;
using shufl::test::temp_dir;

const std::string kGnuShuf = "/usr/bin/shuf";
const std::string kGolden = shufl::test::source_dir() + "/tests/golden/lines/";

run_result lines(std::vector<std::string> args, const std::string& input = {}) {
  args.insert(args.begin(), "lines");
  return run_shufl(args, input);
}

std::string seq(int lo, int hi) {
  std::string s;
  for (int i = lo; i <= hi; ++i) s += std::to_string(i) + "\n";
  return s;
}

std::vector<int> numbers(const std::string& text) {
  std::vector<int> v;
  for (const auto& l : split(text, '\n')) v.push_back(std::stoi(l));
  return v;
}

bool strictly_increasing(const std::vector<int>& v) { return std::adjacent_find(v.begin(), v.end(), std::greater_equal<>()) == v.end(); }

// Whether `sub`'s lines appear in `all` in the same order (a subsequence).
bool subsequence(const std::string& sub, const std::string& all) {
  const auto s = split(sub, '\n'), a = split(all, '\n');
  std::size_t j = 0;
  for (const auto& line : a) {
    if (j < s.size() && s[j] == line) ++j;
  }
  return j == s.size();
}

// ---- --keep-order ----

TEST(E2eLinesKeepOrder, SameLinesAsWithoutItInInputOrder) {
  temp_dir dir;
  const std::string f = dir.write("in", seq(1, 50));
  for (int s = 0; s < 20; ++s) {
    const std::string seed = "ko" + std::to_string(s);
    const auto plain = lines({"--seed", seed, "-n", "5", f});
    const auto kept = lines({"--seed", seed, "-n", "5", "--keep-order", f});
    ASSERT_EQ(kept.status, 0) << kept.err;
    auto a = numbers(plain.out), b = numbers(kept.out);
    EXPECT_TRUE(strictly_increasing(b)) << kept.out;
    std::sort(a.begin(), a.end());
    EXPECT_EQ(a, b);
    // A pipe gives the same lines.
    EXPECT_EQ(lines({"--seed", seed, "-n", "5", "--keep-order"}, seq(1, 50)).out, kept.out);
  }
}

TEST(E2eLinesKeepOrder, EchoRangeZeroTerminatedAndHeader) {
  const auto e = lines({"--seed", "k", "-n", "3", "--keep-order", "-e", "a", "b", "c", "d", "e", "f"});
  const auto e_plain = lines({"--seed", "k", "-n", "3", "-e", "a", "b", "c", "d", "e", "f"});
  auto sorted = split(e_plain.out, '\n');
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(split(e.out, '\n'), sorted);
  // -i: the huge range of the sparse sampler, in input (= numeric) order.
  const auto i = lines({"--seed", "k", "-i", "1-18446744073709551615", "-n", "4", "--keep-order"});
  ASSERT_EQ(i.status, 0) << i.err;
  std::vector<unsigned long long> v;
  for (const auto& l : split(i.out, '\n')) v.push_back(std::stoull(l));
  ASSERT_EQ(v.size(), 4u);
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  const auto z = lines({"--seed", "k", "-z", "-n", "2", "--keep-order"}, std::string("x\0y\0z\0w\0", 8));
  EXPECT_EQ(z.out.size(), 4u);
  EXPECT_TRUE(subsequence(split(z.out, '\0')[0] + "\n" + split(z.out, '\0')[1] + "\n", "x\ny\nz\nw\n"));
  // --header 2: the header first, then the sample in input order.
  const auto h = lines({"--seed", "k", "--header", "2", "-n", "3", "--keep-order"}, seq(1, 30));
  const auto hv = numbers(h.out);
  ASSERT_EQ(hv.size(), 5u);
  EXPECT_EQ(hv[0], 1);
  EXPECT_EQ(hv[1], 2);
  EXPECT_TRUE(strictly_increasing(hv));
  // -n larger than the input: everything, in input order.
  EXPECT_EQ(lines({"--seed", "k", "-n", "100", "--keep-order"}, seq(1, 7)).out, seq(1, 7));
}

// ---- --prob ----

TEST(E2eLinesProb, KeepsASubsequenceTheSameFromFilePipeEchoAndRange) {
  temp_dir dir;
  const std::string f = dir.write("in", seq(1, 2000));
  const auto file = lines({"--seed", "p", "--prob", "0.1", f});
  ASSERT_EQ(file.status, 0) << file.err;
  EXPECT_TRUE(subsequence(file.out, seq(1, 2000)));
  const auto n = split(file.out, '\n').size();
  EXPECT_GT(n, 120u);  // Binomial(2000, 0.1): mean 200, sd 13.4
  EXPECT_LT(n, 280u);
  EXPECT_EQ(lines({"--seed", "p", "--prob", "0.1"}, seq(1, 2000)).out, file.out);
  EXPECT_EQ(lines({"--seed", "p", "--prob", "0.1", "-i", "1-2000"}).out, file.out);
  std::vector<std::string> echo = {"--seed", "p", "--prob", "0.1", "-e"};
  for (int i = 1; i <= 2000; ++i) echo.push_back(std::to_string(i));
  EXPECT_EQ(lines(echo).out, file.out);
  // At most -n COUNT: the first COUNT kept lines.
  const auto head = lines({"--seed", "p", "--prob", "0.1", "-n", "5", f});
  EXPECT_EQ(head.out, [&] {
    std::string s;
    const auto all = split(file.out, '\n');
    for (std::size_t i = 0; i < 5; ++i) s += all[i] + "\n";
    return s;
  }());
  // P = 1 keeps everything; unseeded runs work too.
  EXPECT_EQ(lines({"--prob", "1"}, seq(1, 100)).out, seq(1, 100));
  const auto unseeded = lines({"--prob", "0.5"}, seq(1, 100));
  EXPECT_EQ(unseeded.status, 0);
  EXPECT_TRUE(subsequence(unseeded.out, seq(1, 100)));
}

TEST(E2eLinesProb, OutputFileOnTheInputIsSafeAndHeaderStays) {
  temp_dir dir;
  const std::string f = dir.write("in", seq(1, 500));
  const auto r = lines({"--seed", "p", "--prob", "0.2", "-o", f, f});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto expected = lines({"--seed", "p", "--prob", "0.2"}, seq(1, 500)).out;
  EXPECT_EQ(read_file(f), expected);
  EXPECT_FALSE(expected.empty());
  const auto h = lines({"--seed", "p", "--prob", "0.2", "--header", "1"}, "name\n" + seq(1, 500));
  EXPECT_EQ(h.out.substr(0, 5), "name\n");
  EXPECT_TRUE(subsequence(h.out.substr(5), seq(1, 500)));
}

TEST(E2eLinesProb, InvalidProbabilities) {
  for (const std::string bad : {"0", "1.5", "-0.1", "abc", "", "nan", "inf", "0.5x", " 0.5", "+0.5"}) {
    const auto r = lines({"--prob", bad}, "a\n");
    EXPECT_EQ(r.status, 1) << bad;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("shufl: invalid probability: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("(a decimal number P, 0 < P <= 1)"), std::string::npos) << r.err;
  }
  EXPECT_EQ(lines({"--prob", "1e-3", "--seed", "x"}, "a\n").status, 0);
}

// ---- distinct sampling ----

TEST(E2eLinesDistinct, KeysAreKeptWholeAndTheSameInAnyFile) {
  // 200 keys × 4 lines in a scrambled order ("key,n").
  std::string input;
  for (int r = 0; r < 4; ++r) {
    for (int k = 0; k < 200; ++k) input += "v" + std::to_string(r) + ",k" + std::to_string((k * 37 + r * 11) % 200) + "\n";
  }
  const auto out = lines({"--seed", "d", "--prob", "0.5", "--key-fields", "2", "--field-delimiter", ","}, input);
  ASSERT_EQ(out.status, 0) << out.err;
  EXPECT_TRUE(subsequence(out.out, input));
  std::map<std::string, int> per_key;
  for (const auto& l : split(out.out, '\n')) ++per_key[l.substr(l.find(',') + 1)];
  for (const auto& [k, c] : per_key) EXPECT_EQ(c, 4) << k;
  EXPECT_GT(per_key.size(), 60u);  // Binomial(200, 0.5): mean 100, sd 7.1
  EXPECT_LT(per_key.size(), 140u);
  // Another file with the same keys among others, other field layout: the same keys kept.
  std::string other;
  for (int k = 0; k < 400; ++k) other += "k" + std::to_string(k) + "\tzzz\n";
  const auto o = lines({"--seed", "d", "--prob", "0.5", "--key-fields", "1"}, other);
  std::set<std::string> kept_other;
  for (const auto& l : split(o.out, '\n')) kept_other.insert(l.substr(0, l.find('\t')));
  for (int k = 0; k < 200; ++k) {
    const std::string key = "k" + std::to_string(k);
    EXPECT_EQ(per_key.count(key) == 1, kept_other.count(key) == 1) << key;
  }
}

TEST(E2eLinesDistinct, MissingKeyFieldNamesTheLine) {
  const auto r = lines({"--seed", "d", "--prob", "0.5", "--key-fields", "2", "--header", "1"},
                       "h\ta\nx\t1\ny\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: line 3: fewer fields than --key-fields needs\n");
  // Output streams, as tsv-sample's: the lines kept before the failing one (with the header)
  // have gone out; here the same as the run over the valid lines alone.
  const auto valid = lines({"--seed", "d", "--prob", "0.5", "--key-fields", "2", "--header", "1"},
                           "h\ta\nx\t1\n");
  ASSERT_EQ(valid.status, 0);
  EXPECT_EQ(r.out, valid.out == "h\ta\n" ? "" : valid.out);  // no kept line: nothing at all
}

TEST(E2eLinesDistinct, KeyFieldErrorAfterStreamingWritesExactlyTheKeptLinesBefore) {
  // A missing key field on line 1000 (and on the last of 150,000 lines, after more than 1 MiB
  // of output): stdout holds exactly the lines kept before it, whole, whatever the output
  // buffer held; the error names the line; exit 1; with -o FILE the file is not created.
  std::string input;
  for (int i = 1; i <= 999; ++i) input += "v" + std::to_string(i) + "\tk" + std::to_string(i % 50) + "\n";
  const std::string bad = input + "bad line\n" + "v1\tk1\n";
  const auto r = lines({"--seed", "d", "--prob", "0.5", "--key-fields", "2"}, bad);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "shufl: line 1000: fewer fields than --key-fields needs\n");
  const auto valid = lines({"--seed", "d", "--prob", "0.5", "--key-fields", "2"}, input);
  ASSERT_EQ(valid.status, 0);
  EXPECT_EQ(r.out, valid.out);  // the decision for a key depends only on key and seed
  EXPECT_FALSE(r.out.empty());
  std::string big;
  for (int i = 1; i <= 150000; ++i) big += "v" + std::to_string(i) + "\tk" + std::to_string(i) + "\n";
  const auto all = lines({"--seed", "d", "--prob", "1", "--key-fields", "2"}, big + "tail\n");
  EXPECT_EQ(all.status, 1);
  EXPECT_EQ(all.err, "shufl: line 150001: fewer fields than --key-fields needs\n");
  EXPECT_EQ(all.out.size(), big.size());
  EXPECT_TRUE(all.out == big);  // P = 1 keeps every line: exactly the input before the bad one
  temp_dir dir;
  const auto o = lines({"--seed", "d", "--prob", "0.5", "--key-fields", "2", "-o", dir.file("out")}, bad);
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.out, "");
  EXPECT_NE(::access(dir.file("out").c_str(), F_OK), 0);
}

// ---- weighted ----

TEST(E2eLinesWeighted, ZeroWeightsComeLastAndKeepOrderKeepsInputOrder) {
  const std::string input = "a\t0\nb\t0\nc\t1\nd\t2\ne\t0\nf\t3\n";
  for (int s = 0; s < 15; ++s) {
    const auto r = lines({"--seed", "w" + std::to_string(s), "--weight-field", "2"}, input);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto l = split(r.out, '\n');
    ASSERT_EQ(l.size(), 6u);
    std::set<std::string> first3 = {l[0], l[1], l[2]};
    EXPECT_EQ(first3, (std::set<std::string>{"c\t1", "d\t2", "f\t3"})) << r.out;
    const auto k = lines({"--seed", "w" + std::to_string(s), "--weight-field", "2", "-n", "2", "--keep-order"}, input);
    EXPECT_TRUE(subsequence(k.out, input)) << k.out;
    EXPECT_EQ(split(k.out, '\n').size(), 2u);
  }
}

TEST(E2eLinesWeighted, BadWeightsNameTheLineOrAreSkippedWithAWarning) {
  const std::string input = "h\tw\na\t1\nb\t-2\nc\n";
  const auto r = lines({"--weight-field", "2", "--header", "1", "-n", "1"}, input);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("shufl: line 3: invalid weight "), std::string::npos) << r.err;
  for (const std::string bad : {"nan", "inf", "x", "", "-0"}) {
    const auto b = lines({"--weight-field", "2"}, "a\t1\nb\t" + bad + "\n");
    EXPECT_EQ(b.status, 1) << bad;
    EXPECT_NE(b.err.find("shufl: line 2: invalid weight "), std::string::npos) << bad << b.err;
  }
  const auto missing = lines({"--weight-field", "3"}, "a\t1\n");
  EXPECT_EQ(missing.err, "shufl: line 1: no field 3 for the weight\n");
  const auto skipped = lines({"--seed", "s", "--weight-field", "2", "--header", "1", "--bad-weights=skip"}, input);
  EXPECT_EQ(skipped.status, 0);
  EXPECT_EQ(skipped.out, "h\tw\na\t1\n");
  EXPECT_NE(skipped.err.find("shufl: warning: skipped 2 lines with a bad weight (first: line 3: invalid weight "),
            std::string::npos)
      << skipped.err;
  // Without --csv quoted CSV is not parsed: the error says so when the line holds a double quote.
  const auto csv = lines({"--field-delimiter", ",", "--weight-field", "2"}, "\"New York, NY\",3\n");
  EXPECT_EQ(csv.status, 1);
  EXPECT_EQ(csv.err.rfind("shufl: line 1: invalid weight ", 0), 0u) << csv.err;
  EXPECT_NE(csv.err.find(" NY\"", 0), std::string::npos) << csv.err;  // quoted as the locale quotes
  EXPECT_NE(csv.err.find(" (a non-negative decimal number); the line holds a double quote: without --csv, fields are "
                         "split at every field delimiter and quotes are data; quoted CSV fields need --csv\n"),
            std::string::npos)
      << csv.err;
}

// ---- with replacement ----

TEST(E2eLinesWithReplacement, DrawsWithRepeatsNeverAZeroWeight) {
  const auto u = lines({"--seed", "r", "--with-replacement", "-n", "30"}, "a\nb\nc\n");
  ASSERT_EQ(u.status, 0) << u.err;
  const auto l = split(u.out, '\n');
  EXPECT_EQ(l.size(), 30u);
  EXPECT_EQ(std::set<std::string>(l.begin(), l.end()), (std::set<std::string>{"a", "b", "c"}));
  const auto w = lines({"--seed", "r", "--with-replacement", "-n", "200", "--weight-field", "2", "--keep-order"},
                       "a\t1\nb\t0\nc\t2\n");
  const auto wl = split(w.out, '\n');
  EXPECT_EQ(wl.size(), 200u);
  EXPECT_EQ(std::count(wl.begin(), wl.end(), "b\t0"), 0);
  EXPECT_TRUE(std::is_sorted(wl.begin(), wl.end()));  // input order: a before c
  // -i: the same draws as the numbers given as lines, and instant for a huge range.
  EXPECT_EQ(lines({"--seed", "r", "--with-replacement", "-n", "9", "-i", "5-14"}).out,
            lines({"--seed", "r", "--with-replacement", "-n", "9"}, seq(5, 14)).out);
  const auto huge = lines({"--seed", "r", "--with-replacement", "-n", "3", "-i", "1-18446744073709551615"});
  EXPECT_EQ(huge.status, 0) << huge.err;
  EXPECT_EQ(split(huge.out, '\n').size(), 3u);
  EXPECT_EQ(lines({"--with-replacement", "-n", "3", "-i", "5-4"}).err, "shufl: no lines to draw from\n");
  const auto empty = lines({"--with-replacement", "-n", "3"}, "");
  EXPECT_EQ(empty.status, 1);
  EXPECT_EQ(empty.err, "shufl: no lines to draw from\n");
  EXPECT_EQ(lines({"--with-replacement", "-n", "0"}, "").status, 0);
}

TEST(E2eLinesModes, ModesThatHoldEveryLineRespectMemory) {
  // 2.5 million short lines (about 19 MB with bookkeeping more than 16M): refused before any
  // output; the streaming modes do not hold them and run.
  const std::string big = seq(1, 2500000);
  for (const auto& args : std::vector<std::vector<std::string>>{{"--weight-field", "1"},
                                                               {"--with-replacement", "-n", "3"}}) {
    auto a = args;
    a.insert(a.end(), {"--memory", "16M", "--seed", "m"});
    const auto r = lines(a, big);
    EXPECT_EQ(r.status, 1) << args[0];
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("holds every line in memory, and the input needs more than 16777216 bytes"),
              std::string::npos)
        << r.err;
  }
  const auto ok = lines({"--weight-field", "1", "-n", "3", "--memory", "16M", "--seed", "m"}, big);
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(split(ok.out, '\n').size(), 3u);
}

// ---- numbers at the edges of binary64, and bounds ----

TEST(E2eLinesWeighted, SubnormalAndHugeWeightsEndAndKeepTheirLaw) {
  // A subnormal weight once made every key +inf and the entering record's retry loop endless.
  const auto r = run_shell("printf '1e-320\\n1e-320\\n' | timeout 20 " + shufl::test::shufl_binary() +
                           " lines --weight-field 1 -n 1 --seed 1");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "1e-320\n");
  EXPECT_EQ(r.err, "");
  // Equal subnormal weights: a weighted shuffle is not input order for every seed (it was).
  // Over 60 seeds each of 2 lines comes first Binomial(60, 1/2) times: |z| < 5.3.
  int first_a = 0;
  for (int seed = 0; seed < 60; ++seed) {
    const auto o = lines({"--weight-field", "2", "--seed", std::to_string(seed)}, "a\t5e-324\nb\t5e-324\n");
    ASSERT_EQ(o.status, 0) << o.err;
    ASSERT_TRUE(o.out == "a\t5e-324\nb\t5e-324\n" || o.out == "b\t5e-324\na\t5e-324\n") << o.out;
    first_a += o.out[0] == 'a';
  }
  EXPECT_LT(std::abs(first_a - 30) / std::sqrt(15.0), 5.3) << first_a;
  // 1e-310 vs 3e-310 over 60 seeds: the heavier first Binomial(60, 3/4) times (was ~6%).
  int heavier = 0;
  for (int seed = 0; seed < 60; ++seed) {
    heavier += lines({"--weight-field", "1", "-n", "1", "--seed", "t" + std::to_string(seed)}, "1e-310\n3e-310\n").out == "3e-310\n";
  }
  EXPECT_LT(std::abs(heavier - 45) / std::sqrt(60 * 0.75 * 0.25), 5.3) << heavier;
}

TEST(E2eLinesWithReplacement, WeightsWhoseTotalOverflowsDrawByTheirRatio) {
  // 1e308, 1e308, 1: the total overflowed and every draw was the last line. Now the first two
  // take half each (Binomial(4000, 1/2): |z| < 5.3) and the last (probability 5e-309) none.
  const auto r = lines({"--with-replacement", "--weight-field", "1", "-n", "4000", "--seed", "o"}, "1e308\n1e308\n1\n");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto l = split(r.out, '\n');
  ASSERT_EQ(l.size(), 4000u);
  EXPECT_EQ(std::count(l.begin(), l.end(), "1e308"), 4000);
  // Which 1e308 line: number them.
  const auto n = lines({"--with-replacement", "--weight-field", "2", "-n", "4000", "--seed", "o"}, "a\t1e308\nb\t1e308\nc\t1\n");
  const auto nl = split(n.out, '\n');
  const auto a = std::count(nl.begin(), nl.end(), "a\t1e308");
  EXPECT_EQ(std::count(nl.begin(), nl.end(), "c\t1"), 0);
  EXPECT_LT(std::abs(static_cast<double>(a) - 2000) / std::sqrt(1000.0), 5.3) << a;
}

TEST(E2eLinesWithReplacement, DrawsStreamInBoundedMemory) {
#ifdef SHUFL_SANITIZED
  GTEST_SKIP() << "ulimit -v cannot hold a sanitizer build (ASan maps terabytes)";
#endif
  // -r -n 10^8 held 1 GB of draws before the first line; now the draws stream out: under a
  // 200 MB address-space limit the first lines come at once and head ends the run.
  const auto r = run_shell("ulimit -v 200000; " + shufl::test::shufl_binary() +
                           " lines --with-replacement -n 100000000 --seed s -e a b | head -n 3");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(split(r.out, '\n').size(), 3u) << r.err;
  EXPECT_EQ(r.err, "");
  // The streamed draws are the draws of the list form: the first of -n 50 are -n 5.
  const auto five = lines({"--with-replacement", "-n", "5", "--seed", "s"}, seq(1, 9));
  const auto fifty = lines({"--with-replacement", "-n", "50", "--seed", "s"}, seq(1, 9));
  EXPECT_EQ(fifty.out.substr(0, five.out.size()), five.out);
  // --keep-order: the same draws in input order (counts per line when draws outnumber lines,
  // sorted draws otherwise).
  for (const char* k : {"5", "50", "5000"}) {
    for (const bool range : {false, true}) {
      std::vector<std::string> args = {"--with-replacement", "-n", k, "--seed", "s"};
      if (range) args.insert(args.end(), {"-i", "1-9"});
      const auto plain = lines(args, range ? "" : seq(1, 9));
      args.push_back("--keep-order");
      const auto kept = lines(args, range ? "" : seq(1, 9));
      ASSERT_EQ(kept.status, 0) << kept.err;
      auto sorted = numbers(plain.out);
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(numbers(kept.out), sorted) << k << range;
    }
  }
  // --keep-order has to hold the draws: bounded by --memory, refused before any output.
  const auto big = lines({"--with-replacement", "-n", "1000000000", "--keep-order", "-i", "1-1000000000000", "--memory", "16M"});
  EXPECT_EQ(big.status, 1);
  EXPECT_EQ(big.out, "");
  EXPECT_NE(big.err.find("--keep-order with --with-replacement holds 1000000000 draws or counts in memory, more than 16777216 bytes"),
            std::string::npos)
      << big.err;
}

TEST(E2eLinesWeighted, AWeightWithACarriageReturnIsShownEscaped) {
  // A CRLF file's weight: the CR is shown as GNU's quote shows it, not sent to the terminal.
  const auto r = run_program(shufl::test::shufl_binary(), {"lines", "--weight-field", "2"}, "a\t1.5\r\n", {},
                             {"LC_ALL=C"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "shufl: line 1: invalid weight '1.5\\r' (a non-negative decimal number)\n");
  const auto u = run_program(shufl::test::shufl_binary(), {"lines", "--weight-field", "2"}, "a\t\x1b]0;x\a\n", {},
                             {"LC_ALL=C.UTF-8"});
  EXPECT_EQ(u.err, "shufl: line 1: invalid weight \u2018\\033]0;x\\a\u2019 (a non-negative decimal number)\n");
  // The same quoting as GNU shuf's own messages (its quote()), in both locales.
  if (access(kGnuShuf.c_str(), X_OK) == 0) {
    for (const char* locale : {"LC_ALL=C", "LC_ALL=C.UTF-8"}) {
      const std::string count = "1\r\\\x01'\xc3\xa9\xff";
      const auto gnu = run_program(kGnuShuf, {"-n", count}, "", {}, {locale});
      const auto ours = run_program(shufl::test::shufl_binary(), {"lines", "-n", count}, "", {}, {locale});
      const auto tail = [](const std::string& e) { return e.substr(e.find(": ") + 2, e.find('\n') - e.find(": ") - 2); };
      EXPECT_EQ(tail(ours.err), tail(gnu.err)) << locale;
    }
  }
}

// ---- --key-fields as cut -f ----

TEST(E2eLinesDistinct, KeyFieldListsMeanWhatCutMeans) {
  std::string input;
  for (int i = 0; i < 300; ++i) input += "k" + std::to_string(i % 37) + "\tv" + std::to_string(i % 5) + "\tx" + std::to_string(i % 3) + "\n";
  const auto with = [&](const std::string& list) {
    const auto r = lines({"--seed", "c", "--prob", "0.5", "--key-fields", list}, input);
    EXPECT_EQ(r.status, 0) << list << r.err;
    return r.out;
  };
  EXPECT_EQ(with("3,1"), with("1,3"));
  EXPECT_EQ(with("1,1"), with("1"));
  EXPECT_EQ(with("2-"), with("2,3"));
  EXPECT_EQ(with("-2"), with("1-2"));
  EXPECT_EQ(with("1 3"), with("1,3"));
  EXPECT_EQ(with("3-,1"), with("1,3"));
  EXPECT_NE(with("1"), with("2"));
  // cut's selection: the kept lines' key is what cut -f prints; every line of a kept key is kept.
  const auto kept = with("3,1");
  std::set<std::string> kept_keys;
  for (const auto& l : split(kept, '\n')) {
    const auto f = split(l, '\t');
    kept_keys.insert(f[0] + "\t" + f[2]);
  }
  std::size_t expected = 0;
  for (const auto& l : split(input, '\n')) {
    const auto f = split(l, '\t');
    expected += kept_keys.count(f[0] + "\t" + f[2]);
  }
  EXPECT_EQ(split(kept, '\n').size(), expected);
  // Refusals say why, in cut's words.
  const auto bad = lines({"--prob", "0.5", "--key-fields", "3-2"}, input);
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("invalid field list: "), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find(": invalid decreasing range (as cut -f: 2, 1,3, 2-4, 2- or -3)"), std::string::npos) << bad.err;
  // An open range needs only its first field; a closed one its last.
  EXPECT_EQ(lines({"--prob", "1", "--key-fields", "3-"}, "a\tb\tc\n").out, "a\tb\tc\n");
  EXPECT_EQ(lines({"--prob", "1", "--key-fields", "4-"}, "a\tb\tc\n").err, "shufl: line 1: fewer fields than --key-fields needs\n");
}

TEST(E2eLinesDistinct, KeyFieldListMemoryFollowsTheListNotItsNumbers) {
#ifdef SHUFL_SANITIZED
  GTEST_SKIP() << "ulimit -v cannot hold a sanitizer build (ASan maps terabytes)";
#endif
  // Every range of a long list once became one entry per field: a list of 12,000 ranges of
  // 4096 fields took gigabytes. Now ranges are kept as ranges: under a 200 MB limit it runs.
  std::string list = "1-4096";
  for (int i = 0; i < 12000; ++i) list += ",1-4096";
  const auto r = run_shell("ulimit -v 200000; printf 'a\\tb\\n' | " + shufl::test::shufl_binary() +
                           " lines --prob 1 --key-fields " + list + "," + "1-1000000000000 2>&1; echo \"exit $?\"");
  EXPECT_EQ(r.out, "shufl: line 1: fewer fields than --key-fields needs\nexit 1\n");
  const auto open = run_shell("ulimit -v 200000; printf 'a\\tb\\n' | " + shufl::test::shufl_binary() +
                              " lines --prob 1 --key-fields " + list + ",2-");
  EXPECT_EQ(open.status, 0) << open.err;
  EXPECT_EQ(open.out, "a\tb\n");
}

// ---- refusals ----

TEST(E2eLinesModes, CombinationsThatMakeNoSenseAreRefused) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--prob", "0.5", "--random-source", "/dev/zero"}, "cannot combine --prob and --random-source options"},
      {{"--keep-order", "-n", "2", "--random-source", "/dev/zero"}, "cannot combine --keep-order and --random-source options"},
      {{"--weight-field", "1", "--random-source", "/dev/zero"}, "cannot combine --weight-field and --random-source options"},
      {{"--keep-order", "-r", "-n", "2"}, "cannot combine -r and --keep-order options"},
      {{"--with-replacement", "-r", "-n", "2"}, "cannot combine -r and --with-replacement options"},
      {{"--prob", "0.5", "-r"}, "cannot combine -r and --prob options"},
      {{"--prob", "0.5", "--weight-field", "1"}, "cannot combine --prob and --weight-field options"},
      {{"--prob", "0.5", "--with-replacement", "-n", "1"}, "cannot combine --prob and --with-replacement options"},
      {{"--keep-order"}, "option --keep-order needs -n COUNT"},
      {{"--with-replacement"}, "option --with-replacement needs -n COUNT (-r repeats without end)"},
      {{"--key-fields", "1"}, "option --key-fields needs --prob P (distinct sampling)"},
      {{"--field-delimiter", ","}, "option --field-delimiter needs --key-fields or --weight-field"},
      {{"--bad-weights", "skip"}, "option --bad-weights needs --weight-field"},
      {{"--weight-field", "1", "--delimiter", "\\t"}, "the field delimiter cannot be the line delimiter"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = lines(args, "a\n");
    EXPECT_EQ(r.status, 1) << message;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "shufl: " + message + "\nTry 'shufl lines --help' for more information.\n");
  }
  for (const auto& [args, fragment] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--key-fields", "0", "--prob", "1"}, "invalid field list"},
           {{"--weight-field", "1,2"}, "invalid weight field"},
           {{"--bad-weights", "ignore", "--weight-field", "1"}, "invalid --bad-weights action"},
           {{"--field-delimiter", "ab", "--weight-field", "1"}, "invalid delimiter"}}) {
    const auto r = lines(args, "a\n");
    EXPECT_EQ(r.status, 1) << fragment;
    EXPECT_NE(r.err.find("shufl: " + fragment), std::string::npos) << r.err;
  }
}

TEST(E2eLinesModes, HelpListsEveryNewOption) {
  const auto h = lines({"--help"});
  for (const char* o : {"--keep-order", "--prob=P", "--key-fields=LIST", "--field-delimiter=C",
                        "--weight-field=F", "--bad-weights=ACTION", "--with-replacement", "--csv"}) {
    EXPECT_NE(h.out.find(o), std::string::npos) << o;
  }
}

// ---- GNU option prefixes ----

// GNU shuf 9.1's long options. A prefix that names exactly one of them is accepted by GNU; it
// must name the same option in shufl, whatever options shufl adds.
const std::vector<std::string> kGnuLongOptions = {"echo", "input-range", "head-count", "output", "random-source",
                                                  "repeat", "zero-terminated", "help", "version"};

std::vector<std::string> gnu_unambiguous_prefixes(const std::string& name) {
  std::vector<std::string> out;
  for (std::size_t len = 1; len <= name.size(); ++len) {
    const std::string p = name.substr(0, len);
    int hits = 0;
    for (const auto& o : kGnuLongOptions) hits += o.rfind(p, 0) == 0 ? 1 : 0;
    if (hits == 1 || p == name) out.push_back(p);
  }
  return out;
}

TEST(E2eLinesModes, EveryUnambiguousGnuPrefixStillNamesItsOption) {
  temp_dir dir;
  const std::string src = dir.write("src", std::string(64, '\x5a'));
  const std::string outfile = dir.file("out");
  // For each GNU option: arguments around it (X is the option as written).
  const auto context = [&](const std::string& name, const std::string& x) -> std::vector<std::string> {
    if (name == "echo") return {"--seed=s", x, "a", "b", "c"};
    if (name == "input-range") return {"--seed=s", x + "=1-5"};
    if (name == "head-count") return {"--seed=s", "-i", "1-9", x + "=3"};
    if (name == "output") return {"--seed=s", "-i", "1-3", x + "=" + outfile};
    if (name == "random-source") return {"-i", "1-5", x + "=" + src};
    if (name == "repeat") return {"--seed=s", "-i", "1-3", "-n", "4", x};
    if (name == "zero-terminated") return {"--seed=s", "-e", "a", "b", x};
    return {x};  // help, version
  };
  const bool have_gnu = ::access(kGnuShuf.c_str(), X_OK) == 0;
  int checked = 0;
  for (const auto& name : kGnuLongOptions) {
    const auto full = lines(context(name, "--" + name));
    ASSERT_EQ(full.status, 0) << name << full.err;
    const std::string full_file = name == "output" ? read_file(outfile) : "";
    for (const auto& p : gnu_unambiguous_prefixes(name)) {
      const auto r = lines(context(name, "--" + p));
      EXPECT_EQ(r.status, 0) << "--" << p << ": " << r.err;
      EXPECT_EQ(r.err, "") << "--" << p;
      EXPECT_EQ(r.out, full.out) << "--" << p;
      if (name == "output") {
        EXPECT_EQ(read_file(outfile), full_file) << "--" << p;
      }
      if (have_gnu && name != "help" && name != "version") {
        // The oracle: GNU accepts the same prefix (seeds are ours: give GNU a random source).
        auto args = context(name, "--" + p);
        args.erase(std::remove(args.begin(), args.end(), std::string("--seed=s")), args.end());
        if (name != "random-source") args.push_back("--random-source=" + src);
        EXPECT_EQ(run_program(kGnuShuf, args, "", "shuf").status, 0) << "GNU rejects --" << p;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 60);
  // GNU's ambiguous prefixes stay ambiguous, and so do the new options' shared ones.
  for (const std::string p : {"--r", "--h", "--he", "--k", "--w"}) {
    const auto r = lines({p, "-e", "a"});
    EXPECT_EQ(r.status, 1) << p;
    EXPECT_NE(r.err.find("is ambiguous"), std::string::npos) << p << r.err;
  }
  // The new options by their own unambiguous prefixes.
  EXPECT_EQ(lines({"--seed=s", "--kee", "--hea=2", "-i", "1-9"}).out, lines({"--seed=s", "--keep-order", "-n", "2", "-i", "1-9"}).out);
  EXPECT_EQ(lines({"--seed=s", "--p=0.5", "-i", "1-99"}).out, lines({"--seed=s", "--prob=0.5", "-i", "1-99"}).out);
  EXPECT_EQ(lines({"--seed=s", "--we=1", "--wi", "-n", "3"}, "1\n2\n").out,
            lines({"--seed=s", "--weight-field=1", "--with-replacement", "-n", "3"}, "1\n2\n").out);
}

// ---- goldens ----

TEST(E2eLinesModes, GoldenSeededOutputs) {
  const std::string in = kGolden + "input.txt", w = kGolden + "weighted.tsv";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"seed_keep_order_n5.out", {"--seed", "golden", "-n", "5", "--keep-order", in}},
      {"seed_prob.out", {"--seed", "golden", "--prob", "0.3", in}},
      {"seed_distinct.out", {"--seed", "golden", "--prob", "0.3", "--key-fields", "3", w}},
      {"seed_weighted_n5.out", {"--seed", "golden", "--weight-field", "2", "-n", "5", w}},
      {"seed_weighted_all.out", {"--seed", "golden", "--weight-field", "2", w}},
      {"seed_replace_n8.out", {"--seed", "golden", "--with-replacement", "-n", "8", in}},
      {"seed_replace_weighted_n8.out", {"--seed", "golden", "--with-replacement", "-n", "8", "--weight-field", "2", w}},
  };
  for (const auto& [file, args] : cases) {
    const auto r = lines(args);
    EXPECT_EQ(r.status, 0) << file << r.err;
    EXPECT_EQ(r.out, read_file(kGolden + file)) << file;
    auto piped = args;
    piped.pop_back();
    EXPECT_EQ(lines(piped, read_file(args.back())).out, r.out) << file << " from a pipe";
  }
  EXPECT_EQ(lines({"--seed", "golden", "--prob", "0.001"}, seq(1, 100000)).out,
            read_file(kGolden + "seed_prob_seq100000.out"));
}

}  // namespace
