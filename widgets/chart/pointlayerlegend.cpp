// PointLayer's legend (pointlayer.h): an entry per group the legend names (legendgroups.h), the
// rest as one "+ N more groups" entry in their neutral colour, the memory levels' shapes and the
// dot size's note; and each group's colour, which follows the same choice.
#include "widgets/chart/pointlayer.h"
#include "widgets/qtext.h"

#include "core/analysis/payoff.h"
#include "widgets/chart/charttheme.h"
#include "widgets/chart/geometry/pointlabelplacement.h"
#include "widgets/document/document.h"

#include <algorithm>

namespace ridgepoint::chart {

QColor PointLayer::groupColorOf(std::size_t group) const
{
    if (group >= m_legendGroups.colorSlot.size())
        return groupColor(group);
    const int slot = m_legendGroups.colorSlot[group];
    return slot < 0 ? otherGroupsColor() : groupColor(static_cast<std::size_t>(slot));
}

void PointLayer::chooseLegendGroups(const Document &document)
{
    // The measured time of each group's points: what the reader of a trace asks first is where
    // the time went (points without a time add nothing).
    std::vector<double> seconds(m_groups.size(), 0.0);
    const std::size_t count = document.pointCount();
    // Each point's own, when the chart has too many to name them all: past kMaxNumberedPoints
    // (or without a key for their numbers, plotdisplay.h) only the points with most time are
    // labelled, and a trace's keep their operator's name among the numbers (a trace of a few
    // hundred points is otherwise all numbers).
    std::vector<double> pointTimes(count > kMaxNamedPoints ? count : 0, 0.0);
    for (std::size_t i = 0; i < count; ++i) {
        const PointTable &points = document.pointTable();
        const double time = pointSeconds(points.seconds(i), points.measuredRate(i), points.flops(i))
                                .value_or(0.0);
        seconds[groupIndex(points.group(i))] += time;
        if (!pointTimes.empty())
            pointTimes[i] = time;
    }
    m_legendGroups = legendGroups(seconds);
    m_leading.assign(pointTimes.size(), false);
    for (const std::size_t i : leadingPoints(pointTimes, kLeadingLabels))
        m_leading[i] = true;
}

void PointLayer::addLegendEntries(const Source &source, const PointBatch &batch)
{
    // Legend: one entry per named group (its colour), and per memory level when levels differ.
    const auto legendEntry = [this](const QCPScatterStyle &style, const QString &name) {
        QCPGraph *entry = m_plot->addGraph();
        entry->setLineStyle(QCPGraph::lsNone);
        entry->setSelectable(QCP::stNone);
        entry->setScatterStyle(style);
        entry->setName(name);
        m_drawing.plottables.push_back(entry);
    };
    std::vector<std::string> names(m_groups.size());
    for (const auto &[name, index] : m_groups)
        names[index] = name;
    const auto dot = [](const QColor &color) {
        return QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, 8);
    };
    for (const std::size_t group : m_legendGroups.named)
        legendEntry(dot(groupColorOf(group)), q(names[group]));
    if (m_legendGroups.folded > 0) {
        const QString more = tr("+ %1 more groups").arg(m_legendGroups.folded);
        legendEntry(dot(otherGroupsColor()),
            m_legendGroups.foldedShare > 0.0
                ? tr("%1 (%2 % of time)")
                      .arg(more, QString::number(100.0 * m_legendGroups.foldedShare, 'f', 1))
                : more);
    }
    if (batch.levelsSeen.size() > 1) {
        // Bytes given without a level count against the machine's main memory: named by its
        // level (HBM, DRAM), as the table and the tooltip name it.
        const MemoryCeiling *main = source.document.hardware().mainMemory();
        for (const auto &[shape, level] : batch.levelsSeen) {
            const auto shown = level ? level : main ? std::optional(main->level) : std::nullopt;
            legendEntry(QCPScatterStyle(static_cast<QCPScatterStyle::ScatterShape>(shape),
                            source.theme.foreground, source.theme.background, 8),
                shown ? q(std::string(memoryLevelName(*shown))) : tr("main memory"));
        }
    }
    // The entries above show the shapes at the normal size; a note says what the size means.
    if (source.sizeClasses)
        legendEntry(QCPScatterStyle(QCPScatterStyle::ssNone), tr("dot area ∝ time share"));
}

} // namespace ridgepoint::chart
