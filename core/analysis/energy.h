// The energy roofline of Choi, Bedard, Fowler and Vuduc ("A roofline model of energy", IPDPS
// 2013) on one analysed point (docs/MODEL.md §14): the joules a kernel spends and the roof a
// power cap puts on its performance.
#pragma once

#include "core/model/hardware.h"
#include "core/model/point.h"

#include <optional>

namespace ridgepoint {

struct PointAnalysis;

// What the machine's energy model says of one point; each figure is missing when a term it
// needs is (an energy per FLOP of the point's precision, per byte of one of its levels, the
// static power, the power cap, or a measured time).
struct PointEnergy {
    std::optional<double> joules; // F·e_flop + Σ_l B_l·e_byte,l + P0·T, T the measured time
    std::optional<double> flopsPerJoule; // F / joules
    // min(attainable, (P_cap − P0) / (e_flop + Σ_l e_byte,l / I_l)), FLOP/s
    std::optional<double> powerCappedAttainable;
    bool operator==(const PointEnergy &) const = default;
};

// The point's energy on `hardware`, whose EnergyModel it reads; `analysis` gives the compute
// ceiling (its precision picks e_flop), the levels (bytes and intensities) and the attainable
// performance. Empty figures when the machine has no energy model.
PointEnergy pointEnergy(
    const KernelPoint &point, const PointAnalysis &analysis, const Hardware &hardware);

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
