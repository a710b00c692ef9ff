// placeRoofLabels() (labelplacement.h): every roof label of both machines placed as one problem
// with the markers, the legend and a density's occupied cells.
#include "widgets/chart/labelplacement.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/geometry/pointlabelplacement.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

namespace ridgepoint::chart {
namespace {

// Places along a slanted roof: from its slot's first place, steps of a twentieth of the
// visible line.
constexpr int kSlantedTries = 18;
constexpr double kSlantedStep = 0.05;
// Places along a flat roof: steps of this many pixels leftwards from the right edge.
constexpr double kFlatStep = 12.0;
// And these many pixels off the line.
constexpr std::array<double, 3> kFlatLifts = { 0.0, 4.0, 8.0 };

// Whether `line` runs along `own`: parallel (within a degree) and within 1.5 pixels of it, as
// the roofline does over the active roofs and ceilings of one peak over each other.
bool alongside(const QLineF &line, const QLineF &own)
{
    const double turn = std::fmod(std::abs(line.angleTo(own)), 180.0);
    if (std::min(turn, 180.0 - turn) > 1.0 || own.length() <= 0.0)
        return false;
    // The distance of line's first point from own's infinite line.
    const QPointF d = own.p2() - own.p1();
    const QPointF p = line.p1() - own.p1();
    return std::abs(d.x() * p.y() - d.y() * p.x()) / own.length() <= 1.5;
}

// The plot's free space for roof labels: what a place costs, and the places taken.
class RoofLabelField
{
public:
    RoofLabelField(const QRectF &area, const RoofLabelSet &set)
        : m_area(area)
        , m_field(area, 24.0)
        , m_crowding(set.crowding)
        , m_lines(set.lines)
    {
        for (const QRectF &box : set.obstacles)
            m_field.addObstacle(box);
    }

    const QRectF &area() const { return m_area; }

    // The sum of a label's costs over its boxes (textBoxes); infinite when none is in view.
    // A line that runs along `own` (the label's roof, or a roof of the same figure) is not
    // counted as crossing it.
    double cost(const QCPItemText &text, const std::optional<QLineF> &own = std::nullopt) const
    {
        bool over = false;
        bool outside = false;
        bool seen = false;
        int cells = 0;
        const std::vector<QRectF> boxes = textBoxes(text, m_measure);
        for (const QRectF &box : boxes) {
            const QRectF inside = box.intersected(m_area);
            if (inside.isEmpty()) {
                outside = true;
                continue;
            }
            seen = true;
            over = over || !m_field.isFree(inside);
            outside = outside || !m_area.contains(box);
            if (m_crowding)
                cells += m_crowding(inside);
        }
        if (!seen)
            return std::numeric_limits<double>::infinity();
        return (over ? kRoofLabelOverObstacle : 0.0) + (outside ? kRoofLabelOutside : 0.0)
            + kRoofLabelPerCell * cells + kRoofLabelCrossed * crossings(boxes, own);
    }

    // An obstacle for the labels placed after it, not one of the roofs' labels.
    void block(const QCPItemText &text)
    {
        for (const QRectF &box : textBoxes(text, m_measure))
            m_field.addObstacle(box);
    }

    void take(const QCPItemText &text)
    {
        m_taken.push_back(textBoxes(text, m_measure));
        for (const QRectF &box : m_taken.back())
            m_field.addObstacle(box);
    }
    const std::vector<std::vector<QRectF>> &taken() const { return m_taken; }

private:
    // The lines through any of a label's boxes, but those along its own roof.
    int crossings(const std::vector<QRectF> &boxes, const std::optional<QLineF> &own) const
    {
        int count = 0;
        for (const QLineF &line : m_lines) {
            if (own && alongside(line, *own))
                continue;
            count += std::any_of(boxes.begin(), boxes.end(), [&](const QRectF &box) {
                return crosses(line, box.adjusted(1.5, 1.5, -1.5, -1.5));
            });
        }
        return count;
    }

