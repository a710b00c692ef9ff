// The session as the window edits it: a core Workspace (the machine, the points, their
// what-if moves and workloads, the machine to compare with, the analysed points) under the undo
// stack every edit goes through, with the selection. Views subscribe to its typed signals; the
// Workspace holds the numbers (core/workspace/workspace.h).
#pragma once

#include "core/analysis/analysis.h"
#include "core/analysis/machine_fit.h"
#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/model/trace_summary.h"
#include "core/session/session.h"
#include "core/workloads/planned_workload.h"
#include "core/workloads/workloads.h"
#include "core/workspace/workspace.h"

#include <QObject>

#include "core/model/expected.h"
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

class QUndoStack;

namespace ridgepoint {

// The source a ceiling's figure takes once the user typed or dragged it (basis unstated).
inline constexpr char kEditedSource[] = "edited in Ridgepoint";

// Preview: one step of a drag, merged with the steps before it into one undo command until a
// Final edit closes it.
enum class EditPhase { Final, Preview };

class Document : public QObject
{
    Q_OBJECT

public:
    explicit Document(QObject *parent = nullptr);
    ~Document() override;

    QUndoStack *undoStack() const { return m_undoStack; }
    // The plain model under the document: every getter below reads it.
    const Workspace &workspace() const { return m_workspace; }

    // Starting a session (opening a machine or a file) is not an edit: the history is cleared.
    void resetHardware(const Hardware &hardware);
    // Resetting the points forgets the profiler trace they came from (setTrace).
    void resetPoints(const std::vector<KernelPoint> &points);
    void resetPoints(PointTable points);

    // --- the profiler trace the points came from (docs/FORMATS.md §10): its GPU time, the
    // kernels not placed, and the launches summed into each point. Not part of the history.
    void setTrace(TraceSummary trace);
    const TraceSummary *trace() const { return m_trace ? &*m_trace : nullptr; }
    // The launches summed into point `index` by the trace (matched by name and group); nullopt
    // for a point the trace did not give.
    std::optional<std::size_t> launchesOf(std::size_t index) const;
    void setAnalysisOptions(AnalysisOptions options);
    const AnalysisOptions &analysisOptions() const { return m_workspace.analysisOptions(); }

    // --- the machine
    const Hardware &hardware() const { return m_workspace.hardware(); }
    // Picks another machine (undoable; the points are re-analysed).
    void selectHardware(const Hardware &hardware);
    // An edit of the current machine's ceilings; a preset becomes "Custom (from NAME)".
    void editHardware(Hardware edited, const QString &text, EditPhase phase = EditPhase::Final);
    // Shows or hides the `index`th compute (else memory) ceiling: a choice of what is drawn, not
    // an edit of the machine, so a preset keeps its name. Undoable; a session keeps it.
    void setCeilingShown(bool compute, std::size_t index, bool shown);

    // --- points (index = position in the session, as the table model shows them)
    std::size_t pointCount() const { return m_workspace.pointCount(); }
    // The point as read, made from the compact table when asked for: loops over every point
    // read pointTable()'s names, groups and times instead.
    KernelPoint measuredPoint(std::size_t index) const { return m_workspace.measuredPoint(index); }
    const PointTable &pointTable() const { return m_workspace.pointTable(); }
    // The point with its what-if move applied: what the chart and the table show.
    KernelPoint point(std::size_t index) const { return m_workspace.point(index); }
    const WhatIf &whatIf(std::size_t index) const { return m_workspace.whatIf(index); }
    // The whole analysis of point(index), made when asked for (Workspace::analysis): a tooltip,
    // the details, the doctor. Loops over every point read placement() instead.
    PointResult analysis(std::size_t index) const { return m_workspace.analysis(index); }
    // What the chart draws and the table sorts on, kept for every point (placements.h).
    const PointPlacement &placement(std::size_t index) const
    {
        return m_workspace.placement(index);
    }
    const Placements &placements() const { return m_workspace.placements(); }
    // The analysis of the point without its move (where the ghost is drawn).
    PointResult measuredAnalysis(std::size_t index) const
    {
        return m_workspace.measuredAnalysis(index);
    }
    // Refuses a move that takes the point outside the accepted ranges (core/model/
    // value_ranges.h): returns why (also emitted as editRefused), else an empty string.
    QString setWhatIf(std::size_t index, const WhatIf &move, EditPhase phase = EditPhase::Final);
    // Removes every what-if move (one undo step).
    void clearWhatIfs();
    // Esc during a drag: undoes the open drag command and drops it from the history.
    void cancelPreview();
    bool hasOpenPreview() const;

    void removePoints(std::vector<std::size_t> indices);
    // Appends the points of planned workloads (one undo step); they become the selection. Fails
    // with the first workload's reason when one cannot be placed; nothing is added then.
    ridgepoint::Expected<void, std::string> addWorkloads(
        std::vector<Workload> workloads, const QString &text);
    // The workload behind point `index`, or nullptr for a measured point.
    const Workload *workload(std::size_t index) const { return m_workspace.workload(index); }
    // A fresh id for the points of one sweep.
    int newSweepId() { return m_workspace.newSweepId(); }

