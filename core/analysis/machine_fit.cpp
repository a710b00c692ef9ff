#include "core/analysis/machine_fit.h"

#include "core/analysis/doctor.h"
#include "core/model/units.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace ridgepoint {
namespace {

// The doctor's score for this guess: above a single point's guesses (a cache level, a clock),
// which explain one point where this explains the set.
constexpr double kScore = 0.9;

std::string percent(double fraction)
{
    std::array<char, 32> buffer {};
    const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(),
        fraction * 100.0, std::chars_format::fixed, 0);
    return (error == std::errc() ? std::string(buffer.data(), end) : std::string("?")) + " %";
}

// The options for another machine: a compute ceiling named for the chosen machine is kept only
// where the other machine has one of that name.
AnalysisOptions optionsFor(const Hardware &machine, const AnalysisOptions &options)
{
    AnalysisOptions out = options;
    if (!out.computeCeiling.empty() && !machine.findCompute(out.computeCeiling))
        out.computeCeiling.clear();
    return out;
}

// The point's utilization on `machine` when it is possible there; nullopt when it is not, or
// cannot be placed there.
std::optional<double> utilizationOn(
    const KernelPoint &point, const Hardware &machine, const AnalysisOptions &options)
{
    const auto analysed = analyzePoint(point, machine, options);
    if (!analysed || !analysed->consistent || !analysed->utilization)
        return std::nullopt;
    return *analysed->utilization;
}

// The machine with its roofs alone: a launch latency that one machine gives and another does
// not would make the other look like a fit for every kernel under the floor (docs/MODEL.md §13),
// so points are held to the roofs on every machine.
Hardware roofsOf(const Hardware &machine)
{
    Hardware roofs = machine;
    roofs.limits.launchLatency.reset();
    return roofs;
}

// Whether the point is faster than the machine's roofs (`roofs`: roofsOf the machine).
bool fasterThanTheRoofs(
    const KernelPoint &point, const Hardware &roofs, const AnalysisOptions &options)
{
    const auto analysed = analyzePoint(point, roofs, options);
    return analysed && !analysed->consistent;
}

bool sameKind(const Hardware &a, const Hardware &b)
{
    return a.kind.empty() || b.kind.empty() || a.kind == b.kind;
}

double median(std::vector<double> values)
{
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

} // namespace

std::optional<MachineFit> findMachineThatFits(const std::vector<KernelPoint> &impossible,
    const Hardware &current, const std::vector<Hardware> &candidates,
    const AnalysisOptions &options)
{
    // Only the points faster than the roofs: one under the launch latency alone is no sign of
    // another machine.
    std::vector<const KernelPoint *> faster;
    const bool floor = current.limits.launchLatency.has_value();
    const Hardware currentRoofs = floor ? roofsOf(current) : Hardware {};
    for (std::size_t i = 0; i < impossible.size() && faster.size() < kMachineFitMaxPoints; ++i) {
        if (!floor || fasterThanTheRoofs(impossible[i], currentRoofs, options))
            faster.push_back(&impossible[i]);
    }
    const std::size_t count = faster.size();
    if (count < kMachineFitMinPoints)
        return std::nullopt;
    const std::size_t needed = (3 * count + 3) / 4;
    std::optional<MachineFit> best;
    for (const Hardware &candidate : candidates) {
        if (candidate.name == current.name || !sameKind(candidate, current))
            continue;
        const Hardware machine = roofsOf(candidate);
        const AnalysisOptions own = optionsFor(machine, options);
        std::vector<double> used;
        for (const KernelPoint *point : faster) {
            if (const auto utilization = utilizationOn(*point, machine, own))
                used.push_back(*utilization);
        }
        if (used.size() < needed)
            continue;
        const double tightness = median(used);
        if (!best || tightness > best->medianUtilization)
            best = MachineFit { machine.name,
                machine.aliases.empty() ? machine.name : machine.aliases.front(), count,
                used.size(), tightness };
    }
    return best;
}

std::optional<Diagnosis> otherMachineDiagnosis(const KernelPoint &point, const Hardware &current,
    const Hardware &other, const MachineFit &fit, const AnalysisOptions &options)
{
    if (current.limits.launchLatency && !fasterThanTheRoofs(point, roofsOf(current), options))
        return std::nullopt; // under the floor alone: no sign of another machine
    const Hardware roofs = roofsOf(other);
    const auto utilization = utilizationOn(point, roofs, optionsFor(roofs, options));
    if (!utilization)
        return std::nullopt;
    const std::string of = std::to_string(fit.fitted) + " of the " + std::to_string(fit.impossible);
    return Diagnosis { "measured on " + other.name,
        "it fits " + other.name + "'s roofs at " + percent(*utilization) + ", as do " + of
            + " points faster than " + current.name + "'s roofs",
        "if the kernels ran on " + other.name + ", choose that machine (--hardware '"
            + fit.shortName + "')",
        kScore };
}

} // namespace ridgepoint
