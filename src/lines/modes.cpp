// The sampler modes of `shufl lines` (modes.hpp). Compiled, as the whole library, without
// floating-point contraction: the doubles that decide seeded output are correctly rounded.
#include "shufl/lines/modes.hpp"

#include <sodium.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "shufl/error.hpp"
#include "shufl/lines/csv.hpp"

namespace shufl::lines {

// ---- record_source ----

bool record_source::next(std::string_view& record) {
  switch (kind_) {
    case kind::reader:
      if (!reader_->next(record)) return false;
      break;
    case kind::operands:
      if (position_ >= n_) return false;
      scratch_.assign(operands_[static_cast<std::size_t>(position_)]);
      scratch_.append(std::string_view(&delimiter_, 1));
      record = scratch_.view();
      break;
    case kind::csv: {
      record_line_ = csv_->record_line();
      if (!reader_->next(record)) {
        csv_->finish();
        return false;
      }
      if (!csv_->find_end(record.data(), record.data() + record.size())) {
        // A quoted field holds a newline: the record goes on over the next lines, which the
        // reader appends straight to scratch_ (a huge record is held once, in one buffer that
        // grows without copying: byte_buffer).
        if (byte_buffer* carried = reader_->owner(record)) scratch_ = std::move(*carried);
        else scratch_.assign(record);
        for (;;) {
          const std::size_t from = scratch_.size();
          if (!reader_->append_next(scratch_)) {
            csv_->finish();  // throws: a quoted field is open
            break;
          }
          if (csv_->find_end(scratch_.data() + from, scratch_.data() + scratch_.size())) break;
        }
        record = scratch_.view();
      }
      break;
    }
    case kind::range: {
      if (position_ >= n_) return false;
      char text[24];
      const auto end = std::to_chars(text, text + sizeof text, lo_ + position_).ptr;
      *end = delimiter_;
      scratch_.assign(std::string_view(text, static_cast<std::size_t>(end - text) + 1));
      record = scratch_.view();
      break;
    }
  }
  ++position_;
  return true;
}

bool record_source::append_next(byte_buffer& out) {
  if (kind_ == kind::reader) {
    if (!reader_->append_next(out)) return false;
  } else if (kind_ == kind::csv) {
    record_line_ = csv_->record_line();
    std::size_t from = out.size();
    if (!reader_->append_next(out)) {
      csv_->finish();
      return false;
    }
    // Lines until one ends outside a quoted field (as next).
    while (!csv_->find_end(out.data() + from, out.data() + out.size())) {
      from = out.size();
      if (!reader_->append_next(out)) {
        csv_->finish();  // throws: a quoted field is open
        break;
      }
    }
  } else {
    std::string_view record;
    if (!next(record)) return false;  // counts the position
    out.append(record);
    return true;
  }
  ++position_;
  return true;
}

std::uint64_t record_source::skip(std::uint64_t count) {
  std::uint64_t got = 0;
  if (kind_ == kind::reader) {
    got = reader_->skip(count);
  } else if (kind_ == kind::csv) {
    std::string_view record;
    while (got < count && next(record)) ++got;
    return got;  // next counted them
  } else {
    got = std::min(count, n_ - std::min(n_, position_));
  }
  position_ += got;
  return got;
}

// ---- fields and weights ----

std::optional<field_list> parse_field_list(std::string_view text, std::string* why) {
  // cut's grammar (coreutils set_fields): items separated by ',' or blanks; an item is N, N-M,
  // N- or -M; every number >= 1; no empty item, no lone '-'.
  const auto fail = [&](const char* reason) -> std::optional<field_list> {
    if (why) *why = reason;
    return std::nullopt;
  };
  constexpr std::size_t kMax = std::size_t{1} << 63;  // a field number above this: "too large"
  std::vector<field_list::range> ranges;
  std::size_t i = 0;
  const std::size_t n = text.size();
  if (n == 0) return fail("missing list of fields");
  for (;;) {
    // One item up to the next separator or the end.
    std::size_t lo = 0, hi = 0;
    bool has_lo = false, has_hi = false, dash = false;
    const auto number = [&](std::size_t& value) -> bool {
      value = 0;
      bool any = false;
      while (i < n && text[i] >= '0' && text[i] <= '9') {
        value = value * 10 + static_cast<std::size_t>(text[i] - '0');
        if (value > kMax) return false;
        ++i;
        any = true;
      }
      return any;
    };
    std::size_t v = 0;
    if (i < n && text[i] >= '0' && text[i] <= '9') {
      if (!number(v)) return fail("field number is too large");
      lo = v;
      has_lo = true;
    }
    if (i < n && text[i] == '-') {
      dash = true;
      ++i;
      if (i < n && text[i] >= '0' && text[i] <= '9') {
        if (!number(v)) return fail("field number is too large");
        hi = v;
        has_hi = true;
      }
    }
    if (i < n && text[i] != ',' && text[i] != ' ' && text[i] != '\t') return fail("invalid field value");
    if (!dash) {
      if (!has_lo || lo == 0) return fail("fields are numbered from 1");
      hi = lo;
    } else {
      if (!has_lo && !has_hi) return fail("invalid range with no endpoint: -");
      if ((has_lo && lo == 0) || (has_hi && hi == 0)) return fail("fields are numbered from 1");
      if (!has_lo) lo = 1;
      if (!has_hi) hi = SIZE_MAX;
      if (hi < lo) return fail("invalid decreasing range");
    }
    ranges.push_back({lo, hi});
    if (i == n) break;
    ++i;  // the separator
    if (i == n) return fail("fields are numbered from 1");  // an empty last item, as cut says
  }
  // The set: sorted by start, overlapping or adjacent ranges merged.
  std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.lo < b.lo; });
  field_list out;
  for (const auto& r : ranges) {
    if (!out.ranges.empty() && (out.ranges.back().hi == SIZE_MAX || r.lo <= out.ranges.back().hi + 1)) {
      out.ranges.back().hi = std::max(out.ranges.back().hi, r.hi);
    } else {
      out.ranges.push_back(r);
    }
  }
  return out;
}

