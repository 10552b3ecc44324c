// `shufl audit --shard I/N` (audit_scale.hpp).
#include "audit_scale.hpp"

#include <fmt/format.h>

#include "common.hpp"
#include "shufl/error.hpp"

namespace shufl::cli {

std::pair<std::uint64_t, std::uint64_t> parse_audit_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw error(fmt::format("--shard: expected I/N (shard I of N, 0 <= I < N), got '{}'", text));
  const auto i = parse_uint("--shard", text.substr(0, slash));
  const auto n = parse_uint("--shard", text.substr(slash + 1));
  if (n == 0 || i >= n) throw error(fmt::format("--shard {}: shards are numbered 0 to N-1 (0 <= I < N)", text));
  if (n > (std::uint64_t{1} << 32)) throw error(fmt::format("--shard {}: at most 2^32 shards", text));
  return {i, n};
}

}  // namespace shufl::cli
