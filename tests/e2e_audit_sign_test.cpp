// End-to-end tests of signed audit reports: `shufl audit --keygen NAME` (NAME mode 0600 and
// NAME.pub, never over a file), `--report r.html --sign NAME` (the key's fingerprint on the page,
// one signature line) and `--verify r.html --key NAME.pub [FILE]` (exit 0 good, 3 bad signature
// or a number FILE does not give, 1 unreadable). OpenSSL 3 checks the same signature with the
// commands docs/audit.md gives, and computes the fingerprint on its own: independent of
// libsodium and of shufl.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <string>

#include "support/run.hpp"

namespace shufl::test {
namespace {

struct signed_run {
  temp_dir dir;
  std::string decks, key, page;
};

// A deck file, a key pair and a signed page of it (with --meta and --game poker).
void make_signed(signed_run& s) {
  const auto made = run_shufl({"deck", "--count", "300", "--seed", "sign"});
  ASSERT_EQ(made.status, 0);
  s.decks = s.dir.write("decks.txt", made.out);
  s.key = s.dir.file("lab");
  const auto k = run_shufl({"audit", "--keygen", s.key});
  ASSERT_EQ(k.status, 0) << k.err;
  s.page = s.dir.file("r.html");
  const auto r = run_shufl({"audit", s.decks, "--game", "poker", "--meta", "lab=Acme <Labs>", "--report", s.page,
                            "--sign", s.key});
  ASSERT_EQ(r.status, 0) << r.err;
}

TEST(E2eAuditSign, KeygenWritesAPrivateKeyAndNeverOverwrites) {
  temp_dir dir;
  const std::string key = dir.file("k");
  const auto r = run_shufl({"audit", "--keygen", key});
  ASSERT_EQ(r.status, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(key.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat((key + ".pub").c_str(), &st), 0);
  // OpenSSL reads both files; the fingerprint printed is the SHA-256 of the 32 public key bytes.
  const auto fp = run_shell("openssl pkey -pubin -in '" + key + ".pub' -outform DER | tail -c 32 | sha256sum | cut -c1-64");
  ASSERT_EQ(fp.status, 0) << fp.err;
  EXPECT_NE(r.out.find("fingerprint: " + fp.out), std::string::npos) << r.out << fp.out;
  // OpenSSL derives the same public key from the secret key file.
  const auto derived = run_shell("openssl pkey -in '" + key + "' -pubout");
  EXPECT_EQ(derived.out, read_file(key + ".pub"));
  const std::string before = read_file(key);
  const auto again = run_shufl({"audit", "--keygen", key});
  EXPECT_EQ(again.status, 1);
  EXPECT_EQ(again.err, "shufl: --keygen: '" + key + "' exists: a key is never overwritten\n");
  EXPECT_EQ(read_file(key), before);
  // NAME.pub existing alone is refused too, and NAME is not left behind.
  const std::string other = dir.file("o");
  dir.write("o.pub", "keep");
  EXPECT_EQ(run_shufl({"audit", "--keygen", other}).status, 1);
  EXPECT_NE(::stat(other.c_str(), &st), 0);
  EXPECT_EQ(read_file(other + ".pub"), "keep");
}

TEST(E2eAuditSign, SignedPageVerifiesWithShuflAndOpenssl) {
  signed_run s;
  make_signed(s);
  const std::string html = read_file(s.page);
  const auto fp = run_shell("openssl pkey -pubin -in '" + s.key + ".pub' -outform DER | tail -c 32 | sha256sum | cut -c1-64");
  ASSERT_EQ(fp.status, 0);
  const std::string fingerprint = fp.out.substr(0, 64);
  EXPECT_NE(html.find("<code id=\"key-fingerprint\">" + fingerprint + "</code>"), std::string::npos);
  EXPECT_NE(html.find("Acme &lt;Labs&gt;"), std::string::npos);  // --meta is inside the signed part
  const auto v = run_shufl({"audit", "--verify", s.page, "--key", s.key + ".pub"});
  EXPECT_EQ(v.status, 0) << v.err;
  EXPECT_EQ(v.out, "good signature by key " + fingerprint + "\n");
  const auto f = run_shufl({"audit", "--verify", s.page, "--key", s.key + ".pub", s.decks});
  EXPECT_EQ(f.status, 0) << f.err;
  EXPECT_NE(f.out.find("every number recomputed from"), std::string::npos) << f.out;
  // The commands of docs/audit.md.
  const std::string openssl = "cd '" + s.dir.path() + "' && sed '/^<p id=\"shufl-signature\"/d' r.html > r.signed && "
                              "sed -n 's/^<p id=\"shufl-signature\".*<code>\\([^<]*\\)<.*/\\1/p' r.html "
                              "| base64 -d > r.sig && openssl pkeyutl -verify -pubin -inkey lab.pub -rawin -in r.signed "
                              "-sigfile r.sig";
  const auto o = run_shell(openssl);
  EXPECT_EQ(o.status, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("Signature Verified Successfully"), std::string::npos) << o.out;
}

TEST(E2eAuditSign, AnEditedCellOrAnotherFileFails) {
  signed_run s;
  make_signed(s);
  std::string html = read_file(s.page);
  // One visible cell of the battery table: card-position's deck count.
  const std::string cell = "<tr data-test=\"card-position\"><td>card-position</td><td>300</td>";
  const auto at = html.find(cell);
  ASSERT_NE(at, std::string::npos);
  std::string edited = html;
  edited.replace(at, cell.size(), "<tr data-test=\"card-position\"><td>card-position</td><td>301</td>");
  const std::string bad = s.dir.write("edited.html", edited);
  const auto v = run_shufl({"audit", "--verify", bad, "--key", s.key + ".pub"});
  EXPECT_EQ(v.status, 3);
  EXPECT_EQ(v.out, "");
  EXPECT_NE(v.err.find("BAD signature"), std::string::npos) << v.err;
  const auto o = run_shell("cd '" + s.dir.path() + "' && sed '/^<p id=\"shufl-signature\"/d' edited.html > e.signed && "
                           "sed -n 's/^<p id=\"shufl-signature\".*<code>\\([^<]*\\)<.*/\\1/p' edited.html "
                           "| base64 -d > e.sig && openssl pkeyutl -verify -pubin -inkey lab.pub -rawin -in e.signed "
                           "-sigfile e.sig");
  EXPECT_NE(o.status, 0);
  // Another key: the signature is not its.
  ASSERT_EQ(run_shufl({"audit", "--keygen", s.dir.file("other")}).status, 0);
  EXPECT_EQ(run_shufl({"audit", "--verify", s.page, "--key", s.dir.file("other.pub")}).status, 3);
  // The page is intact but FILE is not the file it reports on: its numbers differ.
  std::string decks = read_file(s.decks);
  const auto nl = decks.find('\n');
  const std::string first = decks.substr(0, nl + 1);
  const std::string swapped = s.dir.write("swapped.txt", decks.substr(nl + 1) + first);  // same decks, one moved
  const auto f = run_shufl({"audit", "--verify", s.page, "--key", s.key + ".pub", swapped});
  EXPECT_EQ(f.status, 3) << f.err;
  EXPECT_NE(f.err.find("differs: audit.input.sha256"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("the page's numbers are not those of"), std::string::npos) << f.err;
}

// A readable page changed otherwise than in a cell is tampering too (exit 3, not 1): its line
// endings converted to CR LF (the signature no longer matches; the page is still read), or its
// signature line doubled (a page is signed once).
TEST(E2eAuditSign, ACrLfPageOrADoubledSignatureLineFails) {
  signed_run s;
  make_signed(s);
  const std::string html = read_file(s.page), fp_line = run_shufl({"audit", "--verify", s.page, "--key", s.key + ".pub"}).out;
  ASSERT_EQ(fp_line.rfind("good signature by key ", 0), 0u) << fp_line;
  const std::string fp = fp_line.substr(22, 64);
  std::string crlf;
  for (const char c : html) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const std::string crlf_page = s.dir.write("crlf.html", crlf);
  const auto c = run_shufl({"audit", "--verify", crlf_page, "--key", s.key + ".pub"});
  EXPECT_EQ(c.status, 3);
  EXPECT_EQ(c.out, "");
  EXPECT_EQ(c.err, "shufl: --verify '" + crlf_page + "': BAD signature: the signature does not match the page (its line "
                   "endings were converted to CR LF): it was changed after it was signed, or key " + fp +
                   " did not sign it\n");
  const auto at = html.find("<p id=\"shufl-signature\"");
  ASSERT_NE(at, std::string::npos);
  const std::string line = html.substr(at, html.find('\n', at) + 1 - at);
  const std::string doubled = s.dir.write("doubled.html", html.substr(0, at) + line + html.substr(at));
  const auto d = run_shufl({"audit", "--verify", doubled, "--key", s.key + ".pub", s.decks});
  EXPECT_EQ(d.status, 3);
  EXPECT_EQ(d.out, "");
  EXPECT_EQ(d.err, "shufl: --verify '" + doubled + "': BAD page: two signature lines (a page is signed once): it was "
                   "changed after it was signed\n");
}

// --verify and --keygen do one thing each: any other option is refused by name (exit 1), never
// dropped without a word.
TEST(E2eAuditSign, VerifyAndKeygenRefuseOtherOptions) {
  signed_run s;
  make_signed(s);
  const auto sign = run_shufl({"audit", "--verify", s.page, "--key", s.key + ".pub", "--sign", s.key});
  EXPECT_EQ(sign.status, 1);
  EXPECT_EQ(sign.out, "");
  EXPECT_EQ(sign.err, "shufl: --sign does not apply to --verify (it takes --key NAME.pub and an optional FILE)\n");
  const auto alpha = run_shufl({"audit", "--verify", s.page, "--key", s.key + ".pub", s.decks, "--alpha", "0.5"});
  EXPECT_EQ(alpha.status, 1);
  EXPECT_EQ(alpha.err, "shufl: --alpha does not apply to --verify (it takes --key NAME.pub and an optional FILE)\n");
  const auto keygen = run_shufl({"audit", "--keygen", s.dir.file("k2"), "--verify", s.page});
  EXPECT_EQ(keygen.status, 1);
  EXPECT_EQ(keygen.err, "shufl: --verify does not apply to --keygen (it takes NAME only)\n");
  const auto input = run_shufl({"audit", "--keygen", s.dir.file("k3"), s.decks});
  EXPECT_EQ(input.err, "shufl: an input FILE does not apply to --keygen (it takes NAME only)\n");
  struct stat st {};
  EXPECT_NE(::stat(s.dir.file("k2").c_str(), &st), 0);
  EXPECT_NE(::stat(s.dir.file("k3").c_str(), &st), 0);
}

// What a recomputation needs is the document's `settings`: a --cards-file pack (its labels),
// --game with --deal, --lags and --alpha are redone from them, not from the text of a note.
TEST(E2eAuditSign, CardsFileGameDealAndLagsRecompute) {
  temp_dir dir;
  const std::string cards = dir.write("cards.txt", "Red one\nRed two\nBlue\nGreen\nGold\nGrey\nPink\n");
  const auto made = run_shufl({"deck", "--cards-file", cards, "--count", "150", "--seed", "c"});
  ASSERT_EQ(made.status, 0) << made.err;
  const std::string decks = dir.write("decks.txt", made.out);
  const std::string key = dir.file("k");
  ASSERT_EQ(run_shufl({"audit", "--keygen", key}).status, 0);
  const std::string page = dir.file("c.html");
  ASSERT_EQ(run_shufl({"audit", decks, "--cards-file", cards, "--lags", "3", "--report", page, "--sign", key}).status, 0);
  const auto fp = run_shufl({"audit", "--verify", page, "--key", key + ".pub"});
  ASSERT_EQ(fp.status, 0) << fp.err;
  const auto v = run_shufl({"audit", "--verify", page, "--key", key + ".pub", decks});
  EXPECT_EQ(v.status, 0) << v.err;
  EXPECT_EQ(v.err, "");
  EXPECT_EQ(v.out, fp.out + "every number recomputed from '" + decks + "' agrees (integers exactly, reals to 1e-9)\n");
  const auto j = run_shufl({"audit", decks, "--cards-file", cards, "--lags", "3", "--format", "json"});
  ASSERT_EQ(j.status, 0);
  EXPECT_EQ(nlohmann::json::parse(j.out)["settings"],
            nlohmann::json::parse(R"({"labels": ["Red one", "Red two", "Blue", "Green", "Gold", "Grey", "Pink"],
                                     "game": null, "deal": null, "lags": 3})"));
  // Blackjack at three seats of two cards, --lags 4, --alpha 0.05: all four come back.
  const auto shoe = run_shufl({"deck", "--count", "200", "--seed", "b"});
  const std::string shoe_file = dir.write("shoe.txt", shoe.out);
  const std::string bj = dir.file("b.html");
  ASSERT_EQ(run_shufl({"audit", shoe_file, "--game", "blackjack", "--deal", "3x2", "--lags", "4", "--alpha", "0.05",
                       "--report", bj, "--sign", key}).status, 0);
  const auto b = run_shufl({"audit", "--verify", bj, "--key", key + ".pub", shoe_file});
  EXPECT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.out.find("every number recomputed"), std::string::npos) << b.out;
  const auto bjson = run_shufl({"audit", shoe_file, "--game", "blackjack", "--deal", "3x2", "--lags", "4", "--format", "json"});
  EXPECT_EQ(nlohmann::json::parse(bjson.out)["settings"],
            nlohmann::json::parse(R"({"labels": null, "game": "blackjack", "deal": {"hands": 3, "cards": 2}, "lags": 4})"));
}

// A FILE that cannot be recomputed gets one verdict on stderr, exit 1, and nothing on stdout
// (no "good signature" line before it).
TEST(E2eAuditSign, ARecomputeErrorIsTheOnlyVerdict) {
  signed_run s;
  make_signed(s);
  const std::string other = s.dir.write("other.txt", "not a deck\n");
  const auto v = run_shufl({"audit", "--verify", s.page, "--key", s.key + ".pub", other});
  EXPECT_EQ(v.status, 1);
  EXPECT_EQ(v.out, "");
  EXPECT_EQ(v.err, "shufl: --verify '" + s.page + "': the signature is good, but '" + other + "' was not recomputed: '" +
                       other + "': line 1, position 1: unknown card 'not'\n");
}

// A page an editor saved with a UTF-8 byte-order mark verifies: the mark is dropped before the
// check (shufl never writes one; it is no part of what was signed).
TEST(E2eAuditSign, APageWithAByteOrderMarkVerifies) {
  signed_run s;
  make_signed(s);
  const std::string bom = s.dir.write("bom.html", "\xEF\xBB\xBF" + read_file(s.page));
  const auto plain = run_shufl({"audit", "--verify", s.page, "--key", s.key + ".pub", s.decks});
  ASSERT_EQ(plain.status, 0) << plain.err;
  const auto v = run_shufl({"audit", "--verify", bom, "--key", s.key + ".pub", s.decks});
  EXPECT_EQ(v.status, 0) << v.err;
  EXPECT_EQ(v.err, "");
  EXPECT_EQ(v.out, plain.out);
  // A mark anywhere else is a change.
  std::string html = read_file(s.page);
  html.insert(html.find("<body"), "\xEF\xBB\xBF");
  EXPECT_EQ(run_shufl({"audit", "--verify", s.dir.write("mid.html", html), "--key", s.key + ".pub"}).status, 3);
}

TEST(E2eAuditSign, UnreadablePagesAndKeysExitOne) {
  signed_run s;
  make_signed(s);
  const std::string unsigned_page = s.dir.file("u.html");
  ASSERT_EQ(run_shufl({"audit", s.decks, "--report", unsigned_page}).status, 0);
  const auto u = run_shufl({"audit", "--verify", unsigned_page, "--key", s.key + ".pub"});
  EXPECT_EQ(u.status, 1);
  EXPECT_EQ(u.err, "shufl: --verify '" + unsigned_page + "': no signature line (the page is not signed)\n");
  EXPECT_EQ(run_shufl({"audit", "--verify", s.dir.file("missing.html"), "--key", s.key + ".pub"}).status, 1);
  // The secret key is not a public key; a key file of anything else is refused.
  const auto wrong = run_shufl({"audit", "--verify", s.page, "--key", s.key});
  EXPECT_EQ(wrong.status, 1);
  EXPECT_EQ(wrong.err, "shufl: --key '" + s.key + "': not an Ed25519 public key (PEM)\n");
  const auto nokey = run_shufl({"audit", "--verify", s.page});
  EXPECT_EQ(nokey.status, 1);
  // A signature line that is not one.
  std::string html = read_file(s.page);
  const auto at = html.find("<code>", html.find("<p id=\"shufl-signature\""));
  html.insert(at + 6, "!");
  EXPECT_EQ(run_shufl({"audit", "--verify", s.dir.write("m.html", html), "--key", s.key + ".pub"}).status, 1);
  // --sign needs --report and a secret key; --key needs --verify.
  EXPECT_EQ(run_shufl({"audit", s.decks, "--sign", s.key}).err, "shufl: --sign applies to --report (it signs the page)\n");
  const auto pubsign = run_shufl({"audit", s.decks, "--report", s.dir.file("p.html"), "--sign", s.key + ".pub"});
  EXPECT_EQ(pubsign.status, 1);
  EXPECT_EQ(pubsign.err, "shufl: --sign '" + s.key + ".pub': not an Ed25519 private key (PKCS#8 PEM)\n");
}

}  // namespace
}  // namespace shufl::test
