#include "widgets/chart/chartdecorations.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint::chart {

RoofLine::RoofLine(QCustomPlot *plot, Kind kind, int index, double value, double top,
    const QPen &pen, const QString &label, const QColor &labelColor)
    : m_plot(plot)
    , m_kind(kind)
    , m_index(index)
    , m_value(value)
    , m_pen(pen)
    , m_line(new QCPItemLine(plot))
    , m_label(new QCPItemText(plot))
    , m_text(label)
{
    m_line->setLayer(kRoofLayer);
    m_line->setPen(pen);
    m_line->setSelectable(false);
    if (kind == Kind::Memory) {
        m_line->start->setCoords(kFarLeft, value * kFarLeft);
        m_line->end->setCoords(top / value, top);
    } else {
        m_line->start->setCoords(value / top, value);
        m_line->end->setCoords(kFarRight, value);
    }
    m_label->setLayer(kLabelLayer);
    m_label->setText(label);
    m_label->setColor(labelColor);
    m_label->setSelectable(false);
    m_label->setClipToAxisRect(true);
    m_label->setPadding(QMargins(2, 0, 2, 1));
    if (kind == Kind::Memory) {
        m_label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    } else {
        m_label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        m_label->position->setTypeX(QCPItemPosition::ptAbsolute);
        m_label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    }
}

RoofLine::~RoofLine()
{
    removeItem(m_plot, m_line);
    removeItem(m_plot, m_label);
}

double RoofLine::distanceTo(const QPointF &position) const
{
    const double d = m_line->selectTest(position, false);
    return d < 0.0 ? 1e9 : d;
}

void RoofLine::setHighlighted(bool on)
{
    QPen pen = m_pen;
    if (on)
        pen.setWidthF(pen.widthF() + 2.0);
    m_line->setPen(pen);
}

void RoofLine::setLabelBelow()
{
    m_below = true;
    setLabelFlipped(false);
}

void RoofLine::setLabelFlipped(bool flipped)
{
    m_label->setPositionAlignment((m_kind == Kind::Memory ? Qt::AlignLeft : Qt::AlignRight)
        | (m_below != flipped ? Qt::AlignTop : Qt::AlignBottom));
}

void RoofLine::placeLabel(double x, double shift, double lift)
{
    if (m_kind == Kind::Memory) {
        QCPAxis *xAxis = m_plot->xAxis;
        QCPAxis *yAxis = m_plot->yAxis;
        const double y = m_value * x;
        m_label->position->setCoords(x, y);
        // Turned to the line's pixel slope, which changes with the axes.
        const QPointF a(xAxis->coordToPixel(x), yAxis->coordToPixel(y));
        const QPointF b(xAxis->coordToPixel(x * 10.0), yAxis->coordToPixel(y * 10.0));
        m_label->setRotation(qRadiansToDegrees(std::atan2(b.y() - a.y(), b.x() - a.x())));
    } else {
        const QRect rect = m_plot->axisRect()->rect();
        const bool below = m_label->positionAlignment() & Qt::AlignTop;
        const double y = lift == 0.0
            ? m_value
            : m_plot->yAxis->pixelToCoord(
                m_plot->yAxis->coordToPixel(m_value) + (below ? lift : -lift));
        m_label->position->setCoords(rect.right() - 4.0 - shift, y);
    }
}

RidgeMarker::RidgeMarker(QCustomPlot *plot, double intensity, double peak, const QColor &color)
    : m_plot(plot)
    , m_intensity(intensity)
    , m_peak(peak)
    , m_drop(new QCPItemLine(plot))
    , m_marker(new QCPItemTracer(plot))
    , m_label(new QCPItemText(plot))
{
    m_drop->setLayer(kRoofLayer);
    m_drop->start->setCoords(intensity, peak);
    m_drop->end->setTypeX(QCPItemPosition::ptPlotCoords);
    m_drop->end->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_drop->end->setAxisRect(plot->axisRect());
    m_drop->end->setCoords(intensity, 1.0);
    m_drop->setPen(QPen(color, 1.0, Qt::DashLine));
    m_drop->setSelectable(false);

    m_marker->setLayer(kLabelLayer);
    m_marker->position->setCoords(intensity, peak);
    m_marker->setStyle(QCPItemTracer::tsCircle);
    m_marker->setSize(10);
    m_marker->setPen(QPen(color, 2.0));
    m_marker->setBrush(Qt::white);
    m_marker->setSelectable(false);

    m_label->setLayer(kLabelLayer);
    // In pixels (placeLabel), a halo's width of padding around the text like the roofs' labels.
    m_label->position->setType(QCPItemPosition::ptAbsolute);
    m_label->setPadding(QMargins(2, 0, 2, 1));
    m_label->setText(QObject::tr("ridge %1 FLOP/B").arg(QString::number(intensity, 'g', 3)));
    QFont font = plot->font();
    font.setBold(true);
    m_label->setFont(font);
    m_label->setColor(color);
    m_label->setSelectable(false);
    placeLabel(0, false);
}

