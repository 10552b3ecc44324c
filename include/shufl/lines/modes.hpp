// The sampler modes of `shufl lines` beyond GNU shuf (issue 17): Bernoulli sampling with
// geometric skips (--prob), distinct sampling by key (--prob with --key-fields), weighted
// sampling without replacement (--weight-field: Efraimidis–Spirakis keys, A-ExpJ jumps) and
// sampling with replacement (--with-replacement), over any record source (a stream, the -e
// operands, an -i range). Everything that decides seeded output uses integers or correctly
// rounded + − × ÷ (detmath), never libm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shufl/lines/records.hpp"
#include "shufl/lines/sampling.hpp"
#include "shufl/lines/scaled.hpp"
#include "shufl/random.hpp"

namespace shufl::lines {

class csv_scanner;

/// The records of any `lines` input behind one interface: a record_reader (FILE or stdin; its
/// lines, or with a csv_scanner the CSV records made of one or more of them), the -e operands
/// (each gets the delimiter appended) or an -i range LO .. LO + n − 1 (decimal text plus the
/// delimiter). Counts the records it has passed (returned or skipped).
class record_source {
 public:
  /// Records of a stream (the reader is not owned).
  explicit record_source(record_reader& reader) noexcept : reader_(&reader) {}
  /// CSV records (csv.hpp) of a stream of newline-ended lines (neither is owned): a record is
  /// the lines up to one that ends outside a quoted field, verbatim. next and skip throw
  /// shufl::error for malformed CSV.
  record_source(record_reader& reader, csv_scanner& csv) noexcept : reader_(&reader), csv_(&csv), kind_(kind::csv) {}
  /// The -e operands as records ending with `delimiter` (the span is not copied).
  record_source(std::span<const std::string> operands, char delimiter) noexcept
      : operands_(operands), n_(operands.size()), delimiter_(delimiter), kind_(kind::operands) {}
  /// The numbers lo .. lo + n − 1 as records ending with `delimiter`.
  record_source(std::uint64_t lo, std::uint64_t n, char delimiter) noexcept
      : lo_(lo), n_(n), delimiter_(delimiter), kind_(kind::range) {}

  /// The next record with its delimiter, valid until the next call; false at the end. Throws
  /// shufl::error "read error: ..." for a stream.
  bool next(std::string_view& record);
  /// Appends the next record (the one `next` would return) to `out` instead: a stream's record
  /// goes straight into `out` (record_reader::append_next), so a caller that gathers every
  /// record holds a huge one once. False at the end, `out` unchanged. Throws as `next`.
  bool append_next(byte_buffer& out);
  /// Passes over up to `count` records; returns how many (fewer only at the end).
  std::uint64_t skip(std::uint64_t count);
  /// Records passed so far (returned by next or skipped): the 0-based index of the next one.
  std::uint64_t position() const noexcept { return position_; }
  /// The string that holds the bytes of `record` (the one `next` last returned) when this source
  /// or its reader assembled it, else nullptr: for keep_record, which may take its buffer.
  byte_buffer* owner(std::string_view record) noexcept {
    if (!scratch_.empty() && record.data() == scratch_.data()) return &scratch_;
    return reader_ ? reader_->owner(record) : nullptr;
  }
  /// CSV records: the input line on which the record last returned starts; 0 for the others.
  std::uint64_t record_line() const noexcept { return record_line_; }

