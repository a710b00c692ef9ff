#include "core/analysis/analysis.h"

#include "core/io/memory_hint.h"
#include "core/model/units.h"
#include "core/model/value_ranges.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint {
namespace {

bool positiveFinite(double value)
{
    return std::isfinite(value) && value > 0.0;
}

std::string describeLevel(const LevelBytes &bytes)
{
    return bytes.level ? std::string(memoryLevelName(*bytes.level)) : std::string("main memory");
}

void appendNote(std::string &note, std::string text)
{
    if (note.empty()) {
        note = std::move(text);
        return;
    }
    note += "; ";
    note += text;
}

} // namespace

std::string_view boundName(Bound bound)
{
    switch (bound) {
    case Bound::Compute:
        return "compute";
    case Bound::Latency:
        return "latency";
    case Bound::Memory:
        break;
    }
    return "memory";
}

std::vector<Ridge> ridges(const Hardware &hardware)
{
    std::vector<Ridge> out;
    for (const auto &compute : hardware.compute) {
        for (const auto &memory : hardware.memory)
            out.push_back({ compute.name, memory.name, ridgeIntensity(compute, memory) });
    }
    return out;
}

double attainablePerformance(double peak, double bandwidth, double intensity)
{
    return std::min(peak, bandwidth * intensity);
}

