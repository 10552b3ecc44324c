// Times shufl's seed search (the library's search_seeds) over seeds [FIRST, LAST] for a logged
// deal that no seed in the range reproduces (the first 5 cards of the deal of seed LAST + 1), so
// every seed is tried. Prints: family, seeds, threads, wall seconds, CPU seconds, seeds per CPU
// second. Built and run by bench/seed_search.sh.
// Usage: seed_search_driver FAMILY FIRST LAST THREADS
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "shufl/audit/seed_search.hpp"

namespace {
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) return 2;
  using namespace shufl::audit;
  const auto& family = parse_seed_family(argv[1]);
  seed_search_options o;
  o.family = family.family;
  o.range.first = std::strtoull(argv[2], nullptr, 10);
  o.range.last = std::strtoull(argv[3], nullptr, 10);
  o.threads = static_cast<unsigned>(std::atoi(argv[4]));
  const auto deal = family_deals(o.family, o.range.last + 1, 52, 1)[0];
  o.deals = {{deal.begin(), deal.begin() + 5}};
  const double cpu0 = cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = search_seeds(o);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = cpu_seconds() - cpu0;
  std::printf("%s seeds=%llu threads=%u wall=%.3f s cpu=%.3f s rate=%.0f seeds/cpu-s matches=%zu\n", family.name.data(),
              static_cast<unsigned long long>(r.seeds_tried), o.threads, wall, cpu,
              static_cast<double>(r.seeds_tried) / cpu, r.matches.size());
  return 0;
}
