#include "widgets/chart/rooflabelmemo.h"

#include <algorithm>

namespace ridgepoint::chart {

std::optional<std::vector<std::vector<QRectF>>> RoofLabelMemo::recall(
    const Key &key, const std::vector<QCPItemText *> &labels) const
{
    const auto entry = std::find_if(
        m_entries.rbegin(), m_entries.rend(), [&key](const Entry &e) { return e.key == key; });
    if (entry == m_entries.rend() || entry->labels.size() != labels.size())
        return std::nullopt;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const LabelState &state = entry->labels[i];
        QCPItemText *label = labels[i];
        label->setText(state.text);
        label->setPositionAlignment(state.alignment);
        label->setRotation(state.rotation);
        label->position->setCoords(state.coords);
        label->setBrush(state.brush);
        label->setVisible(state.visible);
    }
    return entry->boxes;
}

void RoofLabelMemo::remember(
    Key key, const std::vector<QCPItemText *> &labels, std::vector<std::vector<QRectF>> boxes)
{
    std::erase_if(m_entries, [&key](const Entry &e) { return e.key == key; });
    if (m_entries.size() >= kKept)
        m_entries.erase(m_entries.begin());
    Entry entry { std::move(key), {}, std::move(boxes) };
    entry.labels.reserve(labels.size());
    for (const QCPItemText *label : labels) {
        entry.labels.push_back({ label->visible(), label->text(), label->position->coords(),
            label->rotation(), label->positionAlignment(), label->brush() });
    }
    m_entries.push_back(std::move(entry));
}

} // namespace ridgepoint::chart
