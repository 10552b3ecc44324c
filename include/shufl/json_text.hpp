// The one rule for text in shufl's JSON (every writer and reader: bias reports and --save-counts /
// --merge files, deck, trace): a string that is valid UTF-8 is written as a JSON string; any other
// byte string (a seed, label, item or file name with bytes such as \xff) is written as the object
// {"hex": "fffe..."}: every byte, two lowercase hex digits each. Lossless: reading the object
// back gives the same bytes, so a seed reproduces its run (`--seed "$(printf '\xff\xfe')"`;
// Python: bytes.fromhex(v["hex"])). The output is always valid JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "shufl/text_input.hpp"

namespace shufl {

/// Lowercase hex of every byte ("\xff\xfe" → "fffe").
std::string hex_bytes(std::string_view bytes);

/// Inverse of hex_bytes (either case); false for an odd length or a non-hex digit.
bool bytes_from_hex(std::string_view hex, std::string& out);

/// Throws shufl::error "FIELD: expected a string or {"hex": "..."} (bytes as hex)".
[[noreturn]] void throw_json_text_error(std::string_view field);

/// `text` as JSON under the rule above: a string when valid UTF-8, else {"hex": "..."}.
template <class Json = nlohmann::ordered_json>
Json json_text(std::string_view text) {
  if (is_valid_utf8(text)) return Json(std::string(text));
  Json object = Json::object();
  object["hex"] = hex_bytes(text);
  return object;
}

/// An array of texts, each under the rule.
template <class Json = nlohmann::ordered_json, class Range>
Json json_texts(const Range& texts) {
  Json array = Json::array();
  for (const auto& t : texts) array.push_back(json_text<Json>(t));
  return array;
}

/// Reads a text written by json_text: a JSON string, or an object whose only member is "hex"
/// holding an even number of hex digits. Throws shufl::error "FIELD: expected a string or
/// {\"hex\": ...}" otherwise (`field` names the place in messages).
template <class Json>
std::string text_from_json(const Json& value, std::string_view field) {
  if (value.is_string()) return value.template get<std::string>();
  std::string out;
  if (value.is_object() && value.size() == 1 && value.contains("hex") && value["hex"].is_string() &&
      bytes_from_hex(value["hex"].template get_ref<const std::string&>(), out)) {
    return out;
  }
  throw_json_text_error(field);
}

}  // namespace shufl