 private:
  enum class kind { reader, operands, range, csv };
  record_reader* reader_ = nullptr;
  csv_scanner* csv_ = nullptr;
  std::uint64_t record_line_ = 0;
  std::span<const std::string> operands_;
  std::uint64_t lo_ = 0;
  std::uint64_t n_ = 0;
  char delimiter_ = '\n';
  kind kind_ = kind::reader;
  std::uint64_t position_ = 0;
  byte_buffer scratch_;  // a record assembled here (CSV lines, an operand, a number)
};

/// A set of 1-based field numbers as `cut -f` reads a list: items N, N-M, N- (N to the last
/// field) and -M (1 to M), separated by commas or blanks; the set of the fields named, in field
/// order (so "3,1" is "1,3" and duplicates and overlaps merge). Held as disjoint ranges, so its
/// size follows the list's text, never the field numbers in it.
struct field_list {
  /// Fields lo..hi, 1-based, inclusive; hi = SIZE_MAX for an open range.
  struct range {
    std::size_t lo;
    std::size_t hi;
    friend bool operator==(const range&, const range&) = default;
  };
  std::vector<range> ranges;  ///< ascending, disjoint, not adjacent
  /// Whether the list names exactly one field (its number in `*number`).
  bool single(std::size_t* number) const noexcept {
    if (ranges.size() != 1 || ranges[0].lo != ranges[0].hi) return false;
    *number = ranges[0].lo;
    return true;
  }
  /// The fields a record must have: the highest closed end, or the start of an open range.
  std::size_t needed() const noexcept {
    if (ranges.empty()) return 0;
    const range& r = ranges.back();
    return r.hi == SIZE_MAX ? r.lo : r.hi;
  }
  friend bool operator==(const field_list&, const field_list&) = default;
};

/// Parses a field list (see field_list): nothing for an empty list or item, a 0, a decreasing
/// range, a lone "-", a number above 2^63 or any other character; `why` (when given) then
/// gets the reason in cut's words ("fields are numbered from 1", "invalid decreasing range",
/// ...).
std::optional<field_list> parse_field_list(std::string_view text, std::string* why = nullptr);

/// Field `number` (1-based) of `record` (without its record delimiter), fields separated by
/// the byte `delimiter`; nothing when the record has fewer fields.
inline bool find_field(std::string_view record, std::size_t number, char delimiter,
                       std::string_view& out) noexcept {
  std::size_t start = 0;
  for (std::size_t i = 1; i < number; ++i) {
    const auto hit = record.find(delimiter, start);
    if (hit == std::string_view::npos) return false;
    start = hit + 1;
  }
  const auto stop = record.find(delimiter, start);
  out = record.substr(start, stop == std::string_view::npos ? std::string_view::npos : stop - start);
  return true;
}
/// find_field as an optional (the same field).
inline std::optional<std::string_view> field(std::string_view record, std::size_t number,
                                             char delimiter) noexcept {
  std::string_view out;
  if (!find_field(record, number, delimiter, out)) return std::nullopt;
  return out;
}

/// A weight as --weight-field reads it: a non-negative finite decimal ("3", "0.25", "1e-3",
/// "2.5E+2"; no sign, no spaces, no inf/nan, no hex), converted with correct rounding
/// (std::from_chars, so the same double everywhere). Returns nothing for anything else,
/// negative numbers included.
/// parse_weight as a plain double, −1 for an invalid weight (no std::optional in the hot loop:
/// GCC moves it through memory).
double weight_or_negative_slow(std::string_view text) noexcept;
/// (weight_or_negative_slow: the same without the fast path: std::from_chars and the checks.)
inline double weight_or_negative(std::string_view text) noexcept {
  // Fast path (Clinger's): at most 15 digits in all, an optional fraction, no exponent: the
  // digits make an integer v < 2^53 and the value is v / 10^k with both exact doubles, so one
  // correctly rounded division gives the correctly rounded value, the same double as
  // from_chars.
  static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  std::uint64_t v = 0;
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n && static_cast<unsigned char>(text[i] - '0') < 10) {
    v = v * 10 + static_cast<std::uint64_t>(text[i] - '0');
    ++i;
  }
  std::size_t digits = i, frac = 0;
  if (i < n && text[i] == '.') {
    const std::size_t dot = ++i;
    while (i < n && static_cast<unsigned char>(text[i] - '0') < 10) {
      v = v * 10 + static_cast<std::uint64_t>(text[i] - '0');
      ++i;
    }
    frac = i - dot;
    digits += frac;
  }
  if (i == n && digits > 0 && digits <= 15) {
    return frac == 0 ? static_cast<double>(v) : static_cast<double>(v) / kPow10[frac];
  }
  return weight_or_negative_slow(text);
}
/// The weight in field `number` of `body` (a record without its delimiter) when that field is
/// a plain decimal of at most 15 digits: the same double as weight_or_negative of the field,
/// found in one pass (no search for the field's end). −1 when the fast form does not apply
/// (then use find_field and weight_or_negative, which also tell what is wrong).
inline double fast_field_weight(std::string_view body, std::size_t number, char delimiter) noexcept {
  static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const char* p = body.data();
  const char* const end = p + body.size();
  for (std::size_t i = 1; i < number; ++i) {
    const void* hit = std::memchr(p, delimiter, static_cast<std::size_t>(end - p));
    if (!hit) return -1;
    p = static_cast<const char*>(hit) + 1;
  }
  const char* const start = p;
  std::uint64_t v = 0;
  while (p != end && static_cast<unsigned char>(*p - '0') < 10) v = v * 10 + static_cast<std::uint64_t>(*p++ - '0');
  std::size_t digits = static_cast<std::size_t>(p - start), frac = 0;
  if (p != end && *p == '.') {
    const char* const dot = ++p;
    while (p != end && static_cast<unsigned char>(*p - '0') < 10) v = v * 10 + static_cast<std::uint64_t>(*p++ - '0');
    frac = static_cast<std::size_t>(p - dot);
    digits += frac;
  }
  if ((p != end && *p != delimiter) || digits == 0 || digits > 15) return -1;
  return frac == 0 ? static_cast<double>(v) : static_cast<double>(v) / kPow10[frac];
}

