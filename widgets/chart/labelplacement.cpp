#include "widgets/chart/labelplacement.h"

#include "widgets/chart/layoutfit.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/charttheme.h"

#include <QTransform>

#include <algorithm>
#include <array>
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
    const qsizetype split = text.lastIndexOf(QStringLiteral("  "));
    const QString value = split < 0 ? QString() : text.mid(split);
    const QStringList names
        = text.left(split < 0 ? text.size() : split).split(QStringLiteral(" · "));
    // Shorter and shorter: the names after the first ("BF16 tensor…"), then the first name's
    // words after its first ("BF16…", "MI300X FP32…"), never less than a whole word.
    QStringList candidates;
    for (qsizetype k = names.size() - 1; k >= 1; --k)
        candidates << QStringList(names.begin(), names.begin() + k).join(QStringLiteral(" · "));
    const QStringList words = names.front().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (qsizetype k = words.size() - 1; k >= 1; --k)
        candidates << QStringList(words.begin(), words.begin() + k).join(QLatin1Char(' '));
    // A compared machine's roof: its name held to the ceiling's first word by no-break spaces
    // ("MI300X BF16…"), at the least the machine's name ("MI300X…").
    if (!words.isEmpty() && words.front().contains(QChar::Nbsp))
        candidates << words.front().left(words.front().lastIndexOf(QChar::Nbsp));
    for (const QString &candidate : candidates) {
        QString shown = candidate + QStringLiteral("…") + value;
        if (metrics.horizontalAdvance(shown) <= room)
            return shown;
    }
    return {};
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

QRect TextMeasure::measure(const QFont &font, int flags, const QString &text)
{
    for (const Entry &entry : m_entries) {
        if (entry.flags == flags && entry.text == text && entry.font == font)
            return entry.rect;
    }
    // A handful of labels, each with a few elided forms: a bound that is never reached in a
    // layout, kept so that a long-lived measure cannot grow without end.
    if (m_entries.size() >= 256)
        m_entries.clear();
    const QRect rect = QFontMetrics(font).boundingRect(0, 0, 0, 0, flags, text);
    m_entries.push_back({ font, flags, text, rect });
    return rect;
}

namespace {

// A text's corners in widget pixels (top left, top right, bottom left) from its measured size:
// its padded box hung from its position by the position alignment (whole pixels), then turned
// about the position by its rotation. The geometry of QCPItemText's own anchors.
std::array<QPointF, 3> textCorners(const QCPItemText &text, const QRect &measured)
{
    const QMargins pad = text.padding();
    QRectF box = QRectF(measured).adjusted(-pad.left(), -pad.top(), pad.right(), pad.bottom());
    const Qt::Alignment hang = text.positionAlignment();
    QPointF corner(0.0, 0.0);
    if (hang & Qt::AlignHCenter)
        corner.setX(-box.width() / 2.0);
    else if (hang & Qt::AlignRight)
        corner.setX(-box.width());
    if (hang & Qt::AlignVCenter)
        corner.setY(-box.height() / 2.0);
    else if (hang & Qt::AlignBottom)
        corner.setY(-box.height());
    box.moveTopLeft(corner.toPoint());
    const QPointF at = text.position->pixelPosition();
    QTransform place;
    place.translate(at.x(), at.y());
    if (!qFuzzyIsNull(text.rotation()))
        place.rotate(text.rotation());
    return { place.map(box.topLeft()), place.map(box.topRight()), place.map(box.bottomLeft()) };
}

} // namespace

std::vector<QRectF> textBoxes(const QCPItemText &text)
{
    TextMeasure measure;
    return textBoxes(text, measure);
}

