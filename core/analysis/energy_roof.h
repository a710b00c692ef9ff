// The energy roofline of one ceiling pair (docs/MODEL.md §14.1): the power-capped roof the
// roofline draws under its roofs, and Choi et al.'s arch line the energy twin chart draws. Apart
// from energy.h so that the analysis (which every room includes) does not depend on the charts'
// needs.
#pragma once

#include "core/model/hardware.h"

#include <optional>

namespace ridgepoint {

// The energy roofline of one compute ceiling over one memory level, as the charts draw it
// (docs/MODEL.md §14.1): the power-capped roof under the time roofline, and Choi et al.'s arch
// line of FLOP/J against intensity.
struct EnergyRoof {
    double peak = 0.0; // π, FLOP/s
    double bandwidth = 0.0; // β, B/s
    double flopJoules = 0.0; // e_flop of the ceiling's precision, J
    double byteJoules = 0.0; // e_byte of the memory's level, J
    double staticWatts = 0.0; // P0, W
    std::optional<double> capWatts; // P_cap, W; none: no capped roof

    // min(π, β·I), FLOP/s: the time roofline.
    double attainable(double intensity) const;
    // min(attainable, (P_cap − P0) / (e_flop + e_byte / I)), FLOP/s; nullopt without a cap.
    std::optional<double> capped(double intensity) const;
    // The arch line: FLOP/J of a kernel at I running at the roofline's time,
    // 1 / (e_flop + e_byte / I + P0 / attainable(I)).
    double archFlopsPerJoule(double intensity) const;
    // Its ceiling as I grows without bound and P0 is left out: 1 / e_flop.
    double ceilingFlopsPerJoule() const { return 1.0 / flopJoules; }
};

// The energy roof of `compute` over `memory` on `hardware`'s energy model, or nullopt when it
// lacks a term (e_flop of the precision, e_byte of the level, P0): a missing term is unknown.
std::optional<EnergyRoof> energyRoof(
    const Hardware &hardware, const ComputeCeiling &compute, const MemoryCeiling &memory);
// The same for the machine's headline pair: its default compute ceiling over its main memory.
std::optional<EnergyRoof> headlineEnergyRoof(const Hardware &hardware);

} // namespace ridgepoint
