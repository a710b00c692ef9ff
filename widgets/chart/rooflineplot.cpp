#include "widgets/chart/rooflineplot.h"

#include "widgets/chart/chartaxes.h"
#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/chartinteraction.h"
#include "widgets/chart/charttooltip.h"
#include "widgets/chart/densitylayer.h"
#include "widgets/chart/geometry/pointlabelplacement.h"
#include "widgets/chart/labelplacement.h"
#include "widgets/chart/latencyfloor.h"
#include "widgets/chart/layoutfit.h"
#include "widgets/chart/pointlayer.h"
#include "widgets/chart/rooflayer.h"
#include "widgets/document/provenancetext.h"

#include <QApplication>

#include <cmath>

namespace ridgepoint {
namespace {

constexpr double kPickRadius = 8.0; // pixels
static_assert(RooflinePlot::kDecimationCell == chart::kDecimationCell);

} // namespace

RooflinePlot::RooflinePlot(QWidget *parent)
    : QCustomPlot(parent)
    , m_ownDocument(new Document(this))
    , m_roofs(std::make_unique<chart::RoofLayer>(this))
    , m_points(std::make_unique<chart::PointLayer>(this))
    , m_density(std::make_unique<chart::DensityLayer>(this))
    , m_floor(std::make_unique<chart::LatencyFloor>(this))
    , m_legendPlacement(std::make_unique<chart::LegendPlacement>(this, chart::kMinPlotHeight))
    , m_interaction(std::make_unique<chart::ChartInteraction>(this))
    , m_xTicker(new chart::QuantityLogTicker(chart::QuantityLogTicker::Style::Intensity))
    , m_yTicker(new chart::QuantityLogTicker(chart::QuantityLogTicker::Style::Rate))
{
    setMinimumSize(440, 320); // a readable plot beside the docks of a 1024 × 700 window
    setAntialiasedElements(QCP::aeAll);
    setNotAntialiasedElements(QCP::aeAxes | QCP::aeGrid);
    addLayer(chart::kShadingLayer, layer("grid"), QCustomPlot::limBelow);
    addLayer(chart::kRoofLayer, layer("main"), QCustomPlot::limBelow);
    addLayer(chart::kGhostLayer, layer("main"), QCustomPlot::limBelow);
    addLayer(chart::kLabelLayer, layer("main"), QCustomPlot::limAbove);
    for (QCPAxis *axis : { xAxis, yAxis }) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->grid()->setSubGridVisible(true);
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    xAxis->setTicker(m_xTicker);
    yAxis->setTicker(m_yTicker);
    // The ticks carry the units ("1 TFLOP/s", "0.1 FLOP/B").
    xAxis->setLabel(tr("Arithmetic intensity"));
    yAxis->setLabel(tr("Performance"));
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    selectionRect()->setPen(QPen(chart::selectionColor(), 1.0, Qt::DashLine));
    selectionRect()->setBrush(QColor(0x10, 0x60, 0xd0, 30));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    m_quantGhosts
        = std::make_unique<chart::QuantGhosts>(this, kQuantGhostMs, [this] { requestReplot(); });
    // A full replot draws every buffer again: a drag's composed layers are stale.
    connect(this, &QCustomPlot::afterReplot, this, [this] {
        m_dragPaint = false;
        m_underDrag = QImage();
    });
    applyTheme();
    setDocument(m_ownDocument);
}

RooflinePlot::~RooflinePlot()
{
    emit aboutToBeDestroyed();
    for (const auto &connection : m_connections)
        disconnect(connection);
    // Decorations remove their items from the plot: do it while the plot is still whole.
    m_quantGhosts->clear();
    m_points->clear();
    m_density->clear();
    m_floor->clear();
    m_roofs->clear();
}

void RooflinePlot::setDocument(Document *document)
{
    if (!document || document == m_document)
        return;
    for (const auto &connection : m_connections)
        disconnect(connection);
    m_connections.clear();
    m_document = document;
    connectDocument();
    rebuildRoofs();
    rebuildPoints();
    fitToData(); // the hardware frame when there is no point
}

void RooflinePlot::connectDocument()
{
    m_connections.push_back(connect(m_document, &Document::hardwareChanged, this, [this] {
        m_quantGhosts->clear();
        rebuildRoofs();
        keepDataInView();
        requestReplot();
    }));
    // Added or removed workloads may change the compute ceiling the roofline is drawn with.
    const auto everything = [this] {
        m_points->setIsolated(std::nullopt);
        m_interaction->forgetDrag();
        rebuildRoofs();
        rebuildPoints();
        requestReplot();
    };
    m_connections.push_back(connect(m_document, &Document::pointsReset, this, [this, everything] {
        m_quantGhosts->clear(); // their indices mean other points now
        everything();
    }));
    // A profiler trace's points are named and grouped by operator (tracenames.h): drawn again
    // when the trace comes (after its points) or goes, if that changes how they are named.
    m_connections.push_back(connect(m_document, &Document::traceChanged, this, [this] {
        if (m_points->namesByOperator() != (m_document->trace() != nullptr)) {
            rebuildPoints();
            requestReplot();
        }
    }));
    m_connections.push_back(
        connect(m_document, &Document::quantModeChanged, this, [this, everything] {
            const auto before = m_points->workloadPositions();
            everything();
            showQuantGhosts(before);
        }));
    m_connections.push_back(connect(
        m_document, &Document::pointsChanged, this, [this](qsizetype first, qsizetype last) {
            // One step of a drag: only the dragged point is redrawn.
            const auto isolated = m_points->isolated();
            if (isolated && first == last && static_cast<std::size_t>(first) == *isolated) {
                redrawDragged();
                return;
            }
            rebuildPoints();
            requestReplot();
        }));
    // A selection change redraws only the rings and labels, not the (maybe million) points.
    m_connections.push_back(connect(m_document, &Document::selectionChanged, this, [this] {
        if (m_points->isolated())
            m_points->updateIsolated(pointSource());
        if (densityShown())
            rebuildPointDrawing(false, true); // the selection: dots over the density
        else
            rebuildDecorations();
        requestReplot();
    }));
    m_connections.push_back(connect(m_document, &Document::roofsShownChanged, this, [this] {
        rebuildRoofs();
        requestReplot();
    }));
    m_connections.push_back(connect(m_document, &Document::compareHardwareChanged, this, [this] {
        rebuildRoofs();
        rebuildPoints();
        requestReplot();
    }));
    m_connections.push_back(connect(m_document, &QObject::destroyed, this, [this] {
        m_document = nullptr;
        setDocument(m_ownDocument);
    }));
}

void RooflinePlot::setHardware(const Hardware &hardware)
{
    m_document->resetHardware(hardware);
    resetToHardwareFrame();
}

void RooflinePlot::setAnalysisOptions(const AnalysisOptions &options)
{
    m_document->setAnalysisOptions(options);
    rebuildRoofs();
}

void RooflinePlot::setPoints(const std::vector<AnalyzedPoint> &points)
{
    PointTable plain;
    plain.reserve(points.size());
    for (const auto &analysed : points)
        plain.push_back(analysed.point);
    m_document->resetPoints(std::move(plain));
}

void RooflinePlot::requestReplot()
{
    replot(QCustomPlot::rpQueuedReplot);
}

void RooflinePlot::resetToHardwareFrame()
{
    const chart::AxisFrame frame = chart::hardwareFrame(m_document->hardware());
    m_legendPlacement->invalidate(); // a new frame, not a zoom step: Auto may choose again
    xAxis->setRange(frame.xLower, frame.xUpper);
    yAxis->setRange(frame.yLower, frame.yUpper);
    requestReplot();
}

void RooflinePlot::fitToData()
{
    const auto emphasised = m_roofs->emphasised();
    const Hardware &shown = m_roofs->shownHardware();
    const auto frame = chart::dataFrame(*m_document,
        emphasised && *emphasised < shown.compute.size() ? &shown.compute[*emphasised] : nullptr);
    if (!frame) {
        resetToHardwareFrame();
        return;
    }
    m_legendPlacement->invalidate();
    xAxis->setRange(frame->xLower, frame->xUpper);
    yAxis->setRange(frame->yLower, frame->yUpper);
    requestReplot();
}

void RooflinePlot::keepDataInView()
{
    // A roof dragged out of view is the user's doing: the view follows the machine, not a drag.
    if (m_interaction->dragging())
        return;
    const chart::AxisFrame view { xAxis->range().lower, xAxis->range().upper, yAxis->range().lower,
        yAxis->range().upper };
    if (!chart::dataInView(*m_document, view))
        fitToData();
}

void RooflinePlot::zoomBy(double factor)
{
    if (factor <= 0.0)
        return;
    const QRect rect = axisRect()->rect();
    xAxis->scaleRange(1.0 / factor, xAxis->pixelToCoord(rect.center().x()));
    yAxis->scaleRange(1.0 / factor, yAxis->pixelToCoord(rect.center().y()));
    requestReplot();
}

void RooflinePlot::setDisplay(const chart::PlotDisplay &display)
{
    chart::PlotDisplay next = display;
    if (!(next.fontScale > 0.0))
        next.fontScale = m_display.fontScale;
    if (next == m_display)
        return;
    const chart::PlotDisplay before = std::exchange(m_display, next);
    if (next.legend != before.legend)
        m_legendPlacement->setMode(next.legend);
    const bool restyle = next.theme != before.theme || next.fontScale != before.fontScale;
    if (restyle)
        applyTheme();
    const bool roofs = restyle || next.regionShading != before.regionShading;
    if (roofs)
        rebuildRoofs();
    // The points after the roofs: the legend keeps its order, roofs first.
    if (roofs || next.points != before.points || next.densityThreshold != before.densityThreshold
        || next.densityTopDots != before.densityTopDots
        || next.dotSizeByTime != before.dotSizeByTime)
        rebuildPoints();
    else if (next.allPointLabels != before.allPointLabels || next.numberKey != before.numberKey)
        rebuildDecorations();
    requestReplot();
}

QString RooflinePlot::tooltipHtml(const QString &html) const
{
    // QToolTip draws in the application's font: the presentation scale is put into the text.
    const double scale = m_display.theme.fontScale * m_display.fontScale;
    if (scale == 1.0)
        return html;
    return QStringLiteral("<div style=\"font-size:%1pt\">%2</div>")
        .arg(QString::number(font().pointSizeF(), 'f', 1), html);
}

void RooflinePlot::applyTheme()
{
    const ChartTheme &t = m_display.theme;
    setBackground(t.background);
    axisRect()->setBackground(t.background);
    // The application's font, not this widget's (which already carries the previous scale).
    QFont base = QApplication::font(this);
    const double scale = t.fontScale * m_display.fontScale;
    if (scale != 1.0)
        base.setPointSizeF(base.pointSizeF() * scale);
    setFont(base);
    chart::styleAxes(this, t, base);
    m_legendPlacement->style(t);
    legend->setTextColor(t.foreground);
    legend->setFont(base);
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = legend->item(i)) // a wrapped legend has empty cells
            item->setFont(base);
    }
    m_legendPlacement->invalidate();
}