std::vector<QRectF> textBoxes(const QCPItemText &text, TextMeasure &measure)
{
    const QFont &font = text.selected() ? text.selectedFont() : text.font();
    const auto [topLeft, topRight, bottomLeft] = textCorners(
        text, measure.measure(font, Qt::TextDontClip | text.textAlignment(), text.text()));
    const QPointF along = topRight - topLeft;
    const QPointF across = bottomLeft - topLeft;
    const double length = std::hypot(along.x(), along.y());
    const double height = std::hypot(across.x(), across.y());
    // A level text is its box; a turned one a row of pieces about as long as it is high.
    const int pieces = text.rotation() == 0.0 || !(height > 0.0)
        ? 1
        : std::clamp(static_cast<int>(std::ceil(length / height)), 1, 64);
    std::vector<QRectF> boxes;
    boxes.reserve(static_cast<std::size_t>(pieces));
    for (int i = 0; i < pieces; ++i) {
        const QPointF start = topLeft + along * (static_cast<double>(i) / pieces);
        const QPointF end = topLeft + along * (static_cast<double>(i + 1) / pieces);
        const QPolygonF piece({ start, end, end + across, start + across });
        boxes.push_back(piece.boundingRect());
    }
    return boxes;
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
            const std::vector<QRectF> boxes = textBoxes(*text);
            rects.insert(rects.end(), boxes.begin(), boxes.end());
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

LegendGrid LegendPlacement::grid() const
{
    const QCPLegend *legend = m_plot->legend;
    LegendGrid grid;
    for (const QCPAbstractLegendItem *item : entries(legend))
        grid.entries.push_back(item->minimumOuterSizeHint());
    grid.spacing = QSize(legend->columnSpacing(), legend->rowSpacing());
    grid.margins = legend->margins();
    return grid;
}

std::optional<int> LegendPlacement::rowsInCorner(int width) const
{
    const int height = static_cast<int>(kLegendShare * m_plot->viewport().height());
    return cornerRows(grid(), QSize(width, height));
}

int LegendPlacement::rowsBelow() const
{
    return stripRows(grid(), m_plot->viewport().width());
}

void LegendPlacement::arrange(int rows)
{
    QCPLegend *legend = m_plot->legend;
    rows = std::max(1, rows);
    if (legend->fillOrder() == QCPLayoutGrid::foRowsFirst && legend->wrap() == rows)
        return;
    // Read in the current order, filled again down each column.
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, false);
    legend->setWrap(rows);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
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
        // A strip under the chart: as many columns as the width takes.
        arrange(rowsBelow());
        const int row = m_plot->plotLayout()->rowCount();
        m_plot->plotLayout()->addElement(row, 0, legend);
        m_plot->plotLayout()->setRowStretchFactor(row, 0.001);
    } else {
        m_plot->plotLayout()->take(legend);
        m_plot->plotLayout()->simplify();
        inset->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
    }
    m_outside = outside;
    style(theme);
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

LegendPlacement::Decision LegendPlacement::decide(
    const ChartTheme &theme, const Callbacks &callbacks)
{
    if (m_outside) {
        setOutside(false, theme);
        callbacks.relayout();
    }
    const QRect area = m_plot->axisRect()->rect();
    // A legend over more than half the plot's width, or over kLegendShare of the chart's height
    // in as many columns as that width holds, goes under the plot.
    const std::optional<int> rows = rowsInCorner(area.width() / 2);
    if (!rows || area.height() <= 0)
        return { true, {} };
    arrange(*rows);
    const QSize size = m_plot->legend->minimumOuterSizeHint();
    const std::vector<QRectF> obstacles = itemRects(*m_plot);
    const auto covered = [&](const QRect &box) {
        return std::any_of(obstacles.begin(), obstacles.end(),
                   [&box](const QRectF &r) { return QRectF(box).intersects(r); })
            || callbacks.markersIn(box) || (callbacks.crowding && callbacks.crowding(box) > 0);
    };
    if (const auto corner = freeCorner(size, area, covered))
        return { false, *corner, *rows };
    // No corner clear of the density too: verified() looks for the least crowded one.
    if (callbacks.crowding)
        return { false, kLegendCorners.front(), *rows };
    return { true, {} };
}