namespace detail {

/// The 8 bytes at p as a little-endian word (the first byte lowest).
inline std::uint64_t load_word(const char* p) noexcept {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

/// How many of the 8 bytes of `w` (little-endian, first byte lowest), from the first, are
/// ASCII digits: 0..8. SWAR: a byte b is a digit iff t = b ^ 0x30 < 10, i.e. t's high nibble
/// is 0 and its low nibble + 6 < 16; the bytes failing either test get their high bit set in
/// `flags` (x + 0x7F sets it for any non-zero 7-bit value, without carries between bytes).
inline unsigned digit_run(std::uint64_t w) noexcept {
  const std::uint64_t t = w ^ 0x3030303030303030u;
  const std::uint64_t bad = (t & 0xF0F0F0F0F0F0F0F0u) |
                            (((t & 0x0F0F0F0F0F0F0F0Fu) + 0x0606060606060606u) & 0x1010101010101010u);
  const std::uint64_t flags = (((bad & 0x7F7F7F7F7F7F7F7Fu) + 0x7F7F7F7F7F7F7F7Fu) | bad) & 0x8080808080808080u;
  return flags == 0 ? 8u : static_cast<unsigned>(__builtin_ctzll(flags)) / 8u;
}

/// The value of the first `n` (1..8) bytes of `w`, all ASCII digits, the first the most
/// significant: shifting left by 8·(8 − n) drops the other bytes and puts zeros (leading
/// zeros) below, then pairs, quads and the two halves are combined with exact integer
/// multiply-adds (no lane ever exceeds its width: 99, 9999, 99999999).
inline std::uint64_t digits_value(std::uint64_t w, unsigned n) noexcept {
  std::uint64_t x = (w & 0x0F0F0F0F0F0F0F0Fu) << (8 * (8 - n));
  x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFu;
  x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFu;
  return (x * 10000 + (x >> 32)) & 0xFFFFFFFFu;
}

/// The value of a record [s, e) of 1..8 bytes that are all ASCII digits (8 bytes readable at
/// s), else −1. t = bytes ^ '0' holds the digit values; the first non-digit byte is the lowest
/// one whose t + 0x76 or t has its high bit set (a carry out of a lower byte can only come
/// from a non-digit, so the lowest flag is right; the higher ones do not matter); shifting by
/// 8·(8 − n) keeps the record's n bytes, and digits_value's combining steps give the value.
inline std::int64_t short_digits_record(const char* s, const char* e) noexcept {
  const auto n = static_cast<unsigned>(e - s);
  if (n - 1 >= 8) return -1;  // empty, or longer than a word
  const std::uint64_t t = load_word(s) ^ 0x3030303030303030u;
  const unsigned shift = 8 * (8 - n);
  if (((((t + 0x7676767676767676u) | t) & 0x8080808080808080u) << shift) != 0) return -1;
  std::uint64_t x = t << shift;
  x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFu;
  x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFu;
  return static_cast<std::int64_t>((x * 10000 + (x >> 32)) & 0xFFFFFFFFu);
}

inline constexpr std::uint64_t kPow10Int[] = {1,           10,           100,           1000,
                                              10000,       100000,       1000000,       10000000,
                                              100000000,   1000000000,   10000000000,   100000000000,
                                              1000000000000, 10000000000000, 100000000000000,
                                              1000000000000000, 10000000000000000};

/// The leading digits at p (up to 16 are looked at: 16 bytes must be readable): their count
/// and, when the count is below 16, their value.
inline unsigned leading_digits(const char* p, std::uint64_t& value) noexcept {
  const std::uint64_t a = load_word(p);
  const unsigned n = digit_run(a);
  if (n < 8) {
    value = n == 0 ? 0 : digits_value(a, n);
    return n;
  }
  const std::uint64_t b = load_word(p + 8);
  const unsigned m = digit_run(b);
  value = digits_value(a, 8) * kPow10Int[m] + (m == 0 ? 0 : digits_value(b, m));
  return 8 + m;
}

/// A plain decimal weight read by words: `digits` (all its digits as one integer, below
/// 10^15) and `frac` (how many of them follow the point); digits < 0 when the text is not of
/// that form. Its double is digits / 10^frac, correctly rounded (one division of exact doubles,
/// Clinger's fast path: the same double as fast_field_weight and std::from_chars).
struct plain_decimal {
  std::int64_t digits = -1;  ///< the digits as an integer, or −1: not a plain decimal
  unsigned frac = 0;         ///< digits after the point
  /// The correctly rounded double (precondition digits >= 0).
  double value() const noexcept {
    static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    return frac == 0 ? static_cast<double>(digits) : static_cast<double>(digits) / kPow10[frac];
  }
};

/// The field starting at p of the record whose delimiter is at e, as fast_field_weight reads
/// it (1..15 digits with an optional point; it ends at e or at `field_delimiter`), by word
/// reads: at least 40 bytes from p must be readable. Precondition: neither delimiter is a
/// digit or '.'.
inline plain_decimal word_field_decimal(const char* p, const char* e, char field_delimiter) noexcept {
  std::uint64_t v = 0;
  const unsigned whole = leading_digits(p, v);
  const char* q = p + whole;
  unsigned frac = 0;
  if (*q == '.') {
    std::uint64_t f = 0;
    frac = leading_digits(q + 1, f);
    if (whole + frac > 15) return {};
    v = v * kPow10Int[frac] + f;
    q += 1 + frac;
  }
  const unsigned digits = whole + frac;
  if (digits == 0 || digits > 15 || (q != e && *q != field_delimiter)) return {};
  return {static_cast<std::int64_t>(v), frac};
}

/// Field `number` of the record [s, e) (e: its delimiter) as a plain decimal, by word reads
/// (40 bytes readable past e; neither delimiter a digit or '.'). A first field that is the
/// whole record of at most 8 digits (`seq` output) takes short_digits_record.
inline plain_decimal record_decimal(const char* s, const char* e, std::size_t number, char field_delimiter) noexcept {
  if (number == 1) {
    const std::int64_t v = short_digits_record(s, e);
    if (v >= 0) return {v, 0};
  }
  for (std::size_t i = 1; i < number; ++i) {
    const void* hit = std::memchr(s, field_delimiter, static_cast<std::size_t>(e - s));
    if (!hit) return {};
    s = static_cast<const char*>(hit) + 1;
  }
  return word_field_decimal(s, e, field_delimiter);
}

/// The weight record_decimal reads, as a double, or −1: the same as fast_field_weight of the
/// record's body whenever that gives a weight.
inline double record_weight(const char* s, const char* e, std::size_t number, char field_delimiter) noexcept {
  const plain_decimal d = record_decimal(s, e, number, field_delimiter);
  return d.digits < 0 ? -1.0 : d.value();
}

}  // namespace detail

inline std::optional<double> parse_weight(std::string_view text) noexcept {
  const double w = weight_or_negative(text);
  if (w < 0) return std::nullopt;
  return w;
}

/// The 64-bit threshold T of a probability p in (0, 1]: a uniform 64-bit word w passes with
/// probability T/2^64 when w < T. T = floor(p·2^64) (exact: a power-of-two scaling), and
/// p = 1 gives UINT64_MAX with `all` set (every word passes).
struct probability_threshold {
  std::uint64_t threshold = 0;  ///< words below it pass
  bool all = false;             ///< p = 1: everything passes
  /// Whether a word passes.
  bool passes(std::uint64_t word) const noexcept { return all || word < threshold; }
};
/// The threshold of p; precondition 0 < p ≤ 1.
probability_threshold threshold_of(double p) noexcept;

/// Bernoulli sampling (--prob P): every record is kept independently with probability p, in
/// input order, by geometric skips (detmath::geometric_skip: the records between two kept ones
/// are passed over by counting delimiters). Draws: one word per kept record (plus one at the
/// end), from chacha20_engine(derive_key(key, "lines/bernoulli", 0), 0). Calls
/// `keep(record)` for each kept record, at most `limit` times. Precondition 0 < p ≤ 1.
template <class Keep>
void bernoulli_sample(record_source& source, double p, const seed_key& key, std::uint64_t limit,
                      Keep&& keep);

/// Distinct sampling (--prob P --key-fields LIST): a record is kept when the keyed hash of its
/// key is below p's threshold, so every record of a key is kept or dropped together and the
/// decision for a key depends only on the key bytes and the seed (as PostgreSQL's Bernoulli
/// TABLESAMPLE, history-independent). Hash: SipHash-2-4 (libsodium crypto_shorthash) keyed
/// with the first 16 bytes of derive_key(key, "lines/distinct", 0), over the key fields (in
/// field order) joined by the field delimiter (unambiguous: fields cannot contain it).
class distinct_filter {
 public:
  /// `fields`: a non-empty field list; `field_delimiter` separates fields.
  distinct_filter(double p, field_list fields, char field_delimiter, const seed_key& key);
  /// Whether `record` (without its record delimiter) is kept; nothing when it has fewer than
  /// fields.needed() fields. Time: the record's length plus the list's ranges.
  std::optional<bool> keep(std::string_view record);
  /// Whether a record with the key `key_bytes` (its key fields already joined, e.g. csv_key)
  /// is kept.
  bool keep_key(std::string_view key_bytes) const noexcept { return threshold_.passes(hash(key_bytes)); }
  /// The 64-bit keyed hash of a key (the joined key fields).
  std::uint64_t hash(std::string_view key_bytes) const noexcept;

