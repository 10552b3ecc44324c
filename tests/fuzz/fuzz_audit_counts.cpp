// The reader of `shufl audit` counts files (audit/counts.hpp, --merge): any bytes either parse
// into counts or throw shufl::error (never a crash, a hang or unbounded memory). Counts it
// accepts write back to text that parses to the same text again, merge with themselves only by
// refusing (the same decks twice), and evaluate to a report (every test of the battery; packs
// of at most 64 cards, whose laws build quickly).
#include <string>

#include "fuzz_support.hpp"
#include "shufl/audit/counts.hpp"
#include "shufl/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  using shufl::fuzz::check;
  const std::string_view text = fuzz::bytes(data, size);
  std::optional<audit::audit_counts> counts;
  try {
    counts.emplace(audit::parse_audit_counts(text, "fuzz.json"));
  } catch (const shufl::error&) {
    return 0;
  }
  const std::string once = audit::write_audit_counts(*counts);
  const std::string twice = audit::write_audit_counts(audit::parse_audit_counts(once, "again.json"));
  check(once == twice, "accepted counts round-trip");
  audit::audit_merge merge;
  merge.add(*counts, "a.json");
  bool refused = false;
  try {
    merge.add(*counts, "b.json");
  } catch (const shufl::error&) {
    refused = true;
  }
  check(refused, "the same parts twice are refused");
  const audit::audit_counts merged = merge.merged();
  // The exact laws of large packs take seconds to build (audit/laws.hpp): evaluate small ones.
  if (merged.labels.size() <= 64) {
    const auto report = audit::report_of(*merged.tally, 0.01);
    // Every test of the battery but batches (a sample's order, never in counts files); of the two
    // game tests (the last two names) only its game's.
    check(report.tests.size() == std::size(audit::battery_test_names) - 3 + (merged.game.empty() ? 0 : 1),
          "every test reported");
  }
  return 0;
}
