// End-to-end tests of signed audit reports: `shufl audit --keygen NAME` (NAME mode 0600 and
// NAME.pub, never over a file), `--report r.html --sign NAME` (the key's fingerprint on the page,
// one signature line) and `--verify r.html --key NAME.pub [FILE]` (exit 0 good, 3 bad signature
// or a number FILE does not give, 1 unreadable). OpenSSL 3 checks the same signature with the
// commands docs/audit.md gives, and computes the fingerprint on its own: independent of
// libsodium and of shufl.
#include <gtest/gtest.h>
#include <sys/stat.h>

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
