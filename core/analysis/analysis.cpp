#include "core/analysis/analysis.h"

#include "core/model/memory_hint.h"
#include "core/model/units.h"

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
    return bound == Bound::Compute ? "compute" : "memory";
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

ridgepoint::Expected<PointAnalysis, std::string> analyzePoint(
    const KernelPoint &point, const Hardware &hardware, const AnalysisOptions &options)
{
    // Named in every refusal; built only for one.
    const auto who = [&] { return "point \"" + point.name + "\""; };
    const bool byIntensity = point.knownByIntensity();
    if (byIntensity) {
        // A point a file gives only as intensities and rate: placed by I and the rate, with no
        // times (they need counts).
        if (point.intensity && !positiveFinite(*point.intensity))
            return ridgepoint::Unexpected(who() + ": intensity must be a positive finite FLOP/B");
        for (const auto &level : point.levelIntensities) {
            if (!positiveFinite(level.intensity))
                return ridgepoint::Unexpected(who() + ": intensity at "
                    + std::string(memoryLevelName(level.level))
                    + " must be a positive finite FLOP/B");
        }
        if (!point.performance())
            return ridgepoint::Unexpected(
                who() + ": an intensity alone needs a measured performance");
    } else if (!positiveFinite(point.flops))
        return ridgepoint::Unexpected(who() + ": FLOPs must be a positive finite number");
    if (point.bytes.empty() && !byIntensity)
        return ridgepoint::Unexpected(who() + ": no bytes at any memory level");
    for (const auto &level : point.bytes) {
        if (!positiveFinite(level.bytes))
            return ridgepoint::Unexpected(
                who() + ": bytes at " + describeLevel(level) + " must be a positive finite number");
    }
    if (point.seconds && !positiveFinite(*point.seconds))
        return ridgepoint::Unexpected(
            who() + ": measured time must be a positive finite number of seconds");
    if (point.measuredRate && !positiveFinite(*point.measuredRate))
        return ridgepoint::Unexpected(
            who() + ": measured performance must be a positive finite FLOP/s");

    const ComputeCeiling *compute = nullptr;
    if (!options.computeCeiling.empty()) {
        compute = hardware.findCompute(options.computeCeiling);
        if (!compute)
            return ridgepoint::Unexpected(
                "no compute ceiling named \"" + options.computeCeiling + "\" on " + hardware.name);
    } else if (point.precision) {
        compute = hardware.computeFor(*point.precision);
        if (!compute)
            return ridgepoint::Unexpected(who() + ": " + hardware.name + " has no "
                + std::string(precisionName(*point.precision))
                + " compute ceiling (pick one with --compute)");
    } else {
        compute = hardware.defaultComputeCeiling();
        if (!compute)
            return ridgepoint::Unexpected(hardware.name + " has no compute ceiling");
    }

    PointAnalysis result;
    result.computeCeiling = compute->name;
    result.peak = compute->peak;
    result.tMath = point.flops / compute->peak;
    result.tMin = result.tMath;
    result.tMax = result.tMath;
    result.attainable = compute->peak;
    result.bound = Bound::Compute;
    result.limitingCeiling = compute->name;
    result.performance = point.performance();

    if (byIntensity) {
        // One level per intensity: main memory first, then the others in the file's order. The
        // roof is the lowest of min(π, β_l·I_l), as F / T_min is for a point with counts.
        result.tMath = 0.0;
        result.tMin = 0.0;
        result.tMax = 0.0;
        const auto place = [&](const MemoryCeiling *memory, double intensity,
                               const std::string &level) -> std::optional<std::string> {
            if (!memory) {
                appendNote(result.note,
                    "no " + level + " ceiling on " + hardware.name
                        + ": that intensity is not bounded");
                return std::nullopt;
            }
            for (const auto &earlier : result.levels) {
                if (earlier.memory == memory->name)
                    return who() + ": two intensities both go to " + memory->name
                        + "; give one per memory level";
            }
            LevelAnalysis la;
            la.memory = memory->name;
            la.level = memory->level;
            la.bandwidth = memory->bandwidth;
            la.intensity = intensity;
            la.attainable = attainablePerformance(compute->peak, memory->bandwidth, intensity);
            if (la.attainable < result.attainable) {
                result.attainable = la.attainable;
                result.bound = Bound::Memory;
                result.limitingCeiling = memory->name;
            }
            result.levels.push_back(std::move(la));
            return std::nullopt;
        };
        if (point.intensity) {
            if (auto refused = place(hardware.mainMemory(), *point.intensity, "main-memory"))
                return ridgepoint::Unexpected(*refused);
        }
        for (const auto &level : point.levelIntensities) {
            if (auto refused = place(hardware.memoryFor(level.level), level.intensity,
                    std::string(memoryLevelName(level.level))))
                return ridgepoint::Unexpected(*refused);
        }
        appendNote(result.note, "placed by intensity and rate: no counts, so no times");
    }
    for (const auto &level : point.bytes) {
        const MemoryCeiling *memory
            = level.level ? hardware.memoryFor(*level.level) : hardware.mainMemory();
        if (!memory) {
            appendNote(result.note,
                "no " + describeLevel(level) + " ceiling on " + hardware.name
                    + ": those bytes are not bounded");
            continue;
        }
        // Two byte columns landing on one ceiling (say "bytes" and "bytes_hbm") either count
        // the same traffic twice or split it: neither can be guessed, so the point is refused.
        for (const auto &earlier : result.levels) {
            if (earlier.memory == memory->name)
                return ridgepoint::Unexpected(who() + ": two byte counts both go to " + memory->name
                    + " (e.g. bytes and bytes_" + std::string(memoryLevelName(memory->level))
                    + "); give one per memory level");
        }
        LevelAnalysis la;
        la.memory = memory->name;
        la.level = memory->level;
        la.bandwidth = memory->bandwidth;
        la.bytes = level.bytes;
        la.intensity = point.flops / level.bytes;
        la.attainable = attainablePerformance(compute->peak, memory->bandwidth, la.intensity);
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
    if (result.levels.empty() && byIntensity && !point.levelIntensities.empty())
        return ridgepoint::Unexpected(
            who() + ": none of its intensities' levels has a memory ceiling on " + hardware.name);
    if (result.levels.empty() && byIntensity)
        return ridgepoint::Unexpected(who() + ": " + hardware.name + " has no main-memory ceiling");
    if (result.levels.empty())
        return ridgepoint::Unexpected(
            who() + ": none of its byte levels has a memory ceiling on " + hardware.name);

    if (!byIntensity)
        result.attainable = point.flops / result.tMin;

    if (result.performance) {
        result.utilization = *result.performance / result.attainable;
        if (*result.performance > result.attainable * (1.0 + options.tolerance)) {
            result.consistent = false;
            const std::string speed = formatQuantity(*result.performance, Dimension::FlopRate);
            const std::string roof = formatQuantity(result.attainable, Dimension::FlopRate);
            std::string why = point.seconds
                ? "measured " + formatQuantity(*point.seconds, Dimension::Time) + " is below T_min "
                    + formatQuantity(result.tMin, Dimension::Time) + " (" + speed + " above the "
                    + result.limitingCeiling + " roof of " + roof + ")"
                : "measured " + speed + " is above the " + result.limitingCeiling + " roof of "
                    + roof;
            appendNote(result.note, why + ": counts or peaks are off");
        } else if (!byIntensity && point.seconds
            && *point.seconds > result.tMax * (1.0 + options.tolerance)) {
            // The synthetic and many real files put every point here: one string, no temporaries.
            const std::string measured = formatQuantity(*point.seconds, Dimension::Time);
            const std::string bound = formatQuantity(result.tMax, Dimension::Time);
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