QPointF RidgeMarker::knee() const
{
    return { m_plot->xAxis->coordToPixel(m_intensity), m_plot->yAxis->coordToPixel(m_peak) };
}

QLineF pixelLine(const QCPItemLine &line)
{
    return { line.start->pixelPosition(), line.end->pixelPosition() };
}

QPointF toPixels(const QCustomPlot &plot, QPointF at)
{
    return { plot.xAxis->coordToPixel(at.x()), plot.yAxis->coordToPixel(at.y()) };
}

QLineF RidgeMarker::dropLine() const
{
    return chart::pixelLine(*m_drop);
}

QLineF RoofLine::pixelLine() const
{
    return chart::pixelLine(*m_line);
}

void RidgeMarker::placeLabel(int row, bool left, bool foot)
{
    // The text 8 px right of (or left of) the drop line and 8 px under the knee (its place
    // before it was placed with the roofs' labels: padding 8 from the knee), a line of text
    // further down per row; above the knee the same distance over it.
    constexpr double kGap = 8.0;
    const QMargins pad = m_label->padding();
    const double line = QFontMetrics(m_label->font()).height() + pad.top() + pad.bottom();
    const QPointF at = knee();
    const double x = left ? at.x() - kGap + pad.right() : at.x() + kGap - pad.left();
    if (foot) {
        // Over the x axis beside the drop line, which leads the eye up to the knee.
        const double bottom = m_plot->axisRect()->rect().bottom() - 4.0 + pad.bottom();
        m_label->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        m_label->position->setCoords(x, bottom - row * line);
        return;
    }
    const double y = row >= 0 ? at.y() + kGap - pad.top() + row * line
                              : at.y() - kGap + pad.bottom() + (row + 1) * line;
    m_label->setPositionAlignment(
        (left ? Qt::AlignRight : Qt::AlignLeft) | (row >= 0 ? Qt::AlignTop : Qt::AlignBottom));
    m_label->position->setCoords(x, y);
}

RidgeMarker::~RidgeMarker()
{
    removeItem(m_plot, m_drop);
    removeItem(m_plot, m_marker);
    removeItem(m_plot, m_label);
}

WhatIfGhost::WhatIfGhost(
    QCustomPlot *plot, QPointF from, QPointF to, const QColor &color, int alpha)
    : m_plot(plot)
    , m_from(from)
    , m_to(to)
    , m_ghost(new QCPItemTracer(plot))
    , m_arrow(new QCPItemLine(plot))
{
    QColor faint = color;
    faint.setAlpha(alpha);
    m_ghost->setLayer(kGhostLayer);
    m_ghost->position->setCoords(from.x(), from.y());
    m_ghost->setStyle(QCPItemTracer::tsCircle);
    m_ghost->setSize(9);
    m_ghost->setPen(QPen(faint, 1.5, Qt::DashLine));
    m_ghost->setBrush(Qt::NoBrush);
    m_ghost->setSelectable(false);

    m_arrow->setLayer(kGhostLayer);
    m_arrow->start->setCoords(from.x(), from.y());
    m_arrow->end->setCoords(to.x(), to.y());
    m_arrow->setPen(QPen(faint, 1.5));
    m_arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 9, 11));
    m_arrow->setSelectable(false);
}

WhatIfGhost::~WhatIfGhost()
{
    removeItem(m_plot, m_ghost);
    removeItem(m_plot, m_arrow);
}

PointLabel::PointLabel(QCustomPlot *plot, QPointF at, const QString &text, const QColor &color)
    : m_plot(plot)
    , m_at(at)
    , m_label(new QCPItemText(plot))
    , m_leader(new QCPItemLine(plot))
{
    m_label->setLayer(kLabelLayer);
    m_label->position->setType(QCPItemPosition::ptAbsolute);
    m_label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_label->setPadding(QMargins(2, 0, 2, 0));
    m_label->setText(text);
    m_label->setColor(color);
    m_label->setSelectable(false);
    m_label->setClipToAxisRect(true);
    m_label->setVisible(false);

    m_leader->setLayer(kLabelLayer);
    m_leader->start->setCoords(at);
    m_leader->end->setType(QCPItemPosition::ptAbsolute);
    QColor line = color;
    line.setAlpha(140);
    m_leader->setPen(QPen(line, 0.8));
    m_leader->setSelectable(false);
    m_leader->setClipToAxisRect(true);
    m_leader->setVisible(false);
}

