#include "core/model/point.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ridgepoint {

std::string_view computeUnitName(ComputeUnit unit)
{
    switch (unit) {
    case ComputeUnit::Tensor:
        return "tensor";
    case ComputeUnit::Core:
        return "core";
    case ComputeUnit::Unknown:
        break;
    }
    return "";
}

std::optional<ComputeUnit> computeUnitFromName(std::string_view name)
{
    if (name == "tensor")
        return ComputeUnit::Tensor;
    if (name == "core")
        return ComputeUnit::Core;
    return std::nullopt;
}

void KernelPoint::clear()
{
    // Every member, in the order of the declaration: one added there belongs here too (and in
    // PointsCsvTape::keep and replay, which give up on a point with members they do not keep).
    name.clear();
    flops = 0.0;
    bytes.clear();
    seconds.reset();
    measuredRate.reset();
    intensity.reset();
    levelIntensities.clear();
    timeStatistics = {};
    precision.reset();
    unit = ComputeUnit::Unknown;
    group.clear();
    source.file.clear();
    source.line = 0;
}

std::vector<KernelPoint> sumLaunches(
    std::vector<KernelPoint> points, const std::vector<std::string> &kernels)
{
    std::map<std::string, std::vector<std::size_t>> launches; // kernel -> its points, in order
    std::vector<std::string> order;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string &kernel = i < kernels.size() ? kernels[i] : points[i].name;
        auto [it, added] = launches.emplace(kernel, std::vector<std::size_t> {});
        if (added)
            order.push_back(kernel);
        it->second.push_back(i);
    }
    std::vector<KernelPoint> out;
    out.reserve(order.size());
    for (const std::string &kernel : order) {
        const std::vector<std::size_t> &of = launches[kernel];
        const bool countable = std::all_of(of.begin(), of.end(), [&](std::size_t i) {
            return !points[i].intensity && points[i].levelIntensities.empty()
                && !points[i].bytes.empty();
        });
        if (of.size() == 1 || !countable) {
            for (std::size_t i : of)
                out.push_back(std::move(points[i]));
            continue;
        }
        KernelPoint sum;
        sum.name = kernel;
        sum.source = points[of.front()].source;
        sum.group = points[of.front()].group;
        double most = -1.0;
        bool everyTime = true;
        double seconds = 0.0;
        std::vector<double> times;
        for (std::size_t i : of) {
            const KernelPoint &p = points[i];
            sum.flops += p.flops;
            if (p.flops > most) {
                most = p.flops;
                sum.precision = p.precision;
                sum.unit = p.unit;
            }
            for (const LevelBytes &level : p.bytes) {
                auto at = std::find_if(sum.bytes.begin(), sum.bytes.end(),
                    [&](const LevelBytes &b) { return b.level == level.level; });
                if (at == sum.bytes.end())
                    sum.bytes.push_back(level);
                else
                    at->bytes += level.bytes;
            }
            if (p.seconds) {
                seconds += *p.seconds;
                times.push_back(*p.seconds);
            } else {
                everyTime = false;
            }
        }
        if (everyTime) {
            const auto n = static_cast<double>(times.size());
            sum.seconds = seconds;
            std::sort(times.begin(), times.end());
            const std::size_t middle = times.size() / 2;
            const double median
                = times.size() % 2 == 1 ? times[middle] : (times[middle - 1] + times[middle]) / 2.0;
            const double mean = seconds / n;
            double squares = 0.0;
            for (double t : times)
                squares += (t - mean) * (t - mean);
            sum.timeStatistics.min = times.front() * n;
            sum.timeStatistics.median = median * n;
            sum.timeStatistics.max = times.back() * n;
            sum.timeStatistics.stddev = std::sqrt(squares / (n - 1.0)) * std::sqrt(n);
        }
        out.push_back(std::move(sum));
    }
    return out;
}

} // namespace ridgepoint