double weight_or_negative_slow(std::string_view text) noexcept {
  if (text.empty()) return -1;
  const char c = text.front();
  if (!((c >= '0' && c <= '9') || c == '.')) return -1;  // no sign, space, inf, nan
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v,
                                         std::chars_format::general);
  if (ec != std::errc() || end != text.data() + text.size()) return -1;
  if (!std::isfinite(v) || v < 0) return -1;
  return v;
}

probability_threshold threshold_of(double p) noexcept {
  if (p >= 1.0) return {std::numeric_limits<std::uint64_t>::max(), true};
  return {static_cast<std::uint64_t>(p * 0x1p64), false};  // exact: p < 1 so p·2^64 < 2^64
}

// ---- distinct sampling ----

distinct_filter::distinct_filter(double p, field_list fields, char field_delimiter,
                                 const seed_key& key)
    : threshold_(threshold_of(p)), fields_(std::move(fields)), field_delimiter_(field_delimiter) {
  static_assert(crypto_shorthash_KEYBYTES == 16 && crypto_shorthash_BYTES == 8);
  if (sodium_init() < 0) throw error("libsodium could not be initialised");
  const seed_key derived = derive_key(key, "lines/distinct", 0);
  std::memcpy(hash_key_, derived.bytes.data(), sizeof hash_key_);
}

std::uint64_t distinct_filter::hash(std::string_view key_bytes) const noexcept {
  unsigned char out[8];
  crypto_shorthash(out, reinterpret_cast<const unsigned char*>(key_bytes.data()), key_bytes.size(),
                   hash_key_);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | out[i];  // little-endian, as SipHash defines it
  return v;
}

