#include "widgets/chart/layoutfit.h"

#include "widgets/chart/chartaxes.h"

#include <algorithm>
#include <cmath>

namespace ridgepoint::chart {
namespace {

// Where a label's owner put it and where it was turned to, kept on a turned item.
constexpr char kOwnAlign[] = "ridgepointOwnAlignment";
constexpr char kOwnPadding[] = "ridgepointOwnPadding";
constexpr char kTurned[] = "ridgepointTurnedTo";

} // namespace

int fittingTickCount(double length, double labelExtent)
{
    if (!(labelExtent > 0.0))
        return 5;
    // A label and a gap of half a label per tick, times 1.5 for the ticker's rounding.
    const double fit = length / (labelExtent * 1.5 * 1.5);
    return std::clamp(static_cast<int>(std::floor(fit)), 2, 12);
}

bool fitTickCounts(QCustomPlot *plot)
{
    bool changed = false;
    const QRect rect = plot->axisRect()->rect();
    for (QCPAxis *axis : { plot->xAxis, plot->yAxis }) {
        const QFontMetrics metrics(axis->tickLabelFont());
        const bool vertical = axis->orientation() == Qt::Vertical;
        // A line's height, or the widest label the axis prints: its ticker's labels at the
        // decades that bound the range ("0.001 FLOP/B" is wider than "10 FLOP/B").
        double extent = metrics.height();
        if (!vertical) {
            const auto *ticker = dynamic_cast<const QuantityLogTicker *>(axis->ticker().data());
            const QCPRange range = axis->range();
            extent = ticker && range.lower > 0.0
                ? std::max(metrics.horizontalAdvance(ticker->label(decadeFloor(range.lower))),
                    metrics.horizontalAdvance(ticker->label(decadeCeil(range.upper))))
                : metrics.horizontalAdvance(QStringLiteral("100 m"));
        }
        const int count = fittingTickCount(vertical ? rect.height() : rect.width(), extent);
        if (axis->ticker()->tickCount() != count) {
            axis->ticker()->setTickCount(count);
            changed = true;
        }
    }
    return changed;
}

void scaleItemFonts(QCustomPlot *plot)
{
    const double size = plot->font().pointSizeF();
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (!text || text->font().pointSizeF() == size)
            continue;
        QFont font = text->font();
        font.setPointSizeF(size);
        text->setFont(font);
    }
}

void keepLabelsInside(QCustomPlot *plot)
{
    const QRectF area = plot->axisRect()->rect();
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto *text = qobject_cast<QCPItemText *>(plot->item(i));
        if (!text || !text->realVisibility() || text->text().isEmpty() || text->rotation() != 0.0
            || text->position->type() != QCPItemPosition::ptPlotCoords)
            continue;
        // From the place its owner gave it, each time: a turn made for a smaller plot is
        // not kept. (Unless the owner has placed it anew since.)
        const QVariant turned = text->property(kTurned);
        if (turned.isValid() && turned.toInt() == int(text->positionAlignment())) {
            text->setPositionAlignment(Qt::Alignment(text->property(kOwnAlign).toInt()));
            text->setPadding(text->property(kOwnPadding).value<QMargins>());
        }
        text->setProperty(kTurned, QVariant());
        Qt::Alignment align = text->positionAlignment();
        QMargins pad = text->padding();
        const QRectF box
            = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition())
                  .normalized();
        if (!area.intersects(box) || area.contains(box))
            continue; // out of view with its anchor, or wholly inside
        if (align & Qt::AlignLeft && box.right() > area.right() && box.width() < area.width()) {
            align = (align & ~Qt::AlignLeft) | Qt::AlignRight;
            pad = QMargins(pad.right(), pad.top(), pad.left(), pad.bottom());
        }
        if (align & Qt::AlignTop && box.bottom() > area.bottom() && box.height() < area.height()) {
            align = (align & ~Qt::AlignTop) | Qt::AlignBottom;
            pad = QMargins(pad.left(), pad.bottom(), pad.right(), pad.top());
        }
        if (align != text->positionAlignment()) {
            text->setProperty(kOwnAlign, int(text->positionAlignment()));
            text->setProperty(kOwnPadding, QVariant::fromValue(text->padding()));
            text->setProperty(kTurned, int(align));
            text->setPadding(pad);
            text->setPositionAlignment(align);
        }
    }
}

} // namespace ridgepoint::chart