LegendPlacement::Decision LegendPlacement::verified(
    Decision first, const ChartTheme &theme, const Callbacks &callbacks)
{
    if (first.below)
        return first;
    // The roofs' labels give way to the legend, and one with no other place is left out: a
    // corner must leave as many labels shown as the plot without a legend.
    m_plot->legend->setVisible(false);
    callbacks.relayout();
    const std::size_t shown = itemRects(*m_plot).size();
    m_plot->legend->setVisible(true);
    std::vector<Qt::Alignment> order { first.corner };
    for (const Qt::Alignment corner : kLegendCorners) {
        if (corner != first.corner)
            order.push_back(corner);
    }
    // Of the corners that cover nothing, the one over the fewest density cells (the first of
    // them in order on a tie).
    std::optional<std::pair<int, Qt::Alignment>> best;
    for (const Qt::Alignment corner : order) {
        putInCorner(corner, first.rows, theme, callbacks.relayout);
        callbacks.relayout();
        keepLabelsInside(m_plot);
        const QRectF box = m_plot->legend->outerRect();
        const std::vector<QRectF> obstacles = itemRects(*m_plot);
        const bool covers = callbacks.markersIn(box) || obstacles.size() < shown
            || std::any_of(obstacles.begin(), obstacles.end(),
                [&box](const QRectF &r) { return box.intersects(r); });
        if (covers)
            continue;
        const int crowding = callbacks.crowding ? callbacks.crowding(box) : 0;
        if (crowding == 0)
            return { false, corner, first.rows };
        if (!best || crowding < best->first)
            best = std::pair(crowding, corner);
    }
    if (!best)
        return { true, {} };
    putInCorner(best->second, first.rows, theme, callbacks.relayout);
    callbacks.relayout();
    keepLabelsInside(m_plot);
    return { false, best->second, first.rows };
}

void LegendPlacement::putInCorner(
    Qt::Alignment corner, int rows, const ChartTheme &theme, const std::function<void()> &relayout)
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
    // A chosen corner (not Auto's) has as many columns as keep the legend low and within the
    // plot's width.
    const QRect area = m_plot->axisRect()->rect();
    if (rows <= 0)
        rows = rowsInCorner(area.width() - 8).value_or(static_cast<int>(entries(legend).size()));
    arrange(rows);
    // As many rows as the plot's height holds, the last entry saying how many are left.
    const int room = area.height() - 8;
    const auto all = entries(legend);
    if (legend->minimumOuterSizeHint().height() > room && !all.empty()) {
        const int row = all.front()->minimumOuterSizeHint().height() + legend->rowSpacing();
        const QMargins margins = legend->margins();
        const int fit = std::max(
            1, (room - margins.top() - margins.bottom() + legend->rowSpacing()) / std::max(1, row));
        const int columns = std::max(1, legend->columnCount());
        keepEntries(fit * columns - 1);
        arrange(fit);
    }
    inset->update(QCPLayoutElement::upLayout);
}

void LegendPlacement::putBelow(
    const ChartTheme &theme, const std::function<void()> &relayout, bool dirty)
{
    QCPLegend *legend = m_plot->legend;
    const int wrapBefore = legend->wrap();
    const bool moved = !m_outside;
    if (moved)
        setOutside(true, theme);
    arrange(rowsBelow()); // the width may have changed
    if (moved || dirty || legend->wrap() != wrapBefore)
        relayout();
    // Too long a strip leaves the plot too low: a row fewer at a time, with "+N more".
    const int minimum = minPlotHeight();
    const int columns = std::max(1, legend->columnCount());
    int rows = legend->rowCount();
    while (m_plot->axisRect()->rect().height() < minimum && rows > 1) {
        --rows;
        keepEntries(rows * columns - 1);
        arrange(rows);
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
    const std::function<bool(const QRectF &)> &markersIn, const std::function<void()> &relayout,
    const std::function<int(const QRectF &)> &crowding)
{
    const Callbacks callbacks { markersIn, relayout, crowding };
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
    Decision decision { m_mode == LegendMode::Below, cornerOf(m_mode) };
    if (m_mode == LegendMode::Auto) {
        const std::pair<int, int> size(m_plot->viewport().width(), m_plot->viewport().height());
        const auto known = std::find_if(m_decided.begin(), m_decided.end(),
            [&size](const auto &entry) { return entry.first == size; });
        if (known != m_decided.end()) {
            decision = known->second;
        } else {
            decision = verified(decide(theme, callbacks), theme, callbacks);
            if (m_decided.size() >= 8)
                m_decided.erase(m_decided.begin());
            m_decided.emplace_back(size, decision);
        }
    }
    if (decision.below)
        putBelow(theme, relayout, !wasVisible || hiddenBefore > 0);
    else
        putInCorner(decision.corner, decision.rows, theme, relayout);
    if (!wasVisible || hiddenBefore != leftOut())
        relayout();
}

} // namespace ridgepoint::chart