 private:
  probability_threshold threshold_;
  field_list fields_;
  char field_delimiter_;
  unsigned char hash_key_[16];
  std::string joined_;
};

/// Weighted sampling without replacement of K records (--weight-field F -n K; K = UINT64_MAX
/// for a weighted shuffle of everything). Efraimidis–Spirakis ("Weighted random sampling with a
/// reservoir", IPL 97(5), 2006) in the exponential form: record i gets the key E_i/w_i with E_i
/// standard exponential (E = −ln u by detmath::log); the K smallest keys are the sample, and in
/// ascending key order they are the order of successive weighted draws without replacement
/// (P(first = i) = w_i/W, and so on). A zero weight gets a key after every positive one (a
/// uniform tie-breaker among zeros), so zero-weight records are chosen only when fewer than K
/// records have positive weight, uniformly among themselves.
///
/// Streams use A-ExpJ's exponential jumps: once K positive keys are kept, with τ the largest,
/// a record enters iff its key is below τ, which for weights w has probability 1 − e^(−wτ); the
/// weight passed over before the next entry is exponential with rate τ (X = E/τ), so records
/// are only parsed and their weights subtracted, with one draw per entry. The key of the
/// entering record is then drawn from the exponential law of rate w truncated to [0, τ)
/// exactly: for wτ ≥ 1 by rejection (redraw E/w until below τ), else as the least of the
/// uniform times U·τ of the Poisson points falling in the rest of the record's weight
/// (further jumps E/τ). Ties of keys go to the earlier record. Draws come from
/// chacha20_engine(derive_key(key, "lines/weighted", 0), 0) in the order of the calls.
/// Keys, τ and the entering record's arithmetic are detmath::scaled numbers, so every finite
/// weight from the smallest subnormal (keys near 2^1080) to the largest double (keys near
/// 2^-1080) gets its exact law up to binary64 rounding; the jump is a plain double while it is
/// a normal one (the ordinary case, where every value is the plain double computation's), else
/// a scaled number passed record by record. Memory: K records.
class weighted_sampler {
 public:
  /// k >= 1 records to keep.
  weighted_sampler(std::uint64_t k, const seed_key& key);
  /// Whether the next offer may be passed over without its record: true when `weight` can
  /// not enter. Call with every record's weight, then `offer` when it returns false.
  /// Precondition: weight is finite and >= 0.
  bool pass(double weight) noexcept {
    if (have_jump_ && weight > 0 && jump_ >= weight) {  // the common case, inline
      jump_ -= weight;
      return true;
    }
    return pass_slow(weight);
  }
  /// The bulk form of `pass` for the records at the start of `window` (whole records, each
  /// ending with `delimiter`), weights in field `number` split at `field_delimiter`: passes
  /// over records while their weights are plain decimals (as fast_field_weight reads them,
  /// the same doubles) that `pass` would pass over, with the same subtractions in the same
  /// order, and stops at the first record it cannot pass (it has to be offered, or its weight
  /// needs the careful parse) or near the window's end (the last ~100 bytes). Sets `passed`
  /// to the number of records passed and returns their length in bytes: the caller handles
  /// the record there with `pass`/`offer`, then calls again. Does nothing before K positive
  /// keys are held. Records are found 64 bytes at a time (SSE2 compare masks on x86-64; on
  /// other platforms, and when a delimiter is a digit or '.', it passes nothing).
  std::size_t pass_records(std::string_view window, char delimiter, std::size_t number,
                           char field_delimiter, std::uint64_t& passed) noexcept;
  /// Offers the record whose weight was just given to `pass` (which returned false), with its
  /// 0-based input position; `owner` as for reservoir_sampler::offer (keep_record).
  void offer(std::string_view record, double weight, std::uint64_t position, byte_buffer* owner = nullptr);
  /// Records kept so far.
  std::size_t size() const noexcept { return heap_.size(); }
  /// The kept records in ascending key order (the weighted random order).
  std::vector<byte_buffer> take_in_key_order();
  /// The kept records in input order (--keep-order).
  std::vector<byte_buffer> take_in_input_order();

