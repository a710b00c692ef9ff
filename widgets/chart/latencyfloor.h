// The latency floor of latency-bound points (docs/MODEL.md §13). Such a point's roof is not a
// line of the machine: it is F/λ, level at the point's own FLOP count F, so every point has its
// own. The chart draws it per point: a short horizontal tick at F/λ over the dot (a measured
// point sits under its roof), and one legend entry saying what the ticks are and the machine's
// λ. A machine without a launch latency, or a chart without latency-bound points, draws
// nothing. Internal to the chart; owned by RooflinePlot, rebuilt with the points.
#pragma once

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QPointF>

#include <vector>

namespace ridgepoint {

class Document;
struct ChartTheme;

namespace chart {

// Where the ticks go, chart coordinates: (the point's main-memory intensity, else its first
// level's; F/λ) for every placed, latency-bound point, in point order. `dots` (a flag per point,
// as under a density) keeps only the points drawn as dots; null keeps all.
std::vector<QPointF> latencyFloorTicks(const Document &document, const std::vector<bool> *dots);

class LatencyFloor
{
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::RooflinePlot)

public:
    // Half the tick's width, pixels: wider than the largest dot, so it reads as a cap over it.
    static constexpr double kHalfWidth = 9.0;

    explicit LatencyFloor(QCustomPlot *plot);
    ~LatencyFloor();
    LatencyFloor(const LatencyFloor &) = delete;
    LatencyFloor &operator=(const LatencyFloor &) = delete;

    // Removes the ticks and their legend entry (while the plot is still whole).
    void clear();
    void rebuild(const Document &document, const ChartTheme &theme, const std::vector<bool> *dots);

    // The ticks drawn now (chart coordinates), and the graph that draws them (null: none).
    const std::vector<QPointF> &ticks() const { return m_ticks; }
    const QCPGraph *graph() const { return m_graph; }

private:
    QCustomPlot *m_plot;
    QCPGraph *m_graph = nullptr;
    std::vector<QPointF> m_ticks;
};

} // namespace chart

} // namespace ridgepoint
