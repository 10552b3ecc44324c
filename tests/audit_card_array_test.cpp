// Unit tests of audit::audit_array (include/shufl/audit/card_array.hpp): decks held as an array
// of card numbers give the report audit_decks gives the same decks as text, whatever the integer
// type, strides, base or threads; bad rows are named by their 0-based row and column (the first
// one, whatever the threads).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "shufl/audit.hpp"
#include "shufl/audit/card_array.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"
#include "support/test_rng.hpp"

using namespace shufl;

namespace {

struct decks_in_memory {
  std::vector<std::vector<std::uint32_t>> decks;  // canonical indices 0..51
  explicit decks_in_memory(std::size_t count, std::uint64_t seed) {
    test::test_rng rng{seed};
    for (std::size_t t = 0; t < count; ++t) decks.push_back(rng.deck(52));
  }
  std::string text() const {  // numbers 1..52, as a deck file
    std::string s;
    for (const auto& d : decks) {
      for (std::size_t i = 0; i < d.size(); ++i) s += (i ? " " : "") + std::to_string(d[i] + 1);
      s += '\n';
    }
    return s;
  }
  template <class T>
  std::vector<T> column_major(std::uint32_t base) const {  // element (r, c) at [c · rows + r]
    std::vector<T> a(decks.size() * 52);
    for (std::size_t r = 0; r < decks.size(); ++r)
      for (std::size_t c = 0; c < 52; ++c) a[c * decks.size() + r] = static_cast<T>(decks[r][c] + base);
    return a;
  }
};

audit::audit_report from_text(const std::string& text, const audit::audit_options& options = {}) {
  text_reader in(text, "decks");
  audit::reader_options o;
  o.pack = pack_kind::standard;
  audit::deck_reader reader(in, o);
  return audit::audit_decks(reader, options);
}

void expect_same(const audit::audit_report& a, const audit::audit_report& b) {
  ASSERT_EQ(a.tests.size(), b.tests.size());
  EXPECT_EQ(a.decks, b.decks);
  EXPECT_EQ(a.decision.summary, b.decision.summary);
  for (std::size_t i = 0; i < a.tests.size(); ++i) {
    EXPECT_EQ(a.tests[i].name, b.tests[i].name);
    EXPECT_EQ(a.tests[i].statistic, b.tests[i].statistic) << a.tests[i].name;
    EXPECT_EQ(a.tests[i].ln_p, b.tests[i].ln_p) << a.tests[i].name;
    EXPECT_EQ(a.tests[i].table, b.tests[i].table) << a.tests[i].name;
  }
}

// The column-major array `m` (element (r, c) at [c · rows + r]) of `rows` decks of 52 cards.
template <class T>
audit::card_array column_major_array(const std::vector<T>& m, std::size_t rows, audit::card_int type) {
  audit::card_array a;
  a.data = m.data();
  a.type = type;
  a.rows = rows;
  a.columns = 52;
  a.row_stride = sizeof(T);
  a.column_stride = static_cast<std::ptrdiff_t>(rows * sizeof(T));
  return a;
}

}  // namespace

TEST(AuditCardArray, SameReportAsTextForAnyLayoutAndThreads) {
  const decks_in_memory d(9000, 11);  // three blocks of 4096 and a part
  const auto want = from_text(d.text());
  const auto pack = audit::make_audit_pack({});
  const auto a16 = d.column_major<std::int16_t>(1);
  auto a = column_major_array(a16, d.decks.size(), audit::card_int::i16);
  for (unsigned threads : {1u, 2u, 3u}) {
    audit::audit_options o;
    o.threads = threads;
    expect_same(audit::audit_array(a, pack, std::nullopt, o), want);
  }
  const auto u8 = d.column_major<std::uint8_t>(0);
  a.data = u8.data();
  a.type = audit::card_int::u8;
  a.row_stride = 1;
  a.column_stride = static_cast<std::ptrdiff_t>(d.decks.size());
  a.zero_based = true;
  expect_same(audit::audit_array(a, pack, std::nullopt, {}), want);
}

// --lags: position-pairs over lags 1..L, as audit_decks counts them; out of 1..64 refused in
// audit_decks's words.
TEST(AuditCardArray, HonoursLags) {
  const decks_in_memory d(3000, 13);
  const auto u8 = d.column_major<std::uint8_t>(1);
  const auto a = column_major_array(u8, d.decks.size(), audit::card_int::u8);
  const auto pack = audit::make_audit_pack({});
  audit::audit_options o;
  o.lags = 3;
  const auto r = audit::audit_array(a, pack, std::nullopt, o);
  EXPECT_EQ(r.lags, 3u);
  expect_same(r, from_text(d.text(), o));
  const auto law = [](const audit::audit_report& x) {
    for (const auto& t : x.tests) {
      if (t.name == "position-pairs") return t.law;
    }
    return std::string();
  };
  EXPECT_NE(law(r).find("lags 1..3,"), std::string::npos) << law(r);
  EXPECT_NE(law(audit::audit_array(a, pack, std::nullopt, {})).find("lags 1..2,"), std::string::npos);
  for (const std::size_t lags : {0u, 65u}) {
    o.lags = lags;
    try {
      (void)audit::audit_array(a, pack, std::nullopt, o);
      FAIL() << "no error";
    } catch (const error& e) {
      EXPECT_EQ(std::string(e.what()), "--lags must be 1 to 64, not " + std::to_string(lags));
    }
  }
}

TEST(AuditCardArray, NamesTheFirstBadRowAndColumn) {
  decks_in_memory d(10000, 12);
  auto m = d.column_major<std::uint64_t>(1);
  const std::size_t rows = d.decks.size();
  m[5 * rows + 9000] = 53;   // row 9000, column 5: out of range
  m[7 * rows + 4500] = m[6 * rows + 4500];  // row 4500, column 7: a repeat
  auto a = column_major_array(m, rows, audit::card_int::u64);
  const auto pack = audit::make_audit_pack({});
  for (unsigned threads : {1u, 3u}) {
    audit::audit_options o;
    o.threads = threads;
    try {
      (void)audit::audit_array(a, pack, std::nullopt, o);
      FAIL() << "no error";
    } catch (const error& e) {
      EXPECT_EQ(std::string(e.what()),
                "<array>: row 4500, column 7: card " + std::to_string(m[6 * rows + 4500]) +
                    " appears more often than the pack has it");
    }
  }
  m[7 * rows + 4500] = d.decks[4500][7] + 1;
  try {
    (void)audit::audit_array(a, pack, std::nullopt, {});
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()), "<array>: row 9000, column 5: unknown card 53 (numbers run from 1 to 52)");
  }
  a.columns = 51;
  EXPECT_THROW((void)audit::audit_array(a, pack, std::nullopt, {}), error);
  a.columns = 52;
  a.rows = 0;
  EXPECT_THROW((void)audit::audit_array(a, pack, std::nullopt, {}), error);
}

TEST(AuditCardArray, StopEndsTheRun) {
  const decks_in_memory d(50000, 13);
  const auto m = d.column_major<std::uint8_t>(1);
  const auto a = column_major_array(m, d.decks.size(), audit::card_int::u8);
  EXPECT_THROW((void)audit::audit_array(a, audit::make_audit_pack({}), std::nullopt, {}, [] { return true; }), error);
}