void RooflinePlot::rebuildRoofs()
{
    m_roofs->rebuild(*m_document, m_display.theme, m_display.regionShading);
    m_legendPlacement->invalidate();
}

void RooflinePlot::rebuildPoints()
{
    rebuildPointDrawing(true);
}

void RooflinePlot::rebuildDecorations()
{
    m_points->rebuildDecorations(pointSource());
}

void RooflinePlot::updateLayout()
{
    if (m_legendPlacement->fixed()) {
        // An SVG export's second pass (chartexporter.cpp), which draws the axes again over the
        // first with every item hidden: the same axes, and no label placed (and so shown) again,
        // where the hidden markers would send it elsewhere and the file would hold it twice.
        relayout(false);
        return;
    }
    m_points->hideLabels(); // placed last, around the legend
    for (const auto &client : m_labelClients) {
        if (client.first)
            client.second(nullptr);
    }
    relayout();
    // The legend in a corner of the plot where it covers no label, marker or point, else under
    // the plot (and the plot laid out again).
    m_legendPlacement->place(
        m_display.theme, [this](const QRectF &box) { return m_points->markersIn(box); },
        [this] { relayout(); }, [this](const QRectF &box) { return m_density->occupiedIn(box); });
    // The roofs' labels once more around the legend where it ended up (a remembered corner is
    // taken without a new layout).
    placeRoofLabels();
    // Once the plot has its final size: a label turned for an intermediate one would stay.
    chart::keepLabelsInside(this);
    placePointLabels();
}

