// How the legend's entries are laid out in columns (LegendPlacement, labelplacement.h): the
// geometry on plain sizes, so that the number of columns is chosen without moving an entry.
// The entries fill a column from the top before the next column begins (QCPLayoutGrid's
// foRowsFirst), so the long first entries (the roofline, the compared machine, the impossible
// marker) share a column and the short group names the next ones.
#pragma once

#include <QMargins>
#include <QSize>

#include <optional>
#include <vector>

namespace ridgepoint::chart {

// The most of the chart's height the legend takes before it is laid out in more columns (in a
// corner) or more entries to a row (under the plot): with about a tenth for the axes, the plot
// keeps two thirds of the chart at any font scale, and a quarter still holds the example's
// seven or eight entries at 200 % in two columns on a 1600 × 950 window.
inline constexpr double kLegendShare = 0.25;

// The entries' least sizes in order, with the grid's spacing and the legend's margins.
struct LegendGrid {
    std::vector<QSize> entries;
    QSize spacing; // between columns (width) and between rows (height)
    QMargins margins;
};

// The legend's least size when its entries fill columns of `rows` entries (the last column
// shorter): each column as wide as its widest entry, each row as high as its highest, as
// QCPLayoutGrid::minimumOuterSizeHint() measures it. Empty (margins only) without entries.
QSize legendSize(const LegendGrid &grid, int rows);

// The fewest rows whose legend is at most `width` wide: a strip under the plot. Every entry in
// its own row when even one column is wider.
int stripRows(const LegendGrid &grid, int width);

// The most rows (the fewest columns) whose legend fits in `room`: a corner of the plot. Nullopt
// when no number of columns fits.
std::optional<int> cornerRows(const LegendGrid &grid, QSize room);

} // namespace ridgepoint::chart
