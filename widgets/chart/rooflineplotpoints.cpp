// RooflinePlot: how the points are drawn — dots, or a density with the kernels that matter as
// dots on top (densitylayer.h) — and the drag step that redraws the dragged point alone.
#include "widgets/chart/rooflineplot.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/dotsize.h"
#include "widgets/chart/geometry/pointlabelplacement.h"
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/latencyfloor.h"
#include "widgets/chart/layoutfit.h"
#include "widgets/chart/pointlayer.h"

#include <QPaintEvent>
#include <QPointer>
#include <QSet>

namespace ridgepoint {
namespace {

// The dragged point's graphs and items: a buffered layer of their own above everything the
// chart draws, so a drag step repaints one small layer and composes the others' buffers.
constexpr char kDragLayer[] = "dragged";

} // namespace

bool RooflinePlot::densityShown() const
{
    return chart::densityFor(
        m_display.points, m_document->pointCount(), m_display.densityThreshold);
}

bool RooflinePlot::dotSizesShown() const
{
    return m_display.dotSizeByTime && m_dotClasses && !densityShown();
}

const std::vector<int> *RooflinePlot::shownDotClasses() const
{
    return dotSizesShown() ? &*m_dotClasses : nullptr;
}

chart::PointSource RooflinePlot::pointSource() const
{
    return { *m_document, m_display.theme, m_display.allPointLabels, m_display.numberKey, nullptr,
        false, shownDotClasses() };
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
        chart::MeasuredSeconds().swap(seconds); // the classes are made: not held while drawing
        m_density->clear();
        m_points->rebuild(pointSource());
        m_floor->rebuild(doc, m_display.theme, nullptr);
        applyHighlight();
        m_legendPlacement->invalidate();
        return;
    }
    if (rebin || !m_density->active()) {
        if (!rebin)
            seconds = chart::measuredSeconds(doc);
        m_longestDots = chart::longestPoints(seconds, m_display.densityTopDots);
        chart::MeasuredSeconds().swap(seconds); // not held while the bins and dots are made
        m_density->rebuild(doc, m_display.theme);
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
    chart::PointSource source = pointSource(); // no dot sizes under a density
    source.dots = &m_dotMask;
    source.samePoints = selectionOnly && !rebin;
    m_points->rebuild(source);
    m_floor->rebuild(doc, m_display.theme, &m_dotMask);
    applyHighlight();
    m_legendPlacement->invalidate();
}

void RooflinePlot::setFilterKept(std::vector<bool> kept)
{
    if (kept == m_filterKept)
        return;
    m_filterKept = std::move(kept);
    applyHighlight();
    requestReplot();
}

void RooflinePlot::applyHighlight()
{
    m_points->setHighlight(pointSource(), m_filterKept.empty() ? nullptr : &m_filterKept);
}

void RooflinePlot::redrawDragged()
{
    QCPLayer *drag = layer(kDragLayer);
    if (!drag) {
        addLayer(kDragLayer, layer(chart::kLabelLayer), QCustomPlot::limAbove);
        drag = layer(kDragLayer);
        drag->setMode(QCPLayer::lmBuffered);
    }
    // What is drawn now, and whether it is on the dragged point's layer. Weak pointers: the
    // point's last drawing is deleted below, and a new object may take a deleted one's address.
    std::vector<std::pair<QPointer<QCPLayerable>, bool>> before;
    before.reserve(
        static_cast<std::size_t>(plottableCount()) + static_cast<std::size_t>(itemCount()));
    for (int i = 0; i < plottableCount(); ++i)
        before.emplace_back(plottable(i), plottable(i)->layer() == drag);
    for (int i = 0; i < itemCount(); ++i)
        before.emplace_back(item(i), item(i)->layer() == drag);
    const bool pending = hasInvalidatedPaintBuffers();
    m_points->updateIsolated(pointSource());
    QSet<QCPLayerable *> kept;
    bool removedElsewhere = false; // the point's last drawing was among the others
    for (const auto &[layerable, onDrag] : before) {
        if (layerable)
            kept.insert(layerable);
        else
            removedElsewhere = removedElsewhere || !onDrag;
    }
    // Whatever updateIsolated() made is the dragged point's.
    for (int i = 0; i < plottableCount(); ++i) {
        if (!kept.contains(plottable(i)))
            plottable(i)->setLayer(drag);
    }
    for (int i = 0; i < itemCount(); ++i) {
        if (!kept.contains(item(i)))
            item(i)->setLayer(drag);
    }
    if (!dragLayerAlone(pending, removedElsewhere)) {
        replot(); // the first step, or the chart changed meanwhile: lay everything out
        return;
    }
    // The new objects were made on the others' layers and moved here before anything was
    // drawn: those layers' buffers still hold what they show (QCustomPlot marks a buffer stale
    // when a layerable joins or leaves its layer). Only the dragged point's layer is drawn
    // again, its dots thinned and its label placed in the room the last layout left.
    for (const auto &buffer : std::as_const(mPaintBuffers))
        buffer->setInvalidated(false);
    chart::scaleItemFonts(this);
    m_points->decimateFor(m_dragView);
    chart::LabelField field = *m_dragField;
    for (const QRectF &box : m_points->isolatedMarkerRects()) // where it is now
        field.addObstacle(box);
    m_points->placeLabels(field, true);
    m_dragPaint = true;
    drag->replot();
}

bool RooflinePlot::dragLayerAlone(bool pending, bool removedElsewhere) const
{
    const chart::ViewKey view { xAxis->range().lower, xAxis->range().upper, yAxis->range().lower,
        yAxis->range().upper, axisRect()->rect() };
    return !pending && !removedElsewhere && m_dragField && view == m_dragView
        && paintBufferOf(layer(kDragLayer)) >= 0;
}

int RooflinePlot::paintBufferOf(const QCPLayer *target) const
{
    int buffer = 0;
    int found = -1;
    for (int i = 0; i < layerCount(); ++i) {
        const QCPLayer *here = layer(i);
        if (here->mode() == QCPLayer::lmBuffered) {
            ++buffer; // its own, and a new one for the logical layers after it
            if (here == target)
                found = buffer;
            if (i + 1 < layerCount() && layer(i + 1)->mode() == QCPLayer::lmLogical)
                ++buffer;
        } else if (here == target) {
            found = buffer;
        }
    }
    return buffer + 1 == mPaintBuffers.size() ? found : -1;
}

void RooflinePlot::paintEvent(QPaintEvent *event)
{
    if (!m_dragPaint || !paintAroundDrag())
        QCustomPlot::paintEvent(event);
}

bool RooflinePlot::paintAroundDrag()
{
    const int drag = paintBufferOf(layer(kDragLayer));
    const double ratio = devicePixelRatioF();
    if (drag < 0 || mBackgroundBrush.style() == Qt::NoBrush || !mBackgroundBrush.isOpaque()
        || !qFuzzyCompare(ratio, mBufferDevicePixelRatio))
        return false;
    if (m_underDrag.isNull()) {
        // What QCustomPlot paints under the dragged point: the background, then each buffer.
        m_underDrag = QImage(viewport().size() * ratio, QImage::Format_RGB32);
        m_underDrag.setDevicePixelRatio(ratio);
        QCPPainter under(&m_underDrag);
        under.fillRect(mViewport, mBackgroundBrush);
        drawBackground(&under);
        for (int i = 0; i < drag; ++i)
            mPaintBuffers.at(i)->draw(&under);
    }
    QCPPainter painter(this);
    if (!painter.isActive())
        return false;
    painter.drawImage(QPoint(0, 0), m_underDrag);
    // The dragged point's buffer and the ones over it (axes, legend) as QCustomPlot draws them.
    for (int i = drag; i < mPaintBuffers.size(); ++i)
        mPaintBuffers.at(i)->draw(&painter);
    return true;
}

} // namespace ridgepoint
