// Uses the installed library as a stranger would: audits 2,000 decks of shufl's Fisher–Yates and
// of the naive swap (the streams of `shufl audit --algo NAME --trials 2000 --seed 1`), and reads
// two decks from text. Prints one line per run: "NAME DECKS RESULT SUMMARY".
#include <shufl/audit.hpp>
#include <shufl/error.hpp>
#include <shufl/random.hpp>
#include <shufl/shuffle.hpp>
#include <shufl/text_input.hpp>
#include <shufl/version.hpp>

#include <cstdio>
#include <exception>

int main() {
  try {
    std::printf("version %s\n", SHUFL_VERSION);
    const shufl::audit::audit_pack pack = shufl::audit::make_audit_pack({});
    shufl::audit::audit_options options;
    for (const auto& spec : shufl::parse_algorithm_list("fisher-yates,naive")) {
      const auto r = shufl::audit::audit_algorithm(spec, pack, 2000, shufl::parse_engine("xoshiro256pp"),
                                                   shufl::key_from_seed("1"), options);
      std::printf("%s %llu %s %s\n", spec.label().c_str(), static_cast<unsigned long long>(r.decks),
                  r.decision.pass ? "pass" : "fail", r.decision.summary.c_str());
    }
    shufl::text_reader in("3 1 2\n2 3 1\n", "text");
    shufl::audit::deck_reader reader(in, {});
    shufl::audit::audit_options small;
    const auto r = shufl::audit::audit_decks(reader, small);
    std::printf("text %llu cards %zu\n", static_cast<unsigned long long>(r.decks), r.cards);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
