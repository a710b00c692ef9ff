// The points table beside the chart: a filter box, the sortable table, delete and duplicate.
// Its selection is the Document's, so the chart and the table always select the same points.
#pragma once

#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace ridgepoint {

class Document;
class PointsTableModel;

class PointsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit PointsPanel(Document *document, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }

    void deleteSelected();
    void duplicateSelected();

private:
    void selectFromDocument();
    void selectFromView();

    Document *m_document;
    PointsTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QTableView *m_view;
    bool m_syncing = false;
};

} // namespace ridgepoint
