// The Document's side of sessions: the whole workspace to and from core's Session, and the
// review layers (annotations, targets, baseline) that only sessions and the chart use. Kept
// apart from document.cpp: none of this is on the path of an edit or a drag.
#include "widgets/document/changevalue.h"
#include "widgets/document/document.h"

#include <QUndoStack>

#include <algorithm>

namespace ridgepoint {

void Document::setAnnotations(std::vector<Annotation> annotations, const QString &text)
{
    if (annotations == m_annotations)
        return;
    m_undoStack->push(new ChangeValue<std::vector<Annotation>>(
        text, CommandId::Annotations, "annotations", m_annotations, std::move(annotations),
        [this](const std::vector<Annotation> &value) {
            m_annotations = value;
            emit annotationsChanged();
        },
        true));
}

void Document::setTargets(std::vector<TargetMarker> targets, const QString &text)
{
    if (targets == m_targets)
        return;
    m_undoStack->push(new ChangeValue<std::vector<TargetMarker>>(
        text, CommandId::Annotations, "targets", m_targets, std::move(targets),
        [this](const std::vector<TargetMarker> &value) {
            m_targets = value;
            emit annotationsChanged();
        },
        true));
}

std::optional<std::size_t> Document::findPoint(std::string_view name) const
{
    const auto it = std::find_if(
        m_points.begin(), m_points.end(), [&](const KernelPoint &p) { return p.name == name; });
    if (it == m_points.end())
        return std::nullopt;
    return static_cast<std::size_t>(it - m_points.begin());
}

void Document::setBaseline(std::optional<Baseline> baseline)
{
    const QString text = baseline
        ? tr("Open baseline %1").arg(QString::fromStdString(baseline->file))
        : tr("Close baseline");
    // Baselines are compared by the file they came from: two reads of one file are one state.
    using Value = std::optional<Baseline>;
    m_undoStack->push(new ChangeValue<Value>(
        text, CommandId::Baseline, "baseline", m_baseline, std::move(baseline),
        [this](const Value &value) {
            m_baseline = value;
            emit baselineChanged();
        },
        true));
}

Session Document::toSession() const
{
    Session session;
    session.hardware = m_hardware;
    session.compare = m_compare;
    session.points.reserve(m_points.size());
    for (std::size_t i = 0; i < m_points.size(); ++i)
        session.points.push_back(
            { m_points[i], m_moves[i].bytesFactor, m_moves[i].timeFactor, {} });
    for (const WorkloadSlot &slot : m_workloads)
        session.points[slot.point].workload = slot.workload;
    session.quantMode = m_quant;
    session.lastSweepId = m_lastSweepId;
    // An annotation whose point was deleted stays in the Document (an undo brings the point
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

void Document::loadSession(Session session)
{
    m_undoStack->clear();
    m_hardware = std::move(session.hardware);
    m_compare = std::move(session.compare);
    m_quant = session.quantMode;
    m_lastSweepId = session.lastSweepId;
    m_points.clear();
    m_moves.clear();
    m_workloads.clear();
    m_points.reserve(session.points.size());
    m_moves.reserve(session.points.size());
    for (auto &p : session.points) {
        if (p.workload)
            m_workloads.push_back({ m_points.size(), std::move(*p.workload), {} });
        m_points.push_back(std::move(p.point));
        m_moves.push_back(WhatIf { p.bytesFactor, p.timeFactor });
    }
    m_annotations = std::move(session.annotations);
    m_targets = std::move(session.targets);
    m_baseline = std::move(session.baseline);
    m_selection.clear();
    rederiveWorkloads();
    reanalyseAll();
    emit hardwareChanged();
    emit compareHardwareChanged();
    emit quantModeChanged();
    emit pointsReset();
    emit selectionChanged();
    emit annotationsChanged();
    emit baselineChanged();
}

} // namespace ridgepoint
