#include "core/analysis/energy_roof.h"

#include "core/analysis/energy.h"

#include <algorithm>

namespace ridgepoint {

double EnergyRoof::attainable(double intensity) const
{
    return std::min(peak, bandwidth * intensity);
}

std::optional<double> EnergyRoof::capped(double intensity) const
{
    if (!capWatts)
        return std::nullopt;
    return std::min(attainable(intensity),
        powerCappedRate(*capWatts, staticWatts, flopJoules + byteJoules / intensity));
}

double EnergyRoof::archFlopsPerJoule(double intensity) const
{
    return 1.0 / (flopJoules + byteJoules / intensity + staticWatts / attainable(intensity));
}

std::optional<EnergyRoof> energyRoof(
    const Hardware &hardware, const ComputeCeiling &compute, const MemoryCeiling &memory)
{
    if (!hardware.limits.energy || !(compute.peak > 0.0) || !(memory.bandwidth > 0.0))
        return std::nullopt;
    const EnergyModel &energy = *hardware.limits.energy;
    const auto perFlop = energy.flopEnergy(compute.precision);
    const auto perByte = energy.byteEnergy(memory.level);
    if (!perFlop || !perByte || !energy.staticWatts)
        return std::nullopt;
    EnergyRoof roof;
    roof.peak = compute.peak;
    roof.bandwidth = memory.bandwidth;
    roof.flopJoules = *perFlop;
    roof.byteJoules = *perByte;
    roof.staticWatts = *energy.staticWatts;
    roof.capWatts = energy.powerCapWatts;
    return roof;
}

std::optional<EnergyRoof> headlineEnergyRoof(const Hardware &hardware)
{
    const ComputeCeiling *compute = hardware.defaultComputeCeiling();
    const MemoryCeiling *memory = hardware.mainMemory();
    if (!compute || !memory)
        return std::nullopt;
    return energyRoof(hardware, *compute, *memory);
}

} // namespace ridgepoint
