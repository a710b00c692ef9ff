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

// The rate a power cap allows (docs/MODEL.md §14.1): (P_cap − P0) / e, FLOP/s, where e is the
// joules a FLOP costs with the bytes it moves (e_flop + Σ_l e_byte,l / I_l). Both the point's
// capped roof (pointEnergy) and the chart's (EnergyRoof::capped) read it.
inline double powerCappedRate(double capWatts, double staticWatts, double joulesPerFlop)
{
    return (capWatts - staticWatts) / joulesPerFlop;
}

// The point's energy on `hardware`, whose EnergyModel it reads; `analysis` gives the compute
// ceiling (its precision picks e_flop), the levels (bytes and intensities) and the attainable
// performance. Empty figures when the machine has no energy model.
PointEnergy pointEnergy(
    const KernelPoint &point, const PointAnalysis &analysis, const Hardware &hardware);

} // namespace ridgepoint