    // --- quantization mode of every workload point (undoable): switching recomputes their
    // bytes, intensity and compute ceiling; measured points keep their place.
    QuantMode quantMode() const { return m_workspace.quantMode(); }
    void setQuantMode(QuantMode mode);
    // The compute ceiling the roofline is drawn with: the one named in the options, else the
    // one the workload points use under the current mode, else the machine's default.
    const ComputeCeiling *activeComputeCeiling() const
    {
        return m_workspace.activeComputeCeiling();
    }
    // Appends copies named "NAME (copy)"; the copies become the selection.
    void duplicatePoints(std::vector<std::size_t> indices);

    // --- which figure the analysis uses where a ceiling holds a spec and a measured one (a view
    // setting, not an edit; Measured by default). hardware() and compareHardware() are already
    // withFigures(machine, figures()): every analysis, the chart and the exports read them.
    FigureChoice figures() const { return m_figures; }
    void setFigures(FigureChoice figures);

    // --- which compute roofs the chart draws (a view setting, not an edit; saved in sessions):
    // Data, those of the points' precisions, or All (sparse and absent precisions too).
    RoofsShown roofsShown() const { return m_roofs; }
    void setRoofsShown(RoofsShown roofs);

    // --- comparison with a second machine (a view setting, not an edit)
    const Hardware *compareHardware() const { return m_workspace.compareHardware(); }
    void setCompareHardware(std::optional<Hardware> hardware);
    PointResult compareAnalysis(std::size_t index) const
    {
        return m_workspace.compareAnalysis(index);
    }

    // --- review annotations and target markers (undoable; saved in sessions)
    const std::vector<Annotation> &annotations() const { return m_workspace.annotations(); }
    void setAnnotations(std::vector<Annotation> annotations, const QString &text);
    const std::vector<TargetMarker> &targets() const { return m_workspace.targets(); }
    void setTargets(std::vector<TargetMarker> targets, const QString &text);
    // The index of the first point named `name`, or nullopt.
    std::optional<std::size_t> findPoint(std::string_view name) const
    {
        return m_workspace.findPoint(name);
    }

    // --- a previous run compared with the current points by name (undoable)
    const std::optional<Baseline> &baseline() const { return m_workspace.baseline(); }
    void setBaseline(std::optional<Baseline> baseline);

    // --- the whole workspace (documentsession.cpp). Loading is not an edit: the history is
    // cleared. The view range and the theme are the window's; they are left empty here.
    Session toSession() const;
    void loadSession(Session session); // moved from when the caller is done with it

    // --- the doctor's machine-level guess (core/analysis/machine_fit.h): the built-in machine
    // that most of the points faster than this machine's roofs fit. Found when first asked after
    // the points, the machine or the figures changed (a drag's steps keep the last answer);
    // nullptr when there is none.
    const MachineFit *otherMachineFit() const;
    // Its entry for point `index` when there is such a machine and the point fits it.
    std::optional<Diagnosis> otherMachineDiagnosis(std::size_t index) const;

    // --- selection, shared by the chart and the table (sorted, unique indices)
    const std::vector<std::size_t> &selection() const { return m_selection; }
    void setSelection(std::vector<std::size_t> indices);
    bool isSelected(std::size_t index) const;

signals:
    void hardwareChanged();
    // Points were added, removed or replaced: indices are no longer valid.
    void pointsReset();
    // Points first..last (inclusive) moved or were re-analysed.
    void pointsChanged(qsizetype first, qsizetype last);
    void compareHardwareChanged();
    void figuresChanged();
    void roofsShownChanged();
    void selectionChanged();
    void quantModeChanged();
    void annotationsChanged();
    void baselineChanged();
    // A profiler trace was opened (setTrace) or forgotten (resetPoints).
    void traceChanged();
    // An edit was refused (a what-if move out of range); the text says why.
    void editRefused(const QString &why);

private:
    friend class PointListCommand;

    // What the undo commands do: change the workspace, then say so.
    void applyHardware(const Hardware &hardware);
    void applyWhatIf(std::size_t index, const WhatIf &move);
    void applyWhatIfs(const std::vector<WhatIf> &moves);
    void applyQuantMode(QuantMode mode);
    // Rows in and out (the selection is cleared; an insertion then selects the new rows).
    void insertRows(const PointRows &rows);
    void removeRows(const std::vector<std::size_t> &indices);
    void emitAllPointsChanged();
    // The session's figure choice, and the choice written into a session (documentsession.cpp).
    void applySessionFigures(const Session &session);
    void sessionFigures(Session &session) const;

    QUndoStack *m_undoStack;
    Workspace m_workspace;
    std::vector<std::size_t> m_selection;
    FigureChoice m_figures = FigureChoice::Measured;
    RoofsShown m_roofs = RoofsShown::Data;
    std::optional<TraceSummary> m_trace;
    std::unordered_map<std::string, std::size_t> m_launches; // group + '\n' + name
    // otherMachineFit()'s answer once found (documentdoctor.cpp), and the machine it names.
    mutable std::optional<std::optional<MachineFit>> m_machineFit;
    mutable const Hardware *m_fitMachine = nullptr;
};

} // namespace ridgepoint
