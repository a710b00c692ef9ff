// Which groups the legend names. A points file has a few groups and the legend names each, in the
// order they first appear; a profiler trace has one group per operator and shapes (the A100
// fixture ~150), and a legend of 150 entries in 8 repeating colours names nothing. Past
// kMaxLegendGroups groups, the legend names the kNamedLegendGroups that hold the most time, each
// in its own colour of the palette, largest first, and one entry "+ N more groups (X % of
// time)"; the points of the rest are drawn in one neutral colour. Plain arithmetic, so the tests
// drive it with a table of times.
#pragma once

#include <cstddef>
#include <vector>

namespace ridgepoint::chart {

// Up to this many groups, every one is named (a points file looks as it always has).
inline constexpr std::size_t kMaxLegendGroups = 12;
// Past it, this many are named: the palette's eight colours (charttheme.h groupColor), each once.
inline constexpr std::size_t kNamedLegendGroups = 8;

struct LegendGroups {
    // The groups (their index: the order of first appearance) named, in the legend's order.
    std::vector<std::size_t> named;
    // Per group, its colour in the palette (groupColor's index), or -1: the neutral colour
    // (otherGroupsColor) of the groups the "+ N more" entry stands for.
    std::vector<int> colorSlot;
    std::size_t folded = 0; // groups not named
    double foldedShare = 0.0; // their share of the time of every group (0 when none has time)
};

// `groupSeconds[g]`: the summed time of group g's points (0 for points without time). The
// named groups are the ones with most time, ties by first appearance.
LegendGroups legendGroups(const std::vector<double> &groupSeconds);

// On a chart of more points than are labelled (pointlabelplacement.h kMaxNumberedPoints), the
// points that still carry their name: this many with the most time, the ones a reader of a
// trace looks for first.
inline constexpr std::size_t kLeadingLabels = 8;

// The indices of the `count` points with the largest positive time (`seconds[i]`, 0 for none),
// largest first, ties by index; fewer when fewer have a time.
std::vector<std::size_t> leadingPoints(const std::vector<double> &seconds, std::size_t count);

} // namespace ridgepoint::chart
