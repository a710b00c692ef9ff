// The points of a Document as a table: one row per point, in session order. Sort and filter
// through a QSortFilterProxyModel: Qt::DisplayRole is text with units, kSortRole the number.
// The first column, "#", is the document's point index counted from 1 (chart::pointNumber),
// the number a marker carries when points are numbered: it stays with its point when sorted.
// Payoff (time share × headroom, docs/MODEL.md §2.2) follows Consistency. With a machine to
// compare with, two columns right after Utilization give the point's roof there and the speed-up
// of roof there over roof here (§2.3), beside the figures they are read against, headed by the
// machine's short name ("MI300X roof", "× on MI300X"; the header's tooltip says the rest). With a
// baseline loaded a column after Payoff shows each point's speed-up over its namesake. Points
// from a profiler trace have three more: the operator, its input shapes (the two parts of the
// point's group, "aten::mm(float[64, 32], float[32, 16])") and the kernel launches summed into
// the point.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/hardware.h"
#include "widgets/chart/baselineindex.h"
#include "widgets/document/timeshares.h"

#include <optional>
#include <utility>
#include <vector>

#include <QAbstractTableModel>

namespace ridgepoint {

class Document;

class PointsTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        Number, // "#": the point's number on the chart and in the exported table
        Name,
        Group,
        Flops,
        Bytes,
        Intensity,
        Performance,
        Attainable,
        Bound,
        Utilization,
        Consistency,
        Payoff, // "–" for a point without a time
        SpeedupVsBaseline, // only while a baseline is loaded
        CompareAttainable, // these two only while a machine to compare with is set, shown
        CompareSpeedup, // between Utilization and Consistency
        Operator, // these three only while the points come from a profiler trace
        Shapes,
        Launches,
        ColumnCount
    };
    // The values name the kinds of column; up to Utilization a kind is also its index. Shown:
    // Number … Utilization, [CompareAttainable, CompareSpeedup], Consistency, Payoff,
    // [SpeedupVsBaseline], [Operator, Shapes, Launches]; columnOf() gives where any column is
    // (-1: not shown), kindOf() which kind a shown column is.
    // Bytes shows the main-memory level's bytes (its header names the level, "HBM bytes", as
    // does Intensity's); one more bytes column per other level the points have (L1, L2, ...)
    // follows the last column above, never a sum.
    // The value to sort by: a double for numeric columns, else the text.
    static constexpr int kSortRole = Qt::UserRole + 1;

    explicit PointsTableModel(Document *document, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // The shown index of `column`, -1 when it is not shown now.
    int columnOf(Column column) const;
    // The Column of shown column `column`, or -1 for an extra bytes column.
    int kindOf(int column) const;
    const TimeShares &timeShares() const { return m_times; }

private:
    QVariant display(std::size_t row, int column) const;
    QVariant sortValue(std::size_t row, int column) const;
    // The kinds of the fixed columns in the order shown, for the optional columns present.
    std::vector<int> shownKinds() const;
    QVariant headerToolTip(int kind) const;
    QVariant toolTip(std::size_t row, int kind) const;
    QVariant compareDisplay(std::size_t row, int kind) const;
    std::optional<MachineMove> moveOf(std::size_t row) const;
    void compareChanged();
    void traceChanged();

    void baselineChanged();
    // This run's times per operator for a baseline matched by operator (BaselineIndex).
    void followCurrent();
    void findLevels();
    // The main-memory level and the other levels (from the core outwards) of every point.
    std::pair<std::optional<MemoryLevel>, std::vector<MemoryLevel>> levelsOfPoints() const;
    int fixedColumns() const;
    // The level of an extra bytes column, or nullopt for the fixed columns.
    std::optional<MemoryLevel> extraLevel(int column) const;
    double bytesIn(std::size_t row, int column) const;
    QString intensityText(std::size_t row) const;
    QVariant analysedDisplay(std::size_t row, int kind) const;

    Document *m_document;
    BaselineIndex m_baseline;
    TimeShares m_times;
    bool m_compare = false; // the compare columns are shown
    bool m_trace = false; // the trace columns are shown
    std::vector<int> m_kinds; // shownKinds(), kept after each change of the three above
    std::optional<MemoryLevel> m_mainLevel; // of the Bytes and Intensity columns
    std::vector<MemoryLevel> m_extraLevels; // one bytes column each, after the fixed ones
};

} // namespace ridgepoint
