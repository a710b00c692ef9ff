// The last few placements of the roofs' labels (placeRoofLabels), by everything a placement
// depends on. A layout places the labels at least twice (before and after the legend finds its
// place) and a replot of the same view lays the plot out again: each of those gives the same
// inputs, and so the same places, which the memo restores instead of searching again.
#pragma once

#include <qcustomplot.h>

#include <QColor>
#include <QFont>
#include <QRect>
#include <QRectF>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgepoint::chart {

class RoofLabelMemo
{
public:
    // What a placement depends on (rooflabelplacement.cpp reads nothing else).
    struct Key {
        std::uint64_t roofs = 0; // the roof layer's rebuild count: the roofs, texts and peaks
        QCPRange x;
        QCPRange y;
        QRect area; // the axis rect
        std::vector<QRectF> obstacles; // markers, other texts, the legend
        std::uint64_t crowding = 0; // the density's revision, 0 without one
        QColor halo;
        std::vector<QFont> fonts; // each label's, in order (the chart's font scale)
        bool operator==(const Key &other) const = default;
    };

    // The boxes remembered for `key` with `labels` (in the order they were remembered) put back
    // where that placement left them; nullopt when it is not remembered.
    std::optional<std::vector<std::vector<QRectF>>> recall(
        const Key &key, const std::vector<QCPItemText *> &labels) const;
    // Keeps the placement just made: where `labels` are now and the `boxes` it returned.
    void remember(
        Key key, const std::vector<QCPItemText *> &labels, std::vector<std::vector<QRectF>> boxes);
    void clear() { m_entries.clear(); }

    // Placements kept: the legend's corners tried in one layout (four) and the final one.
    static constexpr std::size_t kKept = 6;

private:
    struct LabelState {
        bool visible = false;
        QString text;
        QPointF coords;
        double rotation = 0.0;
        Qt::Alignment alignment;
        QBrush brush;
    };
    struct Entry {
        Key key;
        std::vector<LabelState> labels;
        std::vector<std::vector<QRectF>> boxes;
    };
    std::vector<Entry> m_entries; // the most recent last
};

} // namespace ridgepoint::chart
