// Where the chart's point labels go so that they never cover each other, a marker, a roof's
// label or the legend, and stay inside the plot: a label tries eight spots around its marker,
// then spots further out in sixteen directions with a leader line back to the marker, and is
// left out when none is free. Up to kMaxNamedPoints points carry their (shortened) names;
// beyond that every point carries its number, the row number of the points table ("#").
// Plain geometry on pixel rectangles, so the tests drive it without a window.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <optional>
#include <vector>

namespace ridgepoint::chart {

// Up to this many points, each is named on the chart; beyond it, markers carry numbers.
inline constexpr std::size_t kMaxNamedPoints = 40;
// Beyond this many points not even numbers are drawn (only the selected points' names): a
// number per marker of a cloud is noise, and the density view takes over there.
inline constexpr std::size_t kMaxNumberedPoints = 400;

// The number a point carries on the chart and in the "#" column of the points table (window
// and export): its position in the document, counted from 1.
QString pointNumber(std::size_t index);

// A kernel's name as the chart shows it, so it can be matched to the table's full name:
// the argument list "(…)" goes, template arguments "<…>" go, a return type or qualifier
// before the name goes ("void daxpy" → "daxpy"), and a namespace or class prefix goes
// ("ns::Kernel::run" → "run"). A name that would come out empty stays as it was.
QString shortKernelName(const QString &name);

// The chart names of `names` (shortKernelName), those that come out the same told apart by
// their point number ("daxpy #1", "daxpy #3").
QStringList chartNames(const QStringList &names);

// Where one label went: its box in pixels and whether a leader line joins it to its marker.
struct LabelSpot {
    QRectF box;
    bool leader = false;
};

// The free space of a plot: its bounds and the boxes already taken (markers, roof labels, the
// legend, labels placed so far), indexed in a grid so that thousands of markers stay cheap.
class LabelField
{
public:
    explicit LabelField(const QRectF &bounds, double cell = 32.0);

    const QRectF &bounds() const { return m_bounds; }
    void addObstacle(const QRectF &box);
    // Inside the bounds and over no obstacle.
    bool isFree(const QRectF &box) const;
    // The first free spot for a label of `size` around a marker at `anchor` that reaches
    // `clearance` pixels from its centre: beside it, then further out with a leader. The spot
    // is taken (an obstacle for the next labels). nullopt when there is none.
    std::optional<LabelSpot> place(QPointF anchor, QSizeF size, double clearance);

private:
    std::vector<std::size_t> cellsOf(const QRectF &box) const;

    QRectF m_bounds;
    double m_cell;
    int m_columns;
    int m_rows;
    std::vector<QRectF> m_boxes;
    std::vector<std::vector<std::size_t>> m_grid; // box indices per cell
};

// The spots tried for a label of `size` at distance `gap` from `anchor`: right, left, above,
// below and the four diagonals, in that order.
std::vector<QRectF> besideSpots(QPointF anchor, QSizeF size, double gap);

} // namespace ridgepoint::chart
