// The Kernels table's filter and sort over a flat table model (PointsTableModel): the rows shown
// are those with a column whose text contains the filter text, ignoring case (what
// QSortFilterProxyModel::setFilterFixedString keeps with Qt::CaseInsensitive and every column as
// the key), in the order of the sort role's values (compared as QSortFilterProxyModel compares
// them, ties in table order). Unlike QSortFilterProxyModel it never asks the table for every cell
// at a keystroke, nor the sort values at every comparison: each row's text (every column's,
// case-folded, as UTF-8) is kept until the table says the row changed, and every row's place in
// the sort is kept until the sorted column changes. A keystroke is then one search through the
// kept texts (only through the rows the last text kept, when typing on) and one pass over the
// sorted rows, announced as one layout change, not as a removal per run of rows. keptRows() says
// which rows the filter keeps, for the chart to dim the others.
#pragma once

#include <QAbstractProxyModel>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ridgepoint {

class PointsFilterModel : public QAbstractProxyModel
{
    Q_OBJECT

public:
    explicit PointsFilterModel(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *model) override;
    // Keeps the rows with a column whose text contains `text`, ignoring case; "" keeps all.
    void setFilterText(const QString &text);
    const QString &filterText() const { return m_filterText; }
    // Per source row, whether the filter keeps it; empty while the filter text is empty.
    const std::vector<bool> &keptRows() const { return m_kept; }
    // The role whose values the rows are sorted by (Qt::DisplayRole unless set).
    void setSortRole(int role);
    int sortRole() const { return m_sortRole; }
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    // Sorted by `column`'s sort role; -1: the table's order (reversed when descending).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex &idx) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

signals:
    // The filter text changed, or which rows it keeps (keptRows()).
    void keptRowsChanged();

private:
    void connectSource(QAbstractItemModel *model);
    void sourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight);
    void sourceReset();
    void columnsAboutToChange(int first, int last, bool inserted);
    void columnsChanged(int first, int last, bool inserted);
    // Everything kept of the rows forgotten, the order and the filter made again.
    void rebuildAll();
    // The sorted order of every source row (m_order).
    void sortRows();
    // The rows shown: m_order filtered by m_kept.
    void mapRows();
    // `reorder` (m_order changed) and mapRows() announced as a layout change, the persistent
    // indexes following their rows.
    void remapRows(const std::function<void()> &reorder = {});
    // Whether row `a` goes before row `b` in the sort (by the kept keys; ties in table order).
    bool sortsBefore(int a, int b) const;
    // Rows first..last changed in the sorted column: their keys asked again, and each put
    // back in its place.
    void resortRows(int first, int last);
    // Whether the filter keeps source row `row` (its kept text made when missing).
    bool matches(int row) const;
    const std::string &rowText(int row) const;
    // m_kept for every row (only the kept ones looked at when `narrowing`).
    void filterRows(bool narrowing);

    QString m_filterText;
    std::string m_needle; // the filter text case-folded, UTF-8
    std::vector<bool> m_kept;
    int m_sortRole = Qt::DisplayRole;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    std::vector<int> m_order; // every source row, sorted
    std::vector<QVariant> m_keys; // each row's sort value (empty: the table's order)
    std::vector<int> m_proxyToSource;
    std::vector<int> m_sourceToProxy; // -1: filtered out
    // Each row's text, kept until the row changes (m_textKnown[row] says whether it is made).
    mutable std::vector<std::string> m_text;
    mutable std::vector<std::uint8_t> m_textKnown;
    std::vector<QMetaObject::Connection> m_connections;
};

} // namespace ridgepoint
