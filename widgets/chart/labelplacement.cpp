#include "widgets/chart/labelplacement.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint::chart {

std::optional<double> slantedLabelAt(
    const QCPRange &x, const QCPRange &y, double bandwidth, double top, int slot)
{
    const double start = std::max(x.lower, y.lower / bandwidth);
    const double end = std::min({ x.upper, y.upper / bandwidth, top / bandwidth });
    if (!(start < end))
        return std::nullopt;
    return start * std::pow(end / start, 0.06 + 0.05 * (slot % 3));
}

double FlatLabelStack::shiftFor(double y, double height) const
{
    double shift = 0.0;
    for (const auto &p : m_placed) {
        if (std::abs(p.y - y) < height)
            shift = std::max(shift, p.right + kFlatLabelGap);
    }
    return shift;
}

void FlatLabelStack::add(double y, double shift, double width)
{
    m_placed.push_back({ y, shift + width + kFlatLabelTrail });
}

QString fitFlatLabel(const QString &text, const QFontMetrics &metrics, int room)
{
    if (metrics.horizontalAdvance(text) <= room)
        return text;
    const int value = metrics.horizontalAdvance(text.mid(text.lastIndexOf("  ")));
    return room > value + metrics.horizontalAdvance(QStringLiteral("…xxxx"))
        ? metrics.elidedText(text, Qt::ElideLeft, room)
        : QString();
}

namespace {

void placeFlat(QCustomPlot *plot, RoofLine &roof, FlatLabelStack &stack)
{
    if (roof.text().isEmpty())
        return;
    const QFontMetrics metrics(roof.label()->font());
    const double y = plot->yAxis->coordToPixel(roof.value());
    const double shift = stack.shiftFor(y, metrics.height() + 2.0);
    // Where labels stand side by side in a small plot, the last ones lose the start of their
    // names rather than run past the plot's left edge; one with no room for more than its
    // value is left out.
    const int room = static_cast<int>(plot->axisRect()->rect().width() - 8.0 - shift - 10.0);
    const QString shown = fitFlatLabel(roof.text(), metrics, room);
    roof.label()->setText(shown);
    roof.label()->setVisible(!shown.isEmpty());
    if (shown.isEmpty())
        return;
    roof.placeLabel(0.0, shift);
    stack.add(y, shift, metrics.horizontalAdvance(shown));
}

} // namespace

void placeRoofLabels(QCustomPlot *plot, const RoofLabelSet &roofs)
{
    const QCPRange xr = plot->xAxis->range();
    const QCPRange yr = plot->yAxis->range();
    // Slanted labels: on the visible part of their line, near its lower-left end.
    int slot = 0;
    const auto placeSlanted = [&](RoofLine &roof, double top) {
        const auto x = slantedLabelAt(xr, yr, roof.value(), top, slot++);
        roof.label()->setVisible(x.has_value());
        if (x)
            roof.placeLabel(*x, 0.0);
    };
    std::vector<RoofLine *> flat;
    for (RoofLine *roof : roofs.own) {
        if (roof->kind() == RoofLine::Kind::Memory)
            placeSlanted(*roof, roofs.topPeak);
        else
            flat.push_back(roof);
    }
    for (RoofLine *roof : roofs.compare) {
        if (roof->kind() == RoofLine::Kind::Memory)
            placeSlanted(*roof, roofs.compareTopPeak > 0.0 ? roofs.compareTopPeak : roofs.topPeak);
        else
            flat.push_back(roof);
    }
    // The active roof's label first, at the right edge, so crowding never hides the roof the
    // points are measured against; then the others from the top down. (Ceilings of one peak
    // share the first one's label.)
    const auto isActive = [&](const RoofLine *roof) {
        return roofs.activePeak
            && std::abs(roof->value() - *roofs.activePeak) <= 0.005 * *roofs.activePeak
            && std::find(roofs.own.begin(), roofs.own.end(), roof) != roofs.own.end();
    };
    std::sort(flat.begin(), flat.end(), [&](auto *a, auto *b) {
        if (isActive(a) != isActive(b))
            return isActive(a);
        return a->value() > b->value();
    });
    FlatLabelStack stack;
    for (RoofLine *roof : flat)
        placeFlat(plot, *roof, stack);
}

QRect cornerBox(Qt::Alignment corner, const QSize &size, const QRect &area)
{
    QRect box(QPoint(), size);
    if (corner & Qt::AlignLeft)
        box.moveLeft(area.left());
    else
        box.moveRight(area.right());
    if (corner & Qt::AlignTop)
        box.moveTop(area.top());
    else
        box.moveBottom(area.bottom());
    return box;
}

std::optional<Qt::Alignment> freeCorner(
    const QSize &size, const QRect &area, const std::function<bool(const QRect &)> &covered)
{
    for (const Qt::Alignment corner : kLegendCorners) {
        if (!covered(cornerBox(corner, size, area)))
            return corner;
    }
    return std::nullopt;
}

