// What a profiler trace says beyond its points (docs/FORMATS.md §10): the GPU time it holds, how
// much of it became points, the kernels that could not be placed and why, and the device it
// names. The points' seconds add up to placedSeconds; placed and unplaced add up to gpuSeconds.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ridgepoint {

// Kernels of one name left off the chart for one reason, with the time they took.
struct UnplacedKernels {
    std::string name; // as the trace gives it
    double seconds = 0.0;
    std::size_t launches = 0;
    std::string reason; // "operator aten::nonzero has no model yet", ...
};

// The kernel launches summed into one point (its name and group, as the point has them).
struct TracedPoint {
    std::string name;
    std::string group;
    std::size_t launches = 0;
};

struct TraceSummary {
    double gpuSeconds = 0.0; // Σ kernel durations
    double placedSeconds = 0.0; // Σ of the points' seconds
    std::size_t kernels = 0; // kernel launches in the trace
    std::vector<UnplacedKernels> unplaced; // largest first
    std::vector<TracedPoint> points; // one per point, in the points' order
    // deviceProperties[0]: its name, SM count and memory, when the trace has them.
    std::optional<std::string> device;
    std::optional<int> multiprocessors;
    std::optional<double> memoryBytes;
};

} // namespace ridgepoint
