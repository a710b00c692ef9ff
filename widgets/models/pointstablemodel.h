// The points of a Document as a table: one row per point, in session order. Sort and filter
// through a QSortFilterProxyModel: Qt::DisplayRole is text with units, kSortRole the number.
// With a baseline loaded a last column shows each point's speed-up over its namesake.
#pragma once

#include "core/analysis/analysis.h"
#include "core/model/hardware.h"
#include "widgets/chart/baselineindex.h"

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
        SpeedupVsBaseline, // only while a baseline is loaded
        ColumnCount
    };
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

private:
    QVariant display(std::size_t row, int column) const;
    QVariant sortValue(std::size_t row, int column) const;

    void baselineChanged();
    void findLevels();
    // The main-memory level and the other levels (from the core outwards) of every point.
    std::pair<std::optional<MemoryLevel>, std::vector<MemoryLevel>> levelsOfPoints() const;
    int fixedColumns() const;
    // The level of an extra bytes column, or nullopt for the fixed columns.
    std::optional<MemoryLevel> extraLevel(int column) const;
    double bytesIn(const PointAnalysis &a, int column) const;
    QString intensityText(const PointAnalysis &a) const;

    Document *m_document;
    BaselineIndex m_baseline;
    std::optional<MemoryLevel> m_mainLevel; // of the Bytes and Intensity columns
    std::vector<MemoryLevel> m_extraLevels; // one bytes column each, after the fixed ones
};

} // namespace ridgepoint