std::vector<QRectF> itemRects(const QCustomPlot &plot)
{
    std::vector<QRectF> rects;
    for (int i = 0; i < plot.itemCount(); ++i) {
        QCPAbstractItem *it = plot.item(i);
        if (!it->realVisibility())
            continue;
        if (auto *text = qobject_cast<QCPItemText *>(it)) {
            if (text->text().isEmpty())
                continue;
            QPolygonF corners;
            for (const QCPItemAnchor *anchor :
                { text->topLeft, text->topRight, text->bottomRight, text->bottomLeft })
                corners << anchor->pixelPosition();
            rects.push_back(corners.boundingRect());
        } else if (auto *tracer = qobject_cast<QCPItemTracer *>(it)) {
            const QPointF at = tracer->position->pixelPosition();
            const double r = tracer->size() / 2.0;
            rects.emplace_back(at.x() - r, at.y() - r, 2 * r, 2 * r);
        }
    }
    return rects;
}

LegendPlacement::LegendPlacement(QCustomPlot *plot, int minPlotHeight)
    : m_plot(plot)
    , m_minPlotHeight(minPlotHeight)
{ }

int LegendPlacement::stripColumns() const
{
    // As many entries to a row as the widest one allows across the plot's width.
    const QCPLegend *legend = m_plot->legend;
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i)
        widest = std::max(widest, legend->item(i)->minimumOuterSizeHint().width());
    const QMargins margins = legend->margins();
    const int room = m_plot->viewport().width() - margins.left() - margins.right();
    return std::max(1, (room + legend->columnSpacing()) / (widest + legend->columnSpacing()));
}

void LegendPlacement::style(const ChartTheme &theme)
{
    QCPLegend *legend = m_plot->legend;
    legend->setBrush(m_outside ? QBrush(Qt::NoBrush) : QBrush(theme.legendBackground));
    legend->setBorderPen(m_outside ? QPen(Qt::NoPen) : QPen(theme.grid));
}

void LegendPlacement::setOutside(bool outside, const ChartTheme &theme)
{
    if (outside == m_outside)
        return;
    QCPLegend *legend = m_plot->legend;
    QCPLayoutInset *inset = m_plot->axisRect()->insetLayout();
    if (outside) {
        inset->take(legend);
        inset->simplify();
        // A strip under the chart: entries side by side, as many to a row as the width takes.
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, false);
        legend->setWrap(stripColumns());
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        const int row = m_plot->plotLayout()->rowCount();
        m_plot->plotLayout()->addElement(row, 0, legend);
        m_plot->plotLayout()->setRowStretchFactor(row, 0.001);
    } else {
        m_plot->plotLayout()->take(legend);
        m_plot->plotLayout()->simplify();
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
        inset->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
    }
    m_outside = outside;
    style(theme);
}

QSize LegendPlacement::cornerSize()
{
    // The legend's size in a corner (one entry a row), measured without moving it there.
    QCPLegend *legend = m_plot->legend;
    if (!m_outside)
        return legend->minimumOuterSizeHint();
    legend->setWrap(0);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
    const QSize size = legend->minimumOuterSizeHint();
    legend->setWrap(stripColumns());
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    return size;
}

void LegendPlacement::place(const ChartTheme &theme,
    const std::function<bool(const QRectF &)> &markersIn, const std::function<void()> &relayout)
{
    QCPLegend *legend = m_plot->legend;
    if (!legend || m_fixed)
        return;
    if (m_squeezedOut) {
        legend->setVisible(true);
        m_squeezedOut = false;
    }
    if (!legend->visible())
        return;
    const QSize size = cornerSize();
    const std::vector<QRectF> obstacles = itemRects(*m_plot);
    const auto covered = [&](const QRect &box) {
        return std::any_of(obstacles.begin(), obstacles.end(), [&box](const QRectF &r) {
            return QRectF(box).intersects(r);
        }) || markersIn(box);
    };
    if (const auto corner = freeCorner(size, m_plot->axisRect()->rect(), covered)) {
        if (m_outside) {
            // The plot grows by the legend's strip; what was free stays nearly where it was.
            setOutside(false, theme);
            relayout();
        }
        QCPLayoutInset *inset = m_plot->axisRect()->insetLayout();
        for (int i = 0; i < inset->elementCount(); ++i) {
            if (inset->elementAt(i) == legend)
                inset->setInsetAlignment(i, *corner);
        }
        inset->update(QCPLayoutElement::upLayout);
        return;
    }
    // No corner is free: the legend goes under the chart, and the chart is laid out again for
    // the height it gave up.
    if (!m_outside) {
        setOutside(true, theme);
        relayout();
    }
    // Unless the strip leaves the plot too low to read (a small export with a table): then the
    // legend is left out of this layout, and the plot keeps the whole height.
    if (m_plot->axisRect()->rect().height() < m_minPlotHeight) {
        setOutside(false, theme);
        legend->setVisible(false);
        m_squeezedOut = true;
        relayout();
    }
}

} // namespace ridgepoint::chart