namespace {

// Named in every refusal; built only for one.
std::string who(const KernelPoint &point)
{
    return "point \"" + point.name + "\"";
}

// Why the point's own numbers cannot be placed (non-positive or non-finite counts, an intensity
// without a rate), or nullopt.
std::optional<std::string> refuseCounts(const KernelPoint &point, bool byIntensity)
{
    if (byIntensity) {
        // A point a file gives only as intensities and rate: placed by I and the rate, with no
        // times (they need counts).
        if (point.intensity && !positiveFinite(*point.intensity))
            return who(point) + ": intensity must be a positive finite FLOP/B";
        for (const auto &level : point.levelIntensities) {
            if (!positiveFinite(level.intensity))
                return who(point) + ": intensity at " + std::string(memoryLevelName(level.level))
                    + " must be a positive finite FLOP/B";
        }
        if (!point.performance())
            return who(point) + ": an intensity alone needs a measured performance";
    } else if (!positiveFinite(point.flops))
        return who(point) + ": FLOPs must be a positive finite number";
    if (point.bytes.empty() && !byIntensity)
        return who(point) + ": no bytes at any memory level";
    for (const auto &level : point.bytes) {
        if (!positiveFinite(level.bytes))
            return who(point) + ": bytes at " + describeLevel(level)
                + " must be a positive finite number";
    }
    if (point.seconds && !positiveFinite(*point.seconds))
        return who(point) + ": measured time must be a positive finite number of seconds";
    if (point.measuredRate && !positiveFinite(*point.measuredRate))
        return who(point) + ": measured performance must be a positive finite FLOP/s";
    if (auto outOfRange = pointRangeProblem(point))
        return who(point) + ": " + *outOfRange;
    return std::nullopt;
}

// A ceiling outside the accepted ranges (a machine built in code or edited, not read through
// validateHardware), or nullopt.
std::optional<std::string> refuseCeilings(const Hardware &hardware, const ComputeCeiling &compute)
{
    if (auto problem = valueProblem(compute.peak, Quantity::Peak))
        return "compute ceiling \"" + compute.name + "\" of " + hardware.name + ": peak "
            + *problem;
    for (const auto &memory : hardware.memory) {
        if (auto problem = valueProblem(memory.bandwidth, Quantity::Bandwidth))
            return "memory ceiling \"" + memory.name + "\" of " + hardware.name + ": bandwidth "
                + *problem;
    }
    return std::nullopt;
}

// The last guard of docs/MODEL.md §10: every derived value is finite.
std::optional<std::string> refuseNonFinite(const KernelPoint &point, const PointAnalysis &result)
{
    bool finite = std::isfinite(result.tMin) && std::isfinite(result.tMax)
        && std::isfinite(result.attainable) && result.attainable > 0.0;
    for (const auto *value : { &result.performance, &result.utilization })
        finite = finite && (!*value || std::isfinite(**value));
    for (const auto &level : result.levels)
        finite = finite && std::isfinite(level.intensity) && std::isfinite(level.attainable)
            && std::isfinite(level.tMem);
    if (finite)
        return std::nullopt;
    return who(point) + ": its values give a non-finite or zero roof on this machine "
        + "(expected results inside the accepted ranges, docs/MODEL.md)";
}

// The fastest dense ceiling of `precision` on the point's kind of units (tensor/matrix or not,
// docs/MODEL.md §4.1), else the fastest of the precision.
const ComputeCeiling *ceilingOfUnit(const Hardware &hardware, Precision precision, ComputeUnit unit)
{
    if (unit != ComputeUnit::Unknown) {
        const ComputeCeiling *best = nullptr;
        for (const auto &ceiling : hardware.compute) {
            if (ceiling.sparse || !ceiling.visible || ceiling.precision != precision
                || isMatrixUnit(ceiling) != (unit == ComputeUnit::Tensor))
                continue;
            if (!best || ceiling.peak > best->peak)
                best = &ceiling;
        }
        if (best)
            return best;
    }
    return hardware.computeFor(precision);
}

// The ceiling named in the options, else the one of the point's precision, else the default.
ridgepoint::Expected<const ComputeCeiling *, std::string> chooseComputeCeiling(
    const KernelPoint &point, const Hardware &hardware, const AnalysisOptions &options)
{
    if (!options.computeCeiling.empty()) {
        if (const ComputeCeiling *named = hardware.findCompute(options.computeCeiling))
            return named;
        return ridgepoint::Unexpected(
            "no compute ceiling named \"" + options.computeCeiling + "\" on " + hardware.name);
    }
    if (point.precision) {
        if (const ComputeCeiling *own = ceilingOfUnit(hardware, *point.precision, point.unit))
            return own;
        return ridgepoint::Unexpected(who(point) + ": " + hardware.name + " has no "
            + std::string(precisionName(*point.precision))
            + " compute ceiling (add one to the machine, or choose the compute ceiling to use)");
    }
    if (const ComputeCeiling *fallback = hardware.defaultComputeCeiling())
        return fallback;
    if (!hardware.compute.empty())
        return ridgepoint::Unexpected(hardware.name
            + " has only 2:4-sparse compute ceilings, which are never a point's roof (add the "
              "dense figure, half the sparse peak on NVIDIA's tensor cores, or choose a ceiling "
              "by name)");
    return ridgepoint::Unexpected(hardware.name + " has no compute ceiling");
}

// A level the machine has no ceiling for: its bytes and intensity, no roof.
LevelAnalysis unboundedLevel(MemoryLevel level, double bytes, double intensity)
{
    LevelAnalysis la;
    la.level = level;
    la.bytes = bytes;
    la.intensity = intensity;
    la.bounded = false;
    return la;
}

// One level of a point known by intensity: the roof is the lowest of min(π, β_l·I_l), as
// F / T_min is for a point with counts. A refusal when two intensities share a ceiling.
std::optional<std::string> placeIntensity(const KernelPoint &point, const Hardware &hardware,
    const MemoryCeiling *memory, double intensity, MemoryLevel levelOf, const std::string &level,
    PointAnalysis &result)
{
    if (!memory) {
        appendNote(result.note,
            "no " + level + " ceiling on " + hardware.name + ": that intensity is not bounded");
        result.unbounded.push_back(unboundedLevel(levelOf, 0.0, intensity));
        return std::nullopt;
    }
    for (const auto &earlier : result.levels) {
        if (earlier.memory == memory->name)
            return who(point) + ": two intensities both go to " + memory->name
                + "; give one per memory level";
    }
    LevelAnalysis la;
    la.memory = memory->name;
    la.level = memory->level;
    la.bandwidth = memory->bandwidth;
    la.intensity = intensity;
    la.attainable = attainablePerformance(result.peak, memory->bandwidth, intensity);
    if (la.attainable < result.attainable) {
        result.attainable = la.attainable;
        result.bound = Bound::Memory;
        result.limitingCeiling = memory->name;
    }
    result.levels.push_back(std::move(la));
    return std::nullopt;
}

// A point known by intensities and rate: one level per intensity, main memory first, then the
// others in the file's order; no times.
std::optional<std::string> placeByIntensity(
    const KernelPoint &point, const Hardware &hardware, PointAnalysis &result)
{
    result.tMath = 0.0;
    result.tMin = 0.0;
    result.tMax = 0.0;
    if (point.intensity) {
        if (auto refused = placeIntensity(point, hardware, hardware.mainMemory(), *point.intensity,
                MemoryLevel::DRAM, "main-memory", result))
            return refused;
    }
    for (const auto &level : point.levelIntensities) {
        if (auto refused = placeIntensity(point, hardware, hardware.memoryFor(level.level),
                level.intensity, level.level, std::string(memoryLevelName(level.level)), result))
            return refused;
    }
    appendNote(result.note, "placed by intensity and rate: no counts, so no times");
    return std::nullopt;
}

// The byte counts, level by level: intensity, T_l, achieved bandwidth; the slowest sets T_min.
std::optional<std::string> placeByteLevels(
    const KernelPoint &point, const Hardware &hardware, PointAnalysis &result)
{
    for (const auto &level : point.bytes) {
        const MemoryCeiling *memory
            = level.level ? hardware.memoryFor(*level.level) : hardware.mainMemory();
        if (!memory) {
            appendNote(result.note,
                "no " + describeLevel(level) + " ceiling on " + hardware.name
                    + ": those bytes are not bounded");
            result.unbounded.push_back(unboundedLevel(
                level.level.value_or(MemoryLevel::DRAM), level.bytes, point.flops / level.bytes));
            continue;
        }
        // Two byte columns landing on one ceiling (say "bytes" and "bytes_hbm") either count
        // the same traffic twice or split it: neither can be guessed, so the point is refused.
        for (const auto &earlier : result.levels) {
            if (earlier.memory == memory->name)
                return who(point) + ": two byte counts both go to " + memory->name
                    + " (e.g. bytes and bytes_" + std::string(memoryLevelName(memory->level))
                    + "); give one per memory level";
        }
        LevelAnalysis la;
        la.memory = memory->name;
        la.level = memory->level;
        la.bandwidth = memory->bandwidth;
        la.bytes = level.bytes;
        la.intensity = point.flops / level.bytes;
        la.attainable = attainablePerformance(result.peak, memory->bandwidth, la.intensity);
        la.tMem = level.bytes / memory->bandwidth;
        if (point.seconds) {
            la.achievedBandwidth = level.bytes / *point.seconds;
            la.bandwidthUtilization = *la.achievedBandwidth / memory->bandwidth;
        }
        result.tMax += la.tMem;
        if (la.tMem > result.tMin) {
            result.tMin = la.tMem;
            result.bound = Bound::Memory;
            result.limitingCeiling = memory->name;
        }
        result.levels.push_back(std::move(la));
    }
    return std::nullopt;
}

// The latency floor (docs/MODEL.md §13): T_min = max(F/π, B_l/β_l..., launch latency). A point
// whose launch latency is longer than both roofs' times is latency-bound.
void applyLaunchLatency(const Hardware &hardware, PointAnalysis &result)
{
    const auto &launch = hardware.limits.launchLatency;
    if (!launch || !(launch->seconds > result.tMin))
        return;
    result.tMin = launch->seconds;
    result.tMax = std::max(result.tMax, result.tMin);
    result.bound = Bound::Latency;
    result.limitingCeiling = std::string(kLaunchLatencyName);
}

// Why a point none of whose levels found a memory ceiling cannot be placed, or nullopt.
std::optional<std::string> refuseUnplaced(const KernelPoint &point, const Hardware &hardware,
    bool byIntensity, const PointAnalysis &result)
{
    if (!result.levels.empty())
        return std::nullopt;
    if (byIntensity && !point.levelIntensities.empty())
        return who(point) + ": none of its intensities' levels has a memory ceiling on "
            + hardware.name;
    if (byIntensity)
        return who(point) + ": " + hardware.name + " has no main-memory ceiling";
    return who(point) + ": none of its byte levels has a memory ceiling on " + hardware.name;
}

// The utilization, and a note when the measurement is faster than the roof (inconsistent) or
// slower than the no-overlap bound T_max.
void judgeMeasurement(const KernelPoint &point, const Hardware &hardware,
    const AnalysisOptions &options, bool byIntensity, PointAnalysis &result)
{
    if (!result.performance)
        return;
    result.utilization = *result.performance / result.attainable;
    if (*result.performance > result.attainable * (1.0 + options.tolerance)) {
        result.consistent = false;
        const std::string speed = formatQuantity(*result.performance, Dimension::FlopRate);
        const std::string roof = formatQuantity(result.attainable, Dimension::FlopRate);
        std::string why = point.seconds
            ? "measured " + formatQuantity(*point.seconds, Dimension::Time) + " is below T_min "
                + formatQuantity(result.tMin, Dimension::Time) + " (" + speed + " above the "
                + result.limitingCeiling + " roof of " + roof + ")"
            : "measured " + speed + " is above the " + result.limitingCeiling + " roof of " + roof;
        result.diagnosis = diagnose(point, hardware, result);
        appendNote(result.note,
            why + ": "
                + (result.diagnosis.empty() ? std::string("counts or peaks are off")
                                            : overshootText(result) + ", "
                            + diagnosisVerdict(result.diagnosis.front())));
    } else if (!byIntensity && point.seconds
        && *point.seconds > result.tMax * (1.0 + options.tolerance)) {
        // The synthetic and many real files put every point here: one string, the quantities
        // written into stack buffers.
        QuantityText measuredText;
        QuantityText boundText;
        const std::string_view measured
            = formatQuantity(measuredText, *point.seconds, Dimension::Time);
        const std::string_view bound = formatQuantity(boundText, result.tMax, Dimension::Time);
        constexpr std::string_view kWhy
            = " (the no-overlap bound): uncounted work or traffic, or poor overlap";
        std::string text;
        text.reserve(9 + measured.size() + 16 + bound.size() + kWhy.size());
        text += "measured ";
        text += measured;
        text += " is above T_max ";
        text += bound;
        text += kWhy;
        appendNote(result.note, std::move(text));
    }
}

} // namespace

