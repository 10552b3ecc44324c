// How many threads a run may use by default: the CPUs this process may run on, not the
// machine's cores, so `taskset`, Docker's --cpus and Kubernetes CPU limits are respected.
#pragma once

#include <optional>
#include <string_view>

namespace shufl {

/// The default number of worker threads (audit, bias, the seed search): the CPUs in this
/// process's affinity mask (sched_getaffinity(2): `taskset`, cpusets), capped by the CPU quota
/// of its control group (cgroup v2 `cpu.max` of its cgroup and every parent; cgroup v1
/// `cpu.cfs_quota_us` / `cpu.cfs_period_us`), rounded up; at least 1. Falls back to
/// std::thread::hardware_concurrency() when the mask cannot be read. Never throws.
unsigned default_threads() noexcept;

/// The CPUs a cgroup v2 `cpu.max` line allows ("QUOTA PERIOD" in microseconds: ceil(QUOTA /
/// PERIOD), at least 1), or nullopt when it sets no limit ("max ...") or is not such a line.
std::optional<unsigned> cpus_of_cpu_max(std::string_view line) noexcept;

}  // namespace shufl
