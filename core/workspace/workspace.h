// The workspace: the machine and the one compared with, the points with their what-if moves and
// planned workloads, the quantization mode, the analysis of every point, and the review layers
// (annotations, targets, baseline). Plain C++ with no undo and no signals: the widgets' Document
// wraps it with its QUndoStack and Qt signals (the Glaxnimate pattern: a plain model, a document
// around it), and the command line loads a session into it directly.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/expected.h"
#include "core/model/hardware.h"
#include "core/model/point.h"
#include "core/model/point_table.h"
#include "core/session/session.h"
#include "core/workloads/planned_workload.h"
#include "core/workloads/workloads.h"
#include "core/workspace/placements.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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
// The same move made on `point` itself.
void moveInPlace(KernelPoint &point, const WhatIf &move);

// The name a machine takes once edited: "Custom (from H100)" (its first alias, else its name).
// Already-custom machines keep their name.
std::string customMachineName(const Hardware &hardware);

// Rows a list edit inserts or removes (an undo command keeps them to do the other half):
// their positions (ascending; for an insertion, the positions after it), the measured points,
// their moves, and the workloads of some of them as (position in these lists, workload).
// Measured points have no workload.
struct PointRows {
    std::vector<std::size_t> indices;
    std::vector<KernelPoint> points;
    std::vector<WhatIf> moves;
    std::vector<std::pair<std::size_t, Workload>> workloads;
};

class Workspace
{
public:
    // --- the machine and the analysis options. Setting the machine re-derives the workload
    // points on it; either re-analyses every point.
    const Hardware &hardware() const { return m_hardware; }
    void setHardware(const Hardware &hardware);
    const AnalysisOptions &analysisOptions() const { return m_options; }
    void setAnalysisOptions(AnalysisOptions options);

    // --- points (index = position in the session)
    std::size_t pointCount() const { return m_points.size(); }
    // The point as it was read or derived, made from the compact table (point_table.h).
    KernelPoint measuredPoint(std::size_t index) const { return m_points.at(index); }
    // The same points, for loops over all of them that need only names, groups or times.
    const PointTable &pointTable() const { return m_points; }
    // The point with its what-if move applied: what the chart, the table and `analyze` show.
    KernelPoint point(std::size_t index) const;
    // Every point with its move applied, in order.
    std::vector<KernelPoint> points() const;
    const WhatIf &whatIf(std::size_t index) const
    {
        return m_moves.empty() ? kNoMove : m_moves[index];
    }
    std::vector<WhatIf> whatIfs() const; // one per point
    bool hasWhatIfs() const;
    // The analysis of point(index) on the machine, or why it cannot be placed: made when asked
    // for (the last one asked for is kept), since a whole PointAnalysis per point would take
    // over 0.5 KB. What every point needs for drawing and sorting is in placement().
    PointResult analysis(std::size_t index) const;
    // The compact analysis of point(index), and its levels (placements.h).
    const PointPlacement &placement(std::size_t index) const { return m_placements[index]; }
    const Placements &placements() const { return m_placements; }
    // The analysis of the point without its move (where the ghost is drawn).
    PointResult measuredAnalysis(std::size_t index) const;
    // Replaces every point with measured ones: no moves, no workloads.
    void setPoints(const std::vector<KernelPoint> &points);
    void setPoints(PointTable points);
    void setWhatIf(std::size_t index, const WhatIf &move);
    void setWhatIfs(std::vector<WhatIf> moves); // one per point
    // The index of the first point named `name`, or nullopt.
    std::optional<std::size_t> findPoint(std::string_view name) const;
    // `indices` sorted, without repeats and without those past the last point.
    std::vector<std::size_t> validIndices(std::vector<std::size_t> indices) const;

    // --- rows added and removed as a whole (workspace_rows.cpp). The rows are built first, so
    // that an undo command can keep them; insertRows() and removeRows() apply them.
    // The rows at `indices` (valid, see validIndices()) with their moves and workloads.
    PointRows rowsAt(const std::vector<std::size_t> &indices) const;
    // Copies of the rows at `indices` (valid) named "NAME (copy)", placed after the last point;
    // a copy of a sweep's point is not part of the sweep.
    PointRows duplicateRows(const std::vector<std::size_t> &indices) const;
    // The points of planned workloads on the current machine and mode, placed after the last
    // point; the first workload's reason when one cannot be placed.
    ridgepoint::Expected<PointRows, std::string> workloadRows(
        std::vector<Workload> workloads) const;
    // Inserts the rows at their positions; their workloads are re-derived for the current
    // machine and mode (either may have changed since the rows were removed).
    void insertRows(const PointRows &rows);
    // Removes the rows at `indices` (ascending, valid); later workloads move up with their points.
    void removeRows(const std::vector<std::size_t> &indices);

