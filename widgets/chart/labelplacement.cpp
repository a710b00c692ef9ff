#include "widgets/chart/labelplacement.h"

#include "widgets/chart/layoutfit.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint::chart {

std::optional<double> slantedLabelAt(
    const QCPRange &x, const QCPRange &y, double bandwidth, double top, int slot)
{
    return slantedLabelAlong(x, y, bandwidth, top, 0.06 + 0.05 * (slot % 3));
}

std::optional<double> slantedLabelAlong(
    const QCPRange &x, const QCPRange &y, double bandwidth, double top, double fraction)
{
    const double start = std::max(x.lower, y.lower / bandwidth);
    const double end = std::min({ x.upper, y.upper / bandwidth, top / bandwidth });
    if (!(start < end))
        return std::nullopt;
    return start * std::pow(end / start, fraction);
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

constexpr int kSlantedTries = 8;

// A text's box in pixels (a turned text's bounding box).
QRectF textBox(const QCPItemText &text)
{
    QPolygonF corners;
    for (const QCPItemAnchor *anchor :
        { text.topLeft, text.topRight, text.bottomRight, text.bottomLeft })
        corners << anchor->pixelPosition();
    return corners.boundingRect();
}

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
    // Slanted labels: on the visible part of their line, near its lower-left end; further
    // along it where an earlier one took the place (kSlantedTries steps of a tenth of the
    // visible line). The compared machine's label is left out when no step is free; the
    // current machine's keeps its first place.
    int slot = 0;
    std::vector<QRectF> taken;
    const auto placeSlanted = [&](RoofLine &roof, double top, bool mayHide) {
        const double first = 0.06 + 0.05 * (slot++ % 3);
        std::optional<double> chosen;
        for (int k = 0; k < kSlantedTries && first + 0.1 * k < 0.95; ++k) {
            const auto x = slantedLabelAlong(xr, yr, roof.value(), top, first + 0.1 * k);
            if (!x)
                break;
            if (!chosen)
                chosen = x; // the first place, kept when none is free
            roof.placeLabel(*x, 0.0);
            const QRectF box = textBox(*roof.label());
            if (std::none_of(taken.begin(), taken.end(),
                    [&box](const QRectF &t) { return t.intersects(box); })) {
                chosen = x;
                break;
            }
            if (k + 1 == kSlantedTries && mayHide)
                chosen.reset();
        }
        roof.label()->setVisible(chosen.has_value());
        if (chosen) {
            roof.placeLabel(*chosen, 0.0);
            taken.push_back(textBox(*roof.label()));
        }
    };
    std::vector<RoofLine *> flat;
    for (RoofLine *roof : roofs.own) {
        if (roof->kind() == RoofLine::Kind::Memory)
            placeSlanted(*roof, roofs.topPeak, false);
        else
            flat.push_back(roof);
    }
    for (RoofLine *roof : roofs.alternate) {
        if (roof->kind() == RoofLine::Kind::Memory)
            placeSlanted(*roof, roofs.topPeak, false);
        else
            flat.push_back(roof);
    }
    for (RoofLine *roof : roofs.compare) {
        if (roof->kind() == RoofLine::Kind::Memory)
            placeSlanted(
                *roof, roofs.compareTopPeak > 0.0 ? roofs.compareTopPeak : roofs.topPeak, true);
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

namespace {

constexpr std::array<const char *, 7> kLegendModeKeys
    = { "auto", "top-left", "top-right", "bottom-left", "bottom-right", "below", "hidden" };

Qt::Alignment cornerOf(LegendMode mode)
{
    switch (mode) {
    case LegendMode::TopRight:
        return Qt::AlignTop | Qt::AlignRight;
    case LegendMode::BottomLeft:
        return Qt::AlignBottom | Qt::AlignLeft;
    case LegendMode::BottomRight:
        return Qt::AlignBottom | Qt::AlignRight;
    default:
        return Qt::AlignTop | Qt::AlignLeft;
    }
}

// The last entry of a legend that had to leave some out: "+12 more".
class MoreLegendItem : public QCPAbstractLegendItem
{
public:
    MoreLegendItem(QCPLegend *legend, int count)
        : QCPAbstractLegendItem(legend)
        , m_text(QObject::tr("+%n more", nullptr, count))
    {
        setSelectable(false);
    }
    QSize minimumOuterSizeHint() const override
    {
        const QFontMetrics metrics(mFont);
        const QSize text = metrics.size(Qt::TextSingleLine, m_text);
        return { text.width() + mMargins.left() + mMargins.right(),
            text.height() + mMargins.top() + mMargins.bottom() };
    }

protected:
    void draw(QCPPainter *painter) override
    {
        painter->setFont(mFont);
        painter->setPen(QPen(mTextColor));
        painter->drawText(mRect, Qt::AlignLeft | Qt::AlignVCenter, m_text);
    }

private:
    QString m_text;
};

// The legend's entries in order (a wrapped legend's grid may have empty cells).
std::vector<QCPAbstractLegendItem *> entries(const QCPLegend *legend)
{
    std::vector<QCPAbstractLegendItem *> out;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = legend->item(i))
            out.push_back(item);
    }
    return out;
}

} // namespace

