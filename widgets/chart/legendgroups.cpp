#include "widgets/chart/legendgroups.h"

#include "core/analysis/payoff.h"

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
    // The most time first; equal times keep the order of first appearance.
    LargestN largest(kNamedLegendGroups);
    for (std::size_t group = 0; group < count; ++group)
        largest.offer(groupSeconds[group], group);
    out.named = largest.take();
    std::fill(out.colorSlot.begin(), out.colorSlot.end(), -1);
    for (std::size_t rank = 0; rank < out.named.size(); ++rank)
        out.colorSlot[out.named[rank]] = static_cast<int>(rank);
    double total = 0.0;
    double folded = 0.0;
    for (std::size_t group = 0; group < count; ++group) {
        const double seconds = std::max(groupSeconds[group], 0.0);
        total += seconds;
        if (out.colorSlot[group] < 0)
            folded += seconds;
    }
    out.folded = count - kNamedLegendGroups;
    out.foldedShare = total > 0.0 ? folded / total : 0.0;
    return out;
}

std::vector<std::size_t> leadingPoints(const std::vector<double> &seconds, std::size_t count)
{
    // Most time first; ties in group order.
    LargestN largest(count);
    for (std::size_t i = 0; i < seconds.size(); ++i)
        if (seconds[i] > 0.0)
            largest.offer(seconds[i], i);
    return largest.take();
}

} // namespace ridgepoint::chart