ridgepoint::Expected<PointAnalysis, std::string> analyzePoint(
    const KernelPoint &point, const Hardware &hardware, const AnalysisOptions &options)
{
    const bool byIntensity = point.knownByIntensity();
    if (auto refused = refuseCounts(point, byIntensity))
        return ridgepoint::Unexpected(std::move(*refused));
    const auto compute = chooseComputeCeiling(point, hardware, options);
    if (!compute)
        return ridgepoint::Unexpected(compute.error());
    if (auto refused = refuseCeilings(hardware, **compute))
        return ridgepoint::Unexpected(std::move(*refused));

    PointAnalysis result;
    result.computeCeiling = (*compute)->name;
    result.peak = (*compute)->peak;
    result.tMath = point.flops / result.peak;
    result.tMin = result.tMath;
    result.tMax = result.tMath;
    result.attainable = result.peak;
    result.bound = Bound::Compute;
    result.limitingCeiling = (*compute)->name;
    result.performance = point.performance();

    if (byIntensity) {
        if (auto refused = placeByIntensity(point, hardware, result))
            return ridgepoint::Unexpected(std::move(*refused));
    }
    if (auto refused = placeByteLevels(point, hardware, result))
        return ridgepoint::Unexpected(std::move(*refused));
    if (auto refused = refuseUnplaced(point, hardware, byIntensity, result))
        return ridgepoint::Unexpected(std::move(*refused));

    if (!byIntensity) {
        applyLaunchLatency(hardware, result);
        result.attainable = point.flops / result.tMin;
    }
    judgeMeasurement(point, hardware, options, byIntensity, result);
    if (!hardware.limits.levelLatencies.empty()) {
        if (auto starved = diagnoseFewBytesInFlight(point, hardware, result))
            appendNote(result.note, starved->cause + ": " + starved->evidence);
    }
    if (hardware.limits.energy)
        result.energy = pointEnergy(point, result, hardware);
    if (auto refused = refuseNonFinite(point, result))
        return ridgepoint::Unexpected(std::move(*refused));
    return result;
}

std::vector<AnalyzedPoint> analyzePoints(const std::vector<KernelPoint> &points,
    const Hardware &hardware, const AnalysisOptions &options, std::vector<Diagnostic> &problems)
{
    std::vector<AnalyzedPoint> out;
    out.reserve(points.size());
    adviseHugePages(out.data(), out.capacity() * sizeof(AnalyzedPoint));
    for (const auto &point : points) {
        auto analysis = analyzePoint(point, hardware, options);
        if (analysis)
            out.push_back({ point, std::move(*analysis) });
        else
            problems.push_back(
                { Severity::Error, point.source.file, point.source.line, 0, analysis.error() });
    }
    return out;
}

} // namespace ridgepoint