const char *legendModeKey(LegendMode mode)
{
    return kLegendModeKeys.at(static_cast<std::size_t>(mode));
}

LegendMode legendModeFromKey(const QString &key)
{
    for (std::size_t i = 0; i < kLegendModeKeys.size(); ++i) {
        if (key == QLatin1String(kLegendModeKeys[i]))
            return kLegendModes.at(i);
    }
    return LegendMode::Auto;
}

LegendPlacement::LegendPlacement(QCustomPlot *plot, int minPlotHeight)
    : m_plot(plot)
    , m_minPlotHeight(minPlotHeight)
{ }

LegendPlacement::~LegendPlacement() = default;

void LegendPlacement::setMode(LegendMode mode)
{
    m_mode = mode;
    invalidate();
}

int LegendPlacement::minPlotHeight() const
{
    return std::max(m_minPlotHeight, static_cast<int>(0.45 * m_plot->viewport().height()));
}

int LegendPlacement::stripColumns() const
{
    // As many entries to a row as the widest one allows across the plot's width.
    const QCPLegend *legend = m_plot->legend;
    int widest = 1;
    for (const QCPAbstractLegendItem *item : entries(legend))
        widest = std::max(widest, item->minimumOuterSizeHint().width());
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

void LegendPlacement::restoreEntries()
{
    QCPLegend *legend = m_plot->legend;
    if (m_more) {
        legend->removeItem(m_more);
        m_more = nullptr;
    }
    for (const auto &plottable : m_leftOut) {
        if (plottable)
            plottable->addToLegend(legend);
    }
    m_leftOut.clear();
}

void LegendPlacement::keepEntries(int keep)
{
    restoreEntries();
    QCPLegend *legend = m_plot->legend;
    const std::vector<QCPAbstractLegendItem *> all = entries(legend);
    const int count = static_cast<int>(all.size());
    if (keep >= count)
        return;
    keep = std::max(keep, 0);
    for (int i = count - 1; i >= keep; --i) {
        auto *entry = qobject_cast<QCPPlottableLegendItem *>(all[static_cast<std::size_t>(i)]);
        if (entry)
            m_leftOut.insert(m_leftOut.begin(), entry->plottable());
        legend->removeItem(all[static_cast<std::size_t>(i)]);
    }
    m_more = new MoreLegendItem(legend, count - keep);
    legend->addItem(m_more);
}

LegendPlacement::Decision LegendPlacement::decide(const ChartTheme &theme,
    const std::function<bool(const QRectF &)> &markersIn, const std::function<void()> &relayout)
{
    if (m_outside) {
        setOutside(false, theme);
        relayout();
    }
    const QRect area = m_plot->axisRect()->rect();
    const QSize size = cornerSize();
    // A legend over more than half the plot's width or 60 % of its height goes under it.
    if (size.width() > area.width() / 2 || size.height() > area.height() * 3 / 5)
        return { true, {} };
    const std::vector<QRectF> obstacles = itemRects(*m_plot);
    const auto covered = [&](const QRect &box) {
        return std::any_of(obstacles.begin(), obstacles.end(), [&box](const QRectF &r) {
            return QRectF(box).intersects(r);
        }) || markersIn(box);
    };
    if (const auto corner = freeCorner(size, area, covered))
        return { false, *corner };
    return { true, {} };
}

LegendPlacement::Decision LegendPlacement::verified(Decision first, const ChartTheme &theme,
    const std::function<bool(const QRectF &)> &markersIn, const std::function<void()> &relayout)
{
    if (first.below)
        return first;
    std::vector<Qt::Alignment> order { first.corner };
    for (const Qt::Alignment corner : kLegendCorners) {
        if (corner != first.corner)
            order.push_back(corner);
    }
    for (const Qt::Alignment corner : order) {
        putInCorner(corner, theme, relayout);
        relayout();
        keepLabelsInside(m_plot);
        const QRectF box = m_plot->legend->outerRect();
        const std::vector<QRectF> obstacles = itemRects(*m_plot);
        const bool covers = markersIn(box)
            || std::any_of(obstacles.begin(), obstacles.end(),
                [&box](const QRectF &r) { return box.intersects(r); });
        if (!covers)
            return { false, corner };
    }
    return { true, {} };
}

void LegendPlacement::putInCorner(
    Qt::Alignment corner, const ChartTheme &theme, const std::function<void()> &relayout)
{
    QCPLegend *legend = m_plot->legend;
    if (m_outside) {
        setOutside(false, theme);
        relayout();
    }
    QCPLayoutInset *inset = m_plot->axisRect()->insetLayout();
    for (int i = 0; i < inset->elementCount(); ++i) {
        if (inset->elementAt(i) == legend)
            inset->setInsetAlignment(i, corner);
    }
    // One entry a row: as many as the plot's height holds, the last saying how many are left.
    const int room = m_plot->axisRect()->rect().height() - 8;
    const auto all = entries(legend);
    if (legend->minimumOuterSizeHint().height() > room && !all.empty()) {
        const int row = all.front()->minimumOuterSizeHint().height() + legend->rowSpacing();
        const QMargins margins = legend->margins();
        const int rows = (room - margins.top() - margins.bottom()) / std::max(1, row);
        keepEntries(rows - 1);
    }
    inset->update(QCPLayoutElement::upLayout);
}

void LegendPlacement::putBelow(
    const ChartTheme &theme, const std::function<void()> &relayout, bool dirty)
{
    QCPLegend *legend = m_plot->legend;
    if (!m_outside || dirty) {
        setOutside(true, theme);
        relayout();
    }
    // Too long a strip leaves the plot too low: a row fewer at a time, with "+N more".
    const int minimum = minPlotHeight();
    const int columns = std::max(1, legend->wrap());
    int keep = static_cast<int>(entries(legend).size());
    while (m_plot->axisRect()->rect().height() < minimum && keep > 0) {
        keep = std::max(0, keep - columns);
        keepEntries(keep);
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        relayout();
    }
    if (m_plot->axisRect()->rect().height() < minimum) {
        // Not even "+N more" fits (a tiny export): the plot keeps the whole height.
        restoreEntries();
        setOutside(false, theme);
        legend->setVisible(false);
        relayout();
    }
}

void LegendPlacement::place(const ChartTheme &theme,
    const std::function<bool(const QRectF &)> &markersIn, const std::function<void()> &relayout)
{
    QCPLegend *legend = m_plot->legend;
    if (!legend || m_fixed)
        return;
    const bool wasVisible = legend->visible();
    const bool wasOutside = m_outside;
    const int hiddenBefore = leftOut();
    restoreEntries();
    legend->setVisible(m_mode != LegendMode::Hidden);
    if (m_mode == LegendMode::Hidden) {
        setOutside(false, theme);
        if (wasVisible || wasOutside || hiddenBefore > 0)
            relayout();
        return;
    }
    if (m_outside && stripColumns() != legend->wrap()) {
        legend->setWrap(stripColumns()); // the width changed
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
    Decision decision { m_mode == LegendMode::Below, cornerOf(m_mode) };
    if (m_mode == LegendMode::Auto) {
        const std::pair<int, int> size(m_plot->viewport().width(), m_plot->viewport().height());
        const auto known = std::find_if(m_decided.begin(), m_decided.end(),
            [&size](const auto &entry) { return entry.first == size; });
        if (known != m_decided.end()) {
            decision = known->second;
        } else {
            decision = verified(decide(theme, markersIn, relayout), theme, markersIn, relayout);
            if (m_decided.size() >= 8)
                m_decided.erase(m_decided.begin());
            m_decided.emplace_back(size, decision);
        }
    }
    if (decision.below)
        putBelow(theme, relayout, !wasVisible || hiddenBefore > 0);
    else
        putInCorner(decision.corner, theme, relayout);
    if (!wasVisible || hiddenBefore != leftOut())
        relayout();
}

} // namespace ridgepoint::chart