    QRectF m_area;
    LabelField m_field;
    std::function<int(const QRectF &)> m_crowding;
    std::vector<QLineF> m_lines;
    std::vector<std::vector<QRectF>> m_taken; // per label
    // Each label's text measured once, not at every place it tries.
    mutable TextMeasure m_measure;
};

// Shows the label where it is and takes its place, or hides it.
void settle(RoofLine &roof, RoofLabelField &field, bool shown)
{
    roof.label()->setVisible(shown);
    if (shown)
        field.take(*roof.label());
}

void placeSlanted(
    const QCustomPlot &plot, RoofLine &roof, double top, int slot, RoofLabelField &field)
{
    // Where it was at the last layout, while that place is free: it does not slide along its
    // roof at every zoom step.
    if (const std::optional<double> last = roof.settledAt()) {
        roof.placeLabel(*last, 0.0);
        if (field.cost(*roof.label(), roof.pixelLine()) == 0.0) {
            settle(roof, field, true);
            return;
        }
    }
    const QCPRange xr = plot.xAxis->range();
    const QCPRange yr = plot.yAxis->range();
    const double first = 0.06 + 0.05 * (slot % 3);
    std::optional<double> best;
    double bestCost = std::numeric_limits<double>::infinity();
    for (int k = 0; k < kSlantedTries && first + kSlantedStep * k < 0.95; ++k) {
        const auto x = slantedLabelAlong(xr, yr, roof.value(), top, first + kSlantedStep * k);
        if (!x)
            break;
        roof.placeLabel(*x, 0.0);
        const double cost = field.cost(*roof.label(), roof.pixelLine()) + k;
        if (cost < bestCost) {
            best = x;
            bestCost = cost;
        }
        if (cost <= k)
            break; // free here: every place further along costs more
    }
    if (best)
        roof.placeLabel(*best, 0.0);
    const bool shown = best && bestCost < kRoofLabelOutside;
    roof.setSettledAt(shown ? best : std::nullopt);
    settle(roof, field, shown);
}

// A flat label's place: pixels left of the plot's right edge, off its line, on which side,
// and the text it shows there.
struct FlatPlace {
    double shift = 0.0;
    double lift = 0.0;
    bool flipped = false;
    QString text;
};

// The cheapest place along the line at one side and lift, if cheaper than `best` (`bestCost`).
void tryFlatRow(RoofLine &roof, RoofLabelField &field, FlatPlace row, double penalty,
    std::optional<FlatPlace> &best, double &bestCost, bool overItsLine)
{
    const QFontMetrics metrics(roof.label()->font());
    const double width = field.area().width();
    // The label stays over its own line: from where the roof begins (or the plot's left edge).
    const QLineF line = roof.pixelLine();
    const double lineLeft = overItsLine
        ? std::max(field.area().left(), std::min(line.x1(), line.x2()))
        : field.area().left();
    roof.setLabelFlipped(row.flipped);
    for (int step = 0; step * kFlatStep < width; ++step) {
        const double shift = step * kFlatStep;
        // Further left, less room: the names lose whole words from their end (fitFlatLabel),
        // and a label with no room for its first word and its value goes no further.
        const int room = static_cast<int>(field.area().right() - 4.0 - shift - lineLeft - 6.0);
        const QString shown = fitFlatLabel(roof.text(), metrics, room);
        if (shown.isEmpty())
            break;
        roof.label()->setText(shown);
        roof.placeLabel(0.0, shift, row.lift);
        const double least = penalty + shift / kFlatStep;
        const double cost = field.cost(*roof.label(), roof.pixelLine())
            + (shown == roof.text() ? 0.0 : kRoofLabelElided) + least;
        if (cost < bestCost) {
            best = FlatPlace { shift, row.lift, row.flipped, shown };
            bestCost = cost;
        }
        if (cost <= least)
            return; // free here: every place further left costs more
    }
}

void placeFlat(RoofLine &roof, RoofLabelField &field, bool always)
{
    if (roof.text().isEmpty()) {
        roof.label()->setVisible(false);
        return;
    }
    std::optional<FlatPlace> best;
    double bestCost = std::numeric_limits<double>::infinity();
    // Found once a place covers nothing and lies wholly inside the plot. A roof just under the
    // plot's top edge (MI250X's FP32 roof at 95.7 TFLOP/s under a 100 TFLOP/s frame) has its
    // own side outside: there it is the other side, not a label cut off by the edge.
    const auto found = [&] { return bestCost < kRoofLabelOutside; };
    // On its own side of the line first, then a few pixels off it (past markers touching the
    // line), then on the other side.
    // Over its own line where that has room; else (a short stretch of roof in a small plot)
    // anywhere along its height.
    for (const bool overItsLine : { true, false }) {
        for (const bool flipped : { false, true }) {
            for (const double lift : kFlatLifts) {
                const double penalty = (flipped ? kRoofLabelOutside / 2.0 : 0.0) + 10.0 * lift;
                tryFlatRow(
                    roof, field, { 0.0, lift, flipped, {} }, penalty, best, bestCost, overItsLine);
                if (found())
                    break;
            }
            if (found())
                break;
        }
        if (found())
            break;
    }
    roof.setLabelFlipped(best && best->flipped);
    if (best) {
        roof.label()->setText(best->text);
        roof.placeLabel(0.0, best->shift, best->lift);
    }
    settle(roof, field, best && (always || bestCost < kRoofLabelOutside));
}

// The ridge's label, in this order: rows below the knee right of the drop line, then left of
// it, close to the knee; then at the drop line's foot over the x axis (the dashed line leads
// there from the knee) rather than over the knee, where the active roof's label sits, or
// further from the knee mid-plot. The first place that covers and crosses nothing, else the
// cheapest.
struct RidgePlace {
    int row;
    bool foot;
};
constexpr std::array<RidgePlace, 10> kRidgePlaces
    = { { { 0, false }, { 1, false }, { 2, false }, { 0, true }, { 1, true }, { 2, true },
        { -1, false }, { -2, false }, { 3, false }, { 4, false } } };

void placeRidge(RidgeMarker &ridge, RoofLabelField &field)
{
    std::optional<std::pair<RidgePlace, bool>> best;
    double bestCost = std::numeric_limits<double>::infinity();
    int tried = 0;
    const auto tryAt = [&](RidgePlace place, bool left) {
        ridge.placeLabel(place.row, left, place.foot);
        const double least = tried++;
        const double cost = field.cost(*ridge.label()) + least;
        if (cost < bestCost) {
            best = std::pair(place, left);
            bestCost = cost;
        }
        return cost <= least; // free here: every later place costs more
    };
    for (const RidgePlace place : kRidgePlaces) {
        if (tryAt(place, false) || tryAt(place, true))
            break;
    }
    if (best)
        ridge.placeLabel(best->first.row, best->second, best->first.foot);
    // Only whole: with the knee past the plot's edge (a frame that ends short of the ridge)
    // every place near it is cut by the edge, and a cut "ridg" reads as nothing.
    const bool shown = best.has_value() && bestCost < kRoofLabelOutside;
    ridge.label()->setVisible(shown);
    if (shown)
        field.block(*ridge.label());
}

} // namespace

std::vector<std::vector<QRectF>> placeRoofLabels(QCustomPlot *plot, const RoofLabelSet &roofs)
{
    RoofLabelField field(plot->axisRect()->rect(), roofs);
    for (const auto *list : { &roofs.own, &roofs.alternate, &roofs.compare }) {
        for (RoofLine *roof : *list)
            roof->label()->setBrush(roofs.halo.isValid() ? QBrush(roofs.halo) : QBrush());
    }
    // The ridge's label first: it marks the knee, and the roofs' labels have room to move.
    if (roofs.ridge) {
        roofs.ridge->label()->setBrush(roofs.halo.isValid() ? QBrush(roofs.halo) : QBrush());
        placeRidge(*roofs.ridge, field);
    }
    const auto isActive = [&](const RoofLine *roof) {
        return roofs.activePeak && roof->kind() == RoofLine::Kind::Compute
            && std::abs(roof->value() - *roofs.activePeak) <= 0.005 * *roofs.activePeak
            && !roof->text().isEmpty()
            && std::find(roofs.own.begin(), roofs.own.end(), roof) != roofs.own.end();
    };
    // The active roof's label first, so crowding never hides the roof the points are measured
    // against. (Ceilings of one peak share the first one's label.)
    const RoofLine *active = nullptr;
    for (RoofLine *roof : roofs.own) {
        if (!active && isActive(roof)) {
            active = roof;
            placeFlat(*roof, field, true);
        }
    }
    // Then the current machine's slanted and flat labels, then the compared machine's; flat
    // ones from the top down.
    int slot = 0;
    const auto placeAll
        = [&](const std::vector<const std::vector<RoofLine *> *> &lists, double top) {
              std::vector<RoofLine *> flat;
              for (const auto *list : lists) {
                  for (RoofLine *roof : *list) {
                      if (roof->kind() == RoofLine::Kind::Memory)
                          placeSlanted(*plot, *roof, top, slot++, field);
                      else if (roof != active)
                          flat.push_back(roof);
                  }
              }
              std::stable_sort(flat.begin(), flat.end(),
                  [](auto *a, auto *b) { return a->value() > b->value(); });
              for (RoofLine *roof : flat)
                  placeFlat(*roof, field, false);
          };
    placeAll({ &roofs.own, &roofs.alternate }, roofs.topPeak);
    placeAll({ &roofs.compare }, roofs.compareTopPeak > 0.0 ? roofs.compareTopPeak : roofs.topPeak);
    return field.taken();
}

} // namespace ridgepoint::chart
