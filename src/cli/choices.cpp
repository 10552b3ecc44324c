// The closed lists of option values (choices.hpp).
#include "choices.hpp"

#include <algorithm>
#include <tuple>

#include "render/name_lists.hpp"
#include "shufl/audit.hpp"
#include "shufl/audit/seed_search.hpp"
#include "shufl/audit/tier.hpp"
#include "shufl/deck.hpp"
#include "shufl/random.hpp"

namespace shufl::cli::choices {

std::string values_text(std::string_view command, std::string_view option) {
  using values = std::span<const std::string_view>;
  const std::vector<std::string_view> families = render::family_names();
  std::vector<std::string_view> tiers;
  for (const auto& t : audit::audit_tiers()) tiers.push_back(t.name);
  // The subcommands (space-separated), the option, its values.
  const std::tuple<std::string_view, std::string_view, values> lists[] = {
      {"deck audit", "--format", text_json},    {"bias", "--format", bias_format},    {"trace", "--format", trace_format},
      {"bias", "--test", bias_test},            {"bias deck audit", "--rng", engine_names()},
      {"deck audit", "--pack", pack_names()},   {"deck", "--style", card_style_names()},
      {"audit", "--game", audit::game_names},                {"audit", "--seed-search", families}, {"audit", "--reseed", reseed},
      {"audit", "--loop", audit::shuffle_loop_names}, {"audit", "--reduce", audit::draw_reduction_names},        {"audit", "--deck-order", deck_order},
      {"audit", "--tier", tiers}};
  const auto has = [](std::string_view commands, std::string_view c) {  // a word of the list
    for (std::size_t at = commands.find(c); !c.empty() && at != std::string_view::npos; at = commands.find(c, at + 1)) {
      const std::size_t end = at + c.size();
      if ((at == 0 || commands[at - 1] == ' ') && (end == commands.size() || commands[end] == ' ')) return true;
    }
    return false;
  };
  // The options whose value is a file (or a directory), completed as paths; "positional": the
  // command's non-option words are files.
  const std::tuple<std::string_view, std::string_view, std::string_view> paths[] = {
      {"lines", "-o --output --random-source positional", "files"}, {"lines", "--temp-dir", "directories"}, {"deck", "--cards-file", "files"},
      {"bias", "--input --items --plot --report --save-counts --merge --resume", "files"},
      {"audit", "positional --cards-file --deck-order --save-counts --merge --state --metrics --report --keygen --sign --verify --key", "files"}};
  std::string out;
  if (!command.empty() && option.empty()) {  // "OPTION values", "OPTION files", "OPTION directories"
    for (const auto& [commands, name, list] : lists) {
      if (has(commands, command)) out.append(name).append(" values\n");
    }
    for (const auto& [c, names, kind] : paths) {
      for (std::size_t at = 0, end = 0; c == command && at < names.size(); at = end + 1) {
        end = std::min(names.find(' ', at), names.size());
        out.append(names.substr(at, end - at)).append(" ").append(kind).append("\n");
      }
    }
    return out;
  }
  for (const auto& [commands, name, list] : lists) {
    if (command.empty() && option.empty()) {
      for (const std::string_view c : {"lines", "bias", "deck", "trace", "audit"}) {
        if (has(commands, c)) out.append(c).append(" ").append(name).append("\n");
      }
    } else if (name == option && has(commands, command)) {
      for (const auto v : list) out.append(v).append("\n");
    }
  }
  return out;
}

}  // namespace shufl::cli::choices
