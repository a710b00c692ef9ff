#include "core/analysis/payoff.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ridgepoint {

std::optional<double> pointSeconds(const AnalyzedPoint &point)
{
    return pointSeconds(point.point);
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
