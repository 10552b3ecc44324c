// The GNU --random-source reader (random.hpp, gnu_random_source): the first bytes give the draw
// bounds, the rest is the random file. Property: every draw lies in [0, genmax]; the bytes used
// never exceed the file; the only failure is shufl::error at the end of the file.
#include <vector>

#include "fuzz_support.hpp"
#include "shufl/random.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace shufl;
  if (size < 2) return 0;
  const std::size_t bounds = 1 + data[0] % 16;
  if (size < 1 + bounds) return 0;
  std::vector<std::uint64_t> genmax;
  for (std::size_t i = 0; i < bounds; ++i) {
    const std::uint8_t b = data[1 + i];
    // Small bounds, bounds near powers of two and 2^64 - 1, so every branch of randint runs.
    genmax.push_back(b < 128 ? b : b < 192 ? (std::uint64_t{1} << (b - 128)) - (b & 1) : ~std::uint64_t{0} >> (b - 192));
  }
  const std::string_view random = fuzz::bytes(data + 1 + bounds, size - 1 - bounds);
  fuzz::memory_file file(random);
  gnu_random_source source(file.fd(), "'fuzz'");
  try {
    for (std::size_t k = 0; k < 4096; ++k) {
      const std::uint64_t g = genmax[k % genmax.size()];
      const std::uint64_t v = source.draw_max(g);
      fuzz::check(v <= g, "a draw lies in [0, genmax]");
      fuzz::check(source.bytes_used() <= random.size(), "never more bytes than the file has");
    }
  } catch (const error&) {
    fuzz::check(source.bytes_used() <= random.size(), "never more bytes than the file has");
  }
  return 0;
}
