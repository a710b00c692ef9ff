#include "core/analysis/energy.h"

#include "core/analysis/analysis.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint {
namespace {

// Σ_l B_l·e_byte,l and Σ_l e_byte,l / I_l over the point's levels with a ceiling, or nullopt
// when one of them has no energy per byte (a missing term is unknown, not free).
struct ByteTerms {
    double joules = 0.0; // Σ B_l·e_byte,l
    double perFlop = 0.0; // Σ e_byte,l / I_l: joules per FLOP spent moving bytes
};

std::optional<ByteTerms> byteTerms(const PointAnalysis &analysis, const EnergyModel &energy)
{
    ByteTerms terms;
    for (const auto &level : analysis.levels) {
        const auto perByte = energy.byteEnergy(level.level);
        if (!perByte)
            return std::nullopt;
        terms.joules += level.bytes * *perByte;
        terms.perFlop += *perByte / level.intensity;
    }
    return terms;
}

} // namespace

PointEnergy pointEnergy(
    const KernelPoint &point, const PointAnalysis &analysis, const Hardware &hardware)
{
    PointEnergy out;
    if (!hardware.limits.energy || analysis.levels.empty())
        return out;
    const EnergyModel &energy = *hardware.limits.energy;
    const ComputeCeiling *compute = hardware.findCompute(analysis.computeCeiling);
    const auto perFlop = compute ? energy.flopEnergy(compute->precision) : std::nullopt;
    const auto bytes = byteTerms(analysis, energy);
    if (!perFlop || !bytes)
        return out;
    const bool counted = !point.knownByIntensity();
    if (counted && point.seconds && energy.staticWatts) {
        const double joules
            = point.flops * *perFlop + bytes->joules + *energy.staticWatts * *point.seconds;
        if (std::isfinite(joules) && joules > 0.0) {
            out.joules = joules;
            out.flopsPerJoule = point.flops / joules;
        }
    }
    if (energy.powerCapWatts && energy.staticWatts) {
        const double capped = powerCappedRate(
            *energy.powerCapWatts, *energy.staticWatts, *perFlop + bytes->perFlop);
        if (std::isfinite(capped) && capped > 0.0)
            out.powerCappedAttainable = std::min(analysis.attainable, capped);
    }
    return out;
}

} // namespace ridgepoint
