#include "core/io/read_result.h"

#include "core/model/value_ranges.h"

#include <cmath>

namespace ridgepoint {

std::optional<std::string> pointProblem(const KernelPoint &point)
{
    const auto positive = [](double v) { return std::isfinite(v) && v > 0.0; };
    if (point.name.empty())
        return "empty name (expected the kernel's name)";
    if (!std::isfinite(point.flops) || point.flops < 0.0)
        return "the FLOP count is "
            + std::string(std::isfinite(point.flops) ? "negative" : "not finite")
            + " (expected zero or more FLOPs)";
    for (const auto &level : point.bytes) {
        if (!positive(level.bytes))
            return "the bytes at "
                + (level.level ? std::string(memoryLevelName(*level.level))
                               : std::string("main memory"))
                + " are not a positive finite number (expected bytes greater than zero)";
    }
    if (point.seconds && !positive(*point.seconds))
        return std::string("the time is not a positive finite number of seconds");
    if (point.measuredRate && !positive(*point.measuredRate))
        return std::string("the performance is not a positive finite FLOP/s");
    if (point.intensity && !positive(*point.intensity))
        return std::string("the intensity is not a positive finite FLOP/B");
    for (const auto &level : point.levelIntensities) {
        if (!positive(level.intensity))
            return "the intensity at " + std::string(memoryLevelName(level.level))
                + " is not a positive finite FLOP/B";
    }
    const auto &s = point.timeStatistics;
    for (const auto *t : { &s.min, &s.median, &s.max }) {
        if (*t && !positive(**t))
            return std::string(
                "a repeat time (min, median or max) is not a positive finite number of seconds");
    }
    if (s.stddev && !(std::isfinite(*s.stddev) && *s.stddev >= 0.0))
        return std::string(
            "the time standard deviation is not a finite number of zero or more seconds");
    return pointRangeProblem(point);
}

void stateBasis(Hardware &hardware, const Provenance &provenance)
{
    const auto state = [&provenance](auto &ceilings) {
        for (auto &ceiling : ceilings) {
            if (ceiling.provenance.basis == Basis::Unstated)
                ceiling.provenance = provenance;
        }
    };
    state(hardware.compute);
    state(hardware.memory);
}

Provenance measuredBy(std::string source, std::string tool)
{
    Provenance provenance;
    provenance.basis = Basis::Measured;
    provenance.source = std::move(source);
    provenance.tool = std::move(tool);
    return provenance;
}

Provenance derivedBy(std::string source, std::string formula)
{
    Provenance provenance;
    provenance.basis = Basis::Derived;
    provenance.source = std::move(source);
    provenance.formula = std::move(formula);
    return provenance;
}

void keepValidMachine(
    Hardware hardware, const std::string &fileName, HardwareReadResult &result, int line)
{
    for (const auto &problem : validateHardware(hardware))
        result.diagnostics.push_back({ Severity::Error, fileName, line, 0, problem });
    if (!hasErrors(result.diagnostics))
        result.machines.push_back(std::move(hardware));
}

} // namespace ridgepoint
