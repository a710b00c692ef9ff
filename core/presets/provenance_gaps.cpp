// Checks on the provenance of a machine's ceilings (docs/FILES.md, "Provenance").
#include "core/presets/presets.h"

namespace ridgepoint {
namespace {

// Calls `visit(what, provenance)` for every figure of the machine: each ceiling's own and its
// alternate's.
template<typename Visit> void eachFigure(const Hardware &hardware, Visit visit)
{
    const auto one = [&visit](const std::string &what, const auto &ceiling) {
        visit(what, ceiling.provenance);
        if (ceiling.alternate)
            visit(what + " (alternate figure)", ceiling.alternate->provenance);
    };
    for (const auto &ceiling : hardware.compute)
        one("compute ceiling \"" + ceiling.name + "\"", ceiling);
    for (const auto &ceiling : hardware.memory)
        one("memory ceiling \"" + ceiling.name + "\"", ceiling);
    // The limits beyond the two roofs (docs/MODEL.md §12-§14) are figures like the others.
    const MachineLimits &limits = hardware.limits;
    for (const auto &capacity : limits.capacities)
        visit("capacity of " + std::string(memoryLevelName(capacity.level)), capacity.provenance);
    if (limits.launchLatency)
        visit(std::string("launch latency"), limits.launchLatency->provenance);
    for (const auto &latency : limits.levelLatencies)
        visit("latency of " + std::string(memoryLevelName(latency.level)), latency.provenance);
    if (limits.energy)
        visit(std::string("energy model"), limits.energy->provenance);
    if (limits.computeUnits)
        visit(std::string("compute units"), limits.computeUnits->provenance);
}

} // namespace

std::vector<std::string> provenanceGaps(const Hardware &hardware)
{
    std::vector<std::string> gaps;
    eachFigure(hardware, [&gaps](const std::string &what, const Provenance &p) {
        if (p.basis == Basis::Unstated)
            gaps.push_back(what + ": no basis (expected spec, derived or measured)");
        if (p.source.empty())
            gaps.push_back(what + ": no source");
    });
    return gaps;
}

std::vector<std::string> provenanceDetailGaps(const Hardware &hardware)
{
    std::vector<std::string> gaps;
    eachFigure(hardware, [&gaps](const std::string &what, const Provenance &p) {
        if (p.basis == Basis::Derived && p.formula.empty())
            gaps.push_back(what + ": derived without a formula");
        if (p.basis == Basis::Measured && p.tool.empty())
            gaps.push_back(what + ": measured without a tool");
        if (p.basis == Basis::Measured && p.date.empty())
            gaps.push_back(what + ": measured without a date");
    });
    return gaps;
}

} // namespace ridgepoint
