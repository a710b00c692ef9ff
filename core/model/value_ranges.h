// The ranges every number Ridgepoint computes with must lie in, in one place (docs/MODEL.md
// §10 "Accepted ranges"). Inside them every derived value — intensity, performance, attainable,
// T_min, T_max, utilization — is a finite double: the worst case is 1e30 FLOP over 1e-15 s
// (1e45 FLOP/s) against a roof of 1 B/s x 1e-36 FLOP/B, a utilization of 1e81. Outside them a
// file's 1e308 FLOPs over 1e-308 s, a 5e-324 byte count or a 1e-300 FLOP/s peak would give
// `inf` or 0 and a point the chart cannot place, so readers, the editor, the CLI and what-if
// moves refuse the value with the reason this file words.
#pragma once

#include "core/model/point.h"

#include <optional>
#include <string>

namespace ridgepoint {

namespace ranges {
inline constexpr double kMinRate = 1.0; // peak FLOP/s and bandwidth B/s, sustained included
inline constexpr double kMaxRate = 1e21;
inline constexpr double kMinCount = 1e-6; // FLOPs (when not 0) and bytes
inline constexpr double kMaxCount = 1e30;
inline constexpr double kMinSeconds = 1e-15; // a measured time, and each repeat time
inline constexpr double kMaxSeconds = 1e9;
inline constexpr double kMinPerformance = 1e-6; // a measured FLOP/s given without a time
inline constexpr double kMaxPerformance = 1e30;
inline constexpr double kMinIntensity = 1e-30; // an intensity given instead of bytes
inline constexpr double kMaxIntensity = 1e30;
} // namespace ranges

enum class Quantity { Peak, Bandwidth, Flops, Bytes, Seconds, Performance, Intensity };

// Whether valueProblem(value, what) is nullopt, without building anything: the check every
// point goes through several times (a million-row file).
inline bool inAcceptedRange(double value, Quantity what)
{
    using namespace ranges;
    switch (what) {
    case Quantity::Peak:
    case Quantity::Bandwidth:
        return value >= kMinRate && value <= kMaxRate;
    case Quantity::Flops:
        return value == 0.0 || (value >= kMinCount && value <= kMaxCount);
    case Quantity::Bytes:
        return value >= kMinCount && value <= kMaxCount;
    case Quantity::Seconds:
        return value >= kMinSeconds && value <= kMaxSeconds;
    case Quantity::Performance:
        return value >= kMinPerformance && value <= kMaxPerformance;
    case Quantity::Intensity:
        return value >= kMinIntensity && value <= kMaxIntensity;
    }
    return value >= kMinCount && value <= kMaxCount;
}

// Why `value`, outside its range (!inAcceptedRange), cannot be used as `what`: "1e-300 FLOP/s is
// outside the accepted range [1, 1e+21] FLOP/s", "not a number (expected ...)".
std::string outOfRangeMessage(double value, Quantity what);

// Why `value` cannot be used as `what`, or nullopt. FLOPs may also be exactly 0 (a file's
// kernel that does no arithmetic; the analysis refuses to place it). Inline: a value in range,
// nearly every one, costs a comparison and no call.
inline std::optional<std::string> valueProblem(double value, Quantity what)
{
    if (inAcceptedRange(value, what))
        return std::nullopt;
    return outOfRangeMessage(value, what);
}

// The accepted range of `what`, as the message words it: "[1, 1e+21] FLOP/s".
std::string acceptedRange(Quantity what);

// The first of a point's numbers (FLOPs, bytes per level, times, rate, intensities) outside
// its range, as "the FLOP count 1e+308 FLOP is outside the accepted range [1e-06, 1e+30] FLOP";
// nullopt when all are inside. Assumes the values are finite and positive (pointProblem).
std::optional<std::string> pointRangeProblem(const KernelPoint &point);

// Why a what-if move (bytes x bytesFactor, time x timeFactor; intensities / bytesFactor, a
// rate / timeFactor: workspace.h applyWhatIf) cannot apply to `point`: a factor that is not
// positive and finite, or a moved value outside its range ("the what-if move makes the bytes
// at main memory 1e+31 B, outside the accepted range [1e-06, 1e+30] B"). nullopt when it can.
// Stacked moves are one product, so this bounds them too.
std::optional<std::string> moveProblem(
    const KernelPoint &point, double bytesFactor, double timeFactor);

} // namespace ridgepoint
