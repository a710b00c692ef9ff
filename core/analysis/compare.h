// Comparing the current run with a baseline run: points are paired by name, and a pair's
// speed-up is how much faster the current kernel is.
#pragma once

#include "core/model/point.h"

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace ridgepoint {

// What a speed-up was computed from. Time: baseline seconds ÷ current seconds (the honest
// measure; it also holds when the FLOP count changed). Rate: current FLOP/s ÷ baseline FLOP/s,
// used only when one of the two has a rate and no time.
enum class SpeedupBasis { Time, Rate };

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

} // namespace ridgepoint
