// `shufl lines`: field names. A --weight-field or --key-fields spec that is not made of field
// numbers names fields of header line 1 (`--header 1 --weight-field amount`); here the names
// are looked up and replaced by their numbers before any record is read.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "shufl/error.hpp"
#include "run_internal.hpp"
#include "shufl/lines/csv.hpp"

namespace shufl::lines {

bool is_field_name_spec(std::string_view spec) noexcept {
  for (const char c : spec) {
    if (!((c >= '0' && c <= '9') || c == ',' || c == '-' || c == ' ' || c == '\t')) return true;
  }
  return false;
}

}  // namespace shufl::lines

namespace shufl::lines::runner {

namespace {

// The fields of header line 1, as the records' fields are read.
std::vector<std::string> header_names(const options& opts, std::string_view line) {
  if (line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);  // a UTF-8 byte order mark
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<std::string> names;
  if (opts.csv) {
    shufl::lines::csv_fields(line, opts.fields_by(), names);
  } else {
    std::size_t start = 0;
    for (;;) {
      const auto hit = line.find(opts.fields_by(), start);
      names.emplace_back(line.substr(start, hit == std::string_view::npos ? std::string_view::npos : hit - start));
      if (hit == std::string_view::npos) break;
      start = hit + 1;
    }
  }
  return names;
}

// The number of field `name` (its first occurrence), or an error listing the names; when
// `quoted` (a header line read without --csv holds a double quote), the error says that quoted
// CSV needs --csv.
std::size_t number_of(std::string_view name, const std::vector<std::string>& names, const char* option,
                      bool quoted, char fields_by, bool csv) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return i + 1;
  }
  std::string list;
  std::size_t shown = 0;
  for (; shown < names.size() && list.size() < 200; ++shown) {
    if (shown > 0) list += ", ";
    list += quote(names[shown]);
  }
  if (shown < names.size()) list += fmt::format(", ... ({} fields)", names.size());
  // One field holding commas: the header is joined by commas, the fields split at another byte.
  const bool commas = fields_by != ',' && names.size() == 1 && names[0].find(',') != std::string::npos;
  throw error(fmt::format("{} {}: no field of that name in header {} 1 (its fields: {}){}{}{}", option, quote(name),
                          csv ? "record" : "line", list, quoted ? "; " : "", quoted ? quoted_csv_hint : "",
                          commas && !quoted ? "; header line 1 is joined by commas: add --field-delimiter , (or --csv)"
                                            : ""));
}

}  // namespace

void resolve_field_names(options& opts, std::string_view header_line) {
  if (!opts.names_fields()) return;
  const auto names = header_names(opts, header_line);
  const bool quoted = !opts.csv && header_line.find('"') != std::string_view::npos;
  if (opts.weight_field_name) opts.weight_field = number_of(*opts.weight_field_name, names, "--weight-field", quoted, opts.fields_by(), opts.csv);
  if (opts.key_field_names) {
    // Items are names or field numbers, separated by commas; in a name, `\,` is a comma and `\\` a
    // backslash (a header field "city, state"). The numbers make a cut -f list.
    std::string list;
    const std::string_view spec = *opts.key_field_names;
    std::string item;
    bool escaped = false;  // the item held an escape: a name, even when made of digits
    const auto finish = [&] {
      if (!list.empty()) list += ',';
      list += escaped || is_field_name_spec(item)
                  ? std::to_string(number_of(item, names, "--key-fields", quoted, opts.fields_by(), opts.csv))
                  : item;
      item.clear();
      escaped = false;
    };
    for (std::size_t i = 0; i < spec.size(); ++i) {
      if (spec[i] == '\\' && i + 1 < spec.size() && (spec[i + 1] == ',' || spec[i + 1] == '\\')) {
        item += spec[++i];
        escaped = true;
      } else if (spec[i] == ',') {
        finish();
      } else {
        item += spec[i];
      }
    }
    finish();
    std::string why;
    const auto fields = shufl::lines::parse_field_list(list, &why);
    if (!fields) throw error("invalid field list: " + quote(*opts.key_field_names) + ": " + why);
    opts.key_fields = *fields;
  }
}

}  // namespace shufl::lines::runner
