// Rows added and removed as a whole: deleting, duplicating and adding planned workloads, and
// the undo of each. The workload slots follow their points through every insertion and removal.
#include "core/workspace/workspace.h"

#include <iterator>
#include <utility>

namespace ridgepoint {

PointRows Workspace::rowsAt(const std::vector<std::size_t> &indices) const
{
    PointRows rows;
    rows.indices = indices;
    rows.points.reserve(indices.size());
    rows.moves.reserve(indices.size());
    for (std::size_t i : indices) {
        if (const WorkloadSlot *slot = workloadSlot(i))
            rows.workloads.emplace_back(rows.points.size(), slot->workload);
        rows.points.push_back(m_points.at(i));
        rows.moves.push_back(whatIf(i));
    }
    return rows;
}

PointRows Workspace::duplicateRows(const std::vector<std::size_t> &indices) const
{
    PointRows rows;
    for (std::size_t i : indices) {
        if (const WorkloadSlot *slot = workloadSlot(i)) {
            Workload workload = slot->workload;
            // A copy of a sweep's point is not part of the sweep's trajectory.
            workload.sweep.reset();
            rows.workloads.emplace_back(rows.points.size(), std::move(workload));
        }
        rows.indices.push_back(m_points.size() + rows.indices.size());
        KernelPoint copy = m_points.at(i);
        copy.name += " (copy)";
        rows.points.push_back(std::move(copy));
        rows.moves.push_back(whatIf(i));
    }
    return rows;
}

ridgepoint::Expected<PointRows, std::string> Workspace::workloadRows(
    std::vector<Workload> workloads) const
{
    PointRows rows;
    for (auto &workload : workloads) {
        auto point = workloadPoint(workload, m_quant, m_hardware);
        if (!point)
            return ridgepoint::Unexpected(point.error());
        rows.workloads.emplace_back(rows.points.size(), std::move(workload));
        rows.indices.push_back(m_points.size() + rows.indices.size());
        rows.points.push_back(std::move(*point));
    }
    rows.moves.resize(rows.points.size());
    return rows;
}

void Workspace::insertRows(const PointRows &rows)
{
    auto workload = rows.workloads.begin();
    for (std::size_t k = 0; k < rows.indices.size(); ++k) {
        const std::size_t index = rows.indices[k];
        const auto at = static_cast<std::ptrdiff_t>(index);
        if (!rows.moves[k].isIdentity())
            keepMoves(); // before the point is in: a slot for each point there was
        if (!m_moves.empty())
            m_moves.insert(m_moves.begin() + at, rows.moves[k]);
        m_points.insert(index, rows.points[k]);
        m_placements.insert(index);
        // The workload points at or after the new row move down one.
        auto slot = firstSlotFrom(index);
        for (auto later = slot; later != m_workloads.end(); ++later)
            ++later->point;
        if (workload != rows.workloads.end() && workload->first == k) {
            slot = m_workloads.insert(slot, WorkloadSlot { index, workload->second, {} });
            ++workload;
            // The mode or the machine may have changed since the rows were removed.
            rederive(*slot);
        }
        reanalyse(index);
    }
}

void Workspace::removeRows(const std::vector<std::size_t> &indices)
{
    m_lastAnalysis.reset();
    for (auto it = indices.rbegin(); it != indices.rend(); ++it) {
        const auto at = static_cast<std::ptrdiff_t>(*it);
        m_points.erase(*it);
        if (!m_moves.empty())
            m_moves.erase(m_moves.begin() + at);
        m_placements.erase(*it);
        auto slot = firstSlotFrom(*it);
        if (slot != m_workloads.end() && slot->point == *it)
            slot = m_workloads.erase(slot);
        for (; slot != m_workloads.end(); ++slot)
            --slot->point;
    }
}

} // namespace ridgepoint
