#include "widgets/models/pointsfiltermodel.h"

#include <algorithm>
#include <numeric>

namespace ridgepoint {
namespace {

// Between two columns' texts in a row's kept text: no filter text typed holds it.
constexpr char kSeparator = '\0';
// Up to this many changed rows are put back in their places one by one, not sorted again.
constexpr int kFewRows = 64;

std::string folded(const QString &text)
{
    return text.toCaseFolded().toStdString();
}

// Two sort values compared as QSortFilterProxyModel::lessThan compares them (Qt's
// QAbstractItemModelPrivate::isVariantLessThan, case-sensitive and not locale-aware, the
// proxy's defaults).
bool variantLess(const QVariant &left, const QVariant &right)
{
    if (left.userType() == QMetaType::UnknownType)
        return false;
    if (right.userType() == QMetaType::UnknownType)
        return true;
    switch (left.userType()) {
    case QMetaType::Int:
        return left.toInt() < right.toInt();
    case QMetaType::UInt:
        return left.toUInt() < right.toUInt();
    case QMetaType::LongLong:
        return left.toLongLong() < right.toLongLong();
    case QMetaType::ULongLong:
        return left.toULongLong() < right.toULongLong();
    case QMetaType::Float:
        return left.toFloat() < right.toFloat();
    case QMetaType::Double:
        return left.toDouble() < right.toDouble();
    default:
        return left.toString().compare(right.toString(), Qt::CaseSensitive) < 0;
    }
}

// The rows two filters keep are the same ones (an empty list keeps every row).
bool sameRows(const std::vector<bool> &a, const std::vector<bool> &b)
{
    const auto all = [](const std::vector<bool> &v) {
        return std::find(v.begin(), v.end(), false) == v.end();
    };
    if (a.empty() || b.empty())
        return all(a) && all(b);
    return a == b;
}

} // namespace

PointsFilterModel::PointsFilterModel(QObject *parent)
    : QAbstractProxyModel(parent)
{ }

void PointsFilterModel::setSourceModel(QAbstractItemModel *model)
{
    beginResetModel();
    for (const auto &connection : m_connections)
        disconnect(connection);
    m_connections.clear();
    QAbstractProxyModel::setSourceModel(model);
    if (model)
        connectSource(model);
    rebuildAll();
    endResetModel();
}

void PointsFilterModel::connectSource(QAbstractItemModel *model)
{
    const auto begin = [this] { beginResetModel(); };
    const auto end = [this] {
        rebuildAll();
        endResetModel();
        if (!m_needle.empty())
            emit keptRowsChanged();
    };
    using M = QAbstractItemModel;
    auto &c = m_connections;
    c.push_back(connect(model, &M::dataChanged, this, &PointsFilterModel::sourceDataChanged));
    c.push_back(connect(model, &M::headerDataChanged, this,
        [this](Qt::Orientation orientation, int first, int last) {
            if (orientation == Qt::Horizontal)
                emit headerDataChanged(orientation, first, last);
        }));
    c.push_back(connect(model, &M::modelAboutToBeReset, this, begin));
    c.push_back(connect(model, &M::modelReset, this, end));
    // Rows come and go by resets in the points table; anything else is taken as one.
    c.push_back(connect(model, &M::layoutAboutToBeChanged, this, begin));
    c.push_back(connect(model, &M::layoutChanged, this, end));
    c.push_back(connect(model, &M::rowsAboutToBeInserted, this, begin));
    c.push_back(connect(model, &M::rowsInserted, this, end));
    c.push_back(connect(model, &M::rowsAboutToBeRemoved, this, begin));
    c.push_back(connect(model, &M::rowsRemoved, this, end));
    c.push_back(connect(model, &M::rowsAboutToBeMoved, this, begin));
    c.push_back(connect(model, &M::rowsMoved, this, end));
    c.push_back(connect(model, &M::columnsAboutToBeMoved, this, begin));
    c.push_back(connect(model, &M::columnsMoved, this, end));
    c.push_back(connect(model, &M::columnsAboutToBeInserted, this,
        [this](const QModelIndex &, int first, int last) {
            columnsAboutToChange(first, last, true);
        }));
    c.push_back(connect(model, &M::columnsInserted, this,
        [this](const QModelIndex &, int first, int last) { columnsChanged(first, last, true); }));
    c.push_back(connect(
        model, &M::columnsAboutToBeRemoved, this, [this](const QModelIndex &, int first, int last) {
            columnsAboutToChange(first, last, false);
        }));
    c.push_back(connect(model, &M::columnsRemoved, this,
        [this](const QModelIndex &, int first, int last) { columnsChanged(first, last, false); }));
}

void PointsFilterModel::columnsAboutToChange(int first, int last, bool inserted)
{
    if (inserted)
        beginInsertColumns({}, first, last);
    else
        beginRemoveColumns({}, first, last);
}

void PointsFilterModel::columnsChanged(int first, int last, bool inserted)
{
    // The sorted column keeps its place among the others; a removed one sorts no more.
    const int count = last - first + 1;
    if (inserted && m_sortColumn >= first)
        m_sortColumn += count;
    else if (!inserted && m_sortColumn > last)
        m_sortColumn -= count;
    else if (!inserted && m_sortColumn >= first)
        m_sortColumn = -1;
    if (inserted)
        endInsertColumns();
    else
        endRemoveColumns();
    // Every row's text changed; the rows the filter keeps may have.
    m_text.clear();
    m_textKnown.clear();
    const std::vector<bool> before = m_kept;
    filterRows(false);
    if (!sameRows(before, m_kept)) {
        remapRows();
        emit keptRowsChanged();
    }
}

void PointsFilterModel::sourceDataChanged(
    const QModelIndex &topLeft, const QModelIndex &bottomRight)
{
    if (!topLeft.isValid() || !bottomRight.isValid())
        return;
    const int first = std::max(topLeft.row(), 0);
    const int last = std::min(bottomRight.row(), static_cast<int>(m_textKnown.size()) - 1);
    for (int row = first; row <= last; ++row) {
        const auto r = static_cast<std::size_t>(row);
        if (m_textKnown[r]) {
            m_textKnown[r] = 0;
            m_text[r] = {};
        }
    }
    bool keptChanged = false;
    for (int row = first; !m_needle.empty() && row <= bottomRight.row(); ++row) {
        const auto r = static_cast<std::size_t>(row);
        if (r >= m_kept.size())
            break;
        const bool kept = matches(row);
        keptChanged = keptChanged || kept != m_kept[r];
        m_kept[r] = kept;
    }
    const bool resort = m_sortColumn >= topLeft.column() && m_sortColumn <= bottomRight.column();
    const int rows = sourceModel()->rowCount();
    const int lastRow = bottomRight.row();
    if (resort && lastRow - first < kFewRows && lastRow < rows
        && m_keys.size() == static_cast<std::size_t>(rows))
        remapRows([this, first, lastRow] { resortRows(first, lastRow); });
    else if (resort)
        remapRows([this] { sortRows(); });
    else if (keptChanged)
        remapRows();
    // The changed rows where they are shown now.
    int low = -1;
    int high = -1;
    for (int row = first; row <= bottomRight.row(); ++row) {
        const auto r = static_cast<std::size_t>(row);
        const int shown = r < m_sourceToProxy.size() ? m_sourceToProxy[r] : -1;
        if (shown < 0)
            continue;
        low = low < 0 ? shown : std::min(low, shown);
        high = std::max(high, shown);
    }
    if (low >= 0)
        emit dataChanged(index(low, topLeft.column()), index(high, bottomRight.column()));
    if (keptChanged)
        emit keptRowsChanged();
}

void PointsFilterModel::rebuildAll()
{
    m_text.clear();
    m_textKnown.clear();
    filterRows(false);
    sortRows();
    mapRows();
}

void PointsFilterModel::setFilterText(const QString &text)
{
    if (text == m_filterText)
        return;
    std::string needle = folded(text);
    // Typing on: a row the last text left out cannot hold the longer one.
    const bool narrowing = !m_needle.empty() && needle.find(m_needle) != std::string::npos;
    const std::vector<bool> before = m_kept;
    m_filterText = text;
    m_needle = std::move(needle);
    if (m_needle.empty()) {
        // The kept texts are made again when a filter is typed: no memory held for them.
        m_text = {};
        m_textKnown = {};
    }
    filterRows(narrowing);
    if (!sameRows(before, m_kept))
        remapRows();
    emit keptRowsChanged();
}

void PointsFilterModel::filterRows(bool narrowing)
{
    if (m_needle.empty() || !sourceModel()) {
        m_kept.clear();
        return;
    }
    const auto rows = static_cast<std::size_t>(sourceModel()->rowCount());
    if (!narrowing || m_kept.size() != rows)
        m_kept.assign(rows, true);
    for (std::size_t row = 0; row < rows; ++row) {
        if (m_kept[row])
            m_kept[row] = matches(static_cast<int>(row));
    }
}

const std::string &PointsFilterModel::rowText(int row) const
{
    const auto r = static_cast<std::size_t>(row);
    if (m_textKnown.size() <= r) {
        const auto rows = static_cast<std::size_t>(sourceModel()->rowCount());
        m_textKnown.resize(std::max(rows, r + 1), 0);
        m_text.resize(m_textKnown.size());
    }
    if (!m_textKnown[r]) {
        QString text;
        const int columns = sourceModel()->columnCount();
        for (int column = 0; column < columns; ++column) {
            if (column > 0)
                text += QLatin1Char(kSeparator);
            text += sourceModel()->data(sourceModel()->index(row, column)).toString();
        }
        m_text[r] = folded(text);
        m_textKnown[r] = 1;
    }
    return m_text[r];
}

bool PointsFilterModel::matches(int row) const
{
    if (m_needle.find(kSeparator) == std::string::npos)
        return rowText(row).find(m_needle) != std::string::npos;
    // A text holding the separator (never typed): each column's text on its own.
    const int columns = sourceModel()->columnCount();
    for (int column = 0; column < columns; ++column) {
        const QString cell = sourceModel()->data(sourceModel()->index(row, column)).toString();
        if (folded(cell).find(m_needle) != std::string::npos)
            return true;
    }
    return false;
}

void PointsFilterModel::setSortRole(int role)
{
    if (role == m_sortRole)
        return;
    m_sortRole = role;
    if (m_sortColumn >= 0)
        remapRows([this] { sortRows(); });
}

void PointsFilterModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    remapRows([this] { sortRows(); });
}

