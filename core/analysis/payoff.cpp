#include "core/analysis/payoff.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ridgepoint {

std::optional<double> pointSeconds(const AnalyzedPoint &point)
{
    return pointSeconds(point.point);
}

std::optional<double> pointSeconds(const KernelPoint &p)
{
    if (p.seconds && std::isfinite(*p.seconds) && *p.seconds > 0.0)
        return *p.seconds;
    if (p.measuredRate && std::isfinite(*p.measuredRate) && *p.measuredRate > 0.0
        && p.flops > 0.0) {
        const double seconds = p.flops / *p.measuredRate;
        if (std::isfinite(seconds) && seconds > 0.0)
            return seconds;
    }
    return std::nullopt;
}

double totalSeconds(const std::vector<AnalyzedPoint> &points)
{
    double total = 0.0;
    for (const AnalyzedPoint &point : points)
        if (const auto seconds = pointSeconds(point))
            total += *seconds;
    return std::isfinite(total) ? total : 0.0;
}

std::optional<double> payoff(const AnalyzedPoint &point, double total)
{
    return payoff(pointSeconds(point), point.analysis.utilization, total);
}

std::optional<double> payoff(const KernelPoint &point, const PointAnalysis &analysis, double total)
{
    return payoff(pointSeconds(point), analysis.utilization, total);
}

std::optional<double> payoff(
    std::optional<double> seconds, std::optional<double> utilization, double total)
{
    if (!seconds || !utilization || !std::isfinite(*utilization) || !(total > 0.0)
        || !std::isfinite(total))
        return std::nullopt;
    const double share = std::min(*seconds / total, 1.0);
    return share * (1.0 - std::clamp(*utilization, 0.0, 1.0));
}

std::vector<std::size_t> largestFirst(
    std::vector<std::pair<double, std::size_t>> ranked, std::size_t n)
{
    const std::size_t keep = std::min(n, ranked.size());
    const auto larger = [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    std::partial_sort(
        ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep), ranked.end(), larger);
    std::vector<std::size_t> result;
    result.reserve(keep);
    for (std::size_t i = 0; i < keep; ++i)
        result.push_back(ranked[i].second);
    return result;
}

std::vector<std::size_t> topPayoff(const std::vector<AnalyzedPoint> &points, std::size_t n)
{
    const double total = totalSeconds(points);
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t i = 0; i < points.size(); ++i)
        if (const auto value = payoff(points[i], total))
            ranked.emplace_back(*value, i);
    return largestFirst(std::move(ranked), n);
}

} // namespace ridgepoint
