// placeRoofLabels() (labelplacement.h): every roof label of both machines placed as one problem
// with the markers, the legend and a density's occupied cells.
#include "widgets/chart/labelplacement.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/pointlabelplacement.h"

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

// The plot's free space for roof labels: what a place costs, and the places taken.
class RoofLabelField
{
public:
    RoofLabelField(const QRectF &area, const RoofLabelSet &set)
        : m_area(area)
        , m_field(area, 24.0)
        , m_crowding(set.crowding)
    {
        for (const QRectF &box : set.obstacles)
            m_field.addObstacle(box);
    }

    const QRectF &area() const { return m_area; }

    // The sum of a label's costs over its boxes (textBoxes); infinite when none is in view.
    double cost(const QCPItemText &text) const
    {
        bool over = false;
        bool outside = false;
        bool seen = false;
        int cells = 0;
        for (const QRectF &box : textBoxes(text, m_measure)) {
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
            + kRoofLabelPerCell * cells;
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
    QRectF m_area;
    LabelField m_field;
    std::function<int(const QRectF &)> m_crowding;
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
        const double cost = field.cost(*roof.label()) + k;
        if (cost < bestCost) {
            best = x;
            bestCost = cost;
        }
        if (cost <= k)
            break; // free here: every place further along costs more
    }
    if (best)
        roof.placeLabel(*best, 0.0);
    settle(roof, field, best && bestCost < kRoofLabelOutside);
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
    std::optional<FlatPlace> &best, double &bestCost)
{
    const QFontMetrics metrics(roof.label()->font());
    const double width = field.area().width();
    roof.setLabelFlipped(row.flipped);
    for (int step = 0; step * kFlatStep < width; ++step) {
        const double shift = step * kFlatStep;
        // Further left, less room: the start of the names is elided (fitFlatLabel), and a
        // label with no room for more than its value goes no further.
        const int room = static_cast<int>(width - 8.0 - shift - 10.0);
        const QString shown = fitFlatLabel(roof.text(), metrics, room);
        if (shown.isEmpty())
            break;
        roof.label()->setText(shown);
        roof.placeLabel(0.0, shift, row.lift);
        const double least = penalty + shift / kFlatStep;
        const double cost
            = field.cost(*roof.label()) + (shown == roof.text() ? 0.0 : kRoofLabelElided) + least;
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
    // On its own side of the line first, then a few pixels off it (past markers touching the
    // line), then on the other side.
    for (const bool flipped : { false, true }) {
        for (const double lift : kFlatLifts) {
            const double penalty = (flipped ? kRoofLabelOutside / 2.0 : 0.0) + 10.0 * lift;
            tryFlatRow(roof, field, { 0.0, lift, flipped, {} }, penalty, best, bestCost);
            if (bestCost < kRoofLabelOverObstacle)
                break;
        }
        if (bestCost < kRoofLabelOverObstacle)
            break;
    }
    roof.setLabelFlipped(best && best->flipped);
    if (best) {
        roof.label()->setText(best->text);
        roof.placeLabel(0.0, best->shift, best->lift);
    }
    settle(roof, field, best && (always || bestCost < kRoofLabelOutside));
}

// The ridge's label: rows below the knee, right of the drop line then left of it, then rows
// above the knee; the first place that covers nothing, else the cheapest.
constexpr int kRidgeRowsBelow = 6;
constexpr int kRidgeRowsAbove = 2;

void placeRidge(RidgeMarker &ridge, RoofLabelField &field)
{
    std::optional<std::pair<int, bool>> best;
    double bestCost = std::numeric_limits<double>::infinity();
    int tried = 0;
    const auto tryAt = [&](int row, bool left) {
        ridge.placeLabel(row, left);
        const double least = tried++;
        const double cost = field.cost(*ridge.label()) + least;
        if (cost < bestCost) {
            best = std::pair(row, left);
            bestCost = cost;
        }
        return cost <= least; // free here: every later place costs more
    };
    bool found = false;
    for (int i = 0; i < kRidgeRowsBelow + kRidgeRowsAbove && !found; ++i) {
        const int row = i < kRidgeRowsBelow ? i : kRidgeRowsBelow - 1 - i; // then -1, -2
        found = tryAt(row, false) || tryAt(row, true);
    }
    if (best)
        ridge.placeLabel(best->first, best->second);
    ridge.label()->setVisible(best.has_value());
    if (best)
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
