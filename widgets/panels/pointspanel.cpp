#include "widgets/panels/pointspanel.h"

#include "widgets/document/document.h"
#include "widgets/document/timeshares.h"
#include "widgets/models/pointstablemodel.h"
#include "widgets/panels/operatorchangepanel.h"
#include "widgets/panels/unplacedpanel.h"

#include <QAction>
#include <QApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace ridgepoint {
namespace {

// The Consistency column's text elides at its end ("faster than the roof: FLOPs cou…"), not in
// its middle as the names do; the tooltip holds the whole text.
class PointsDelegate : public QStyledItemDelegate
{
public:
    PointsDelegate(const PointsTableModel *model, QObject *parent)
        : QStyledItemDelegate(parent)
        , m_model(model)
    { }

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (m_model->kindOf(index.column()) == PointsTableModel::Consistency)
            option->textElideMode = Qt::ElideRight;
    }

private:
    const PointsTableModel *m_model;
};

} // namespace

PointsPanel::PointsPanel(Document *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new PointsTableModel(document, this))
    , m_proxy(new PointsFilterModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTableView(this))
    , m_unplaced(new UnplacedPanel(document, this))
    , m_changes(new OperatorChangePanel(document, this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(PointsTableModel::kSortRole); // any column may match the filter

    m_filter->setPlaceholderText(tr("Filter kernels (name, group, bound…)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter kernels"));
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &PointsFilterModel::setFilterText);

    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setTabKeyNavigation(false); // Tab leaves the table; the arrows move in it
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->setAlternatingRowColors(true);
    m_view->setItemDelegate(new PointsDelegate(m_model, m_view));
    m_view->viewport()->installEventFilter(this);
    // Fit the columns to their contents once per reset and when columns come (the header
    // samples the first rows).
    m_view->horizontalHeader()->setResizeContentsPrecision(200);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &PointsPanel::fitColumns);
    connect(m_proxy, &QAbstractItemModel::columnsInserted, this,
        [this](const QModelIndex &, int first, int last) {
            for (int column = first; column <= last; ++column)
                m_view->resizeColumnToContents(column);
        });
    // Another machine to compare with renames the compare columns: their headers stay whole.
    connect(m_proxy, &QAbstractItemModel::headerDataChanged, this,
        [this](Qt::Orientation orientation, int first, int last) {
            for (int column = first; orientation == Qt::Horizontal && column <= last; ++column)
                m_view->resizeColumnToContents(column);
        });
    fitColumns();

    auto *remove = new QAction(tr("Delete"), this);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    remove->setToolTip(tr("Delete the selected points (Del)"));
    connect(remove, &QAction::triggered, this, &PointsPanel::deleteSelected);
    addAction(remove);
    auto *duplicate = new QAction(tr("Duplicate"), this);
    duplicate->setShortcut(QKeySequence(tr("Ctrl+D")));
    duplicate->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(duplicate, &QAction::triggered, this, &PointsPanel::duplicateSelected);
    addAction(duplicate);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    for (QAction *action : { duplicate, remove }) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        bar->addWidget(button);
    }
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    // A profiler trace's kernels that could not be placed, beside the table while the points
    // come from one.
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName("pointsSplit");
    split->addWidget(m_view);
    split->addWidget(m_unplaced);
    split->addWidget(m_changes); // the run against its baseline, per operator
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);
    m_unplaced->setVisible(document->trace() != nullptr);
    connect(document, &Document::traceChanged, this,
        [this] { m_unplaced->setVisible(m_document->trace() != nullptr); });
    m_changes->setVisible(document->baseline().has_value());
    connect(document, &Document::baselineChanged, this,
        [this] { m_changes->setVisible(m_document->baseline().has_value()); });

    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &PointsPanel::selectFromView);
    connect(document, &Document::selectionChanged, this, &PointsPanel::selectFromDocument);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &PointsPanel::selectFromDocument);
    connect(m_model, &QAbstractItemModel::modelReset, this, &PointsPanel::sortByDefault);
    connect(m_model, &QAbstractItemModel::modelReset, this, &PointsPanel::updateWhatNext);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &PointsPanel::updateWhatNext);
    sortByDefault();
    updateWhatNext();
}

int PointsPanel::consistencyWidth() const
{
    // "ok", "faster than the roof" whole; a diagnosis after it elides, whole in the tooltip.
    const QFontMetrics metrics = m_view->fontMetrics();
    const int header = m_view->horizontalHeader()->sectionSizeHint(
        m_model->columnOf(PointsTableModel::Consistency));
    return std::max(header, metrics.horizontalAdvance(tr("faster than the roof")) + 2 * 6);
}

void PointsPanel::fitColumns()
{
    m_view->resizeColumnsToContents();
    m_view->setColumnWidth(
        PointsTableModel::Name, std::min(m_view->columnWidth(PointsTableModel::Name), 320));
    const int consistency = m_model->columnOf(PointsTableModel::Consistency);
    m_view->setColumnWidth(
        consistency, std::min(m_view->columnWidth(consistency), consistencyWidth()));
}

void PointsPanel::sortByDefault()
{
    if (m_model->timeShares().hasTimes())
        m_view->sortByColumn(m_model->columnOf(PointsTableModel::Payoff), Qt::DescendingOrder);
    else
        m_view->sortByColumn(-1, Qt::AscendingOrder);
}

void PointsPanel::updateWhatNext()
{
    QString text = TimeShares::whatNext(*m_document, m_model->timeShares());
    if (text == m_whatNext)
        return;
    m_whatNext = std::move(text);
    emit whatNextChanged(m_whatNext);
}

void PointsPanel::selectFromView()
{
    if (m_syncing)
        return;
    std::vector<std::size_t> rows;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows())
        rows.push_back(static_cast<std::size_t>(m_proxy->mapToSource(index).row()));
    const QScopedValueRollback guard(m_syncing, true);
    m_document->setSelection(std::move(rows));
}

void PointsPanel::selectFromDocument()
{
    if (m_syncing)
        return;
    const QScopedValueRollback guard(m_syncing, true);
    QItemSelection selection;
    for (std::size_t row : m_document->selection()) {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(static_cast<int>(row), 0));
        if (index.isValid())
            selection.select(index, index);
    }
    m_view->selectionModel()->select(
        selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!selection.isEmpty())
        m_view->scrollTo(selection.indexes().front());
}

bool PointsPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) {
        const bool sideways = m_view->horizontalScrollBar()->isVisible();
        // Not while the user drags a separator: that size is theirs.
        if (sideways != m_scrollsSideways && QApplication::mouseButtons() == Qt::NoButton)
            emit rowsAreaChanged();
        m_scrollsSideways = sideways;
    }
    return QWidget::eventFilter(watched, event);
}

int PointsPanel::wholeRowsHeight(const QWidget *outer, int height) const
{
    const int row = m_view->verticalHeader()->defaultSectionSize();
    const int chrome = outer->height() - m_view->viewport()->height();
    if (!m_view->isVisible() || row <= 0 || chrome <= 0 || height <= chrome + row)
        return height;
    return chrome + (height - chrome) / row * row;
}

void PointsPanel::deleteSelected()
{
    m_document->removePoints(m_document->selection());
}

void PointsPanel::duplicateSelected()
{
    m_document->duplicatePoints(m_document->selection());
}

} // namespace ridgepoint
