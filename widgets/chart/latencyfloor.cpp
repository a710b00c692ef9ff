#include "widgets/chart/latencyfloor.h"
#include "widgets/qtext.h"

#include "core/model/units.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"
#include "widgets/document/document.h"

#include <QPainterPath>

#include <array>
#include <limits>

namespace ridgepoint::chart {

std::vector<FloorMark> latencyFloorMarks(const Document &document, const std::vector<bool> *dots)
{
    std::vector<FloorMark> out;
    if (!document.hardware().limits.launchLatency)
        return out;
    const Placements &placements = document.placements();
    for (std::size_t i = 0; i < placements.size(); ++i) {
        const PointPlacement &p = placements[i];
        if (!p.placed || p.bound != Bound::Latency)
            continue;
        if (dots && (i >= dots->size() || !(*dots)[i]))
            continue;
        // Over the dot the point is known by: its main memory's, as the table and the labels.
        const LevelPlacement *main = placements.mainLevel(i);
        const auto levels = placements.boundedLevels(i);
        const LevelPlacement *at = main ? main : (levels.empty() ? nullptr : &levels.front());
        if (at) // attainable = F / T_min = F/λ
            out.push_back({ at->intensity, p.attainable, p.y });
    }
    return out;
}

LatencyFloor::LatencyFloor(QCustomPlot *plot)
    : m_plot(plot)
{ }

LatencyFloor::~LatencyFloor()
{
    clear();
}

void LatencyFloor::clear()
{
    for (QCPAbstractPlottable *plottable : { static_cast<QCPAbstractPlottable *>(m_graph),
             static_cast<QCPAbstractPlottable *>(m_stems) }) {
        if (plottable && m_plot->hasPlottable(plottable))
            m_plot->removePlottable(plottable);
    }
    m_graph = nullptr;
    m_stems = nullptr;
}

std::vector<QPointF> LatencyFloor::ticks() const
{
    std::vector<QPointF> out;
    if (!m_graph)
        return out;
    out.reserve(static_cast<std::size_t>(m_graph->data()->size()));
    for (const QCPGraphData &tick : *m_graph->data())
        out.emplace_back(tick.key, tick.value);
    return out;
}

void LatencyFloor::rebuild(
    const Document &document, const ChartTheme &theme, const std::vector<bool> *dots)
{
    clear();
    const std::vector<FloorMark> marks = latencyFloorMarks(document, dots);
    if (marks.empty())
        return;
    addStems(marks, theme);
    // A flat dash as the marker, so its width is in pixels at every zoom; QCustomPlot scales a
    // custom path by size / 6, and a cosmetic pen keeps its width through that scale.
    QPainterPath dash;
    dash.moveTo(-3.0, 0.0);
    dash.lineTo(3.0, 0.0);
    QPen pen(theme.envelope, 2.2 * theme.lineScale);
    pen.setCosmetic(true);
    pen.setCapStyle(Qt::FlatCap);

    m_graph = m_plot->addGraph();
    m_graph->setLayer(kRoofLayer); // under the dots, like every roof
    m_graph->setLineStyle(QCPGraph::lsNone);
    m_graph->setSelectable(QCP::stNone);
    m_graph->setScatterStyle(QCPScatterStyle(dash, pen, Qt::NoBrush, 2.0 * kHalfWidth));
    QVector<double> x;
    QVector<double> y;
    x.reserve(static_cast<qsizetype>(marks.size()));
    y.reserve(static_cast<qsizetype>(marks.size()));
    for (const FloorMark &mark : marks) {
        x.push_back(mark.x);
        y.push_back(mark.floor);
    }
    m_graph->setData(x, y);
    const double lambda = document.hardware().limits.launchLatency->seconds;
    m_graph->setName(
        tr("latency floor F/λ, λ = %1").arg(q(formatQuantity(lambda, Dimension::Time))));
}

void LatencyFloor::addStems(const std::vector<FloorMark> &marks, const ChartTheme &theme)
{
    // One curve for all the stems, a gap (NaN) between them: a plottable per point would cost
    // as much as the points themselves.
    QVector<double> t;
    QVector<double> x;
    QVector<double> y;
    const double gap = std::numeric_limits<double>::quiet_NaN();
    for (const FloorMark &mark : marks) {
        if (mark.dot == mark.floor)
            continue; // on its floor: the tick crosses the dot
        const std::array<QPointF, 3> stem { QPointF(mark.x, mark.dot), QPointF(mark.x, mark.floor),
            QPointF(gap, gap) };
        for (const QPointF &at : stem) {
            t.push_back(static_cast<double>(t.size()));
            x.push_back(at.x());
            y.push_back(at.y());
        }
    }
    if (t.isEmpty())
        return;
    m_stems = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
    m_stems->removeFromLegend();
    m_stems->setLayer(kRoofLayer);
    m_stems->setSelectable(QCP::stNone);
    m_stems->setPen(QPen(theme.envelope, 1.0 * theme.lineScale, Qt::DotLine));
    m_stems->setData(t, x, y, true);
}

} // namespace ridgepoint::chart
