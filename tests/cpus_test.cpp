// Unit and end-to-end tests of cpus.hpp: the default thread count follows the CPUs the process
// may use (affinity mask, cgroup CPU quota), not the machine's cores.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sched.h>

#include "shufl/cpus.hpp"
#include "support/run.hpp"

namespace shufl {
namespace {

TEST(Cpus, CpuMaxLinesGiveTheQuotaRoundedUp) {
  EXPECT_EQ(cpus_of_cpu_max("max 100000\n"), std::nullopt);  // no limit
  EXPECT_EQ(cpus_of_cpu_max("200000 100000\n"), 2u);
  EXPECT_EQ(cpus_of_cpu_max("150000 100000"), 2u);  // 1.5 CPUs: two threads
  EXPECT_EQ(cpus_of_cpu_max("50000 100000"), 1u);
  EXPECT_EQ(cpus_of_cpu_max("100000 100000"), 1u);
  EXPECT_EQ(cpus_of_cpu_max(""), std::nullopt);
  EXPECT_EQ(cpus_of_cpu_max("100000"), std::nullopt);
  EXPECT_EQ(cpus_of_cpu_max("-1 100000"), std::nullopt);
  EXPECT_EQ(cpus_of_cpu_max("100000 0"), std::nullopt);
}

TEST(Cpus, DefaultThreadsStayWithinTheAffinityMask) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(::sched_getaffinity(0, sizeof set, &set), 0);
  EXPECT_GE(default_threads(), 1u);
  EXPECT_LE(default_threads(), static_cast<unsigned>(CPU_COUNT(&set)));
}

// Under `taskset -c 0` (one CPU allowed) bias defaults to one thread, whatever the machine has
// (audit and the seed search take the same default_threads()).
TEST(Cpus, TasksetLimitsTheDefaultThreads) {
  const test::run_result b =
      test::run_shell("taskset -c 0 '" + test::shufl_binary() + "' bias --n 3 --trials 6000 --seed 1 --format json");
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(nlohmann::json::parse(b.out)["threads"], 1);
}

}  // namespace
}  // namespace shufl
