// Internal to ridgepoint_measure: what the system says about itself (/proc/cpuinfo, the caches
// in /sys, the affinity mask, free memory), beside the public detectCaches(), detectCpuModel()
// and usableCpus() of measure/measure.h. The instruction sets (cpuid) are
// detail::supportedIsas() in measure/measure_kernels.h.
#pragma once

#include "measure/measure.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ridgepoint::detail {

// The CPUs this process may run on (its affinity mask), else 0 .. hardware_concurrency - 1.
std::vector<int> allowedCpus();
// A field of /proc/cpuinfo's first processor ("model name", "vendor_id"); "" when absent.
std::string cpuInfoField(const std::string &field);
std::string hostName(); // "unknown host" when the system does not say
std::string utcNow(); // ISO 8601, "2025-01-31T12:00:00Z"
std::uint64_t availableMemory(); // bytes of free physical memory; 0 when unknown

} // namespace ridgepoint::detail
