#include "core/analysis/io_bounds.h"
#include "core/analysis/io_bounds_attention.h"

#include "core/model/units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgepoint {
namespace {

// The level whose traffic a capacity at `level` bounds (see IoBound::against): the next level
// of the hierarchy, whether or not the machine gives its capacity. Every GPU and CPU has an L2
// behind its L1 or scratchpad; an L2 is followed by an L3 where the machine has one.
MemoryLevel levelBelow(const Hardware &hardware, MemoryLevel level)
{
    const MemoryCeiling *main = hardware.mainMemory();
    const MemoryLevel mainLevel = main ? main->level : MemoryLevel::HBM;
    switch (level) {
    case MemoryLevel::L1:
    case MemoryLevel::LDS:
        return MemoryLevel::L2;
    case MemoryLevel::L2: {
        const bool l3
            = std::any_of(hardware.limits.capacities.begin(), hardware.limits.capacities.end(),
                  [](const MemoryCapacity &c) { return c.level == MemoryLevel::L3; })
            || hardware.memoryFor(MemoryLevel::L3) != nullptr;
        return l3 ? MemoryLevel::L3 : mainLevel;
    }
    default:
        return mainLevel;
    }
}

bool sameMemory(MemoryLevel a, MemoryLevel b)
{
    return a == b || (isMainMemory(a) && isMainMemory(b));
}

// The words of fast memory whose bound 2mnk/√S − 2S equals `words`: the bound falls as S grows,
// so bisection on x = √S between 0 and (mnk)^(1/3), where the bound reaches 0.
double wordsNeeded(const MatmulShape &shape, double words)
{
    const double work = shape.m * shape.n * shape.k;
    double low = 0.0;
    double high = std::cbrt(work);
    for (int i = 0; i < 200 && high - low > high * 1e-15; ++i) {
        const double x = 0.5 * (low + high);
        const double bound = 2.0 * work / x - 2.0 * x * x;
        (bound > words ? low : high) = x;
    }
    return high * high;
}

} // namespace

double matmulMaxIntensity(double capacityBytes, double wordBytes)
{
    return std::sqrt(capacityBytes / wordBytes) / wordBytes;
}

std::vector<IoBound> matmulIoBounds(const Hardware &hardware, double wordBytes)
{
    std::vector<IoBound> out;
    out.reserve(hardware.limits.capacities.size());
    for (const auto &capacity : hardware.limits.capacities) {
        IoBound bound;
        bound.capacity = capacity;
        bound.against = levelBelow(hardware, capacity.level);
        bound.maxIntensity = matmulMaxIntensity(capacity.bytes, wordBytes);
        out.push_back(std::move(bound));
    }
    return out;
}

double matmulMinTraffic(const MatmulShape &shape, double capacityBytes)
{
    const double words = capacityBytes / shape.wordBytes;
    const double bound = 2.0 * shape.m * shape.n * shape.k / std::sqrt(words) - 2.0 * words;
    return shape.wordBytes * std::max(0.0, bound);
}

double matmulCapacityNeeded(const MatmulShape &shape, double trafficBytes)
{
    if (!(trafficBytes > 0.0))
        return std::numeric_limits<double>::infinity();
    return shape.wordBytes * wordsNeeded(shape, trafficBytes / shape.wordBytes);
}

std::optional<IoBoundExcess> beyondIoBound(const MatmulShape &shape,
    const std::vector<IoBound> &bounds, MemoryLevel trafficLevel, double trafficBytes)
{
    for (const auto &bound : bounds) {
        if (!sameMemory(bound.against, trafficLevel))
            continue;
        const double least = matmulMinTraffic(shape, bound.capacity.bytes);
        // Rounding slack: a point exactly on its bound is not past it.
        if (!(trafficBytes < least * (1.0 - 1e-9)))
            continue;
        return IoBoundExcess { bound, trafficBytes, least,
            matmulCapacityNeeded(shape, trafficBytes) };
    }
    return std::nullopt;
}

std::string capacityText(double bytes)
{
    static constexpr const char *kUnits[] = { "KiB", "MiB", "GiB" };
    double scaled = bytes;
    const char *unit = nullptr;
    for (const char *candidate : kUnits) {
        if (scaled < 1024.0 || std::fmod(scaled, 1024.0) != 0.0)
            break;
        scaled /= 1024.0;
        unit = candidate;
    }
    if (unit && scaled < 1024.0)
        return formatNumber(scaled) + " " + unit;
    return formatQuantity(bytes, Dimension::Bytes);
}

Diagnosis ioBoundDiagnosis(const IoBoundExcess &excess)
{
    if (excess.kind == IoBoundKind::Attention)
        return attentionIoBoundDiagnosis(excess);
    const MemoryCapacity &capacity = excess.bound.capacity;
    const std::string level(memoryLevelName(capacity.level));
    const std::string below(memoryLevelName(excess.bound.against));
    const std::string per = capacity.per.empty() ? std::string() : " per " + capacity.per;
    Diagnosis d;
    d.cause = "beyond the " + level + " tiling wall";
    d.evidence = "needs more than " + capacityText(capacity.bytes) + per + " of on-chip memory ("
        + level + ") at this shape: moving " + formatQuantity(excess.trafficBytes, Dimension::Bytes)
        + " past it needs at least " + formatQuantity(excess.capacityNeeded, Dimension::Bytes)
        + ", and with " + capacityText(capacity.bytes) + " it moves at least "
        + formatQuantity(excess.minTrafficBytes, Dimension::Bytes) + " to and from " + below
        + " (2mnk/√S − 2S words, Smith et al. 2019)";
    d.fix = "count the " + below + " traffic the tiling really causes (it cannot fall below "
        + formatQuantity(excess.minTrafficBytes, Dimension::Bytes)
        + "), or give the machine's real " + level + " capacity";
    d.score = 1.0;
    return d;
}

} // namespace ridgepoint
