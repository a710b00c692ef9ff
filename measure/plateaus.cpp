// Finding the flat stretches of one curve (bandwidth against working set): a piecewise-constant
// fit of the log bandwidths with a penalty scaled to the noise, the flat segments kept and
// neighbours too close merged. plateau_labels.cpp names them by the cache sizes.
#include "measure/plateau_labels.h"

#include "measure/measure_detail.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgepoint {
namespace {

using detail::medianOf;

struct Segment {
    std::size_t first = 0;
    std::size_t last = 0; // inclusive
};

double medianRange(const std::vector<double> &y, std::size_t first, std::size_t last)
{
    return medianOf(std::vector<double>(y.begin() + static_cast<std::ptrdiff_t>(first),
        y.begin() + static_cast<std::ptrdiff_t>(last) + 1));
}

double absDeviation(const std::vector<double> &y, std::size_t first, std::size_t last, double m)
{
    double cost = 0.0;
    for (std::size_t i = first; i <= last; ++i)
        cost += std::abs(y[i] - m);
    return cost;
}

// Optimal piecewise-constant fit of y (least absolute deviations, `penalty` per segment).
std::vector<Segment> segment(const std::vector<double> &y, double penalty)
{
    const std::size_t n = y.size();
    std::vector<double> best(n + 1, std::numeric_limits<double>::infinity());
    std::vector<std::size_t> start(n + 1, 0);
    best[0] = 0.0;
    for (std::size_t end = 1; end <= n; ++end) {
        for (std::size_t begin = 0; begin < end; ++begin) {
            const double m = medianRange(y, begin, end - 1);
            const double cost = best[begin] + absDeviation(y, begin, end - 1, m) + penalty;
            if (cost < best[end]) {
                best[end] = cost;
                start[end] = begin;
            }
        }
    }
    std::vector<Segment> segments;
    for (std::size_t end = n; end > 0; end = start[end])
        segments.push_back({ start[end], end - 1 });
    std::reverse(segments.begin(), segments.end());
    return segments;
}

struct Group {
    std::vector<std::size_t> indices;
    double level = 0.0; // median of log bandwidth
};

double groupLevel(const Group &group, const std::vector<double> &y)
{
    std::vector<double> values;
    for (auto i : group.indices)
        values.push_back(y[i]);
    return medianOf(values);
}

// Appends `from`'s points to `into` and takes the median of them all as its level.
void mergeInto(Group &into, const Group &from, const std::vector<double> &y)
{
    into.indices.insert(into.indices.end(), from.indices.begin(), from.indices.end());
    into.level = groupLevel(into, y);
}

// The usable points of a curve (finite, positive), working set ascending.
std::vector<BandwidthSample> usablePoints(const std::vector<BandwidthSample> &curve)
{
    std::vector<BandwidthSample> points;
    for (const auto &sample : curve) {
        if (std::isfinite(sample.best) && sample.best > 0.0 && sample.workingSet > 0)
            points.push_back(sample);
    }
    std::sort(points.begin(), points.end(), [](const BandwidthSample &a, const BandwidthSample &b) {
        return a.workingSet < b.workingSet;
    });
    return points;
}

// The log bandwidths through a running median of three, which removes single outliers (a
// trial slowed by other work) and keeps steps where they are.
std::vector<double> smoothedLogs(const std::vector<BandwidthSample> &points)
{
    std::vector<double> raw;
    raw.reserve(points.size());
    for (const auto &p : points)
        raw.push_back(std::log(p.best));
    std::vector<double> y = raw;
    for (std::size_t i = 1; i + 1 < raw.size(); ++i)
        y[i] = medianOf({ raw[i - 1], raw[i], raw[i + 1] });
    return y;
}

// Noise from the point-to-point differences: robust to the few steps (median, not mean).
double noiseOf(const std::vector<double> &y)
{
    if (y.size() < 3)
        return 0.0;
    std::vector<double> diffs;
    for (std::size_t i = 1; i < y.size(); ++i)
        diffs.push_back(std::abs(y[i] - y[i - 1]));
    return 1.4826 * medianOf(diffs) / std::sqrt(2.0);
}

// The flat segments of the fit, each a group; the rest are the slopes between levels.
std::vector<Group> flatGroups(const std::vector<double> &y, double sigma, int minPoints)
{
    const double penalty = 0.15 + 3.0 * sigma;
    const double flatTolerance = std::max(0.05, 2.5 * sigma);
    std::vector<Group> groups;
    for (const auto &s : segment(y, penalty)) {
        const int count = static_cast<int>(s.last - s.first + 1);
        if (count < minPoints)
            continue;
        const double m = medianRange(y, s.first, s.last);
        std::vector<double> deviations;
        for (std::size_t i = s.first; i <= s.last; ++i)
            deviations.push_back(std::abs(y[i] - m));
        const double spread = count == 2 ? deviations[0] : medianOf(deviations);
        if (spread > flatTolerance)
            continue;
        Group group;
        for (std::size_t i = s.first; i <= s.last; ++i)
            group.indices.push_back(i);
        group.level = m;
        groups.push_back(std::move(group));
    }
    return groups;
}

// Neighbours that do not drop (or rise) by minStep are one stretch; the merged stretch may
// then join the one before.
void mergeLevels(std::vector<Group> &groups, const std::vector<double> &y, double minStep)
{
    const double step = std::log(std::max(minStep, 1.0));
    for (std::size_t i = 1; i < groups.size();) {
        if (std::abs(groups[i - 1].level - groups[i].level) < step) {
            mergeInto(groups[i - 1], groups[i], y);
            groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(i));
            if (i > 1)
                --i;
        } else {
            ++i;
        }
    }
}

} // namespace

namespace detail {

std::vector<std::vector<BandwidthSample>> flatStretches(
    const std::vector<BandwidthSample> &curve, double minStep, int minPoints)
{
    const std::vector<BandwidthSample> points = usablePoints(curve);
    if (points.empty())
        return {};
    const std::vector<double> y = smoothedLogs(points);
    std::vector<Group> groups = flatGroups(y, noiseOf(y), std::max(minPoints, 1));
    mergeLevels(groups, y, minStep);
    std::vector<std::vector<BandwidthSample>> stretches;
    for (auto &group : groups) {
        std::sort(group.indices.begin(), group.indices.end());
        std::vector<BandwidthSample> stretch;
        for (auto i : group.indices)
            stretch.push_back(points[i]);
        stretches.push_back(std::move(stretch));
    }
    return stretches;
}

} // namespace detail

} // namespace ridgepoint
