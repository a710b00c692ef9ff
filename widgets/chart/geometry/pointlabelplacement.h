// Where the chart's point labels go so that they never cover each other, a marker, a roof's
// label or the legend, and stay inside the plot: a label tries eight spots around its marker,
// then spots further out in sixteen directions with a leader line back to the marker, and is
// left out when none is free. Up to kMaxNamedPoints points carry their (shortened) names;
// beyond that every point carries its number, the row number of the points table ("#").
// Plain geometry on pixel rectangles, so the tests drive it without a window.
#pragma once

#include <QLineF>
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

// Pixels from a marker's centre that its label keeps clear of by default (the largest fixed
// marker's half; a larger dot sets its own, PointLabel::setClearance).
inline constexpr double kLabelClearance = 7.0;

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

// Where one label went: its box in pixels, whether a leader line joins it to its marker (and
// where that line runs), and which of LabelField::place()'s spots it is (0–7 beside the marker,
// then the leader spots ring by ring): the next placement tries the same spot first.
struct LabelSpot {
    QRectF box;
    bool leader = false;
    QLineF leaderLine;
    int choice = -1;
};

// What LabelField::place() places: a label of `size` for a marker at `anchor` that reaches
// `clearance` pixels from its centre. `own` are the label's other markers (a kernel's memory
// levels), which may be nearer to it than `anchor`; `preferred` is the spot it had at the last
// placement (LabelSpot::choice), tried first so labels keep their side while the user zooms.
struct LabelRequest {
    QPointF anchor;
    QSizeF size;
    double clearance = 0.0;
    std::vector<QPointF> own;
    int preferred = -1;
    // Whether `anchor` is a marker, which the label must sit nearest to when beside it (not so
    // for the middle of an arrow).
    bool nearestOwn = true;
    // Only the preferred spot: the first round of a layout, where every label that had a spot
    // takes it back before any other looks for a new one (PointLayer::placeLabels).
    bool preferredOnly = false;
    // Shown wherever a free box is left when no spot keeps the rules above (the dragged point's
    // label, a speed-up's): its leader may then cross others, or it may sit nearer another
    // marker.
    bool mustShow = false;
};

// True when the segment `line` passes through `box` (Liang–Barsky clipping).
bool crosses(const QLineF &line, const QRectF &box);

// The free space of a plot: its bounds and the boxes already taken (markers, roof labels, the
// legend, labels placed so far), indexed in a grid so that thousands of markers stay cheap.
// Besides the boxes it knows the drawn lines (roofs: a label avoids crossing one where it can),
// the markers' centres (a label is never put beside a marker that is not its own, nearer to it
// than its own) and the leader lines placed so far (no leader crosses another or a box).
class LabelField
{
public:
    explicit LabelField(const QRectF &bounds, double cell = 32.0);

    const QRectF &bounds() const { return m_bounds; }
    void addObstacle(const QRectF &box);
    // A line a label should not cross where another spot is free (a roof).
    void addLine(const QLineF &line);
    // A marker's box: an obstacle that a leader line may cross, and its centre, for the rule
    // that a label sits nearest its own marker.
    void addMarker(const QRectF &box);
    // Inside the bounds, over no obstacle and no leader line.
    bool isFree(const QRectF &box) const;
    // The first free spot for the label, in this order: the preferred one; beside the marker
    // where no roof crosses it; one ring out with a leader, no roof crossing; beside the marker
    // over a roof; then ring by ring with a leader, each clear of roofs and then over them. A spot
    // beside the marker is taken only where no other marker is clearly nearer to the label than
    // its own, a leader's label hugs no other marker, and a leader crosses no text and no other
    // leader: a label with no such spot is left out (the table names it). The spot is taken (an
    // obstacle for the next labels). nullopt when there is none.
    std::optional<LabelSpot> place(const LabelRequest &request);
    std::optional<LabelSpot> place(QPointF anchor, QSizeF size, double clearance)
    {
        return place(LabelRequest { anchor, size, clearance, {}, -1, false, false, true });
    }

private:
    std::vector<std::size_t> cellsOf(const QRectF &box) const;
    void addBox(const QRectF &box, bool marker);
    // The spot numbered `choice` for `request` (nullopt past the last ring).
    std::optional<LabelSpot> spotAt(const LabelRequest &request, int choice) const;
    // How strict a pass of place() is: clear of roofs, or over them.
    enum class Pass { Clear, OverLines };
    bool acceptable(const LabelRequest &request, const LabelSpot &spot, Pass pass) const;
    bool crossesLine(const QRectF &box) const;
    // The distance from `box` to the nearest of the request's markers.
    static double ownDistance(const LabelRequest &request, const QRectF &box);
    // No marker but the request's own within `reach` of `box`.
    bool othersBeyond(const LabelRequest &request, const QRectF &box, double reach) const;
    // The texts and other leaders a leader from a marker of `clearance` crosses.
    int leaderCrossings(const QLineF &leader, QPointF anchor, double clearance) const;

    QRectF m_bounds;
    double m_cell;
    int m_columns;
    int m_rows;
    std::vector<QRectF> m_boxes;
    std::vector<bool> m_isMarker; // per box: a marker, which a leader may cross
    std::vector<std::vector<std::size_t>> m_grid; // box indices per cell
    std::vector<QLineF> m_lines;
    std::vector<QLineF> m_leaders;
    std::vector<QPointF> m_markers;
    std::vector<std::vector<std::size_t>> m_markerGrid; // marker indices per cell
};

// The spots tried for a label of `size` at distance `gap` from `anchor`: right, left, above,
// below and the four diagonals, in that order.
std::vector<QRectF> besideSpots(QPointF anchor, QSizeF size, double gap);

} // namespace ridgepoint::chart
