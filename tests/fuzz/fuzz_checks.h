// Properties every reader's output must have, whatever the input: checked by each fuzz target.
// A violated property aborts, which libFuzzer reports as a crash with the input saved.
#pragma once

#include "core/analysis/analysis.h"
#include "core/io/formats/csv.h"
#include "core/io/formats/hardware_json.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace fuzz {

inline std::string_view text(const std::uint8_t *data, std::size_t size)
{
    return { reinterpret_cast<const char *>(data), size };
}

// Says which property failed (file:line of the check) before aborting, so a finding can be read
// from the fuzzer's log without a debugger.
// (__builtin_LINE rather than std::source_location, which clang 14 with libstdc++ 12 lacks.)
inline void require(bool condition, int line = __builtin_LINE())
{
    if (!condition) {
        std::fprintf(stderr, "fuzz property violated at fuzz_checks.h:%d\n", line);
        std::abort();
    }
}

inline bool positiveFinite(double value)
{
    return std::isfinite(value) && value > 0.0;
}

// Diagnostics say something; points are plottable or refused by the analysis, never NaN on it.
inline void checkPoints(const ridgepoint::PointsReadResult &result)
{
    for (const auto &d : result.diagnostics)
        require(!d.message.empty() && d.line >= 0 && d.column >= 0);
    require(result.rowsSkipped >= 0 && result.rowsSkipped <= result.rowsRead);
    const ridgepoint::Hardware machine = ridgepoint::makeSimpleMachine(1e14, 1e12);
    for (const auto &point : result.points) {
        require(!point.name.empty());
        require(std::isfinite(point.flops) && point.flops >= 0.0);
        for (const auto &level : point.bytes)
            require(positiveFinite(level.bytes));
        if (point.seconds)
            require(positiveFinite(*point.seconds));
        if (point.measuredRate)
            require(positiveFinite(*point.measuredRate));
        if (point.intensity)
            require(positiveFinite(*point.intensity));
        for (const auto &level : point.levelIntensities)
            require(positiveFinite(level.intensity));
        // A point without counts is placed by its rate: it must have one.
        if (point.knownByIntensity())
            require(point.measuredRate.has_value() || point.seconds.has_value());
        const auto analysis = ridgepoint::analyzePoint(point, machine);
        if (analysis) {
            require(positiveFinite(analysis->attainable));
            require(analysis->attainable <= 1e14 * (1 + 1e-12));
            require(std::isfinite(analysis->tMin) && analysis->tMin <= analysis->tMax);
        }
    }
}

// Machines accepted by a reader are valid and survive Ridgepoint's own JSON round trip.
inline void checkMachines(const ridgepoint::HardwareReadResult &result)
{
    for (const auto &d : result.diagnostics)
        require(!d.message.empty());
    for (const auto &machine : result.machines) {
        require(ridgepoint::validateHardware(machine).empty());
        const auto again
            = ridgepoint::readHardwareJson(ridgepoint::writeHardwareJson(machine), "again");
        require(again.machines.size() == 1);
        require(again.machines.front().compute.size() == machine.compute.size());
        require(again.machines.front().memory.size() == machine.memory.size());
    }
}

} // namespace fuzz
