#include "widgets/panels/summarytable.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ridgepoint {
namespace {

// Sorts by the number kept under Qt::UserRole; against a cell without one, by the text.
class NumberCell : public QTableWidgetItem
{
public:
    NumberCell(const QString &text, double sortKey)
        : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, sortKey);
    }

    bool operator<(const QTableWidgetItem &other) const override
    {
        const QVariant theirs = other.data(Qt::UserRole);
        if (!theirs.isValid())
            return QTableWidgetItem::operator<(other);
        return data(Qt::UserRole).toDouble() < theirs.toDouble();
    }
};

} // namespace

QTableWidgetItem *numberCell(const QString &text, double sortKey)
{
    auto *item = new NumberCell(text, sortKey);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

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
