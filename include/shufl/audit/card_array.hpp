// Decks already in memory as a 2-D array of card numbers (a numpy array handed over by the Python
// binding, a game server's buffer): audited in place, without a copy of the array and without
// text. Row r is deck r, top card first; numbers 1..N (or 0..N−1) name the cards of the pack's
// canonical order, as the numbers of a deck file do (cards.hpp). The battery, its decision and
// its words are audit_decks' (audit.hpp): the same decks as text or as an array give the same
// report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "shufl/audit.hpp"

namespace shufl::audit {

/// The integer type of an array's elements (numpy's int8 .. uint64).
enum class card_int : std::uint8_t { i8, u8, i16, u16, i32, u32, i64, u64 };

/// A rows × columns array of integers, read where it lies: element (r, c) is at
/// data + r·row_stride + c·column_stride bytes (strides may be negative or zero, as numpy's).
struct card_array {
  const void* data = nullptr;
  card_int type = card_int::i64;
  std::size_t rows = 0, columns = 0;
  std::ptrdiff_t row_stride = 0, column_stride = 0;
  /// Cards numbered 0..N−1 instead of 1..N.
  bool zero_based = false;
  /// What error messages call the array.
  std::string name = "<array>";
};

/// Audits every row of `decks` as a deck of `pack` (columns = the pack's N cards, or `dealt` K
/// with dealt: the first K cards of each deck). Every row is checked before it is counted; the
/// first bad row (lowest index, whatever the threads) throws shufl::error in the words of the
/// deck reader, with numpy's 0-based row and column: "NAME: row R, column C: unknown card V
/// (numbers run from 1 to N)", "NAME: row R, column C: card V appears more often than the pack
/// has it". A shape that does not fit throws "NAME: C cards per row, the pack has N" ("..., the
/// deal has K"), no rows "NAME: no decks", and options as audit_decks (the battery of its game
/// and lags; batch_size and tier are not read). options.threads workers read contiguous ranges
/// of rows; the report does not depend on their number. `stop`, when
/// given, is called on the calling thread about every 50 ms while the workers run; once it
/// returns true (it is also asked once before the work begins) the workers stop at their next
/// block of audit_block_decks rows and audit_array throws shufl::error "NAME: stopped". The
/// array must not change while it runs.
audit_report audit_array(const card_array& decks, const audit_pack& pack, std::optional<std::size_t> dealt,
                         const audit_options& options, const std::function<bool()>& stop = {});

/// Converts rows [first, first + count) of `decks` into face ids (count × positions, row-major),
/// checking every row as audit_array does and throwing its shufl::error for the first bad one.
/// `positions` is the pack's size or a deal's K; columns must equal it (else the same error).
void card_array_faces(const card_array& decks, const audit_pack& pack, std::size_t positions, std::size_t first,
                      std::size_t count, std::uint32_t* out);

}  // namespace shufl::audit
