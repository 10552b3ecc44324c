// The signature line of a signed audit report page (page_signature.hpp).
#include "page_signature.hpp"

#include <fmt/format.h>
#include <vector>

#include "shufl/error.hpp"

namespace shufl::render {

namespace {

constexpr std::string_view kBefore = "<p id=\"shufl-signature\" class=\"signature\">Ed25519 signature of this page "
                                     "without this line: <code>";
constexpr std::string_view kAfter = "</code></p>\n";

// Where each line that starts with `start` begins.
std::vector<std::size_t> lines_starting(std::string_view page, std::string_view start) {
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < page.size();) {
    if (page.substr(i, start.size()) == start) at.push_back(i);
    const auto nl = page.find('\n', i);
    if (nl == std::string_view::npos) break;
    i = nl + 1;
  }
  return at;
}

// The text between `open` and the next `close` after it, or "".
std::string between(std::string_view text, std::string_view open, std::string_view close) {
  const auto a = text.find(open);
  if (a == std::string_view::npos) return {};
  const auto b = text.find(close, a + open.size());
  if (b == std::string_view::npos) return {};
  return std::string(text.substr(a + open.size(), b - a - open.size()));
}

}  // namespace

std::string signature_line(const audit::signature& sig) {
  return std::string(kBefore) + audit::base64(sig.data(), sig.size()) + std::string(kAfter);
}

std::string with_signature(std::string_view page, const audit::signature& sig) {
  if (!lines_starting(page, signature_line_start).empty()) throw error("the page is signed already");
  const auto body = lines_starting(page, "</body>");
  if (body.empty()) throw error("the page has no </body> line to sign before");
  const std::size_t at = body.back();
  return std::string(page.substr(0, at)) + signature_line(sig) + std::string(page.substr(at));
}

signed_page read_signed_page(std::string_view page) {
  const auto at = lines_starting(page, signature_line_start);
  if (at.empty()) throw error("no signature line (the page is not signed)");
  signed_page s;
  if (at.size() > 1) {  // readable, but not as signed: a page is signed once
    s.tampered = at.size() == 2 ? std::string("two signature lines") : fmt::format("{} signature lines", at.size());
    return s;
  }
  const auto nl = page.find('\n', at[0]);
  if (nl == std::string_view::npos) throw error("the signature line is malformed");
  // A page whose line endings were converted to CR LF is read (and then fails the signature).
  s.crlf = nl > at[0] && page[nl - 1] == '\r';
  std::string line(page.substr(at[0], nl + 1 - at[0]));
  if (s.crlf) line.erase(line.size() - 2, 1);
  if (!line.starts_with(kBefore) || !line.ends_with(kAfter) ||
      !audit::from_base64(line.substr(kBefore.size(), line.size() - kBefore.size() - kAfter.size()), s.sig.data(),
                          s.sig.size()) ||
      line != signature_line(s.sig)) {
    throw error("the signature line is malformed");
  }
  s.message = std::string(page.substr(0, at[0])) + std::string(page.substr(nl + 1));
  s.key_fingerprint = between(s.message, "<code id=\"key-fingerprint\">", "</code>");
  s.data = between(s.message, "<script id=\"audit-data\" type=\"application/json\">", "</script>");
  return s;
}

std::string page_changed(const signed_page& page, bool signature_matches, std::string_view fingerprint) {
  if (!page.tampered.empty()) {
    return fmt::format("BAD page: {} (a page is signed once): it was changed after it was signed", page.tampered);
  }
  if (signature_matches) return {};
  return fmt::format("BAD signature: the signature does not match the page{}: it was changed after it was signed, or key "
                     "{} did not sign it", page.crlf ? " (its line endings were converted to CR LF)" : "", fingerprint);
}

}  // namespace shufl::render
