// The points table beside the chart: a filter box, the sortable table, delete and duplicate;
// beside the table, while the points come from a profiler trace, the kernels it could not place.
// Its selection is the Document's, so the chart and the table always select the same points.
// When the points have times the table opens sorted by payoff, largest first, and whatNext()
// names the three largest (docs/MODEL.md §2.2) for the window's status bar.
#pragma once

#include "widgets/models/pointsfiltermodel.h"

#include <QWidget>

class QLineEdit;
class QTableView;

namespace ridgepoint {

class Document;
class PointsTableModel;
class UnplacedPanel;

class PointsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit PointsPanel(Document *document, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    // The filter and sort over the model; its keptRows() are the rows the filter box keeps.
    PointsFilterModel *proxy() const { return m_proxy; }
    PointsTableModel *model() const { return m_model; }
    // A profiler trace's kernels not placed; shown while the points come from a trace.
    UnplacedPanel *unplaced() const { return m_unplaced; }
    // "What next: NAME 21 %, ..." or empty when no point has a payoff.
    const QString &whatNext() const { return m_whatNext; }

    void deleteSelected();
    void duplicateSelected();

signals:
    void whatNextChanged(const QString &text);

private:
    void selectFromDocument();
    void updateWhatNext();
    // Payoff, largest first, when the points have times; else the session order.
    void sortByDefault();
    void selectFromView();

    Document *m_document;
    PointsTableModel *m_model;
    PointsFilterModel *m_proxy;
    QLineEdit *m_filter;
    QTableView *m_view;
    UnplacedPanel *m_unplaced;
    bool m_syncing = false;
    QString m_whatNext;
};

} // namespace ridgepoint
