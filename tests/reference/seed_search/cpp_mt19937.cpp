// The real std::mt19937 and std::shuffle (allowed here: the oracle) of this machine's C++ library:
// for each SEED, one generator, then DEALS times a fresh vector 0..N-1 shuffled, one deal per line.
// Usage: cpp_mt19937 N DEALS SEED...
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const auto n = static_cast<std::size_t>(std::atol(argv[1]));
  const int deals = std::atoi(argv[2]);
  std::vector<unsigned> a(n);
  for (int s = 3; s < argc; ++s) {
    std::mt19937 g(static_cast<std::uint32_t>(std::strtoul(argv[s], nullptr, 10)));
    for (int d = 0; d < deals; ++d) {
      std::iota(a.begin(), a.end(), 0u);
      std::shuffle(a.begin(), a.end(), g);  // allowed: the real libstdc++ shuffle, the oracle seed search matches
      for (std::size_t i = 0; i < n; ++i) std::printf(i ? " %u" : "%u", a[i]);
      std::printf("\n");
    }
  }
}