std::optional<bool> distinct_filter::keep(std::string_view record) {
  // One pass over the record's fields; the ranges in ascending order.
  joined_.clear();
  const std::size_t needed = fields_.needed();
  std::size_t number = 1, start = 0, r = 0;
  bool first = true;
  for (;;) {
    const auto hit = record.find(field_delimiter_, start);
    const std::size_t stop = hit == std::string_view::npos ? record.size() : hit;
    while (r < fields_.ranges.size() && fields_.ranges[r].hi < number) ++r;
    if (r == fields_.ranges.size()) break;  // past the last range: the key is complete
    if (fields_.ranges[r].lo <= number) {
      if (!first) joined_ += field_delimiter_;
      joined_.append(record.substr(start, stop - start));
      first = false;
    }
    if (hit == std::string_view::npos) break;
    start = hit + 1;
    ++number;
  }
  if (number < needed) return std::nullopt;
  return threshold_.passes(hash(joined_));
}

// ---- weighted sampling without replacement ----

weighted_sampler::weighted_sampler(std::uint64_t k, const seed_key& key)
    : k_(k), engine_(derive_key(key, "lines/weighted", 0), 0) {
  const auto expect = static_cast<std::size_t>(std::min<std::uint64_t>(k, 1024));
  heap_.reserve(expect);
  slots_.reserve(expect);
}

double weighted_sampler::uniform() noexcept { return detmath::open_unit(engine_()); }

double weighted_sampler::exponential() noexcept { return -detmath::log(uniform()); }

weighted_sampler::entry weighted_sampler::key_for(double weight, std::uint64_t position) noexcept {
  if (weight > 0) return {false, scaled::of(exponential()) / scaled::of(weight), position, 0};
  return {true, scaled::of(uniform()), position, 0};
}

bool weighted_sampler::pass_slow(double weight) noexcept {
  if (heap_.size() < k_) return false;
  const entry& top = heap_.front();
  if (top.zero) return false;  // a positive weight enters surely; a zero one needs its draw
  if (!(weight > 0)) return true;
  if (!have_jump_ && !have_scaled_jump_) {
    // The weight passed over before the next entry: Exp(rate τ). A plain double while it is a
    // normal one (then exactly E/τ in binary64: the ordinary case); else scaled.
    const scaled jump = scaled::of(exponential()) / top.key;
    if (jump.fits_double()) {
      jump_ = jump.to_double();
      have_jump_ = true;
    } else {
      scaled_jump_ = jump;
      have_scaled_jump_ = true;
    }
  }
  if (have_jump_) {
    if (jump_ >= weight) {  // exact: a normal jump, or one below, minus weights it covers
      jump_ -= weight;
      return true;
    }
    pending_ = scaled::of(jump_);
    have_jump_ = false;
    return false;
  }
  const scaled w = scaled::of(weight);
  if (scaled_jump_ >= w) {
    scaled_jump_ = scaled_jump_ - w;
    return true;
  }
  pending_ = scaled_jump_;
  have_scaled_jump_ = false;
  return false;
}

