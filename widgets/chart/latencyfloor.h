// The latency floor of latency-bound points (docs/MODEL.md §13). Such a point's roof is not a
// line of the machine: it is F/λ, level at the point's own FLOP count F, so every point has its
// own. The chart draws it per point: a short horizontal tick at F/λ over the dot (a measured
// point sits under its roof) with a thin dotted stem from the dot to it, so a tick far from its
// dot is not read as another point's, and one legend entry saying what the ticks are and the
// machine's λ. A machine without a launch latency, or a chart without latency-bound points, draws
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

// A latency-bound point's floor: its tick at (x, floor) and its dot's height.
struct FloorMark {
    double x = 0.0; // the point's main-memory intensity, else its first level's
    double floor = 0.0; // F/λ
    double dot = 0.0; // where its dot is drawn: the measured performance, else F/λ
};

// The marks of every placed, latency-bound point, in point order. `dots` (a flag per point, as
// under a density) keeps only the points drawn as dots; null keeps all.
std::vector<FloorMark> latencyFloorMarks(const Document &document, const std::vector<bool> *dots);

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

    // The ticks drawn now (chart coordinates, read from the graph: by intensity), the graph that
    // draws them and the curve of the stems from the dots (null: none).
    std::vector<QPointF> ticks() const;
    const QCPGraph *graph() const { return m_graph; }
    const QCPCurve *stems() const { return m_stems; }

private:
    // The dotted stems from each dot off its floor to its tick.
    void addStems(const std::vector<FloorMark> &marks, const ChartTheme &theme);

    QCustomPlot *m_plot;
    QCPGraph *m_graph = nullptr;
    QCPCurve *m_stems = nullptr;
};

} // namespace chart

} // namespace ridgepoint