 private:
  using scaled = detmath::scaled;
  struct entry {
    bool zero;             // a zero weight: after every positive key
    scaled key;            // E/w, or a uniform tie-breaker for zeros
    std::uint64_t position;
    std::size_t slot;
    friend bool operator<(const entry& a, const entry& b) noexcept {
      if (a.zero != b.zero) return b.zero;
      if (a.key != b.key) return a.key < b.key;
      return a.position < b.position;
    }
  };
  bool pass_slow(double weight) noexcept;
  double exponential() noexcept;
  double uniform() noexcept;
  entry key_for(double weight, std::uint64_t position) noexcept;
  scaled truncated_key(double weight, scaled offset) noexcept;
  std::uint64_t k_;
  chacha20_engine engine_;
  std::vector<entry> heap_;  // max-heap
  std::vector<byte_buffer> slots_;
  bool have_jump_ = false;  // jump_ holds the jump (a normal double, or less after subtractions)
  double jump_ = 0;         // weight still to pass over before the next entry
  bool have_scaled_jump_ = false;  // the jump is outside the normal doubles: scaled_jump_
  scaled scaled_jump_;
  scaled pending_;  // the offset within the record that enters (set by pass)
};

/// Sampling with replacement (--with-replacement -n K): independent draws among n records,
/// one at a time (the output streams), uniform (Lemire, uniform_below(n)) when `weights` is
/// empty, else proportional to the weights: t = u·W with u uniform in (0, 1)
/// (detmath::open_unit) and W the sum of the weights added in input order; the record drawn is
/// the first whose running sum exceeds t (a zero weight is never drawn; when every weight is
/// zero the draws are uniform). When W overflows or is below 2^-969 (where u·W would lose
/// precision), every weight is first multiplied by the power of two that brings the largest
/// into [½, 1) (exact, but for weights below 2^-1021 of the largest, which the draws cannot
/// reach anyway); otherwise the weights are used as they are. Draws from
/// chacha20_engine(derive_key(key, "lines/with-replacement", 0), 0). Memory: n running sums.
class replacement_draws {
 public:
  /// Precondition n >= 1 (and weights.size() == n if given); every weight finite and >= 0.
  replacement_draws(std::uint64_t n, std::span<const double> weights, const seed_key& key);
  /// The 0-based index of the next record drawn.
  std::uint64_t next() noexcept;

 private:
  chacha20_engine engine_;
  std::uint64_t n_;
  std::vector<double> running_;  // running sums of the (scaled) weights; empty: uniform draws
  double total_ = 0;
  std::uint64_t last_ = 0;  // the last record with a positive weight: when u·W rounds up to W
};

/// K draws of replacement_draws, in draw order (the tests' and small callers' form).
std::vector<std::uint64_t> draw_with_replacement(std::uint64_t n, std::span<const double> weights,
                                                 std::uint64_t k, const seed_key& key);

// ---- implementation of the template ----

template <class Keep>
void bernoulli_sample(record_source& source, double p, const seed_key& key, std::uint64_t limit,
                      Keep&& keep) {
  chacha20_engine engine(derive_key(key, "lines/bernoulli", 0), 0);
  std::string_view record;
  for (std::uint64_t kept = 0; kept < limit; ++kept) {
    const auto word = engine();
    const std::uint64_t skip = detmath::geometric_skip(detmath::open_unit(word), p);
    if (skip > 0 && source.skip(skip) < skip) return;
    if (!source.next(record)) return;
    keep(record);
  }
}

}  // namespace shufl::lines