void RooflinePlot::addLabelClient(QObject *owner, LabelClient client)
{
    m_labelClients.emplace_back(owner, std::move(client));
}

void RooflinePlot::placePointLabels()
{
    // Obstacles: the texts already placed (roofs, ridge, notes), the markers, the legend.
    LabelLayout record;
    record.size = viewport().size();
    record.markers = m_points->markerRects();
    record.roofLabels = m_roofs->labelBoxes();
    record.ridgeLabel = m_roofs->ridgeLabelBoxes();
    const QRectF bounds = axisRect()->rect().adjusted(2, 2, -2, -2);
    chart::LabelField field(bounds);
    m_points->stackCrossingLabels();
    const std::vector<QRectF> items = chart::itemRects(*this);
    for (const QRectF &box : items)
        field.addObstacle(box);
    record.roofLines = m_roofs->drawnLines();
    const std::vector<QLineF> &lines = record.roofLines;
    const auto addMarkersAndLines = [&](chart::LabelField &f, const std::vector<QRectF> &markers) {
        for (const QRectF &box : markers)
            f.addMarker(box);
        for (const QLineF &line : lines)
            f.addLine(line);
    };
    addMarkersAndLines(field, record.markers);
    if (legend && legend->visible() && !m_legendPlacement->outside()) {
        record.legend = legend->outerRect();
        field.addObstacle(record.legend);
    }
    // A dragged point's label is placed alone at each drag step (redrawDragged), in the room
    // this layout leaves it: everything here but its own marker and label.
    std::unique_ptr<chart::LabelField> dragField;
    if (m_points->isolated()) {
        dragField = std::make_unique<chart::LabelField>(bounds);
        for (const QRectF &box : items)
            dragField->addObstacle(box);
        addMarkersAndLines(*dragField, m_points->markerRects(false));
        if (!record.legend.isNull())
            dragField->addObstacle(record.legend);
    }
    m_points->placeLabels(field);
    record.plotArea = field.bounds();
    for (const auto &label : m_points->placedLabels()) {
        record.labels.push_back(label.box);
        record.pointLabels.emplace_back(label.text, label.at);
        record.pointLeaders.push_back(label.leader);
    }
    std::erase_if(m_labelClients, [](const auto &client) { return client.first.isNull(); });
    for (const auto &client : m_labelClients) {
        const std::vector<QRectF> boxes = client.second(&field);
        record.labels.insert(record.labels.end(), boxes.begin(), boxes.end());
        for (std::size_t k = 0; dragField && k < boxes.size(); ++k)
            dragField->addObstacle(boxes[k]);
    }
    if (dragField) {
        for (const auto &label : m_points->placedLabels(false))
            dragField->addObstacle(label.box);
    }
    m_dragField = std::move(dragField);
    m_dragView = { xAxis->range().lower, xAxis->range().upper, yAxis->range().lower,
        yAxis->range().upper, axisRect()->rect() };
    std::erase_if(m_labelLayouts, [&](const LabelLayout &l) { return l.size == record.size; });
    if (m_labelLayouts.size() >= 6)
        m_labelLayouts.erase(m_labelLayouts.begin());
    m_labelLayouts.push_back(std::move(record));
}