    // --- planned workloads
    // The workload behind point `index`, or nullptr for a measured point.
    const Workload *workload(std::size_t index) const;
    // The tiling wall a matmul workload point with its what-if move is past (docs/MODEL.md §12),
    // or nullopt: what the window flags while dragging and the doctor explains.
    std::optional<IoBoundExcess> ioBoundExcess(std::size_t index) const;
    // Why workload point `index` cannot be placed now; nullptr when it can, or is measured.
    const std::string *workloadError(std::size_t index) const;
    std::size_t workloadCount() const { return m_workloads.size(); }
    // The quantization mode of every workload point: setting it re-derives their bytes,
    // intensity and compute ceiling; measured points keep their place.
    QuantMode quantMode() const { return m_quant; }
    void setQuantMode(QuantMode mode);
    // The compute ceiling the roofline is drawn with: the one named in the options, else the
    // one the workload points use under the current mode, else the machine's default.
    const ComputeCeiling *activeComputeCeiling() const;
    int lastSweepId() const { return m_lastSweepId; }
    // A fresh id for the points of one sweep.
    int newSweepId() { return ++m_lastSweepId; }

    // --- comparison with a second machine
    const Hardware *compareHardware() const { return m_compare ? &*m_compare : nullptr; }
    void setCompareHardware(std::optional<Hardware> hardware) { m_compare = std::move(hardware); }
    // The moved point on the other machine, with that machine's own ceiling for its precision.
    PointResult compareAnalysis(std::size_t index) const;

    // --- review annotations, target markers and the baseline run
    const std::vector<Annotation> &annotations() const { return m_annotations; }
    void setAnnotations(std::vector<Annotation> annotations)
    {
        m_annotations = std::move(annotations);
    }
    const std::vector<TargetMarker> &targets() const { return m_targets; }
    void setTargets(std::vector<TargetMarker> targets) { m_targets = std::move(targets); }
    const std::optional<Baseline> &baseline() const { return m_baseline; }
    void setBaseline(std::optional<Baseline> baseline) { m_baseline = std::move(baseline); }

    // --- sessions (workspace_session.cpp). The view range and the theme are the window's: they
    // are left empty by toSession() and ignored by loadSession(). An annotation whose point is
    // gone, or a target whose ceiling is, is kept here but not saved (the reader would refuse
    // it).
    Session toSession() const;
    // Replaces everything with the session's: its workloads are re-derived on its machine and
    // every point analysed with the current options.
    void loadSession(Session session);

private:
    // The points of planned workloads, by point index (ascending): only they pay for a
    // Workload (320 bytes), so a million measured points do not carry a million empty ones.
    struct WorkloadSlot {
        std::size_t point = 0;
        Workload workload;
        std::string error; // why it cannot be placed now; empty when placed
    };
    std::vector<WorkloadSlot>::iterator firstSlotFrom(std::size_t index);
    const WorkloadSlot *workloadSlot(std::size_t index) const;

    // Recomputes the points of workloads on the current machine and mode; a workload that
    // cannot be placed keeps its last point and records why in its slot.
    void rederiveWorkloads();
    void rederive(WorkloadSlot &slot);
    void reanalyseAll();
    void reanalyse(std::size_t index);
    // analyzePoint on point(index) with the machine and options it is placed with; `scratch`
    // holds the point while it is analysed (reused by reanalyseAll's loop).
    PointResult analyse(std::size_t index, KernelPoint &scratch) const;
    PointResult analyse(std::size_t index) const;

    Hardware m_hardware;
    AnalysisOptions m_options;
    PointTable m_points;
    // One per point, or empty while no point is moved (16 bytes a point spared in the usual
    // case: a file's points opened and drawn).
    std::vector<WhatIf> m_moves;
    static constexpr WhatIf kNoMove {};
    // Gives every point its move slot, before the first move.
    void keepMoves();
    Placements m_placements;
    // The last whole analysis asked for, by index: a table row's cells ask one after another.
    // Dropped by every change (reanalyse, reanalyseAll, removeRows).
    mutable std::optional<std::pair<std::size_t, PointResult>> m_lastAnalysis;
    std::vector<WorkloadSlot> m_workloads; // sorted by point
    QuantMode m_quant = QuantMode::None;
    int m_lastSweepId = 0;
    std::optional<Hardware> m_compare;
    std::vector<Annotation> m_annotations;
    std::vector<TargetMarker> m_targets;
    std::optional<Baseline> m_baseline;
};

} // namespace ridgepoint
