// What the chart says about a point when the mouse rests on it: its name and group, the what-if
// move, its counts per level, performance against what it could attain and why, how far it is
// from its roof and what would move it there, and how it would fare on the compared machine.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <cstddef>

namespace ridgepoint {

class Document;
struct KernelPoint;
struct PointAnalysis;

namespace chart {

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
    static QString aboutTheAnalysis(const PointAnalysis &analysis);
    static QString onTheOtherMachine(
        const Document &document, std::size_t index, const PointAnalysis &analysis);
    // Its share of the measured time and its payoff (docs/MODEL.md §2.2), empty without a time.
    static QString timeAndPayoff(
        const Document &document, std::size_t index, const PointAnalysis &analysis);
};

} // namespace chart

} // namespace ridgepoint