void PointsFilterModel::sortRows()
{
    const int rows = sourceModel() ? sourceModel()->rowCount() : 0;
    m_order.resize(static_cast<std::size_t>(rows));
    std::iota(m_order.begin(), m_order.end(), 0);
    if (m_sortColumn < 0 || m_sortColumn >= sourceModel()->columnCount()) {
        // As QSortFilterProxyModel: no column is the table's order, descending reversed.
        if (m_sortOrder == Qt::DescendingOrder)
            std::reverse(m_order.begin(), m_order.end());
        m_keys.clear();
        return;
    }
    // Each value asked for once, not at every comparison; kept for the rows that change.
    m_keys.assign(m_order.size(), QVariant());
    for (int row = 0; row < rows; ++row)
        m_keys[static_cast<std::size_t>(row)]
            = sourceModel()->data(sourceModel()->index(row, m_sortColumn), m_sortRole);
    // As a stable sort: ties in table order, in either direction.
    std::sort(m_order.begin(), m_order.end(), [this](int a, int b) { return sortsBefore(a, b); });
}

bool PointsFilterModel::sortsBefore(int a, int b) const
{
    const QVariant &ka = m_keys[static_cast<std::size_t>(a)];
    const QVariant &kb = m_keys[static_cast<std::size_t>(b)];
    const bool ascending = m_sortOrder == Qt::AscendingOrder;
    if (ascending ? variantLess(ka, kb) : variantLess(kb, ka))
        return true;
    if (ascending ? variantLess(kb, ka) : variantLess(ka, kb))
        return false;
    return a < b;
}

