// What the Python binding hands the library: decks as an array of integers in memory
// (audit/card_array.hpp) and --state documents (audit/monitor_state.hpp). The first byte
// chooses: bit 7 set, the rest is a state document: read_monitor_state returns its parts or throws
// shufl::error "state file: ...", and parts it returns write back to a document it reads the same.
// Else bits 0–2 the integer type, bit 3 zero-based numbers, bit 4 two threads, bit 5 a deal of
// the first 5 cards; the rest is the array of a euchre pack (24 cards; rows of 24 or 5 numbers,
// row-major). audit_array either audits every row (decks = rows, finite statistics, the same
// report on one and on two threads) or throws shufl::error naming the array; so does
// logged_deals_of_array (the seed search's deals: one per row, distinct cards of the pack).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/audit/card_array.hpp"
#include "shufl/audit/deck_reader.hpp"
#include "shufl/audit/monitor_state.hpp"
#include "shufl/audit/seed_search_input.hpp"
#include "shufl/deck.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  using fuzz::check;
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  if ((mode & 0x80) != 0) {
    const std::string text(fuzz::bytes(data + 1, size - 1));
    audit::monitor_state_parts parts;
    try {
      parts = audit::read_monitor_state(text);
    } catch (const error& e) {
      check(std::string(e.what()).rfind("state file: ", 0) == 0, "state messages say so");
      return 0;
    }
    check(!parts.detector.empty() && !parts.e_process.empty(), "both parts");
    return 0;
  }
  static const audit::card_int types[] = {audit::card_int::i8,  audit::card_int::u8,  audit::card_int::i16,
                                          audit::card_int::u16, audit::card_int::i32, audit::card_int::u32,
                                          audit::card_int::i64, audit::card_int::u64};
  static const std::size_t widths[] = {1, 1, 2, 2, 4, 4, 8, 8};
  const std::size_t width = widths[mode & 7];
  const std::optional<std::size_t> dealt = (mode & 0x20) != 0 ? std::optional<std::size_t>(5) : std::nullopt;
  const std::size_t columns = dealt ? 5 : 24;
  std::vector<unsigned char> bytes(data + 1, data + size);  // aligned copy
  audit::card_array a;
  a.data = bytes.data();
  a.type = types[mode & 7];
  a.rows = bytes.size() / (width * columns);
  a.columns = columns;
  a.row_stride = static_cast<std::ptrdiff_t>(width * columns);
  a.column_stride = static_cast<std::ptrdiff_t>(width);
  a.zero_based = (mode & 8) != 0;
  audit::reader_options ro;
  ro.pack = pack_kind::euchre;
  const audit::audit_pack pack = audit::make_audit_pack(ro);
  audit::audit_options o;
  o.threads = (mode & 0x10) != 0 ? 2 : 1;
  try {
    const audit::audit_report r = audit::audit_array(a, pack, dealt, o);
    check(r.decks == a.rows, "every row audited");
    for (const auto& t : r.tests) check(!std::isnan(t.statistic) && !std::isnan(t.ln_p), "numbers");
    audit::audit_options other = o;
    other.threads = 3 - o.threads;
    const audit::audit_report s = audit::audit_array(a, pack, dealt, other);
    check(s.decision.summary == r.decision.summary && s.tests.size() == r.tests.size(), "threads change nothing");
    for (std::size_t i = 0; i < r.tests.size(); ++i) check(s.tests[i].table == r.tests[i].table, "the same tables");
  } catch (const error& e) {
    check(std::string(e.what()).rfind("<array>: ", 0) == 0, "errors name the array");
  }
  // The same rows as a seed search's logged deals: every row a deal of distinct cards of the
  // pack, or the same kind of error.
  try {
    const auto deals = audit::logged_deals_of_array(a, pack, dealt);
    check(deals.size() == a.rows && a.rows > 0, "one deal per row");
    for (const auto& d : deals) {
      check(d.size() == columns, "a deal per row of its columns");
      std::vector<bool> seen(pack.size());
      for (const auto c : d) {
        check(c < pack.size() && !seen[c], "distinct cards of the pack");
        seen[c] = true;
      }
    }
  } catch (const error& e) {
    check(std::string(e.what()).rfind("<array>: ", 0) == 0, "errors name the array");
  }
  return 0;
}
