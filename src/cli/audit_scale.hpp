// `shufl audit --shard I/N`: the option's parsing (the shards themselves: audit/deck_file.hpp for
// deck files, bias's chunks for --algo runs).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace shufl::cli {

/// --shard I/N: (I, N) with 0 <= I < N <= 2^32; shufl::error otherwise.
std::pair<std::uint64_t, std::uint64_t> parse_audit_shard(const std::string& text);

}  // namespace shufl::cli