void PointsFilterModel::resortRows(int first, int last)
{
    // A few rows changed (a drag step): each put back in its place among the others, which
    // is where sorting every row again would put it.
    for (int row = first; row <= last; ++row)
        m_keys[static_cast<std::size_t>(row)]
            = sourceModel()->data(sourceModel()->index(row, m_sortColumn), m_sortRole);
    std::erase_if(m_order, [first, last](int row) { return row >= first && row <= last; });
    for (int row = first; row <= last; ++row) {
        const auto at = std::lower_bound(m_order.begin(), m_order.end(), row,
            [this](int a, int b) { return sortsBefore(a, b); });
        m_order.insert(at, row);
    }
}

void PointsFilterModel::mapRows()
{
    m_sourceToProxy.assign(m_order.size(), -1);
    m_proxyToSource.clear();
    m_proxyToSource.reserve(m_order.size());
    for (const int row : m_order) {
        const auto r = static_cast<std::size_t>(row);
        if (!m_kept.empty() && (r >= m_kept.size() || !m_kept[r]))
            continue;
        m_sourceToProxy[r] = static_cast<int>(m_proxyToSource.size());
        m_proxyToSource.push_back(row);
    }
}

void PointsFilterModel::remapRows(const std::function<void()> &reorder)
{
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList from = persistentIndexList();
    std::vector<std::pair<int, int>> sources; // (source row, column) of each
    sources.reserve(static_cast<std::size_t>(from.size()));
    for (const QModelIndex &index : from) {
        const auto row = static_cast<std::size_t>(index.row());
        sources.emplace_back(
            row < m_proxyToSource.size() ? m_proxyToSource[row] : -1, index.column());
    }
    if (reorder)
        reorder();
    mapRows();
    QModelIndexList to;
    to.reserve(from.size());
    for (const auto &[row, column] : sources) {
        const int shown = row >= 0 && static_cast<std::size_t>(row) < m_sourceToProxy.size()
            ? m_sourceToProxy[static_cast<std::size_t>(row)]
            : -1;
        to.append(shown >= 0 ? index(shown, column) : QModelIndex());
    }
    changePersistentIndexList(from, to);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

QVariant PointsFilterModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!sourceModel())
        return {};
    if (orientation == Qt::Horizontal) // also while no row is shown
        return sourceModel()->headerData(section, orientation, role);
    const auto row = static_cast<std::size_t>(section);
    if (row >= m_proxyToSource.size())
        return {};
    return sourceModel()->headerData(m_proxyToSource[row], orientation, role);
}

