// PointLayer's labels (pointlayer.h): placed around the plot's other texts and markers at each
// layout (pointlabelplacement.h decides where), and what they show.
#include "widgets/chart/pointlayer.h"

#include "widgets/chart/chartdecorations.h"
#include "widgets/chart/geometry/pointlabelplacement.h"

#include <algorithm>

namespace ridgepoint::chart {

void PointLayer::hideLabels()
{
    // Every drawing's labels, the points' own included: one left visible from the last layout
    // is an obstacle to its own placement in the next (the labels then alternate between
    // replots).
    for (auto *drawing : { &m_isolatedDrawing, &m_decorations, &m_drawing }) {
        for (auto &label : drawing->labels)
            label->hide();
    }
}

void PointLayer::stackCrossingLabels()
{
    // In pixels, at the layout's axes: each label one line higher until it covers no earlier
    // one (a zoom that spreads the rings apart lets them come down again).
    std::vector<QRectF> taken;
    for (auto &crossing : m_drawing.crossings) {
        QRectF box;
        for (int row = 0; row < 32; ++row) {
            crossing->setRow(row);
            box = crossing->labelBox();
            // A row is a box's height: boxes one row apart touch, and rounding must not make
            // that an overlap (every other row left empty).
            const QRectF inner = box.adjusted(0.0, 1.0, 0.0, -1.0);
            if (std::none_of(taken.begin(), taken.end(),
                    [&inner](const QRectF &other) { return other.intersects(inner); }))
                break;
        }
        taken.push_back(box);
    }
}

void PointLayer::placeLabels(LabelField &field, bool isolatedOnly)
{
    const auto toPixels = [this](QPointF at) { return chart::toPixels(*m_plot, at); };
    // The dragged point first, then the selected and moved, then the others from the largest dot
    // down, then the names of LLM operator paths (drawSweep puts them with the points). In two
    // rounds: each label that had a spot takes it back if it is still free, then the others
    // look for one, so that a label does not move while the user zooms or drags another point
    // because one before it in the order lost its place and took its spot.
    for (const bool again : { true, false }) {
        for (auto *drawing : { &m_isolatedDrawing, &m_decorations, &m_drawing }) {
            if (isolatedOnly && drawing != &m_isolatedDrawing)
                break;
            for (auto &label : drawing->labels) {
                if (again ? label->choice() < 0 : label->placed())
                    continue;
                const QPointF anchor = toPixels(label->at());
                if (!field.bounds().contains(anchor)) {
                    label->hide();
                    continue;
                }
                const double clearance
                    = label->clearance() > 0.0 ? label->clearance() : kLabelClearance;
                LabelRequest request { anchor, label->size(), clearance, {}, label->choice() };
                request.preferredOnly = again;
                request.mustShow = drawing == &m_isolatedDrawing; // the point being dragged
                request.own.reserve(label->ownMarkers().size());
                for (const QPointF &at : label->ownMarkers())
                    request.own.emplace_back(toPixels(at));
                const auto spot = field.place(request);
                if (spot)
                    label->place(spot->box, spot->leader);
                if (spot || !again)
                    label->setChoice(spot ? spot->choice : -1);
            }
        }
    }
}

std::vector<PointLayer::PlacedLabel> PointLayer::placedLabels(bool withIsolated) const
{
    std::vector<PlacedLabel> out;
    for (const auto *drawing : { &m_isolatedDrawing, &m_decorations, &m_drawing }) {
        if (!withIsolated && drawing == &m_isolatedDrawing)
            continue;
        for (const auto &label : drawing->labels) {
            if (label->placed())
                out.push_back({ label->box(), label->text(), label->at(), label->leader() });
        }
    }
    return out;
}

QStringList PointLayer::labels() const
{
    QStringList out;
    for (const auto *drawing : { &m_drawing, &m_isolatedDrawing, &m_decorations }) {
        for (const auto &label : drawing->labels) {
            if (label->placed())
                out << label->text();
        }
    }
    return out;
}

} // namespace ridgepoint::chart
