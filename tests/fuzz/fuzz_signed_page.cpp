// The readers of `shufl audit --verify` (outside bytes): the signed page (render/page_signature.hpp)
// and the key files (audit/signature.hpp). The first byte chooses: bit 0 clear, the rest is a page:
// read_signed_page either throws shufl::error, or returns a page marked tampered (several lines
// start a signature), or parts that rebuild the input exactly (the message is the page without
// one line, that line is signature_line of the signature it holds, with CR LF when crlf, and is
// the page's only line starting `<p id="shufl-signature"`); a signature made with
// a fixed key over the message then verifies, and fails once a byte of the message flips. Bit 0
// set, the rest is a key file: parse_public_key and parse_secret_key either throw shufl::error or
// give a key whose fingerprint is 64 hex digits (a secret key's public half is its own).
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "render/page_signature.hpp"
#include "shufl/audit/signature.hpp"

namespace {

using shufl::fuzz::check;

// A fixed key (seed bytes 1, 8, 15, ...), read from its PKCS#8 text as a key file would be.
const shufl::audit::secret_key& fixed_key() {
  static const shufl::audit::secret_key key = [] {
    unsigned char der[48] = {0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20};
    for (std::size_t i = 0; i < 32; ++i) der[16 + i] = static_cast<unsigned char>(i * 7 + 1);
    return shufl::audit::parse_secret_key("-----BEGIN PRIVATE KEY-----\n" + shufl::audit::base64(der, sizeof der) +
                                          "\n-----END PRIVATE KEY-----\n");
  }();
  return key;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  if (size == 0) return 0;
  const std::string_view rest = fuzz::bytes(data + 1, size - 1);
  if ((data[0] & 1) == 0) {
    render::signed_page page;
    try {
      page = render::read_signed_page(rest);
    } catch (const shufl::error&) {
      return 0;
    }
    if (!page.tampered.empty()) {  // more than one line starts a signature: read, but never as signed
      std::size_t lines = 0;
      for (std::size_t i = 0; i < rest.size();) {
        lines += rest.substr(i).starts_with(render::signature_line_start) ? 1 : 0;
        const auto nl = rest.find('\n', i);
        if (nl == std::string_view::npos) break;
        i = nl + 1;
      }
      check(lines > 1 && page.message.empty(), "a page read as tampered has several signature lines");
      return 0;
    }
    std::string line = render::signature_line(page.sig);
    if (page.crlf) line.insert(line.size() - 1, "\r");  // a page converted to CR LF
    check(page.message.size() + line.size() == rest.size(), "the message is the page without its signature line");
    // The signature line is the one at a line start (the same text may also sit inside another
    // line, e.g. after `<script id=`: that copy is page text, not the signature).
    std::size_t at = std::string_view::npos;
    if (rest.starts_with(line)) {
      at = 0;
    } else if (const auto nl = rest.find("\n" + line); nl != std::string_view::npos) {
      at = nl + 1;
    }
    check(at != std::string_view::npos, "the line is in the page, at a line start");
    check(std::string(rest.substr(0, at)) + std::string(rest.substr(at + line.size())) == page.message,
          "the message is the rest, in order");
    if (page.message.size() <= 4096) {
      const audit::signature sig = audit::sign(page.message, fixed_key());
      check(audit::verify(page.message, sig, fixed_key().pub), "a signature verifies");
      if (!page.message.empty()) {
        std::string changed = page.message;
        changed[changed.size() / 2] = static_cast<char>(changed[changed.size() / 2] ^ 1);
        check(!audit::verify(changed, sig, fixed_key().pub), "a changed byte fails");
      }
    }
    return 0;
  }
  try {
    const audit::public_key k = audit::parse_public_key(rest);
    check(audit::fingerprint(k).size() == 64, "a fingerprint is 64 hex digits");
  } catch (const shufl::error&) {
  }
  try {
    const audit::secret_key k = audit::parse_secret_key(rest);
    const audit::signature sig = audit::sign("m", k);
    check(audit::verify("m", sig, k.pub), "a secret key's public half verifies its signatures");
  } catch (const shufl::error&) {
  }
  return 0;
}
