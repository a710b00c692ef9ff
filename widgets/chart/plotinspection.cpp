#include "widgets/chart/plotinspection.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/chartinteraction.h"
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/pointlayer.h"

namespace ridgepoint::chart {

const std::vector<RooflinePlot::LabelLayout> &PlotInspection::labelLayouts() const
{
    return m_plot.m_labelLayouts;
}

int PlotInspection::legendEntriesLeftOut() const
{
    return m_plot.m_legendPlacement->leftOut();
}

int PlotInspection::minPlotHeight() const
{
    return m_plot.m_legendPlacement->minPlotHeight();
}

const LatencyFloor &PlotInspection::latencyFloor() const
{
    return *m_plot.m_floor;
}

QPointF PlotInspection::ceilingPosition(const RooflinePlot::CeilingHit &ceiling, double x) const
{
    const Hardware &hw = m_plot.hardware();
    const auto i = static_cast<std::size_t>(ceiling.index);
    const double y = ceiling.compute ? hw.compute.at(i).peak : hw.memory.at(i).bandwidth * x;
    return { m_plot.xAxis->coordToPixel(x), m_plot.yAxis->coordToPixel(y) };
}

std::vector<std::pair<QPointF, QPointF>> PlotInspection::ghosts() const
{
    return m_plot.m_points->ghosts();
}

std::vector<std::pair<QPointF, QPointF>> PlotInspection::quantGhosts() const
{
    return m_plot.m_quantGhosts->ghosts();
}

QStringList PlotInspection::pointLabels() const
{
    return m_plot.m_points->labels();
}

std::vector<RooflinePlot::SweepCrossing> PlotInspection::sweepCrossings() const
{
    std::vector<RooflinePlot::SweepCrossing> out;
    for (const SweepCrossingMarker *c : m_plot.m_points->sweepCrossings())
        out.push_back({ c->at(), c->text(), c->labelBox() });
    return out;
}

bool PlotInspection::isDragging() const
{
    return m_plot.m_interaction->dragging();
}

const std::vector<std::size_t> &PlotInspection::highlightedPoints() const
{
    return m_plot.m_points->highlighted();
}

bool PlotInspection::filterDimmed() const
{
    return m_plot.m_points->dimmed();
}

std::vector<QPointF> PlotInspection::drawnPointCoords() const
{
    return m_plot.m_points->drawnCoords();
}

bool PlotInspection::densityShown() const
{
    return m_plot.densityShown();
}

const DensityLayer &PlotInspection::densityLayer() const
{
    return *m_plot.m_density;
}

std::vector<std::size_t> PlotInspection::densityDots() const
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < m_plot.m_dotMask.size(); ++i) {
        if (m_plot.m_dotMask[i])
            out.push_back(i);
    }
    return out;
}

bool PlotInspection::dotSizesShown() const
{
    return m_plot.dotSizesShown();
}

std::vector<int> PlotInspection::dotSizeClasses() const
{
    return m_plot.dotSizesShown() ? *m_plot.m_dotClasses : std::vector<int>();
}

} // namespace ridgepoint::chart

namespace ridgepoint {

chart::PlotInspection RooflinePlot::inspect() const
{
    return chart::PlotInspection(*this);
}

} // namespace ridgepoint
