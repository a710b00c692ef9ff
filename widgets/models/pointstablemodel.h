// The points of a Document as a table: one row per point, in session order. Sort and filter
// through a QSortFilterProxyModel: Qt::DisplayRole is text with units, kSortRole the number.
// With a baseline loaded a last column shows each point's speed-up over its namesake.
#pragma once

#include "widgets/chart/baselineindex.h"

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

    Document *m_document;
    BaselineIndex m_baseline;
};

} // namespace ridgepoint
