// audit/recheck.hpp: the comparison of a page's report with a recomputed one (integers exactly,
// reals to 1e-9 of the larger magnitude, the same keys, strings and lengths), and the settings
// an audit document states. audit/signature.hpp: keys round-trip through their PEM text and
// RFC 8032's test vector 1 (the empty message) signs and verifies as published.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "shufl/audit/recheck.hpp"
#include "shufl/audit/signature.hpp"
#include "shufl/error.hpp"
#include "support/run.hpp"

namespace {

using json = nlohmann::ordered_json;
namespace sa = shufl::audit;

TEST(AuditRecheck, IntegersExactlyRealsTo1e9) {
  const json page = json::parse(R"({"decks": 300, "p": 0.5, "big": 1e6, "name": "x", "t": [1, 2]})");
  EXPECT_TRUE(sa::report_differences(page, page).empty());
  EXPECT_TRUE(sa::report_differences(page, json::parse(R"({"decks": 300, "p": 0.5000000004, "big": 1000000.0009,
                                                           "name": "x", "t": [1, 2]})")).empty());
  const auto d = sa::report_differences(page, json::parse(R"({"decks": 301, "p": 0.500000002, "big": 1000000.002,
                                                            "name": "y", "t": [1]})"));
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d[0], "audit.decks: page 300, recomputed 301");
  EXPECT_EQ(d[1].rfind("audit.p: ", 0), 0u);
  EXPECT_EQ(d[2].rfind("audit.big: ", 0), 0u);
  EXPECT_EQ(d[3], "audit.name: page \"x\", recomputed \"y\"");
  EXPECT_EQ(d[4], "audit.t: 2 entries on the page, 1 recomputed");
  const auto keys = sa::report_differences(json::parse(R"({"a": 1})"), json::parse(R"({"b": 1})"));
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0], "audit.a: not in the recomputed report");
  EXPECT_EQ(keys[1], "audit.b: not on the page");
}

TEST(AuditRecheck, SettingsOfAReport) {
  // The game, its deal and the lags come from `settings`, never from a test's note.
  const json doc = json::parse(R"({"pack": {"name": "standard", "decks": 2, "jokers": 1, "dealt": 7}, "skipped": 3,
    "alpha": 0.05, "settings": {"labels": null, "game": "poker", "deal": {"hands": 6, "cards": 4}, "lags": 5},
    "tests": [{"name": "poker-hands", "note": "pooled: x; 2 seats: statistic and p of seat 2"}]})");
  const sa::report_settings s = sa::settings_of_report(doc);
  EXPECT_EQ(s.reader.decks, 2u);
  EXPECT_EQ(s.reader.jokers, 1u);
  EXPECT_EQ(s.reader.dealt, 7u);
  EXPECT_TRUE(s.reader.skip_bad);
  EXPECT_TRUE(s.reader.custom_labels.empty());
  EXPECT_EQ(s.options.alpha, 0.05);
  EXPECT_EQ(s.options.lags, 5u);
  EXPECT_EQ(s.options.game.game, sa::game_kind::poker);
  EXPECT_EQ(s.options.game.hands, 6u);
  EXPECT_EQ(s.options.game.cards, 4u);
  // A --cards-file pack: its labels, in canonical order.
  const json custom = json::parse(R"({"pack": {"name": "custom", "decks": 1, "jokers": 0, "dealt": null}, "skipped": 0,
    "alpha": 0.01, "settings": {"labels": ["x y", "z"], "game": null, "deal": null, "lags": 1}, "tests": []})");
  const sa::report_settings c = sa::settings_of_report(custom);
  EXPECT_EQ(c.reader.custom_labels, (std::vector<std::string>{"x y", "z"}));
  EXPECT_FALSE(c.reader.pack.has_value());
  EXPECT_EQ(c.options.game.game, sa::game_kind::none);
  EXPECT_EQ(c.options.lags, 1u);
  EXPECT_FALSE(c.reader.dealt.has_value());
  EXPECT_FALSE(c.reader.skip_bad);
  // A document without settings (made before they were recorded) is refused by name.
  try {
    (void)sa::settings_of_report(json::parse(R"({"pack": {"name": "standard", "decks": 1, "jokers": 0, "dealt": null},
      "skipped": 0, "alpha": 0.01, "tests": []})"));
    ADD_FAILURE() << "no throw";
  } catch (const shufl::error& e) {
    EXPECT_NE(std::string(e.what()).find("has no settings"), std::string::npos) << e.what();
  }
  EXPECT_THROW(sa::settings_of_report(json::parse(R"({"pack": {}, "settings": {}})")), shufl::error);
  EXPECT_THROW(sa::parse_report_data("{not json"), shufl::error);
}