void RooflinePlot::relayout(bool labels)
{
    // Every text at the chart's font, before anything is measured.
    chart::scaleItemFonts(this);
    QCustomPlot::updateLayout();
    // As many y and x tick labels as fit without touching: once more when the count changed,
    // so the ticks are made for it (and for the axis rect the new labels leave).
    for (int pass = 0; pass < 2 && chart::fitTickCounts(this); ++pass)
        QCustomPlot::updateLayout();
    // Here the axis rect has its final size for this replot or export, and nothing is drawn yet.
    const QCPRange x = xAxis->range();
    const QCPRange y = yAxis->range();
    m_points->decimateFor({ x.lower, x.upper, y.lower, y.upper, axisRect()->rect() });
    // Labels too: an export lays the plot out at its own size without a replot (a headless
    // render never replots at all), and flat labels are spaced in pixels.
    if (labels)
        placeRoofLabels();
}

void RooflinePlot::placeRoofLabels()
{
    // One placement problem: the roofs' labels of both machines around the markers, the legend
    // where it is now (over the plot), and a density's occupied cells.
    chart::RoofLabelSet around;
    around.obstacles = m_points->markerRects();
    m_roofs->hideLabels();
    for (const QRectF &box : chart::itemRects(*this)) // the ridge's label, notes, targets
        around.obstacles.push_back(box);
    if (legend && legend->visible() && !m_legendPlacement->outside())
        around.obstacles.push_back(legend->outerRect());
    if (m_density->active()) {
        around.crowding = [this](const QRectF &box) { return m_density->occupiedIn(box); };
        around.crowdingRevision = m_density->revision();
        QColor halo = m_display.theme.background;
        halo.setAlpha(215);
        around.halo = halo;
    }
    m_roofs->placeLabels(*m_document, around);
}

