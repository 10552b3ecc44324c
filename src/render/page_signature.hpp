// The signature of a signed audit report page (`shufl audit --report r.html --sign KEY`): one
// line of the page, just before `</body>`,
//
//   <p id="shufl-signature" class="signature">Ed25519 signature of this page without this line: <code>BASE64</code></p>
//
// where BASE64 is the 64-byte Ed25519 signature (standard base64, padded) of every byte of the
// page except that line (with its newline). The line is the page's only line that starts with
// `<p id="shufl-signature"` (user text on a page is escaped, so it cannot start one), so
//   sed '/^<p id="shufl-signature"/d' r.html > r.signed
// gives the signed bytes to any Ed25519 verifier (docs/audit.md shows OpenSSL's commands).
#pragma once

#include <string>
#include <string_view>

#include "shufl/audit/signature.hpp"

namespace shufl::render {

/// The start of the signature line.
inline constexpr std::string_view signature_line_start = "<p id=\"shufl-signature\"";

/// The signature line for `sig`, with its newline.
std::string signature_line(const audit::signature& sig);

/// `page` (a whole page ending with "</body>\n</html>\n") with the signature line of `sig`
/// inserted before its last `</body>` line. Throws shufl::error when the page has no such line
/// or already holds a signature line.
std::string with_signature(std::string_view page, const audit::signature& sig);

/// A signed page taken apart.
struct signed_page {
  std::string message;          ///< the page without its signature line: the bytes signed
  audit::signature sig{};       ///< the signature the line holds
  std::string key_fingerprint;  ///< the fingerprint the page states (element id "key-fingerprint"); "" if none
  std::string data;             ///< the text of the page's audit-data script (its JSON); "" if none
  /// The signature line ends in CR LF, not LF: the page's line endings were converted (message
  /// then holds the converted bytes, which the signature does not match).
  bool crlf = false;
  /// Not empty when the page was read but cannot be as signed, e.g. "two signature lines" (a
  /// page is signed once); the other fields are then empty.
  std::string tampered;
};

/// What --verify says of a page read whole: "" when `signature_matches` (the signature verifies
/// the message with the key of `fingerprint`) and nothing was tampered; else why it is BAD:
/// "BAD page: two signature lines ...", or "BAD signature: the signature does not match the page
/// (its line endings were converted to CR LF when crlf): ..., or key FINGERPRINT did not sign it".
std::string page_changed(const signed_page& page, bool signature_matches, std::string_view fingerprint);

/// Takes a page apart (any bytes). Throws shufl::error "no signature line (the page is not
/// signed)" or "the signature line is malformed" (the page cannot be read); a page with more
/// than one signature line is returned with `tampered` set.
signed_page read_signed_page(std::string_view page);

}  // namespace shufl::render
