// The points table beside the chart: a filter box, the sortable table, delete and duplicate;
// beside the table, while the points come from a profiler trace, the kernels it could not place,
// and while a baseline is open, the change against it per operator (OperatorChangePanel).
// Its selection is the Document's, so the chart and the table always select the same points.
// When the points have times the table opens sorted by payoff, largest first, and whatNext()
// names the three largest (docs/MODEL.md §2.2) for the window's status bar. Consistency is as
// wide as "faster than the roof": a longer diagnosis elides, whole in its tooltip.
#pragma once

#include "widgets/models/pointsfiltermodel.h"

#include <QWidget>

class QLineEdit;
class QTableView;

namespace ridgepoint {

class Document;
class PointsTableModel;
class OperatorChangePanel;
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
    OperatorChangePanel *changes() const { return m_changes; }
    // "What next: NAME 21 %, ..." or empty when no point has a payoff.
    const QString &whatNext() const { return m_whatNext; }

    // The largest height, not over `height`, at which `outer` (this panel or the dock holding
    // it) shows whole rows of the table: what is not the table's rows (a dock's title, the
    // filter, the header, a scroll bar) is kept as it is now. `height` itself while hidden.
    int wholeRowsHeight(const QWidget *outer, int height) const;

    void deleteSelected();
    void duplicateSelected();

signals:
    void whatNextChanged(const QString &text);
    // The table's horizontal scroll bar came or went (columns came, or were widened): the
    // height of whole rows changed (wholeRowsHeight()).
    void rowsAreaChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // Each column as wide as its first rows need; the kernel's name at most 320 pixels and
    // Consistency at most consistencyWidth().
    void fitColumns();
    int consistencyWidth() const;
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
    OperatorChangePanel *m_changes;
    bool m_syncing = false;
    bool m_scrollsSideways = false;
    QString m_whatNext;
};

} // namespace ridgepoint
