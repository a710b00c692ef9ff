// What the chart says about a point when the mouse rests on it: its name and group, the what-if
// move, its counts per level, performance against what it could attain and why, how far it is
// from its roof and what would move it there, and how it would fare on the compared machine.
#pragma once

#include <QCoreApplication>
#include <QPoint>
#include <QRect>
#include <QSize>
#include <QString>

#include <cstddef>

class QWidget;

namespace ridgepoint {

class Document;
struct Diagnosis;
struct KernelPoint;
struct PointAnalysis;

namespace chart {

// Where a tooltip of `size` goes for the cursor at `cursor`, inside `window` (global pixels):
// below and right of the cursor, as Qt places it, but on the cursor's left where it would pass
// the window's right edge and above it where it would pass the bottom; pushed inside when even
// that does not fit (left and top edges win for a tooltip larger than the window).
QPoint tooltipTopLeft(const QPoint &cursor, const QSize &size, const QRect &window);
// QToolTip::showText, then the tooltip moved to tooltipTopLeft() inside `owner`'s window.
void showTooltip(const QPoint &global, const QString &html, QWidget *owner);

class ChartTooltip
{
    Q_DECLARE_TR_FUNCTIONS(ridgepoint::RooflinePlot)

public:
    // The tooltip of point `index` of `document` (rich text), empty for no such point.
    static QString describe(const Document &document, std::size_t index);
    // What would bring `point` up to its roof, or onto the compute roof: HTML lines.
    static QString reachTheRoof(const KernelPoint &point, const PointAnalysis &analysis);

private:
    static QString aboutThePoint(
        const Document &document, std::size_t index, const KernelPoint &point);
    // `likeliest`: the doctor's first cause when the document has a better one than the
    // point's own list (another machine, Document::otherMachineDiagnosis), else nullptr.
    static QString aboutTheAnalysis(const PointAnalysis &analysis, const Diagnosis *likeliest);
    static QString onTheOtherMachine(
        const Document &document, std::size_t index, const PointAnalysis &analysis);
    // Its share of the measured time and its payoff (docs/MODEL.md §2.2), empty without a time.
    static QString timeAndPayoff(
        const Document &document, std::size_t index, const PointAnalysis &analysis);
};

} // namespace chart

} // namespace ridgepoint