namespace {
// kLastBytes[n & 7]: the top n bytes of a word (n = 1..8), for a record of n bytes ending at
// the word's end.
constexpr std::uint64_t kLastBytes[8] = {~std::uint64_t{0},      ~std::uint64_t{0} << 56, ~std::uint64_t{0} << 48,
                                         ~std::uint64_t{0} << 40, ~std::uint64_t{0} << 32, ~std::uint64_t{0} << 24,
                                         ~std::uint64_t{0} << 16, ~std::uint64_t{0} << 8};

// Whether every record ending in a 64-byte block has 1..8 bytes before its delimiter, from
// the block's delimiter bits (non-zero) and `before`, the bytes of the first record that lie
// in earlier blocks: the first record by its length; then no two adjacent delimiters (an
// empty record) and no 9 bytes without a delimiter (z9: bit j when bytes j..j+8 have none)
// below the last delimiter (a run after it belongs to the next block's first record).
bool short_records(std::uint64_t delimiters, std::ptrdiff_t before) noexcept {
  const std::ptrdiff_t first = before + __builtin_ctzll(delimiters);
  if (first < 1 || first > 8 || (delimiters & (delimiters >> 1)) != 0) return false;
  const std::uint64_t z = ~delimiters;
  std::uint64_t run = z & (z >> 1);  // 2 bytes without a delimiter from bit j
  run &= run >> 2;                   // 4
  run &= run >> 4;                   // 8
  run &= z >> 8;                     // 9
  const int last = 63 - __builtin_clzll(delimiters);
  return (run & ((std::uint64_t{1} << last) - 1)) == 0;
}

// Σ byte_i·10^(7−i) of a word of place sums (bytes up to 252): pairs (≤ 252·11 in 16 bits),
// quads (< 2^32), then the two halves.
std::uint64_t place_total(std::uint64_t places) noexcept {
  std::uint64_t x = (places & 0x00FF00FF00FF00FFu) * 10 + ((places >> 8) & 0x00FF00FF00FF00FFu);
  x = (x & 0x0000FFFF0000FFFFu) * 100 + ((x >> 16) & 0x0000FFFF0000FFFFu);
  return (x & 0xFFFFFFFFu) * 10000 + (x >> 32);
}

}  // namespace

std::size_t weighted_sampler::pass_records(std::string_view window, char delimiter, std::size_t number,
                                           char field_delimiter, std::uint64_t& passed) noexcept {
  passed = 0;
  const char* const begin = window.data();
  const char* s = begin;
#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const auto plain = [](char c) { return c == '.' || (c >= '0' && c <= '9'); };
  if (!have_jump_ || plain(delimiter) || plain(field_delimiter)) return 0;
  const char* const end = begin + window.size();
  const __m128i needle = _mm_set1_epi8(delimiter);
  // The jump in a register (the loop stores nothing). While it is below 2^53 its ulp is at
  // most 1, so subtracting integer weights it covers is exact: j − w is a multiple of ulp(j)
  // in [0, j]. Then passing integers w_1, w_2, ... in turn (j ≥ w_i each time) is the same as
  // their running sum S staying at most floor(j), and the double j − S at the end is what
  // the subtractions one by one give. So integer weights cost an integer addition and a
  // compare; others (fractions, or a jump of 2^53 and more) the subtraction `pass` does.
  double jump = jump_;
  std::uint64_t budget = 0, sum = 0;  // floor(jump) when exact; integer weights passed since
  bool exact = jump < 0x1p53;
  if (exact) budget = static_cast<std::uint64_t>(jump);
  std::uint64_t n = 0;
  // Whole blocks of short integer records (`seq`-like: field 1 is the record, at most 8
  // digits): instead of converting each record, their digits are added place by place. Each
  // record's 8 bytes ending at its delimiter, digit values (byte ^ '0') with the bytes before
  // the record cleared, go into one word; byte i of it holds the digits of place 10^(7−i)
  // (at most 28 records, so at most 252 per byte); the block's total is then one conversion
  // with wider lanes. Valid when every byte of the block (and of the block before, where the
  // first record starts) is a digit or the delimiter and every record has 1..8 bytes; the
  // block passes whole when its total fits the budget, else record by record below.
  const __m128i zero_char = _mm_set1_epi8('0');
  const __m128i nine = _mm_set1_epi8(9);
  const __m128i zero = _mm_setzero_si128();
  bool previous_plain = false;  // the block before held only digits and delimiters
  std::uint64_t pending = 0, pending_records = 0;  // passed records whose digits wait
  // 40 bytes of slack past each block: the weight's words are read from within its record.
  for (const char* b = s; end - b >= 64 + 40; b += 64) {
    std::uint64_t mask = 0, plain_bytes = 0;
    for (int at = 0; at < 64; at += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + at));
      const __m128i is_delimiter = _mm_cmpeq_epi8(bytes, needle);
      const __m128i is_digit = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(bytes, zero_char), nine), zero);
      mask |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(is_delimiter))) << at;
      plain_bytes |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(
                         _mm_movemask_epi8(_mm_or_si128(is_delimiter, is_digit)))) << at;
    }
    const bool plain_block = plain_bytes == ~std::uint64_t{0};
    if (plain_block && previous_plain && number == 1 && exact && mask != 0 && short_records(mask, b - s)) {
      std::uint64_t places = 0, records = 0;
      const char* r = s;
      for (std::uint64_t m = mask; m != 0; m &= m - 1, ++records) {
        const char* const e = b + __builtin_ctzll(m);
        places += (detail::load_word(e - 8) ^ 0x3030303030303030u) & kLastBytes[(e - r) & 7];
        r = e + 1;
      }
      if (records <= 28) {  // else a byte of `places` may have overflowed
        // While the records held back could not exceed the budget even at 99999999 each,
        // their digits wait in `pending` (up to 28 records) and are converted once for
        // several blocks.
        const std::uint64_t held = pending_records + records;
        if (held <= 28 && held * 99999999u <= budget - sum) {
          pending += places;
          pending_records = held;
          n += records;
          s = r;
          previous_plain = true;
          continue;
        }
        sum += place_total(pending);
        pending = pending_records = 0;
        const std::uint64_t total = place_total(places);
        if (total <= budget - sum) {
          sum += total;
          n += records;
          s = r;
          previous_plain = true;
          continue;
        }
      }
    }
    previous_plain = plain_block;
    sum += place_total(pending);
    pending = pending_records = 0;
    while (mask != 0) {
      const char* const e = b + __builtin_ctzll(mask);
      mask &= mask - 1;
      const detail::plain_decimal d = detail::record_decimal(s, e, number, field_delimiter);
      if (d.digits < 0) goto stop;  // not a plain decimal: the careful parse decides
      if (d.frac == 0 && exact) {
        // An integer (a zero passes too, as in pass_slow, leaving the jump as it is).
        const std::uint64_t next = sum + static_cast<std::uint64_t>(d.digits);
        if (next > budget) goto stop;
        sum = next;
      } else {
        const double w = d.value();
        if (!(w > 0)) goto stop;  // a zero weight: pass_slow's business
        jump -= static_cast<double>(sum);  // exact, see above
        sum = 0;
        if (!(jump >= w)) goto stop;  // as pass(): only weights the jump covers
        jump -= w;
        exact = jump < 0x1p53;
        budget = exact ? static_cast<std::uint64_t>(jump) : 0;
      }
      s = e + 1;
      ++n;
    }
  }
