// How a RooflinePlot draws what it shows, set in one piece (RooflinePlot::setDisplay): the
// theme and its font scale, region shading, labels, the legend's place, dots or a density,
// and dot sizes. None of it changes the data or the frame.
#pragma once

#include "widgets/chart/charttheme.h"

#include <cstddef>

namespace ridgepoint::chart {

// The plot area (axis rect) keeps at least this height in any picture: an export's table takes
// less, and the legend does not go under the plot when that would leave less (it is left out).
inline constexpr int kMinPlotHeight = 60;

enum class LegendMode; // labelplacement.h; {} is Auto
enum class PointsMode; // densitylayer.h; {} is Auto

struct PlotDisplay {
    ChartTheme theme = ChartTheme::light();
    // On top of the theme's own (the presentation scale, the window's preference); a value not
    // above 0 leaves the current one.
    double fontScale = 1.0;
    bool regionShading = false; // bound regions shaded under the roofs
    bool allPointLabels = false; // every point named, not only the leading ones
    // The markers' numbers have a key beside the chart: the window's points table, or the table
    // under an exported chart. Without one (a picture without its table), a chart of more points
    // than are named numbers none: the points with most time carry their names instead.
    bool numberKey = true;
    LegendMode legend {};
    // Dots, a density, or (Auto) a density from densityThreshold points on, with the
    // densityTopDots longest points drawn as dots over it.
    PointsMode points {};
    std::size_t densityThreshold = 5000;
    std::size_t densityTopDots = 50;
    // Dot area by time share when the points' times are known (dotsize.h).
    bool dotSizeByTime = true;

    bool operator==(const PlotDisplay &) const = default;
};

// One change to a plot's display, the rest kept: changeDisplay(plot, [](PlotDisplay &d) { ... }).
template<typename Plot, typename Change> void changeDisplay(Plot &plot, Change &&change)
{
    PlotDisplay display = plot.display();
    change(display);
    plot.setDisplay(display);
}

} // namespace ridgepoint::chart
