// A kernel (or a planned workload) as a point on the roofline.
#pragma once

#include "core/model/hardware.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgepoint {

// Bytes that crossed one memory level. No level means "main memory": counted against the
// machine's HBM or DRAM ceiling, whichever it has.
struct LevelBytes {
    std::optional<MemoryLevel> level;
    double bytes = 0.0;
};

// FLOP/B at one memory level, for a point a file gives only as intensities and a rate (a
// hierarchical roofline: one intensity per level, one FLOP/s).
struct LevelIntensity {
    MemoryLevel level = MemoryLevel::L1;
    double intensity = 0.0;
};

// Where a point came from, so every number can be traced back to a file and line.
struct SourceLocation {
    std::string file;
    int line = 0; // 1-based; 0 when not from a file
};

// Spread of repeated runs of one kernel, in seconds, for error bars. Each part is optional: a
// file may give a standard deviation, or min/median/max, or nothing.
struct RepeatStatistics {
    std::optional<double> min;
    std::optional<double> median;
    std::optional<double> max;
    std::optional<double> stddev;

    bool empty() const { return !min && !median && !max && !stddev; }
};

// The units a point's FLOPs ran on, when its file says: Nsight Compute's SASS instruction
// counters count CUDA-core work, its tensor-pipe counters tensor-core work. The analysis then
// takes the fastest dense ceiling of the point's precision on such units (docs/MODEL.md §4.1);
// Unknown takes the fastest of the precision, whatever its units.
enum class ComputeUnit : unsigned char { Unknown, Tensor, Core };
std::string_view computeUnitName(ComputeUnit unit); // "", "tensor", "core"
std::optional<ComputeUnit> computeUnitFromName(std::string_view name); // "tensor" or "core"

// Achieved FLOP/s of a point from its parts: flops / seconds, else the measured rate; nullopt for
// a planned point. A point known only by intensity and rate has no FLOP count to divide.
// KernelPoint::performance() and PointTable::performance() both read it.
inline std::optional<double> achievedRate(
    double flops, std::optional<double> seconds, std::optional<double> measuredRate)
{
    if (seconds && *seconds > 0.0 && (flops > 0.0 || !measuredRate))
        return flops / *seconds;
    return measuredRate;
}

struct KernelPoint {
    std::string name;
    double flops = 0.0; // FLOP (OP for integer work)
    std::vector<LevelBytes> bytes; // one or more levels
    std::optional<double> seconds; // measured time
    std::optional<double> measuredRate; // FLOP/s, when only a rate is known
    // FLOP/B against main memory, for points a file gives only as intensity and rate (no FLOP
    // or byte counts: flops is 0 and bytes is empty). Unset for every other point.
    std::optional<double> intensity;
    // The same at other levels (L1, L2, ...) for a hierarchical point known by intensities and
    // rate (NERSC's AI_L1 / AI_L2): one entry per level, in the file's order. Main memory stays
    // in `intensity`. Empty for every point that has byte counts.
    std::vector<LevelIntensity> levelIntensities;
    RepeatStatistics timeStatistics; // spread of `seconds` over repeated runs
    std::optional<Precision> precision;
    ComputeUnit unit = ComputeUnit::Unknown;
    std::string group;
    SourceLocation source;

    // Achieved FLOP/s: flops / seconds, else the measured rate; nullopt for a planned point.
    // Inline: an optional returned from a call costs a store-forwarding stall (payoff.h).
    std::optional<double> performance() const { return achievedRate(flops, seconds, measuredRate); }
    // Back to a default point, keeping the strings' and vectors' storage for the next one (a
    // reader that hands points to a sink one at a time then allocates nothing per row).
    void clear();
    // A point placed by intensities and a rate, with no FLOP or byte counts (so no times).
    bool knownByIntensity() const
    {
        return bytes.empty() && (intensity.has_value() || !levelIntensities.empty());
    }
};

// Launches of one kernel summed into one point (docs/FORMATS.md §1.9, §7.5: "aggregated by kernel
// name"): FLOPs, bytes per level and time add up, so intensity = ΣFLOP/Σbytes and performance =
// ΣFLOP/Σtime (never an average of ratios). The launches' own times give the spread, scaled to
// the total: min, median and max of one launch × the number of launches, and the standard
// deviation of the total (√n × that of one launch, launches taken as independent).
// `kernels[i]` is the kernel of points[i] (its name before " (ID n)" was added); the points keep
// the order of each kernel's first launch and take its name, source and the precision of the
// launch with the most FLOPs. A kernel with one launch is left as it is, and so is every launch
// of a kernel when one of them is known only by intensity and rate (nothing to add up). The time
// is kept only when every launch has one.
std::vector<KernelPoint> sumLaunches(
    std::vector<KernelPoint> points, const std::vector<std::string> &kernels);

} // namespace ridgepoint
