// Unit tests of audit/deck_file.hpp: a deck file read at offsets (never mapped), its SHA-256
// (against libsodium's, an independent implementation), its identity for merges, its shards of
// whole lines (hand-derived), and a file that changes while it is read: one error, never SIGBUS
// (a mapping's pages past the new end raise it) nor a message about a line cut short.
#include <gtest/gtest.h>
#include <sodium.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "shufl/audit/deck_file.hpp"
#include "shufl/error.hpp"
#include "support/run.hpp"
#include "support/test_rng.hpp"

namespace shufl::audit {
namespace {

std::string sodium_sha256(const std::string& bytes) {
  unsigned char d[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(d, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  std::string out;
  for (unsigned char c : d) out += "0123456789abcdef"[c >> 4], out += "0123456789abcdef"[c & 15];
  return out;
}

// `count` shuffled 52-card decks in poker codes (about 156 bytes a line).
std::string decks(std::size_t count, std::uint64_t seed) {
  test::test_rng r{seed};
  std::string s;
  for (std::size_t i = 0; i < count; ++i) s += test::deck_line(r.deck(52));
  return s;
}

std::string changed_error_of(const deck_file& f, unsigned threads) {
  audit_options o;
  o.threads = threads;
  try {
    (void)tally_deck_file(f, {0, f.size()}, f.name(), reader_options{}, o);
  } catch (const error& e) {
    return e.what();
  }
  return "no error";
}

TEST(AuditDeckFile, ReadsHashesAndCutsShardsAtLineStarts) {
  ASSERT_GE(sodium_init(), 0);
  test::temp_dir dir;
  const std::string text = "aaa\nbb\ncccc\n";  // lines start at bytes 0, 4, 7
  const auto f = deck_file::open(dir.write("t.txt", text));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->size(), 12u);
  EXPECT_EQ(f->name(), "'" + dir.file("t.txt") + "'");
  char b[8] = {};
  EXPECT_EQ(f->read_at(9, b, 8), 3u);  // clipped at the end
  EXPECT_EQ(std::string(b, 3), "cc\n");
  EXPECT_EQ(f->read_at(12, b, 8), 0u);
  EXPECT_EQ(sha256_hex(*f, {0, 12}), sodium_sha256(text));
  EXPECT_EQ(sha256_hex(*f, {4, 7}), sodium_sha256("bb\n"));
  EXPECT_EQ(sha256_hex(std::string_view(text)), sodium_sha256(text));
  // N = 3: floor(12k/3) = 0, 4, 8, 12; byte 4 starts a line, byte 8 does not (the line from 7
  // runs to 11), so the shards are [0, 4), [4, 12), [12, 12).
  EXPECT_EQ(shard_range(*f, 0, 3), (byte_range{0, 4}));
  EXPECT_EQ(shard_range(*f, 1, 3), (byte_range{4, 12}));
  EXPECT_EQ(shard_range(*f, 2, 3), (byte_range{12, 12}));
  // N = 2: floor(12/2) = 6 is inside "bb\n" (byte 5 is 'b'), the next line starts at 7.
  EXPECT_EQ(shard_range(*f, 0, 2), (byte_range{0, 7}));
  EXPECT_EQ(shard_range(*f, 1, 2), (byte_range{7, 12}));
  // Not regular files: read as streams.
  EXPECT_FALSE(deck_file::open("/dev/null").has_value());
  EXPECT_THROW((void)deck_file::open(dir.file("absent")), error);
}

TEST(AuditDeckFile, IdentityIsTheFirstAndLastMiBWithTheSize) {
  ASSERT_GE(sodium_init(), 0);
  test::temp_dir dir;
  std::string big(3 << 20, 'x');
  for (std::size_t i = 0; i < big.size(); i += 997) big[i] = static_cast<char>('a' + i % 26);
  const auto f = deck_file::open(dir.write("big.txt", big));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(deck_file_id(*f), sodium_sha256(big.substr(0, 1 << 20) + big.substr(big.size() - (1 << 20))));
  const auto small = deck_file::open(dir.write("small.txt", "As\n"));
  EXPECT_EQ(deck_file_id(*small), sodium_sha256("As\nAs\n"));  // first and last min(S, 1 MiB) bytes
  // The name plays no part.
  const auto copy = deck_file::open(dir.write("other-name.txt", big));
  EXPECT_EQ(deck_file_id(*copy), deck_file_id(*f));
}

TEST(AuditDeckFile, TallyMatchesTheTextInMemory) {
  test::temp_dir dir;
  const std::string text = decks(20000, 5);  // about 3 MiB: several threads' ranges
  const auto f = deck_file::open(dir.write("d.txt", text));
  ASSERT_TRUE(f.has_value());
  audit_options o;
  o.threads = 3;
  const auto [t, sha] = tally_deck_file(*f, {0, f->size()}, f->name(), reader_options{}, o);
  const audit_tally m = tally_text(text, f->name(), 0, reader_options{}, o);
  EXPECT_EQ(sha, sodium_sha256(text));
  EXPECT_EQ(t.sums.decks(), 20000u);
  EXPECT_EQ(t.sums.card_position.counts(), m.sums.card_position.counts());
  EXPECT_EQ(t.first, m.first);
  EXPECT_EQ(t.last, m.last);
}

// Truncated after open, before the read (the mapping of earlier versions died with SIGBUS here,
// and a range cut mid-line read as "unknown card"): one error, on every thread count.
TEST(AuditDeckFile, TruncatedWhileReadIsOneErrorNotASignal) {
  test::temp_dir dir;
  const std::string text = decks(20000, 7);
  const std::string path = dir.write("d.txt", text);
  const std::string changed = "the file changed while it was read";
  for (const unsigned threads : {1u, 3u}) {
    for (const off_t cut : {off_t{0}, off_t{1000}, static_cast<off_t>(text.size() / 2), static_cast<off_t>(text.size() - 7)}) {
      std::ofstream(path, std::ios::binary) << text;
      const auto f = deck_file::open(path);
      ASSERT_TRUE(f.has_value());
      ASSERT_EQ(::truncate(path.c_str(), cut), 0);
      const std::string e = changed_error_of(*f, threads);
      EXPECT_NE(e.find(changed), std::string::npos) << "cut at " << cut << ", " << threads << " threads: " << e;
      EXPECT_EQ(e.find("unknown card"), std::string::npos) << e;
    }
  }
}

TEST(AuditDeckFile, AppendedOrRewrittenWhileReadIsTheSameError) {
  test::temp_dir dir;
  const std::string text = decks(300, 9);
  const std::string path = dir.write("d.txt", text);
  {
    const auto f = deck_file::open(path);
    std::ofstream(path, std::ios::binary | std::ios::app) << decks(1, 10);
    EXPECT_NE(changed_error_of(*f, 2).find("the file changed while it was read"), std::string::npos);
  }
  {
    std::ofstream(path, std::ios::binary) << text;
    const auto f = deck_file::open(path);
    ::usleep(20000);  // a later modification time than open's
    std::ofstream(path, std::ios::binary) << decks(300, 11);  // the same size, other decks
    EXPECT_NE(changed_error_of(*f, 2).find("the file changed while it was read"), std::string::npos);
  }
}

}  // namespace
}  // namespace shufl::audit
