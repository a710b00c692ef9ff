// The session: the machine, the points, their what-if moves, an optional machine to compare
// with, and the undo stack every edit goes through. Views subscribe to its typed signals.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/hardware.h"
#include "core/workloads/planned_workload.h"
#include "core/model/point.h"
#include "core/session/session.h"
#include "core/workloads/workloads.h"

#include <QObject>

#include "core/model/expected.h"
#include <optional>
#include <vector>

class QUndoStack;

namespace ridgepoint {

// A what-if move of one point. FLOPs stay fixed; the bytes at every level and the time scale.
struct WhatIf {
    double bytesFactor = 1.0; // new bytes / measured bytes
    double timeFactor = 1.0; // new seconds / measured seconds (a planned point ignores it)

    bool isIdentity() const { return bytesFactor == 1.0 && timeFactor == 1.0; }
    friend bool operator==(const WhatIf &, const WhatIf &) = default;
};

// The point as the move makes it: bytes × bytesFactor, seconds × timeFactor (a measured rate
// ÷ timeFactor); a point known by intensities and rate: intensities ÷ bytesFactor.
KernelPoint applyWhatIf(const KernelPoint &point, const WhatIf &move);

// The name a machine takes once edited: "Custom (from H100)" (its first alias, else its name).
// Already-custom machines keep their name.
std::string customMachineName(const Hardware &hardware);

// Preview: one step of a drag, merged with the steps before it into one undo command until a
// Final edit closes it.
enum class EditPhase { Final, Preview };

using PointResult = ridgepoint::Expected<PointAnalysis, std::string>;

class Document : public QObject
{
    Q_OBJECT

public:
    explicit Document(QObject *parent = nullptr);
    ~Document() override;

    QUndoStack *undoStack() const { return m_undoStack; }

    // Starting a session (opening a machine or a file) is not an edit: the history is cleared.
    void resetHardware(const Hardware &hardware);
    void resetPoints(std::vector<KernelPoint> points);
    void setAnalysisOptions(AnalysisOptions options);
    const AnalysisOptions &analysisOptions() const { return m_options; }

    // --- the machine
    const Hardware &hardware() const { return m_hardware; }
    // Picks another machine (undoable; the points are re-analysed).
    void selectHardware(const Hardware &hardware);
    // An edit of the current machine's ceilings; a preset becomes "Custom (from NAME)".
    void editHardware(Hardware edited, const QString &text, EditPhase phase = EditPhase::Final);

    // --- points (index = position in the session, as the table model shows them)
    std::size_t pointCount() const { return m_points.size(); }
    const KernelPoint &measuredPoint(std::size_t index) const { return m_points[index]; }
    // The point with its what-if move applied: what the chart and the table show.
    KernelPoint point(std::size_t index) const;
    const WhatIf &whatIf(std::size_t index) const { return m_moves[index]; }
    const PointResult &analysis(std::size_t index) const { return m_analysis[index]; }
    // The analysis of the point without its move (where the ghost is drawn).
    PointResult measuredAnalysis(std::size_t index) const;
    void setWhatIf(std::size_t index, const WhatIf &move, EditPhase phase = EditPhase::Final);
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
    const Workload *workload(std::size_t index) const;
    // A fresh id for the points of one sweep.
    int newSweepId() { return ++m_lastSweepId; }

    // --- quantization mode of every workload point (undoable): switching recomputes their
    // bytes, intensity and compute ceiling; measured points keep their place.
    QuantMode quantMode() const { return m_quant; }
    void setQuantMode(QuantMode mode);
    // The compute ceiling the roofline is drawn with: the one named in the options, else the
    // one the workload points use under the current mode, else the machine's default.
    const ComputeCeiling *activeComputeCeiling() const;
    // Appends copies named "NAME (copy)"; the copies become the selection.
    void duplicatePoints(std::vector<std::size_t> indices);

    // --- comparison with a second machine (a view setting, not an edit)
    const Hardware *compareHardware() const { return m_compare ? &*m_compare : nullptr; }
    void setCompareHardware(std::optional<Hardware> hardware);
    PointResult compareAnalysis(std::size_t index) const;

    // --- review annotations and target markers (undoable; saved in sessions)
    const std::vector<Annotation> &annotations() const { return m_annotations; }
    void setAnnotations(std::vector<Annotation> annotations, const QString &text);
    const std::vector<TargetMarker> &targets() const { return m_targets; }
    void setTargets(std::vector<TargetMarker> targets, const QString &text);
    // The index of the first point named `name`, or nullopt.
    std::optional<std::size_t> findPoint(std::string_view name) const;

    // --- a previous run compared with the current points by name (undoable)
    const std::optional<Baseline> &baseline() const { return m_baseline; }
    void setBaseline(std::optional<Baseline> baseline);

    // --- the whole workspace (documentsession.cpp). Loading is not an edit: the history is
    // cleared. The view range and the theme are the window's; they are left empty here.
    Session toSession() const;
    void loadSession(Session session); // moved from when the caller is done with it

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
    void selectionChanged();
    void quantModeChanged();
    void annotationsChanged();
    void baselineChanged();

private:
    friend class PointListCommand;

    // The points of planned workloads, by point index (ascending): only they pay for a
    // Workload (320 bytes), so a million measured points do not carry a million empty ones.
    struct WorkloadSlot {
        std::size_t point = 0;
        Workload workload;
        std::string error; // why it cannot be placed now; empty when placed
    };
    WorkloadSlot *workloadSlot(std::size_t index);
    const WorkloadSlot *workloadSlot(std::size_t index) const;
    // Why workload point `index` cannot be placed now; nullptr when it can, or is measured.
    const std::string *workloadError(std::size_t index) const;

    void applyHardware(const Hardware &hardware);
    void applyWhatIf(std::size_t index, const WhatIf &move);
    void applyWhatIfs(const std::vector<WhatIf> &moves);
    // The workloads of some of the rows a command inserts or removes: (position in the
    // command's list of rows, workload). Measured points have none.
    using WorkloadRows = std::vector<std::pair<std::size_t, Workload>>;
    void insertRows(const std::vector<std::size_t> &indices, const std::vector<KernelPoint> &points,
        const std::vector<WhatIf> &moves, const WorkloadRows &workloads);
    void applyQuantMode(QuantMode mode);
    // Recomputes the points of workloads on the current machine and mode; a workload that
    // cannot be placed keeps its last point and records why in its slot.
    void rederiveWorkloads();
    void rederive(WorkloadSlot &slot);
    void removeRows(const std::vector<std::size_t> &indices);
    void reanalyseAll();
    void reanalyse(std::size_t index);

    QUndoStack *m_undoStack;
    Hardware m_hardware;
    AnalysisOptions m_options;
    std::vector<KernelPoint> m_points;
    std::vector<WhatIf> m_moves;
    std::vector<PointResult> m_analysis;
    std::vector<WorkloadSlot> m_workloads; // sorted by point
    QuantMode m_quant = QuantMode::None;
    int m_lastSweepId = 0;
    std::optional<Hardware> m_compare;
    std::vector<std::size_t> m_selection;
    std::vector<Annotation> m_annotations;
    std::vector<TargetMarker> m_targets;
    std::optional<Baseline> m_baseline;
};

} // namespace ridgepoint
