// Comparing the current run with a baseline run: points are paired by name, and a pair's
// speed-up is how much faster the current kernel is.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/point.h"

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace ridgepoint {

// What a speed-up was computed from. Time: baseline seconds ÷ current seconds (the honest
// measure; it also holds when the FLOP count changed). Rate: current FLOP/s ÷ baseline FLOP/s,
// used only when one of the two has a rate and no time.
// Operator: Σ baseline time ÷ Σ current time over every point of the same operator and shapes
// (profiler traces, whose kernel names differ between machines; operator_change.h).
enum class SpeedupBasis { Time, Rate, Operator };

struct Speedup {
    double factor = 1.0; // > 1: the current run is faster
    SpeedupBasis basis = SpeedupBasis::Time;

    friend bool operator==(const Speedup &, const Speedup &) = default;
};

// "baseline time ÷ current time" or "current FLOP/s ÷ baseline FLOP/s".
std::string_view speedupFormula(SpeedupBasis basis);

// The speed-up of `current` over `baseline`, or nullopt when either has neither a time nor a
// rate (a planned point) or a value is not positive and finite.
std::optional<Speedup> speedup(const KernelPoint &baseline, const KernelPoint &current);

// For each current point, the index of the first baseline point with the same name.
std::vector<std::optional<std::size_t>> matchByName(
    const std::vector<KernelPoint> &baseline, const std::vector<KernelPoint> &current);

// A kernel moved to another machine (docs/MODEL.md §2.3). The speed-up compares the roofs: the
// kernel is assumed to reach the same share of its roof there as here, so a "which machine?"
// reading compares like with like. A measured kernel also gets the most it could gain, were it
// to reach its roof there: attainable there ÷ achieved here.
enum class MoveBasis { Measured, Attainable }; // the point has a measurement here, or not

struct MachineMove {
    double attainableThere = 0.0; // FLOP/s, the roof of the point on the other machine
    double speedup = 1.0; // attainable there ÷ attainable here; > 1: faster there
    std::optional<double> atTheRoof; // attainable there ÷ achieved here (measured points)
    MoveBasis basis = MoveBasis::Measured;

    friend bool operator==(const MachineMove &, const MachineMove &) = default;
};

// "attainable there ÷ attainable here", and for a measured point what it assumes.
std::string_view moveFormula(MoveBasis basis);

// The point analysed here and on the other machine; nullopt when a figure the ratio needs is not
// positive and finite.
std::optional<MachineMove> moveTo(const PointAnalysis &here, const PointAnalysis &there);

} // namespace ridgepoint
