// The input-text convention (text_input.hpp), the JSON text rule (json_text.hpp) and sizes
// (size.hpp). Issue 12, cases F03, F04, F05, F06.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "shufl/bias.hpp"
#include "shufl/deck.hpp"
#include "shufl/error.hpp"
#include "shufl/json_text.hpp"
#include "shufl/size.hpp"
#include "shufl/text_input.hpp"
#include "support/run.hpp"

namespace shufl {
namespace {

std::vector<std::string> all_lines(std::string_view text) {
  text_reader reader(text, "t");
  std::vector<std::string> out;
  std::string_view line;
  while (reader.next(line)) out.emplace_back(line);
  return out;
}

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const error& e) {
    return e.what();
  }
  return "no error";
}

// Expected validity and first bad offset: Python's bytes.decode('utf-8') (UnicodeDecodeError.start),
// computed beside this test (see the table's comment in the commit message).
TEST(TextInput, Utf8ValidityMatchesPython) {
  struct row {
    std::string_view bytes;
    bool valid;
    std::size_t first_bad;
  };
  const row rows[] = {
      {"", true, 0}, {"\x61\x62\x63", true, 3}, {"\xc3\xa9", true, 2}, {"\xc0\xaf", false, 0},
      {"\xc1\xbf", false, 0}, {"\xe0\x80\xaf", false, 0}, {"\xe0\xa0\x80", true, 3}, {"\xed\x9f\xbf", true, 3},
      {"\xed\xa0\x80", false, 0}, {"\xef\xbf\xbf", true, 3}, {"\xf0\x8f\xbf\xbf", false, 0},
      {"\xf0\x90\x80\x80", true, 4}, {"\xf4\x8f\xbf\xbf", true, 4}, {"\xf4\x90\x80\x80", false, 0},
      {"\xf5\x80\x80\x80", false, 0}, {"\xff", false, 0}, {"\xfe", false, 0}, {"\x80", false, 0},
      {"\xe2\x82", false, 0}, {"\x61\xe2\x82\xac", true, 4}, {"\xe2\x82\xac\x62\xff", false, 4},
      {"\xf0\x9f\x82\xa1", true, 4},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(is_valid_utf8(r.bytes), r.valid) << hex_bytes(r.bytes);
    EXPECT_EQ(first_invalid_utf8(r.bytes), r.first_bad) << hex_bytes(r.bytes);
  }
}

// Buffers of exactly the text's length (no terminator after them, as a file's bytes): the ASCII
// fast paths (32 and 8 bytes at a time) never read past the end. Under AddressSanitizer a read
// past it fails; the answers are checked everywhere.
TEST(TextInput, Utf8CheckStaysInsideExactBuffers) {
  for (const std::size_t size : {0u, 1u, 7u, 8u, 9u, 31u, 32u, 33u, 63u, 64u, 65u, 96u}) {
    for (const int bad_at : {-1, 0, 1, 31, 32, 63}) {
      if (bad_at >= static_cast<int>(size)) continue;
      const auto bytes = std::make_unique<char[]>(size == 0 ? 1 : size);
      std::fill(bytes.get(), bytes.get() + size, 'x');
      if (bad_at >= 0) bytes[static_cast<std::size_t>(bad_at)] = '\xff';
      const std::size_t want = bad_at >= 0 ? static_cast<std::size_t>(bad_at) : size;
      EXPECT_EQ(first_invalid_utf8(std::string_view(bytes.get(), size)), want) << size << " " << bad_at;
    }
  }
}

