// RooflinePlot: how the points are drawn — dots, or a density with the kernels that matter as
// dots on top (densitylayer.h) — and the drag step that redraws the dragged point alone.
#include "widgets/chart/rooflineplot.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/dotsize.h"
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/pointlayer.h"

#include <QSet>

namespace ridgepoint {
namespace {

// The dragged point's graphs and items: a buffered layer of their own above everything the
// chart draws, so a drag step repaints one small layer and composes the others' buffers.
constexpr char kDragLayer[] = "dragged";

} // namespace

void RooflinePlot::setPointsMode(chart::PointsMode mode)
{
    if (mode == m_pointsMode)
        return;
    m_pointsMode = mode;
    rebuildPoints();
    requestReplot();
}

void RooflinePlot::setDensityThreshold(std::size_t points)
{
    if (points == m_densityThreshold)
        return;
    m_densityThreshold = points;
    rebuildPoints();
    requestReplot();
}

void RooflinePlot::setDensityTopDots(std::size_t count)
{
    if (count == m_densityTopDots)
        return;
    m_densityTopDots = count;
    rebuildPoints();
    requestReplot();
}

bool RooflinePlot::densityShown() const
{
    return chart::densityFor(m_pointsMode, m_document->pointCount(), m_densityThreshold);
}

void RooflinePlot::setDotSizeByTime(bool on)
{
    if (on == m_dotSizeByTime)
        return;
    m_dotSizeByTime = on;
    rebuildPoints();
    requestReplot();
}

bool RooflinePlot::dotSizesShown() const
{
    return m_dotSizeByTime && m_dotClasses && !densityShown();
}

const std::vector<int> *RooflinePlot::shownDotClasses() const
{
    return dotSizesShown() ? &*m_dotClasses : nullptr;
}

std::vector<int> RooflinePlot::dotSizeClasses() const
{
    return dotSizesShown() ? *m_dotClasses : std::vector<int>();
}

std::vector<std::size_t> RooflinePlot::densityDots() const
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < m_dotMask.size(); ++i) {
        if (m_dotMask[i])
            out.push_back(i);
    }
    return out;
}

void RooflinePlot::rebuildPointDrawing(bool rebin, bool selectionOnly)
{
    const Document &doc = *m_document;
    m_dotMask.clear();
    // The classes follow the measured times, which change only with the points (`rebin`); one
    // walk of the times serves them and the density's longest dots.
    chart::MeasuredSeconds seconds;
    if (rebin) {
        seconds = chart::measuredSeconds(doc);
        const bool known = m_dotClasses.has_value();
        m_dotClasses = chart::dotSizeClasses(doc, seconds);
        if (known != m_dotClasses.has_value())
            emit dotTimesKnownChanged(m_dotClasses.has_value());
    }
    if (!densityShown()) {
        m_density->clear();
        m_points->rebuild({ doc, m_theme, m_allLabels, nullptr, false, shownDotClasses() });
        m_legendPlacement->invalidate();
        return;
    }
    if (rebin || !m_density->active()) {
        m_density->rebuild(doc, m_theme);
        if (!rebin)
            seconds = chart::measuredSeconds(doc);
        m_longestDots = chart::longestPoints(seconds, m_densityTopDots);
    }
    // Dots: the longest-running kernels, then every selected or moved point.
    m_dotMask.assign(doc.pointCount(), false);
    for (std::size_t i : m_longestDots) {
        if (i < m_dotMask.size())
            m_dotMask[i] = true;
    }
    for (std::size_t i : doc.selection()) {
        if (i < m_dotMask.size())
            m_dotMask[i] = true;
    }
    for (std::size_t i = 0; i < doc.pointCount(); ++i) {
        if (!doc.whatIf(i).isIdentity())
            m_dotMask[i] = true;
    }
    m_points->rebuild({ doc, m_theme, m_allLabels, &m_dotMask, selectionOnly && !rebin });
    m_legendPlacement->invalidate();
}

void RooflinePlot::redrawDragged()
{
    QSet<QCPAbstractPlottable *> plottablesBefore;
    for (int i = 0; i < plottableCount(); ++i)
        plottablesBefore.insert(plottable(i));
    QSet<QCPAbstractItem *> itemsBefore;
    for (int i = 0; i < itemCount(); ++i)
        itemsBefore.insert(item(i));
    m_points->updateIsolated(
        { *m_document, m_theme, m_allLabels, nullptr, false, shownDotClasses() });
    QCPLayer *drag = layer(kDragLayer);
    if (!drag) {
        addLayer(kDragLayer, layer(chart::kLabelLayer), QCustomPlot::limAbove);
        drag = layer(kDragLayer);
        drag->setMode(QCPLayer::lmBuffered);
    }
    // Whatever updateIsolated() made is the dragged point's.
    for (int i = 0; i < plottableCount(); ++i) {
        if (!plottablesBefore.contains(plottable(i)))
            plottable(i)->setLayer(drag);
    }
    for (int i = 0; i < itemCount(); ++i) {
        if (!itemsBefore.contains(item(i)))
            item(i)->setLayer(drag);
    }
    // Only this layer is drawn again; a new layer (its buffer not made yet) replots the whole.
    drag->replot();
}

} // namespace ridgepoint
