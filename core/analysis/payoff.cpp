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

namespace {

// The order of a ranking: larger first, ties by the lower index.
bool ranksBefore(const std::pair<double, std::size_t> &a, const std::pair<double, std::size_t> &b)
{
    return a.first != b.first ? a.first > b.first : a.second < b.second;
}

} // namespace

void LargestN::offer(double value, std::size_t index)
{
    const std::pair<double, std::size_t> entry(value, index);
    if (m_kept.size() < m_n) {
        m_kept.push_back(entry);
        std::push_heap(m_kept.begin(), m_kept.end(), ranksBefore);
    } else if (m_n > 0 && ranksBefore(entry, m_kept.front())) {
        std::pop_heap(m_kept.begin(), m_kept.end(), ranksBefore);
        m_kept.back() = entry;
        std::push_heap(m_kept.begin(), m_kept.end(), ranksBefore);
    }
}

std::vector<std::size_t> LargestN::take()
{
    std::sort_heap(m_kept.begin(), m_kept.end(), ranksBefore);
    std::vector<std::size_t> out;
    out.reserve(m_kept.size());
    for (const auto &entry : m_kept)
        out.push_back(entry.second);
    m_kept.clear();
    return out;
}

std::vector<std::size_t> largestFirst(
    std::vector<std::pair<double, std::size_t>> ranked, std::size_t n)
{
    LargestN largest(n);
    for (const auto &[value, index] : ranked)
        largest.offer(value, index);
    return largest.take();
}

std::vector<std::size_t> topPayoff(const std::vector<AnalyzedPoint> &points, std::size_t n)
{
    const double total = totalSeconds(points);
    LargestN largest(n);
    for (std::size_t i = 0; i < points.size(); ++i)
        if (const auto value = payoff(points[i], total))
            largest.offer(*value, i);
    return largest.take();
}

} // namespace ridgepoint
