// What is worth optimising next (docs/MODEL.md §2.3): a kernel's payoff is the share of the total
// measured time it would save if it ran at its roof, time share × (1 − utilization).
#pragma once

#include "core/analysis/analysis.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace ridgepoint {

// The point's measured time: its `seconds`, else FLOPs / measured rate; nullopt for a planned
// point or one with no FLOP count.
std::optional<double> pointSeconds(const AnalyzedPoint &point);
// The same from the three members of a point it looks at (a point kept on a PointsCsvTape is
// not a KernelPoint). Inline, like the payoffs below: a streamed report asks for it a million
// times, and GCC returns an optional from a call through memory it writes in two parts and
// reads as one (a stall each time).
inline std::optional<double> pointSeconds(
    std::optional<double> seconds, std::optional<double> measuredRate, double flops)
{
    if (seconds && std::isfinite(*seconds) && *seconds > 0.0)
        return *seconds;
    if (measuredRate && std::isfinite(*measuredRate) && *measuredRate > 0.0 && flops > 0.0) {
        const double fromRate = flops / *measuredRate;
        if (std::isfinite(fromRate) && fromRate > 0.0)
            return fromRate;
    }
    return std::nullopt;
}
// The same from the point alone (a streamed report keeps no AnalyzedPoint).
inline std::optional<double> pointSeconds(const KernelPoint &point)
{
    return pointSeconds(point.seconds, point.measuredRate, point.flops);
}

// Σ pointSeconds over the points that have one (0 when none has).
double totalSeconds(const std::vector<AnalyzedPoint> &points);

// share × (1 − min(utilization, 1)) with share = seconds / total; nullopt when the time, the
// utilization or a positive total is missing. A point above its roof saves nothing (0).
std::optional<double> payoff(const AnalyzedPoint &point, double total);
// The same from a time already known (nullopt: none) and the point's utilization.
inline std::optional<double> payoff(
    std::optional<double> seconds, std::optional<double> utilization, double total)
{
    if (!seconds || !utilization || !std::isfinite(*utilization) || !(total > 0.0)
        || !std::isfinite(total))
        return std::nullopt;
    const double share = std::min(*seconds / total, 1.0);
    return share * (1.0 - std::clamp(*utilization, 0.0, 1.0));
}
inline std::optional<double> payoff(
    const KernelPoint &point, const PointAnalysis &analysis, double total)
{
    return payoff(pointSeconds(point), analysis.utilization, total);
}

// The indices of the n largest values offered, largest first, ties by the lower index. Holds n
// entries, not one per value offered (a heap whose top is the least kept): a million points
// ranked for their 100 longest keep 100.
class LargestN
{
public:
    explicit LargestN(std::size_t n)
        : m_n(n)
    { }
    void offer(double value, std::size_t index);
    // The kept indices, largest first; the ranking is empty afterwards.
    std::vector<std::size_t> take();

private:
    std::size_t m_n;
    std::vector<std::pair<double, std::size_t>> m_kept;
};

// The indices of the n largest values of `ranked` (value, index), largest first, ties by index.
std::vector<std::size_t> largestFirst(
    std::vector<std::pair<double, std::size_t>> ranked, std::size_t n);

// Indices of the n points with the largest payoff, largest first (ties by index); points
// without a payoff are left out.
std::vector<std::size_t> topPayoff(const std::vector<AnalyzedPoint> &points, std::size_t n);

} // namespace ridgepoint
