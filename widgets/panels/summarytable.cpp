#include "widgets/panels/summarytable.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ridgepoint {

QTableWidgetItem *readOnlyCell(const QString &text, bool number)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

void layOutSummaryTable(
    QWidget *owner, QLabel *summary, QTableWidget *table, const QStringList &headers)
{
    summary->setWordWrap(true);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(false);
    auto *layout = new QVBoxLayout(owner);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary);
    layout->addWidget(table);
}

} // namespace ridgepoint
