#include "widgets/chart/dotsize.h"

#include "core/analysis/payoff.h"
#include "widgets/document/document.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint::chart {

int dotSizeClass(double seconds, double longest)
{
    if (!(seconds > 0.0) || !(longest > 0.0) || !std::isfinite(seconds) || !std::isfinite(longest))
        return 0;
    // Area ∝ time: the diameter grows with the square root of the share of the longest.
    const double diameter
        = std::clamp(kMaxDotDiameter * std::sqrt(std::min(seconds / longest, 1.0)), kMinDotDiameter,
            kMaxDotDiameter);
    const double position = std::log(diameter / kMinDotDiameter)
        / std::log(kMaxDotDiameter / kMinDotDiameter) * (kDotSizeClasses - 1);
    return std::clamp(static_cast<int>(std::lround(position)), 0, kDotSizeClasses - 1);
}

double dotClassDiameter(int sizeClass)
{
    const int k = std::clamp(sizeClass, 0, kDotSizeClasses - 1);
    return kMinDotDiameter
        * std::pow(
            kMaxDotDiameter / kMinDotDiameter, static_cast<double>(k) / (kDotSizeClasses - 1));
}

MeasuredSeconds measuredSeconds(const Document &document)
{
    MeasuredSeconds seconds(document.pointCount());
    const PointTable &points = document.pointTable();
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        if (document.placement(i).placed)
            seconds[i] = pointSeconds(points.seconds(i), points.measuredRate(i), points.flops(i));
    }
    return seconds;
}

std::optional<std::vector<int>> dotSizeClasses(const Document &document)
{
    return dotSizeClasses(document, measuredSeconds(document));
}

std::optional<std::vector<int>> dotSizeClasses(
    const Document &document, const MeasuredSeconds &seconds)
{
    const std::size_t count = std::min(document.pointCount(), seconds.size());
    std::vector<double> drawn(document.pointCount(), -1.0);
    double longest = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        if (const PointPlacement &a = document.placement(i); !a.placed || a.boundedLevels == 0)
            continue; // not drawn
        const auto &time = seconds[i];
        if (!time || !std::isfinite(*time) || *time < 0.0)
            return std::nullopt;
        drawn[i] = *time;
        longest = std::max(longest, *time);
    }
    if (!(longest > 0.0))
        return std::nullopt;
    std::vector<int> classes(drawn.size(), -1);
    for (std::size_t i = 0; i < drawn.size(); ++i) {
        if (drawn[i] >= 0.0)
            classes[i] = dotSizeClass(drawn[i], longest);
    }
    return classes;
}

} // namespace ridgepoint::chart
