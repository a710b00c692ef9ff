#include "widgets/chart/legendgroups.h"

#include <algorithm>
#include <numeric>

namespace ridgepoint::chart {

LegendGroups legendGroups(const std::vector<double> &groupSeconds)
{
    LegendGroups out;
    const std::size_t count = groupSeconds.size();
    out.colorSlot.resize(count);
    if (count <= kMaxLegendGroups) {
        out.named.resize(count);
        std::iota(out.named.begin(), out.named.end(), std::size_t { 0 });
        std::iota(out.colorSlot.begin(), out.colorSlot.end(), 0);
        return out;
    }
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), std::size_t { 0 });
    // Stable: equal times keep the order of first appearance.
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return groupSeconds[a] > groupSeconds[b]; });
    std::fill(out.colorSlot.begin(), out.colorSlot.end(), -1);
    double total = 0.0;
    double folded = 0.0;
    for (std::size_t rank = 0; rank < count; ++rank) {
        const std::size_t group = order[rank];
        const double seconds = std::max(groupSeconds[group], 0.0);
        total += seconds;
        if (rank < kNamedLegendGroups) {
            out.named.push_back(group);
            out.colorSlot[group] = static_cast<int>(rank);
        } else {
            folded += seconds;
        }
    }
    out.folded = count - kNamedLegendGroups;
    out.foldedShare = total > 0.0 ? folded / total : 0.0;
    return out;
}

std::vector<std::size_t> leadingPoints(const std::vector<double> &seconds, std::size_t count)
{
    std::vector<std::size_t> timed;
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        if (seconds[i] > 0.0)
            timed.push_back(i);
    }
    // Most time first; ties in group order.
    const auto longer = [&](std::size_t a, std::size_t b) {
        const double ta = seconds[a];
        const double tb = seconds[b];
        return ta != tb ? ta > tb : a < b;
    };
    const std::size_t kept = std::min(count, timed.size());
    std::partial_sort(
        timed.begin(), timed.begin() + static_cast<std::ptrdiff_t>(kept), timed.end(), longer);
    timed.resize(kept);
    return timed;
}

} // namespace ridgepoint::chart
