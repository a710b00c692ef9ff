#include "widgets/chart/latencyfloor.h"
#include "widgets/qtext.h"

#include "core/model/units.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"
#include "widgets/document/document.h"

#include <QPainterPath>

namespace ridgepoint::chart {

std::vector<QPointF> latencyFloorTicks(const Document &document, const std::vector<bool> *dots)
{
    std::vector<QPointF> out;
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
        if (at)
            out.emplace_back(at->intensity, p.attainable); // attainable = F / T_min = F/λ
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
    if (m_graph && m_plot->hasPlottable(m_graph))
        m_plot->removePlottable(m_graph);
    m_graph = nullptr;
    m_ticks.clear();
}

void LatencyFloor::rebuild(
    const Document &document, const ChartTheme &theme, const std::vector<bool> *dots)
{
    clear();
    m_ticks = latencyFloorTicks(document, dots);
    if (m_ticks.empty())
        return;
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
    x.reserve(static_cast<qsizetype>(m_ticks.size()));
    y.reserve(static_cast<qsizetype>(m_ticks.size()));
    for (const QPointF &tick : m_ticks) {
        x.push_back(tick.x());
        y.push_back(tick.y());
    }
    m_graph->setData(x, y);
    const double lambda = document.hardware().limits.launchLatency->seconds;
    m_graph->setName(tr("launch latency λ = %1: roof F/λ of a latency-bound point")
                         .arg(q(formatQuantity(lambda, Dimension::Time))));
}

} // namespace ridgepoint::chart
