#include "core/model/value_ranges.h"

#include <cmath>
#include <cstdio>
#include <utility>

namespace ridgepoint {
namespace {

struct Range {
    double min;
    double max;
    const char *unit;
};

Range rangeOf(Quantity what)
{
    using namespace ranges;
    switch (what) {
    case Quantity::Peak:
        return { kMinRate, kMaxRate, "FLOP/s" };
    case Quantity::Bandwidth:
        return { kMinRate, kMaxRate, "B/s" };
    case Quantity::Flops:
        return { kMinCount, kMaxCount, "FLOP" };
    case Quantity::Bytes:
        return { kMinCount, kMaxCount, "B" };
    case Quantity::Seconds:
        return { kMinSeconds, kMaxSeconds, "s" };
    case Quantity::Performance:
        return { kMinPerformance, kMaxPerformance, "FLOP/s" };
    case Quantity::Intensity:
        return { kMinIntensity, kMaxIntensity, "FLOP/B" };
    }
    return { kMinCount, kMaxCount, "" };
}

std::string number(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

} // namespace

std::string acceptedRange(Quantity what)
{
    const Range range = rangeOf(what);
    return "[" + number(range.min) + ", " + number(range.max) + "] " + range.unit;
}

std::string outOfRangeMessage(double value, Quantity what)
{
    if (std::isnan(value))
        return "not a number (expected a value in " + acceptedRange(what) + ")";
    return number(value) + " " + rangeOf(what).unit + " is outside the accepted range "
        + acceptedRange(what);
}

std::optional<std::string> pointRangeProblem(const KernelPoint &point)
{
    if (auto problem = valueProblem(point.flops, Quantity::Flops))
        return "the FLOP count " + *problem;
    for (const auto &level : point.bytes) {
        if (auto problem = valueProblem(level.bytes, Quantity::Bytes))
            return "the bytes at "
                + (level.level ? std::string(memoryLevelName(*level.level))
                               : std::string("main memory"))
                + ": " + *problem;
    }
    const auto &s = point.timeStatistics;
    for (const auto *t : { &point.seconds, &s.min, &s.median, &s.max }) {
        if (*t) {
            if (auto problem = valueProblem(**t, Quantity::Seconds))
                return "the time " + *problem;
        }
    }
    if (s.stddev && *s.stddev > ranges::kMaxSeconds)
        return "the time standard deviation is above " + acceptedRange(Quantity::Seconds);
    if (point.measuredRate) {
        if (auto problem = valueProblem(*point.measuredRate, Quantity::Performance))
            return "the performance " + *problem;
    }
    if (point.intensity) {
        if (auto problem = valueProblem(*point.intensity, Quantity::Intensity))
            return "the intensity " + *problem;
    }
    for (const auto &level : point.levelIntensities) {
        if (auto problem = valueProblem(level.intensity, Quantity::Intensity))
            return "the intensity at " + std::string(memoryLevelName(level.level)) + ": "
                + *problem;
    }
    return std::nullopt;
}

std::optional<std::string> moveProblem(
    const KernelPoint &point, double bytesFactor, double timeFactor)
{
    for (const double factor : { bytesFactor, timeFactor }) {
        if (!(std::isfinite(factor) && factor > 0.0))
            return "the what-if factor " + number(factor)
                + " is not a positive finite number (expected a factor greater than 0)";
    }
    const auto check
        = [](double moved, Quantity what, const std::string &name) -> std::optional<std::string> {
        if (valueProblem(moved, what))
            return "the what-if move makes " + name + " " + number(moved) + " " + rangeOf(what).unit
                + ", outside the accepted range " + acceptedRange(what);
        return std::nullopt;
    };
    std::optional<std::string> problem;
    for (const auto &level : point.bytes) {
        if (!problem)
            problem = check(level.bytes * bytesFactor, Quantity::Bytes,
                "the bytes at "
                    + (level.level ? std::string(memoryLevelName(*level.level))
                                   : std::string("main memory")));
    }
    if (!problem && point.intensity)
        problem = check(*point.intensity / bytesFactor, Quantity::Intensity, "the intensity");
    for (const auto &level : point.levelIntensities) {
        if (!problem)
            problem = check(level.intensity / bytesFactor, Quantity::Intensity,
                "the intensity at " + std::string(memoryLevelName(level.level)));
    }
    if (!problem && point.seconds)
        problem = check(*point.seconds * timeFactor, Quantity::Seconds, "the time");
    else if (!problem && point.measuredRate)
        problem = check(*point.measuredRate / timeFactor, Quantity::Performance, "the performance");
    return problem;
}

} // namespace ridgepoint
