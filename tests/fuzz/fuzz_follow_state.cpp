// The live monitor's loop (audit/follow.hpp) on a restored state: the input is a state file,
// then (after a NUL byte, if any) decks of a standard pack through a pipe. A state the loop
// refuses throws shufl::error; one it accepts runs to the end of the pipe (its `follow_input`,
// `recent_decks`, `detector` and `alarm` parts parsed on the way, the leading decks matched
// against the state's last ones), and the state it saves at the end is accepted again by a
// second run, which ends with the same deck count. The same state is also given to a monitor run
// with --group-by (the grouped reader, and what it says of a single-stream or foreign file).
#include <fcntl.h>
#include <unistd.h>

#include <string>

#include "fuzz_support.hpp"
#include "shufl/audit/follow.hpp"
#include "shufl/deck.hpp"

namespace {

using shufl::fuzz::check;

// Keeps the last state and the final deck count; shows nothing.
class quiet_events final : public shufl::audit::follow_events {
 public:
  void note(shufl::audit::follow_note, const std::string&, std::uint64_t) override {}
  void status(const shufl::audit::follow_status&) override {}
  void alarm(const shufl::audit::follow_status&) override {}
  void save(const shufl::audit::follow_status& s, const std::string& state) override {
    state_ = state;
    decks_ = s.e.decks;
  }
  void final(const shufl::audit::follow_final&) override {}
  std::string state_;
  std::uint64_t decks_ = 0;
};

// One run on `state` with `decks` through a pipe (at most 60,000 bytes: the pipe holds them).
// With `grouped`, as `--group-by 1` (a grouped state's reader; the decks' first field the group).
bool run(const std::string& state, std::string_view decks, quiet_events& ev, bool grouped = false) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  decks = decks.substr(0, 60000);
  const bool written = ::write(fds[1], decks.data(), decks.size()) == static_cast<ssize_t>(decks.size());
  ::close(fds[1]);
  shufl::audit::follow_settings s;
  s.fd = fds[0];
  s.name = "fuzz";
  s.reader.pack = shufl::pack_kind::standard;
  s.reader.group_field = grouped ? 1 : 0;
  s.keep_state = true;
  s.state_text = state;
  s.every = 7;
  bool ok = false;
  try {
    shufl::audit::follow(s, ev, "fuzz.json");
    ok = written;
  } catch (const shufl::error&) {
  }
  ::close(fds[0]);
  return ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in = shufl::fuzz::bytes(data, size);
  const auto nul = in.find('\0');
  const std::string state(in.substr(0, nul));
  const std::string_view decks = nul == std::string_view::npos ? std::string_view() : in.substr(nul + 1);
  // The same bytes as the state of a monitor with --group-by (refused, or accepted and saved
  // again in a form a restart accepts).
  quiet_events grouped;
  if (run(state, decks, grouped, true) && !grouped.state_.empty()) {
    quiet_events again;
    check(run(grouped.state_, {}, again, true), "a saved grouped state is accepted again");
  }
  quiet_events first;
  if (!run(state, decks, first) || first.state_.empty()) return 0;
  quiet_events second;
  check(run(first.state_, {}, second), "a saved state is accepted again");
  check(second.decks_ == first.decks_, "the same deck count after a restart");
  return 0;
}