stop:
  sum += place_total(pending);  // held back only while exact
  jump_ = jump - static_cast<double>(sum);  // exact, see above
  passed = n;
#else
  (void)delimiter, (void)number, (void)field_delimiter;
#endif
  return static_cast<std::size_t>(s - begin);
}

weighted_sampler::scaled weighted_sampler::truncated_key(double weight, scaled offset) noexcept {
  // Exp(rate weight) conditioned on being below τ.
  const scaled tau = heap_.front().key;
  const scaled w = scaled::of(weight);
  if (w * tau >= scaled::of(1.0)) {
    for (;;) {  // accepted with probability 1 − e^(−wτ) ≥ 0.63
      const scaled key = scaled::of(exponential()) / w;
      if (key < tau) return key;
    }
  }
  // The Poisson points (position, time) of rate 1 with time below τ fall on the weight line
  // at rate τ; the first in this record is at `offset`; its time is uniform in [0, τ), and
  // the record's key is the least time of its points.
  scaled key = scaled::of(uniform()) * tau;
  scaled rest = w - offset;
  for (;;) {
    const scaled gap = scaled::of(exponential()) / tau;
    if (gap >= rest) break;
    rest = rest - gap;
    const scaled other = scaled::of(uniform()) * tau;
    if (other < key) key = other;
  }
  return key;
}

