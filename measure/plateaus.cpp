// Finding the bandwidth plateaus of one curve (bandwidth against working set) and naming each
// after the memory level that serves it: a piecewise-constant fit of the log bandwidths with a
// penalty scaled to the noise, the flat segments kept, neighbours too close merged, and the
// levels matched to the reported cache capacities (measure.h, findPlateaus).
#include "measure/measure.h"

#include "measure/measure_detail.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace ridgepoint {
namespace {

using detail::kMiB;
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

// Neighbours that do not drop by minStep are one level. A first plateau well below the next
// is start-up overhead at the smallest sizes, not a level: dropped. With more cache plateaus
// than L1-L3, the closest neighbours among the caches are merged.
void mergeLevels(std::vector<Group> &groups, const std::vector<double> &y, double minStep)
{
    const double step = std::log(std::max(minStep, 1.0));
    while (groups.size() >= 2 && groups[1].level - groups[0].level > step)
        groups.erase(groups.begin());
    for (std::size_t i = 1; i < groups.size();) {
        if (groups[i - 1].level - groups[i].level < step) {
            mergeInto(groups[i - 1], groups[i], y);
            groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(i));
            if (i > 1)
                --i; // the merged group may now merge with the one before
        } else {
            ++i;
        }
    }
    while (groups.size() > 4) {
        std::size_t closest = 1;
        for (std::size_t i = 1; i + 1 < groups.size(); ++i) {
            if (groups[i - 1].level - groups[i].level
                < groups[closest - 1].level - groups[closest].level)
                closest = i;
        }
        mergeInto(groups[closest - 1], groups[closest], y);
        groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(closest));
    }
}

std::vector<Plateau> plateausOf(
    const std::vector<Group> &groups, const std::vector<BandwidthSample> &points)
{
    std::vector<Plateau> plateaus;
    for (const auto &group : groups) {
        Plateau plateau;
        std::vector<double> values;
        for (auto i : group.indices)
            values.push_back(points[i].best);
        plateau.bandwidth = medianOf(values);
        plateau.firstWorkingSet = points[group.indices.front()].workingSet;
        plateau.lastWorkingSet = points[group.indices.back()].workingSet;
        plateau.points = static_cast<int>(group.indices.size());
        for (auto i : group.indices)
            plateau.maxBandwidth = std::max(plateau.maxBandwidth, points[i].best);
        plateaus.push_back(plateau);
    }
    return plateaus;
}

constexpr MemoryLevel kCacheLevels[] = { MemoryLevel::L1, MemoryLevel::L2, MemoryLevel::L3 };

// Fewer cache plateaus than reported levels: a level is missing. Matches each drop (between a
// plateau's last point and the next plateau's first) to the nearest reported capacity,
// keeping the order, over every increasing assignment.
void nameByCapacities(std::vector<Plateau> &plateaus, const std::vector<std::uint64_t> &capacities)
{
    const std::size_t caches = plateaus.size() - 1;
    const std::size_t levels = std::min<std::size_t>(capacities.size(), 3);
    std::vector<double> drops;
    for (std::size_t i = 0; i < caches; ++i) {
        drops.push_back(0.5
            * (std::log(static_cast<double>(plateaus[i].lastWorkingSet))
                + std::log(static_cast<double>(plateaus[i + 1].firstWorkingSet))));
    }
    std::vector<std::size_t> choice(caches), bestChoice;
    double bestCost = std::numeric_limits<double>::infinity();
    const std::function<void(std::size_t, std::size_t, double)> search
        = [&](std::size_t i, std::size_t from, double cost) {
              if (i == caches) {
                  if (cost < bestCost) {
                      bestCost = cost;
                      bestChoice = choice;
                  }
                  return;
              }
              for (std::size_t j = from; j + (caches - i) <= levels; ++j) {
                  choice[i] = j;
                  search(i + 1, j + 1,
                      cost + std::abs(drops[i] - std::log(static_cast<double>(capacities[j]))));
              }
          };
    search(0, 0, 0.0);
    for (std::size_t i = 0; i < caches; ++i)
        plateaus[i].level = kCacheLevels[bestChoice[i]];
}

// Names the plateaus (measure.h, findPlateaus): a single one is DRAM when the curve reaches
// past every reported cache, else L1; of several the last is DRAM and the others caches.
void nameLevels(std::vector<Plateau> &plateaus, const std::vector<std::uint64_t> &capacities)
{
    if (plateaus.size() == 1) {
        const std::uint64_t beyond = capacities.empty() ? 64 * kMiB : 2 * capacities.back();
        plateaus[0].level
            = plateaus[0].lastWorkingSet >= beyond ? MemoryLevel::DRAM : MemoryLevel::L1;
        return;
    }
    plateaus.back().level = MemoryLevel::DRAM;
    const std::size_t caches = plateaus.size() - 1;
    if (caches >= std::min<std::size_t>(capacities.size(), 3)) {
        for (std::size_t i = 0; i < caches; ++i)
            plateaus[i].level = kCacheLevels[i];
        return;
    }
    nameByCapacities(plateaus, capacities);
}

} // namespace

std::vector<Plateau> findPlateaus(
    const std::vector<BandwidthSample> &curve, const PlateauOptions &options)
{
    const std::vector<BandwidthSample> points = usablePoints(curve);
    if (points.empty())
        return {};
    const std::vector<double> y = smoothedLogs(points);
    std::vector<Group> groups = flatGroups(y, noiseOf(y), std::max(options.minPoints, 1));
    mergeLevels(groups, y, options.minStep);
    std::vector<Plateau> plateaus = plateausOf(groups, points);
    if (!plateaus.empty())
        nameLevels(plateaus, options.cacheCapacities);
    return plateaus;
}

} // namespace ridgepoint
