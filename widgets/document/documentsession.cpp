// The Document's side of sessions: loading a whole session into the workspace, and the review
// layers (annotations, targets, baseline) that only sessions and the chart use. Kept apart from
// document.cpp: none of this is on the path of an edit or a drag.
#include "widgets/document/changevalue.h"
#include "widgets/document/document.h"

#include <QUndoStack>

#include <utility>

namespace ridgepoint {

void Document::setAnnotations(std::vector<Annotation> annotations, const QString &text)
{
    if (annotations == m_workspace.annotations())
        return;
    m_undoStack->push(new ChangeValue<std::vector<Annotation>>(
        text, CommandId::Annotations, "annotations", m_workspace.annotations(),
        std::move(annotations),
        [this](const std::vector<Annotation> &value) {
            m_workspace.setAnnotations(value);
            emit annotationsChanged();
        },
        true));
}

void Document::setTargets(std::vector<TargetMarker> targets, const QString &text)
{
    if (targets == m_workspace.targets())
        return;
    m_undoStack->push(new ChangeValue<std::vector<TargetMarker>>(
        text, CommandId::Annotations, "targets", m_workspace.targets(), std::move(targets),
        [this](const std::vector<TargetMarker> &value) {
            m_workspace.setTargets(value);
            emit annotationsChanged();
        },
        true));
}

void Document::setBaseline(std::optional<Baseline> baseline)
{
    const QString text = baseline
        ? tr("Open baseline %1").arg(QString::fromStdString(baseline->file))
        : tr("Close baseline");
    // Baselines are compared by the file they came from: two reads of one file are one state.
    using Value = std::optional<Baseline>;
    m_undoStack->push(new ChangeValue<Value>(
        text, CommandId::Baseline, "baseline", m_workspace.baseline(), std::move(baseline),
        [this](const Value &value) {
            m_workspace.setBaseline(value);
            emit baselineChanged();
        },
        true));
}

// The figure choice (spec or measured) travels with the session: a reopened session draws and
// analyses the roofs the user chose.
void Document::applySessionFigures(const Session &session)
{
    m_figures = session.figures;
    m_roofs = session.roofs;
}

void Document::sessionFigures(Session &session) const
{
    session.figures = m_figures;
    session.roofs = m_roofs;
}

void Document::setRoofsShown(RoofsShown roofs)
{
    if (roofs == m_roofs)
        return;
    m_roofs = roofs;
    emit roofsShownChanged();
}

Session Document::toSession() const
{
    Session session = m_workspace.toSession();
    sessionFigures(session);
    return session;
}

void Document::loadSession(Session session)
{
    m_undoStack->clear();
    applySessionFigures(session);
    session.hardware = withFigures(session.hardware, m_figures);
    if (session.compare)
        session.compare = withFigures(*session.compare, m_figures);
    m_workspace.loadSession(std::move(session));
    m_selection.clear();
    const bool hadTrace = m_trace.has_value();
    m_trace.reset(); // a session keeps its points, not the trace they came from
    m_launches.clear();
    emit figuresChanged();
    emit roofsShownChanged();
    emit hardwareChanged();
    emit compareHardwareChanged();
    emit quantModeChanged();
    emit pointsReset();
    emit selectionChanged();
    emit annotationsChanged();
    emit baselineChanged();
    if (hadTrace)
        emit traceChanged();
}

} // namespace ridgepoint