void RooflinePlot::showQuantGhosts(const std::vector<std::pair<std::size_t, QPointF>> &before)
{
    std::vector<chart::QuantGhosts::Ghost> ghosts;
    const Document &doc = *m_document;
    for (const auto &[i, from] : before) {
        if (ghosts.size() >= chart::QuantGhosts::kMaxGhosts)
            break;
        if (i >= doc.pointCount() || !doc.workload(i))
            continue;
        const auto to = pointCoords(i);
        if (!to || !chart::QuantGhosts::moved(from, *to))
            continue;
        ghosts.push_back(
            { from, *to, m_points->groupColorOf(m_points->groupIndex(doc.pointTable().group(i))) });
    }
    m_quantGhosts->show(ghosts);
}

void RooflinePlot::isolatePoint(std::optional<std::size_t> index)
{
    if (m_points->isolated() == index)
        return;
    m_points->setIsolated(index);
    rebuildPointDrawing(false); // the points did not change: the density stays
    requestReplot();
}

QString RooflinePlot::pointDescription(std::size_t index) const
{
    return chart::ChartTooltip::describe(*m_document, index);
}

std::optional<QPointF> RooflinePlot::pointCoords(std::size_t index, std::size_t level) const
{
    if (index >= m_document->pointCount())
        return std::nullopt;
    const PointPlacement &a = m_document->placement(index);
    const auto levels = m_document->placements().boundedLevels(index);
    if (!a.placed || level >= levels.size())
        return std::nullopt;
    return QPointF(levels[level].intensity, a.y);
}

QPointF RooflinePlot::pointPosition(std::size_t index, std::size_t level) const
{
    const auto coords = pointCoords(index, level);
    if (!coords)
        return { -1.0, -1.0 };
    return { xAxis->coordToPixel(coords->x()), yAxis->coordToPixel(coords->y()) };
}

int RooflinePlot::pointAt(const QPointF &position) const
{
    return m_points->pointAt(*m_document, position, kPickRadius);
}

std::optional<RooflinePlot::CeilingHit> RooflinePlot::ceilingAt(const QPointF &position) const
{
    if (!axisRect()->rect().contains(position.toPoint()))
        return std::nullopt;
    const chart::RoofLine *roof = m_roofs->roofAt(position);
    if (!roof)
        return std::nullopt;
    return CeilingHit { roof->kind() == chart::RoofLine::Kind::Compute, roof->index() };
}

QString RooflinePlot::ceilingDescription(const CeilingHit &ceiling) const
{
    const Hardware &hw = m_document->hardware();
    const auto i = static_cast<std::size_t>(ceiling.index);
    if (ceiling.compute ? i >= hw.compute.size() : i >= hw.memory.size())
        return {};
    return provenanceHtml(
               ceiling.compute ? ceilingFacts(hw.compute[i]) : ceilingFacts(hw.memory[i]), false)
        + tr("<br><i>Drag the roof to change its figure.</i>");
}

void RooflinePlot::mousePressEvent(QMouseEvent *event)
{
    if (m_interaction->press(event))
        return;
    // Shift-drag draws a rectangle to zoom into; a plain drag pans.
    setSelectionRectMode(event->modifiers() & Qt::ShiftModifier ? QCP::srmZoom : QCP::srmNone);
    QCustomPlot::mousePressEvent(event);
}

void RooflinePlot::mouseMoveEvent(QMouseEvent *event)
{
    if (m_interaction->dragMove(event))
        return;
    QCustomPlot::mouseMoveEvent(event);
    m_interaction->hover(event);
}

void RooflinePlot::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_interaction->release(event))
        return;
    const bool click = m_interaction->isClick(event);
    QCustomPlot::mouseReleaseEvent(event);
    if (click && event->button() == Qt::LeftButton && !(event->modifiers() & Qt::ControlModifier))
        m_document->setSelection({});
}

void RooflinePlot::keyPressEvent(QKeyEvent *event)
{
    if (m_interaction->key(event))
        return;
    QCustomPlot::keyPressEvent(event);
}

void RooflinePlot::leaveEvent(QEvent *event)
{
    emit cursorMoved(std::nan(""), std::nan(""));
    QCustomPlot::leaveEvent(event);
}

} // namespace ridgepoint
