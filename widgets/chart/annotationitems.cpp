#include "widgets/chart/annotationitems.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/geometry/pointlabelplacement.h"

#include <algorithm>

#include <cmath>

namespace ridgepoint::review {
namespace {

using chart::kFarLeft;
using chart::kFarRight;
using chart::removeItem;

double distance(const QCPAbstractItem *item, const QPointF &position)
{
    const double d = item->selectTest(position, false);
    return d < 0.0 ? 1e9 : d;
}

} // namespace

void ensureLayers(QCustomPlot *plot)
{
    if (!plot->layer(kBaselineLayer))
        plot->addLayer(kBaselineLayer, plot->layer("main"), QCustomPlot::limBelow);
    if (!plot->layer(kAnnotationLayer))
        plot->addLayer(kAnnotationLayer, plot->layer("legend"), QCustomPlot::limBelow);
}

BaselineArrow::BaselineArrow(
    QCustomPlot *plot, QPointF from, QPointF to, const QString &label, const QColor &color)
    : m_plot(plot)
    , m_from(from)
    , m_to(to)
    , m_arrow(new QCPItemLine(plot))
    , m_label(new QCPItemText(plot))
{
    QColor line = color;
    line.setAlpha(170);
    m_arrow->setLayer(kBaselineLayer);
    m_arrow->start->setCoords(from);
    m_arrow->end->setCoords(to);
    m_arrow->setPen(QPen(line, 1.5));
    m_arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 9, 11));
    m_arrow->setSelectable(false);

    m_label->setLayer(kBaselineLayer);
    m_label->position->setType(QCPItemPosition::ptAbsolute);
    m_label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_label->setPadding(QMargins(2, 0, 2, 0));
    m_label->setText(label);
    m_label->setColor(color.darker(130));
    QFont font = plot->font();
    font.setBold(true);
    m_label->setFont(font);
    m_label->setSelectable(false);
    m_label->setClipToAxisRect(true);
    m_label->setVisible(false);

    m_leader = new QCPItemLine(plot);
    m_leader->setLayer(kBaselineLayer);
    m_leader->start->setType(QCPItemPosition::ptAbsolute);
    m_leader->end->setType(QCPItemPosition::ptAbsolute);
    m_leader->setPen(QPen(line, 0.8));
    m_leader->setSelectable(false);
    m_leader->setClipToAxisRect(true);
    m_leader->setVisible(false);
}

BaselineArrow::~BaselineArrow()
{
    removeItem(m_plot, m_leader);
    removeItem(m_plot, m_arrow);
    removeItem(m_plot, m_label);
}

std::optional<QRectF> BaselineArrow::placeLabel(chart::LabelField &field)
{
    hideLabel();
    if (m_label->text().isEmpty())
        return std::nullopt;
    // Halfway in log space, which is halfway on the screen.
    const QCPAxis *x = m_plot->xAxis;
    const QCPAxis *y = m_plot->yAxis;
    const QPointF middle(x->coordToPixel(std::sqrt(m_from.x() * m_to.x())),
        y->coordToPixel(std::sqrt(m_from.y() * m_to.y())));
    if (!field.bounds().contains(middle))
        return std::nullopt;
    const QFontMetricsF metrics(m_label->font());
    const QSizeF size(std::ceil(metrics.horizontalAdvance(m_label->text())) + 5.0,
        std::ceil(metrics.height()) + 1.0);
    const auto spot = field.place(middle, size, 2.0);
    if (!spot)
        return std::nullopt;
    m_label->position->setCoords(spot->box.topLeft());
    m_label->setVisible(true);
    if (spot->leader) {
        m_leader->start->setCoords(middle);
        m_leader->end->setCoords(std::clamp(middle.x(), spot->box.left(), spot->box.right()),
            std::clamp(middle.y(), spot->box.top(), spot->box.bottom()));
        m_leader->setVisible(true);
    }
    return spot->box;
}

void BaselineArrow::hideLabel()
{
    m_label->setVisible(false);
    m_leader->setVisible(false);
}

double BaselineArrow::distanceTo(const QPointF &position) const
{
    return std::min(distance(m_label, position), distance(m_arrow, position));
}

