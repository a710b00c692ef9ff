// The Kernels dock's side panes (unplacedpanel.h, operatorchangepanel.h): a summary line over a
// read-only table whose rows the pane fills in its own order.
#pragma once

#include <QStringList>

class QLabel;
class QTableWidget;
class QTableWidgetItem;
class QWidget;

namespace ridgepoint {

// A read-only cell; a number's (`number`) right-aligned.
QTableWidgetItem *readOnlyCell(const QString &text, bool number = false);

// A read-only, right-aligned cell that a sorted table orders by `sortKey` rather than by its
// text: "10 µs" after "4 µs", "×2" after "×0.5". A cell without a figure ("–") takes a key below
// every figure's, so it sorts with the smallest.
QTableWidgetItem *numberCell(const QString &text, double sortKey);

// Lays out `summary` (wrapped) over `table` (the columns `headers`, whole rows selected, not
// editable, the last column stretched) in `owner`.
void layOutSummaryTable(
    QWidget *owner, QLabel *summary, QTableWidget *table, const QStringList &headers);

} // namespace ridgepoint