TEST(TextInput, BomCrlfAndLastLineWithoutNewline) {
  EXPECT_EQ(all_lines("\xef\xbb\xbf" "a\r\nb\nc"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(all_lines("a\n\nb\n"), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(all_lines(""), std::vector<std::string>{});
  // A BOM is dropped at the start of the file only.
  EXPECT_EQ(all_lines("a\n\xef\xbb\xbf" "b"), (std::vector<std::string>{"a", "\xef\xbb\xbf" "b"}));
  EXPECT_EQ(error_of([] { all_lines("ok\nx\xff\xfey\n"); }),
            "t: line 2: invalid UTF-8 (byte 0xff at column 2); text files must be UTF-8");
  EXPECT_EQ(error_of([] { all_lines(std::string(text_max_line_bytes + 1, 'a')); }),
            "t: line 1 is longer than 1048576 bytes");
}

TEST(TextInput, ReadErrorsCarryTheSystemsReason) {
  test::temp_dir dir;
  // F03: a directory and a missing file say why.
  EXPECT_EQ(error_of([&] {
              auto r = text_reader::open(dir.path());
              std::string_view line;
              r.next(line);
            }),
            "cannot read '" + dir.path() + "': Is a directory");
  EXPECT_EQ(error_of([&] { text_reader::open(dir.file("missing")); }),
            "cannot open '" + dir.file("missing") + "': No such file or directory");
  EXPECT_EQ(error_of([&] { read_text_file(dir.path()); }), "cannot read '" + dir.path() + "': Is a directory");
  EXPECT_EQ(error_of([&] { read_text_file(dir.file("missing")); }),
            "cannot open '" + dir.file("missing") + "': No such file or directory");
  // Streaming across the 64 KiB chunks gives the same lines as in memory; BOM and CRLF alike.
  std::string text = "\xef\xbb\xbf";
  for (int i = 0; i < 30000; ++i) text += std::to_string(i) + (i % 2 ? "\r\n" : "\n");
  text += "last";
  {
    std::ofstream(dir.file("big")) << text;
  }
  auto reader = text_reader::open(dir.file("big"));
  std::vector<std::string> streamed;
  std::string_view line;
  while (reader.next(line)) streamed.emplace_back(line);
  EXPECT_EQ(streamed, all_lines(text));
  ASSERT_EQ(streamed.size(), 30001u);
  EXPECT_EQ(streamed[0], "0");
  EXPECT_EQ(streamed[1], "1");
  EXPECT_EQ(streamed.back(), "last");
  EXPECT_EQ(read_text_file(dir.file("big")), text.substr(3));
  EXPECT_EQ(error_of([&] { read_text_file(dir.file("big"), 1000); }),
            "'" + dir.file("big") + "' is larger than the limit of 1000 bytes");
}

// F03: a BOM, Python's print of a list, numbers with leading zeros, quoted items, code points.
TEST(TextInput, PermutationsUnderTheConvention) {
  auto l = parse_permutations("\xef\xbb\xbf" "1 2 3\n2 3 1\n3 1 2");
  EXPECT_EQ(l.n, 3u);
  EXPECT_EQ(l.perms, (std::vector<std::uint8_t>{0, 1, 2, 1, 2, 0, 2, 0, 1}));
  l = parse_permutations("[1, 2, 3]\n[3, 1, 2]\r\n(2, 3, 1)\n");
  EXPECT_EQ(l.perms, (std::vector<std::uint8_t>{0, 1, 2, 2, 0, 1, 1, 2, 0}));
  EXPECT_EQ(l.symbols, (std::vector<std::string>{"1", "2", "3"}));
  l = parse_permutations("['b', 'a', 'c']\n[\"c\", \"b\", \"a\"]\n");
  EXPECT_EQ(l.perms, (std::vector<std::uint8_t>{1, 0, 2, 2, 1, 0}));
  // "01" and "1" are one item (numbers compare by value) and show as "1".
  l = parse_permutations("01 2 10\n10 1 02\n");
  EXPECT_EQ(l.symbols, (std::vector<std::string>{"1", "2", "10"}));
  EXPECT_EQ(l.perms, (std::vector<std::uint8_t>{0, 1, 2, 2, 0, 1}));
  EXPECT_EQ(error_of([] { parse_permutations("1 01 2\n"); }), "input: line 1: '1' appears twice");
  EXPECT_EQ(error_of([] { parse_permutations("1 2 3\n1 2 x\n"); }), "input: line 2: 'x' is not an item of the first line");
  // One token of several code points is read one code point per item.
  l = parse_permutations("♠♥♦\n♦♠♥\n");
  EXPECT_EQ(l.symbols, (std::vector<std::string>{"♠", "♥", "♦"}));
  EXPECT_EQ(l.perms, (std::vector<std::uint8_t>{0, 1, 2, 2, 0, 1}));
  EXPECT_EQ(error_of([] { parse_permutations("a b c\nb \xff c\n"); }),
            "input: line 2: invalid UTF-8 (byte 0xff at column 3); text files must be UTF-8");
}

// F04: a --cards-file label never keeps the BOM; F06's source of bad labels is refused here.
TEST(TextInput, CardLabels) {
  text_reader reader("\xef\xbb\xbf" "Ace\r\n  Two  \nThree", "cards");
  EXPECT_EQ(read_card_labels(reader), (std::vector<std::string>{"Ace", "Two", "Three"}));
  // Blank lines (empty, spaces, CRLF) are skipped, as --input skips them; never an empty label.
  text_reader blank("Ace\n  \r\n\nThree\n\n", "cards");
  EXPECT_EQ(read_card_labels(blank), (std::vector<std::string>{"Ace", "Three"}));
  // Item 9: labels × decks is capped.
  const std::vector<std::string> big{std::string(1 << 20, 'x')};
  EXPECT_EQ(error_of([&] { make_custom(big, 65); }),
            "the custom deck would hold 1048576 x 65 bytes of labels; the limit is 64 MiB (labels x --decks)");
  EXPECT_EQ(make_custom(big, 64).cards.size(), 64u);
}

// F06: the one JSON rule: valid UTF-8 stays a string, anything else is {"hex": ...}; lossless.
TEST(JsonText, LosslessAndValid) {
  EXPECT_EQ(json_text("As").dump(), "\"As\"");
  EXPECT_EQ(json_text("\xff\xfe").dump(), "{\"hex\":\"fffe\"}");
  EXPECT_EQ(json_text("a\xc3").dump(), "{\"hex\":\"61c3\"}");
  for (const std::string& s : {std::string("plain"), std::string("\xff\xfe"), std::string("\0x\x80", 3), std::string()}) {
    const auto parsed = nlohmann::json::parse(json_text(s).dump());
    EXPECT_EQ(text_from_json(parsed, "f"), s) << hex_bytes(s);
  }
  EXPECT_EQ(text_from_json(nlohmann::json::parse(R"({"hex": "FFfe"})"), "f"), "\xff\xfe");
  for (const char* bad : {R"(3)", R"({"hex": "f"})", R"({"hex": "zz"})", R"({"hex": "ff", "x": 1})", R"(null)"}) {
    EXPECT_EQ(error_of([&] { text_from_json(nlohmann::json::parse(bad), "'a.json': seed"); }),
              "'a.json': seed: expected a string or {\"hex\": \"...\"} (its bytes as hex digits)")
        << bad;
  }
}

// F05: GNU sort -S's forms; a bare number is bytes; nothing else.
TEST(Size, GnuSortForms) {
  const std::uint64_t mem = 1000;
  EXPECT_EQ(parse_size("16", mem), 16u);
  EXPECT_EQ(parse_size("16b", mem), 16u);
  EXPECT_EQ(parse_size("16K", mem), 16u * 1024);
  EXPECT_EQ(parse_size("16k", mem), 16u * 1024);
  EXPECT_EQ(parse_size("3M", mem), 3u << 20);
  EXPECT_EQ(parse_size("3m", mem), 3u << 20);
  EXPECT_EQ(parse_size("2G", mem), std::uint64_t{2} << 30);
  EXPECT_EQ(parse_size("2t", mem), std::uint64_t{2} << 40);
  EXPECT_EQ(parse_size("2P", mem), std::uint64_t{2} << 50);
  EXPECT_EQ(parse_size("2E", mem), std::uint64_t{2} << 60);
  EXPECT_EQ(parse_size("16E", mem), UINT64_MAX);  // 2^64: saturates, as sort -S does
  EXPECT_EQ(parse_size("1Z", mem), UINT64_MAX);
  EXPECT_EQ(parse_size("18446744073709551615", mem), UINT64_MAX);
  EXPECT_EQ(parse_size("99999999999999999999999", mem), UINT64_MAX);
  EXPECT_EQ(parse_size("50%", mem), 500u);
  EXPECT_EQ(parse_size("33%", mem), 330u);
  EXPECT_EQ(parse_size("1%", 150), 1u);  // rounded down
  for (const char* bad : {"", "16 ", " 16", "0.5G", "16MiB", "16MB", "16B", "-1", "+1", "K", "16KK", "16p", "16e",
                          "1e9", "16%%", "%", "0x10"}) {
    EXPECT_EQ(parse_size(bad, mem), std::nullopt) << bad;
  }
}

// A byte source (audit --follow): bytes in pieces of any size, lines across pieces, a last line
// without its newline, and an exception from the source passed through unchanged.
TEST(TextReaderSource, LinesAcrossPiecesAndErrorsPassThrough) {
  const std::string text = "\xef\xbb\xbf" "As 2s\r\nKd Qc\n\nlast";
  std::size_t at = 0;
  std::size_t calls = 0;
  text_reader in(
      [&](char* buffer, std::size_t size) -> std::size_t {
        ++calls;
        const std::size_t n = std::min<std::size_t>({size, 3, text.size() - at});  // 3 bytes at a time
        text.copy(buffer, n, at);
        at += n;
        return n;
      },
      "the source");
  std::string seen;
  in.observe_bytes([&](std::string_view b) { seen += b; });
  std::vector<std::string> got;
  for (std::string_view line; in.next(line);) got.emplace_back(line);
  EXPECT_EQ(got, (std::vector<std::string>{"As 2s", "Kd Qc", "", "last"}));
  EXPECT_EQ(seen, text);
  EXPECT_GE(calls, text.size() / 3);

  struct stop {};
  text_reader failing([](char*, std::size_t) -> std::size_t { throw stop{}; }, "x");
  std::string_view line;
  EXPECT_THROW(failing.next(line), stop);
}

}  // namespace
}  // namespace shufl