NoteCallout::NoteCallout(QCustomPlot *plot, QPointF at, const QString &text, const QColor &color,
    const QColor &background)
    : m_plot(plot)
    , m_at(at)
    , m_anchor(new QCPItemTracer(plot))
    , m_box(new QCPItemText(plot))
    , m_leader(new QCPItemLine(plot))
{
    m_anchor->setLayer(kAnnotationLayer);
    m_anchor->position->setCoords(at);
    m_anchor->setStyle(QCPItemTracer::tsCircle);
    m_anchor->setSize(5);
    m_anchor->setPen(QPen(color, 1.2));
    m_anchor->setBrush(Qt::NoBrush);
    m_anchor->setSelectable(false);

    // Up and to the right of the anchor, a fixed number of pixels at any zoom.
    m_box->setLayer(kAnnotationLayer);
    m_box->position->setType(QCPItemPosition::ptAbsolute);
    m_box->position->setParentAnchor(m_anchor->position);
    m_box->position->setCoords(18, -18);
    m_box->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_box->setTextAlignment(Qt::AlignLeft);
    m_box->setPadding(QMargins(5, 3, 5, 3));
    m_box->setPen(QPen(color, 1.0));
    QColor fill = background;
    fill.setAlpha(230);
    m_box->setBrush(fill);
    m_box->setColor(color);
    m_box->setText(text);
    m_box->setSelectable(false);

    m_leader->setLayer(kAnnotationLayer);
    m_leader->start->setParentAnchor(m_anchor->position);
    m_leader->start->setCoords(0, 0);
    m_leader->end->setParentAnchor(m_box->bottomLeft);
    m_leader->end->setCoords(0, 0);
    m_leader->setPen(QPen(color, 1.0));
    m_leader->setSelectable(false);
}

NoteCallout::~NoteCallout()
{
    removeItem(m_plot, m_leader);
    removeItem(m_plot, m_box);
    removeItem(m_plot, m_anchor);
}

void NoteCallout::moveTo(QPointF at)
{
    m_at = at;
    m_anchor->position->setCoords(at);
}

double NoteCallout::distanceTo(const QPointF &position) const
{
    return std::min(distance(m_box, position), distance(m_anchor, position));
}

TargetLine::TargetLine(QCustomPlot *plot, Kind kind, double value, double fraction, double top,
    const QString &label, const QColor &color)
    : m_plot(plot)
    , m_kind(kind)
    , m_level(value * fraction)
    , m_from(kind == Kind::Memory ? kFarLeft : value / top)
    , m_to(kind == Kind::Memory ? top / value : kFarRight)
    , m_line(new QCPItemLine(plot))
    , m_label(new QCPItemText(plot))
{
    m_line->setLayer(kAnnotationLayer);
    m_line->start->setCoords(m_from, valueAt(m_from));
    m_line->end->setCoords(m_to, valueAt(m_to));
    m_line->setPen(QPen(color, 1.6, Qt::DashDotLine));
    m_line->setSelectable(false);

    m_label->setLayer(kAnnotationLayer);
    m_label->setText(label);
    m_label->setColor(color);
    QFont font = plot->font();
    font.setItalic(true);
    m_label->setFont(font);
    m_label->setPadding(QMargins(2, 1, 2, 0));
    m_label->setSelectable(false);
    // Under the line: the roof's own label sits above its line.
    if (kind == Kind::Memory) {
        m_label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    } else {
        m_label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        m_label->position->setTypeX(QCPItemPosition::ptAbsolute);
        m_label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    }
    placeLabel();
}

TargetLine::~TargetLine()
{
    removeItem(m_plot, m_line);
    removeItem(m_plot, m_label);
}

double TargetLine::valueAt(double x) const
{
    return m_kind == Kind::Memory ? m_level * x : m_level;
}

void TargetLine::placeLabel()
{
    QCPAxis *xAxis = m_plot->xAxis;
    QCPAxis *yAxis = m_plot->yAxis;
    if (m_kind == Kind::Compute) {
        const QRect rect = m_plot->axisRect()->rect();
        m_label->position->setCoords(rect.right() - 4.0, m_level);
        return;
    }
    // A little right of where the line enters the view (through the left edge or the bottom).
    const QCPRange xr = xAxis->range();
    const QCPRange yr = yAxis->range();
    double x = std::max(xr.lower, yr.lower / m_level) * 1.3;
    x = std::min(x, m_to / 2.0);
    const double y = valueAt(x);
    m_label->position->setCoords(x, y);
    const QPointF a(xAxis->coordToPixel(x), yAxis->coordToPixel(y));
    const QPointF b(xAxis->coordToPixel(x * 10.0), yAxis->coordToPixel(y * 10.0));
    m_label->setRotation(qRadiansToDegrees(std::atan2(b.y() - a.y(), b.x() - a.x())));
}

double TargetLine::distanceTo(const QPointF &position) const
{
    return std::min(distance(m_line, position), distance(m_label, position));
}

} // namespace ridgepoint::review
