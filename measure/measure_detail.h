// Internal to ridgepoint_measure: the small helpers its files share (time, medians, the names
// of ceilings). Callers outside measure/ use measure/measure.h.
#pragma once

#include "measure/measure.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint::detail {

using MeasureClock = std::chrono::steady_clock;

inline constexpr std::uint64_t kMiB = 1024ULL * 1024ULL;

inline double secondsSince(MeasureClock::time_point start)
{
    return std::chrono::duration<double>(MeasureClock::now() - start).count();
}

inline double medianOf(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// "1 thread", "8 threads".
std::string threadsText(int threads);
// "AVX-512", "AVX2", "SSE2", "portable" for the ISA names of ComputeSample::isa.
std::string isaLabel(std::string_view isa);
// "FP64 AVX-512 FMA", "FP32 scalar", "FP64 AVX2 mul+add (1 thread)": the ceiling a compute
// sample becomes; the thread count is named when it is not `allThreads`.
std::string computeCeilingName(const ComputeSample &sample, int allThreads);

} // namespace ridgepoint::detail
