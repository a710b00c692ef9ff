// What a RooflinePlot last drew, read back for tests and tools: the layouts' boxes, the labels,
// the ghosts, the dots and the density, the veil of the table filter. None of it changes the
// plot; the plot itself keeps only what the window and the commands use (rooflineplot.h).
#pragma once

#include "widgets/chart/rooflineplot.h"

#include <QPointF>
#include <QStringList>

#include <cstddef>
#include <utility>
#include <vector>

namespace ridgepoint::chart {

class DensityLayer;
class LatencyFloor;

class PlotInspection
{
public:
    explicit PlotInspection(const RooflinePlot &plot)
        : m_plot(plot)
    { }

    // The last layout at each of the last few sizes (an export's size too): what was placed
    // where (RooflinePlot::LabelLayout).
    const std::vector<RooflinePlot::LabelLayout> &labelLayouts() const;
    // Legend entries the last layout left out for room ("+N more"), and the plot's least height.
    int legendEntriesLeftOut() const;
    int minPlotHeight() const;

    // The ticks at F/λ over latency-bound points (latencyfloor.h).
    const LatencyFloor &latencyFloor() const;
    // Widget position on the roof of a ceiling at intensity `x`.
    QPointF ceilingPosition(const RooflinePlot::CeilingHit &ceiling, double x) const;

    // Ghosts drawn for what-if moves (measured position → moved position, chart coordinates).
    std::vector<std::pair<QPointF, QPointF>> ghosts() const;
    // Ghosts of the last quantization switch (RooflinePlot::kQuantGhostMs): old → new position
    // of every moved workload point.
    std::vector<std::pair<QPointF, QPointF>> quantGhosts() const;
    // The labels currently drawn beside points (elided names).
    QStringList pointLabels() const;
    // Where sweeps cross the ridge and their labels.
    std::vector<RooflinePlot::SweepCrossing> sweepCrossings() const;
    bool isDragging() const;

    // The table filter's kept points drawn over the veil, and whether the veil is up.
    const std::vector<std::size_t> &highlightedPoints() const;
    bool filterDimmed() const;
    // The chart coordinates the point graphs currently draw (after decimation).
    std::vector<QPointF> drawnPointCoords() const;

    // Whether the points are drawn as a density now, its layer (map and colour scale), and the
    // points drawn as dots over it.
    bool densityShown() const;
    const DensityLayer &densityLayer() const;
    std::vector<std::size_t> densityDots() const;
    // Whether dot area by time share is drawn now, and each point's size class as drawn (-1:
    // not drawn), empty when dots are fixed.
    bool dotSizesShown() const;
    std::vector<int> dotSizeClasses() const;

private:
    const RooflinePlot &m_plot;
};

} // namespace ridgepoint::chart