QModelIndex PointsFilterModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!proxyIndex.isValid() || !sourceModel() || proxyIndex.model() != this)
        return {};
    const auto row = static_cast<std::size_t>(proxyIndex.row());
    if (row >= m_proxyToSource.size())
        return {};
    return sourceModel()->index(m_proxyToSource[row], proxyIndex.column());
}

QModelIndex PointsFilterModel::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!sourceIndex.isValid() || sourceIndex.model() != sourceModel())
        return {};
    const auto row = static_cast<std::size_t>(sourceIndex.row());
    if (row >= m_sourceToProxy.size() || m_sourceToProxy[row] < 0)
        return {};
    return index(m_sourceToProxy[row], sourceIndex.column());
}

QModelIndex PointsFilterModel::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex PointsFilterModel::parent(const QModelIndex &) const
{
    return {};
}

QModelIndex PointsFilterModel::sibling(int row, int column, const QModelIndex &idx) const
{
    return idx.isValid() ? index(row, column) : QModelIndex();
}

int PointsFilterModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_proxyToSource.size());
}

int PointsFilterModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

bool PointsFilterModel::hasChildren(const QModelIndex &parent) const
{
    return !parent.isValid() && rowCount() > 0 && columnCount() > 0;
}

} // namespace ridgepoint