PointLabel::~PointLabel()
{
    removeItem(m_plot, m_leader);
    removeItem(m_plot, m_label);
}

QSizeF PointLabel::size() const
{
    // A label of two lines (labeltext.h) is as wide as its wider line.
    const QFontMetricsF metrics(m_label->font());
    const QMargins padding = m_label->padding();
    const QStringList lines = m_label->text().split('\n');
    double width = 0.0;
    for (const QString &line : lines)
        width = std::max(width, metrics.horizontalAdvance(line));
    const double height
        = metrics.height() + static_cast<double>(lines.size() - 1) * metrics.lineSpacing();
    return { std::ceil(width) + padding.left() + padding.right() + 1.0,
        std::ceil(height) + padding.top() + padding.bottom() + 1.0 };
}

void PointLabel::place(const QRectF &box, bool leader)
{
    m_box = box;
    m_label->position->setCoords(box.topLeft());
    m_label->setVisible(true);
    m_leader->setVisible(leader);
    if (leader) {
        // To the point of the box nearest the marker.
        const QPointF marker(
            m_plot->xAxis->coordToPixel(m_at.x()), m_plot->yAxis->coordToPixel(m_at.y()));
        m_leader->end->setCoords(std::clamp(marker.x(), box.left(), box.right()),
            std::clamp(marker.y(), box.top(), box.bottom()));
    }
}

QLineF PointLabel::leader() const
{
    if (!m_leader->visible())
        return {};
    return pixelLine(*m_leader);
}

void PointLabel::hide()
{
    m_box = QRectF();
    m_label->setVisible(false);
    m_leader->setVisible(false);
}

SweepCrossingMarker::SweepCrossingMarker(
    QCustomPlot *plot, QPointF at, const QString &text, const QColor &color)
    : m_plot(plot)
    , m_at(at)
    , m_marker(new QCPItemTracer(plot))
    , m_label(new QCPItemText(plot))
{
    m_marker->setLayer(kLabelLayer);
    m_marker->position->setCoords(at.x(), at.y());
    m_marker->setStyle(QCPItemTracer::tsCircle);
    m_marker->setSize(13);
    m_marker->setPen(QPen(color, 2.2));
    m_marker->setBrush(Qt::NoBrush);
    m_marker->setSelectable(false);

    m_label->setLayer(kLabelLayer);
    QFont font = plot->font();
    font.setBold(true);
    // Above and right of the knee: the ridge's own label sits below it, the legend top left.
    // Pixels from the ring, so rows stay a line apart at any zoom.
    m_label->position->setParentAnchor(m_marker->position);
    m_label->position->setCoords(0.0, 0.0);
    m_label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_label->setPadding(QMargins(2, 2, 2, 2));
    m_label->setText(text);
    m_label->setFont(font);
    m_label->setColor(color.darker(130));
    m_label->setBrush(QColor(255, 255, 255, 200));
    m_label->setSelectable(false);
    m_label->setClipToAxisRect(true);
}

void SweepCrossingMarker::setRow(int row)
{
    m_label->position->setCoords(0.0, -row * (QFontMetricsF(m_label->font()).height() + 4.0));
}

QRectF SweepCrossingMarker::labelBox() const
{
    return QRectF(m_label->topLeft->pixelPosition(), m_label->bottomRight->pixelPosition());
}

SweepCrossingMarker::~SweepCrossingMarker()
{
    removeItem(m_plot, m_marker);
    removeItem(m_plot, m_label);
}

QCPGraph *addRoofGap(QCustomPlot &plot, bool memory, double low, double high, double top,
    const QColor &fill, std::vector<QCPAbstractPlottable *> &made)
{
    if (!(high > low) || !(low > 0.0) || !(top > 0.0))
        return nullptr;
    QCPGraph *upper = plot.addGraph();
    QCPGraph *lower = plot.addGraph();
    if (memory) {
        upper->setData({ kFarLeft, top / high, top / low }, { high * kFarLeft, top, top }, true);
        lower->setData({ kFarLeft, top / low }, { low * kFarLeft, top }, true);
    } else {
        upper->setData({ low / top, high / top, kFarRight }, { low, high, high }, true);
        lower->setData({ low / top, kFarRight }, { low, low }, true);
    }
    for (QCPGraph *edge : { upper, lower }) {
        edge->setLayer(kShadingLayer);
        edge->setPen(Qt::NoPen);
        edge->setSelectable(QCP::stNone);
        edge->removeFromLegend();
        made.push_back(edge);
    }
    lower->setBrush(fill);
    lower->setChannelFillGraph(upper);
    return lower;
}

} // namespace ridgepoint::chart
