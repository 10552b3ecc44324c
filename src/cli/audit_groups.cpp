// `shufl audit --group-by N` (audit_groups.hpp).
#include "audit_groups.hpp"

#include <sodium.h>

#include <fmt/format.h>

#include <cstdio>

#include "common.hpp"
#include "render/audit_groups_output.hpp"
#include "shufl/audit/groups.hpp"
#include "shufl/error.hpp"
#include "shufl/text_input.hpp"

namespace shufl::cli {

group_cli_options parse_group_options(bool has_group_by, const std::string& group_by, bool has_max_groups,
                                      const std::string& max_groups) {
  group_cli_options g;
  if (has_group_by) {
    const std::uint64_t n = parse_uint("--group-by", group_by);
    if (n < 1 || n > 1000) throw error(fmt::format("--group-by must be a field number from 1 to 1000, not {}", group_by));
    g.field = static_cast<std::size_t>(n);
  }
  if (has_max_groups) {
    if (!has_group_by) throw error("--max-groups applies to --group-by");
    const std::uint64_t m = parse_uint("--max-groups", max_groups);
    if (m < 1 || m > 10000000) throw error(fmt::format("--max-groups must be from 1 to 10000000, not {}", max_groups));
    g.max_groups = static_cast<std::size_t>(m);
  }
  return g;
}

void check_group_batch_options(const CLI::App& sub) {
  for (const char* name : {"--algo", "--merge", "--save-counts", "--shard", "--seed-search", "--plan", "--report"}) {
    if (sub.count(name) > 0) throw error(fmt::format("{} does not apply to --group-by", name));
  }
}

int run_audit_groups(const std::string& path, const audit::reader_options& reader, audit::audit_options options,
                     std::size_t max_groups, const std::string& format, bool check,
                     std::vector<std::pair<std::string, std::string>> meta) {
  text_reader in = text_reader::open(path);
  if (sodium_init() < 0) throw error("libsodium failed to initialise");
  crypto_hash_sha256_state sha;
  crypto_hash_sha256_init(&sha);
  std::uint64_t bytes = 0;
  in.observe_bytes([&](std::string_view b) {
    crypto_hash_sha256_update(&sha, reinterpret_cast<const unsigned char*>(b.data()), b.size());
    bytes += b.size();
  });
  audit::deck_reader decks(in, reader);
  options.on_pack = [&decks] {
    if (!decks.inference_note().empty()) std::fprintf(stderr, "shufl %s\n", decks.inference_note().c_str());
  };
  const audit::grouped_report r = audit::audit_groups(decks, options, max_groups);
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&sha, digest);
  render::audit_input info;
  info.name = path;
  for (const unsigned char c : digest) info.sha256 += fmt::format("{:02x}", c);
  info.bytes = bytes;
  info.meta = std::move(meta);
  if (format == "json") {
    write_stdout(render::audit_groups_json(r, info, decks.pack()).dump(2) + "\n");
  } else {
    info.name = input_display_name(path);
    write_stdout(render::audit_groups_text(r, info));
  }
  return check && !r.decision.pass ? exit_audit_failed : exit_ok;
}

}  // namespace shufl::cli