TEST(AuditRecheck, OnlyThePageOfOneDeckFileIsRecomputed) {
  EXPECT_EQ(sa::recheckable_document(R"([{"input": {"sha256": "ab"}}])")["input"]["sha256"], "ab");
  for (const char* data : {R"([])", R"([{"input": {"sha256": "ab"}}, {"input": {"sha256": "cd"}}])",
                           R"([{"input": {"algorithm": "naive"}}])"}) {
    EXPECT_THROW(sa::recheckable_document(data), shufl::error) << data;
  }
  const shufl::test::temp_dir dir;
  EXPECT_THROW(sa::recheck_deck_file(json::parse(R"({"pack": {}})"), dir.path(), 1), shufl::error);  // no settings
}

TEST(AuditSignature, AKeyPairIsWrittenNewWithItsModes) {
  const shufl::test::temp_dir dir;
  const std::string name = dir.file("k");
  const sa::key_pair_files keys = sa::write_key_pair(name);
  EXPECT_EQ(shufl::test::read_file(name), keys.secret_pem);
  EXPECT_EQ(shufl::test::read_file(name + ".pub"), keys.public_pem);
  struct stat st {};
  ASSERT_EQ(::stat(name.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat((name + ".pub").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  EXPECT_EQ(sa::fingerprint(sa::parse_public_key(keys.public_pem)), sa::fingerprint(keys.pub));
  try {
    sa::write_key_pair(name);
    FAIL() << "overwritten";
  } catch (const shufl::error& e) {
    EXPECT_EQ(std::string(e.what()), "--keygen: '" + name + "' exists: a key is never overwritten");
  }
  EXPECT_EQ(shufl::test::read_file(name), keys.secret_pem);
}

TEST(AuditSignature, Rfc8032TestVector1) {
  // RFC 8032 section 7.1, TEST 1: secret key (seed), public key, and the signature of "".
  const std::string seed_hex = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
  const std::string pub_hex = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
  const std::string sig_hex =
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";
  const auto bytes = [](const std::string& hex, unsigned char* out) {
    for (std::size_t i = 0; i < hex.size() / 2; ++i) out[i] = static_cast<unsigned char>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  };
  unsigned char der[48] = {0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20};
  bytes(seed_hex, der + 16);
  const sa::secret_key key = sa::parse_secret_key("-----BEGIN PRIVATE KEY-----\n" + sa::base64(der, 48) +
                                                  "\n-----END PRIVATE KEY-----\n");
  unsigned char pub[32];
  bytes(pub_hex, pub);
  EXPECT_EQ(std::string(key.pub.bytes.begin(), key.pub.bytes.end()), std::string(pub, pub + 32));
  sa::signature expected{};
  bytes(sig_hex, expected.data());
  EXPECT_EQ(sa::sign("", key), expected);
  EXPECT_TRUE(sa::verify("", expected, key.pub));
  EXPECT_FALSE(sa::verify("x", expected, key.pub));
  // The public key's PEM (RFC 8410's SubjectPublicKeyInfo) reads back as the same key.
  unsigned char spki[44] = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};
  bytes(pub_hex, spki + 12);
  const sa::public_key p = sa::parse_public_key("junk before\r\n-----BEGIN PUBLIC KEY-----\r\n" + sa::base64(spki, 44) +
                                                "\r\n-----END PUBLIC KEY-----\r\n");
  EXPECT_EQ(p.bytes, key.pub.bytes);
  EXPECT_THROW(sa::parse_public_key("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"), shufl::error);
  // A generated pair: its files read back, and what one signs the other verifies.
  const sa::key_pair_files files = sa::generate_key_pair();
  const sa::secret_key s = sa::parse_secret_key(files.secret_pem);
  EXPECT_EQ(s.pub.bytes, files.pub.bytes);
  EXPECT_TRUE(sa::verify("page", sa::sign("page", s), sa::parse_public_key(files.public_pem)));
}

}  // namespace
