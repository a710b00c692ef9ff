// The whole workspace to and from core's Session: what a session file saves.
#include "core/workspace/workspace.h"

#include <algorithm>
#include <utility>

namespace ridgepoint {

Session Workspace::toSession() const
{
    Session session;
    session.hardware = m_hardware;
    session.compare = m_compare;
    session.points.reserve(m_points.size());
    for (std::size_t i = 0; i < m_points.size(); ++i)
        session.points.push_back(
            { m_points.at(i), whatIf(i).bytesFactor, whatIf(i).timeFactor, {} });
    for (const WorkloadSlot &slot : m_workloads)
        session.points[slot.point].workload = slot.workload;
    session.quantMode = m_quant;
    session.lastSweepId = m_lastSweepId;
    // An annotation whose point was deleted stays in the workspace (an undo brings the point
    // back) but is not saved: the session reader would refuse it.
    for (const auto &a : m_annotations) {
        if (a.point.empty() || findPoint(a.point))
            session.annotations.push_back(a);
    }
    for (const auto &t : m_targets) {
        if (m_hardware.findCompute(t.ceiling) || m_hardware.findMemory(t.ceiling))
            session.targets.push_back(t);
    }
    session.baseline = m_baseline;
    return session;
}

void Workspace::loadSession(Session session)
{
    m_hardware = std::move(session.hardware);
    m_compare = std::move(session.compare);
    m_quant = session.quantMode;
    m_lastSweepId = session.lastSweepId;
    m_points.clear();
    m_moves.clear();
    m_workloads.clear();
    m_points.reserve(session.points.size());
    const bool moved = std::ranges::any_of(session.points, [](const SessionPoint &p) {
        return !WhatIf { p.bytesFactor, p.timeFactor }.isIdentity();
    });
    if (moved)
        m_moves.reserve(session.points.size());
    for (auto &p : session.points) {
        if (p.workload)
            m_workloads.push_back({ m_points.size(), std::move(*p.workload), {} });
        m_points.push_back(p.point);
        p.point = KernelPoint(); // its strings freed as the table fills
        if (moved)
            m_moves.push_back(WhatIf { p.bytesFactor, p.timeFactor });
    }
    // Emptied before the analysis: a large session's points are not held twice while it runs.
    std::vector<SessionPoint>().swap(session.points);
    m_annotations = std::move(session.annotations);
    m_targets = std::move(session.targets);
    m_baseline = std::move(session.baseline);
    rederiveWorkloads();
    reanalyseAll();
}

} // namespace ridgepoint