void weighted_sampler::offer(std::string_view record, double weight, std::uint64_t position, byte_buffer* owner) {
  if (heap_.size() < k_) {
    entry e = key_for(weight, position);
    e.slot = slots_.size();
    keep_record(slots_.emplace_back(), record, owner);
    heap_.push_back(e);
    std::push_heap(heap_.begin(), heap_.end());
    return;
  }
  entry e{};
  if (heap_.front().zero) {
    e = key_for(weight, position);
    if (!(e < heap_.front())) return;
  } else {
    e = {false, truncated_key(weight, pending_), position, 0};
  }
  std::pop_heap(heap_.begin(), heap_.end());
  e.slot = heap_.back().slot;
  heap_.back() = e;
  std::push_heap(heap_.begin(), heap_.end());
  keep_record(slots_[e.slot], record, owner);
  have_jump_ = have_scaled_jump_ = false;
}

std::vector<byte_buffer> weighted_sampler::take_in_key_order() {
  std::sort(heap_.begin(), heap_.end());
  std::vector<byte_buffer> out;
  out.reserve(heap_.size());
  for (const entry& e : heap_) out.push_back(std::move(slots_[e.slot]));
  heap_.clear();
  return out;
}

std::vector<byte_buffer> weighted_sampler::take_in_input_order() {
  std::sort(heap_.begin(), heap_.end(),
            [](const entry& a, const entry& b) { return a.position < b.position; });
  std::vector<byte_buffer> out;
  out.reserve(heap_.size());
  for (const entry& e : heap_) out.push_back(std::move(slots_[e.slot]));
  heap_.clear();
  return out;
}

// ---- with replacement ----

namespace {
// x·2^k by multiplications with exact powers of two (correctly rounded IEEE products; exact
// unless the result is subnormal).
double times_pow2(double x, int k) noexcept {
  while (k > 1000) {
    x *= 0x1p1000;
    k -= 1000;
  }
  while (k < -1000) {
    x *= 0x1p-1000;
    k += 1000;
  }
  return x * std::ldexp(1.0, k);  // 2^k, a normal double for |k| ≤ 1000
}
}  // namespace

replacement_draws::replacement_draws(std::uint64_t n, std::span<const double> weights, const seed_key& key)
    : engine_(derive_key(key, "lines/with-replacement", 0), 0), n_(n) {
  if (weights.empty()) return;
  double total = 0, largest = 0;
  for (const double w : weights) {
    total += w;
    largest = std::max(largest, w);
  }
  if (!(largest > 0)) return;  // every weight zero: uniform draws
  // Scale only when the plain sums would overflow or u·W lose precision (ordinary weights
  // keep their plain sums, bit for bit).
  int scale = 0;
  if (!(total <= std::numeric_limits<double>::max()) || total < 0x1p-969) {
    int e = 0;
    (void)std::frexp(largest, &e);
    scale = -e;  // the largest weight times 2^scale is in [½, 1)
  }
  running_.reserve(weights.size());
  total = 0;
  for (const double w : weights) running_.push_back(total += (scale == 0 ? w : times_pow2(w, scale)));
  total_ = total;
  last_ = running_.size() - 1;
  while (last_ > 0 && weights[static_cast<std::size_t>(last_)] == 0) --last_;
}

std::uint64_t replacement_draws::next() noexcept {
  if (running_.empty()) return uniform_below(engine_, n_);
  const double t = detmath::open_unit(engine_()) * total_;
  const auto it = std::upper_bound(running_.begin(), running_.end(), t);
  return it == running_.end() ? last_ : static_cast<std::uint64_t>(it - running_.begin());
}

std::vector<std::uint64_t> draw_with_replacement(std::uint64_t n, std::span<const double> weights,
                                                 std::uint64_t k, const seed_key& key) {
  replacement_draws draws(n, weights, key);
  std::vector<std::uint64_t> out;
  out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(k, std::uint64_t{1} << 24)));
  for (std::uint64_t i = 0; i < k; ++i) out.push_back(draws.next());
  return out;
}

}  // namespace shufl::lines
