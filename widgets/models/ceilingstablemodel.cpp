#include "widgets/models/ceilingstablemodel.h"
#include "widgets/qtext.h"

#include "core/model/rate_text.h"
#include "core/model/value_ranges.h"

#include "core/model/units.h"
#include "widgets/chart/roofselection.h"
#include "widgets/document/document.h"
#include "widgets/document/provenancetext.h"

#include <QPalette>

#include <algorithm>

namespace ridgepoint {
namespace {

bool nameTaken(const Hardware &hardware, const std::string &name, const std::string &except)
{
    const auto same = [&](const std::string &other) {
        return other != except
            && QString::fromStdString(other).compare(q(name), Qt::CaseInsensitive) == 0;
    };
    return std::any_of(hardware.compute.begin(), hardware.compute.end(),
               [&](const ComputeCeiling &c) { return same(c.name); })
        || std::any_of(hardware.memory.begin(), hardware.memory.end(),
            [&](const MemoryCeiling &m) { return same(m.name); });
}

std::string uniqueName(const Hardware &hardware, const std::string &base)
{
    std::string name = base;
    for (int n = 2; nameTaken(hardware, name, {}); ++n)
        name = base + " " + std::to_string(n);
    return name;
}

} // namespace

CeilingsTableModel::CeilingsTableModel(Document *document, QObject *parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    const Hardware &hw = document->hardware();
    m_rows = static_cast<int>(hw.compute.size() + hw.memory.size()); // rowCount(), not virtual
    connect(document, &Document::hardwareChanged, this, &CeilingsTableModel::showMachine);
    m_undrawnTimer.setSingleShot(true);
    m_undrawnTimer.setInterval(150);
    connect(&m_undrawnTimer, &QTimer::timeout, this, &CeilingsTableModel::updateUndrawn);
    // Every change that can change which roofs the chart draws: the machine, the points'
    // precisions (an import or a deletion resets the points; a what-if or a quantization mode
    // changes them), which figure is shown, and "Show all roofs".
    const auto later = [this] { m_undrawnTimer.start(); };
    connect(document, &Document::hardwareChanged, this, later);
    connect(document, &Document::pointsReset, this, later);
    connect(document, &Document::pointsChanged, this, later);
    connect(document, &Document::figuresChanged, this, later);
    connect(document, &Document::roofsShownChanged, this, later);
    updateUndrawn();
}

void CeilingsTableModel::updateUndrawn()
{
    const Hardware &hw = m_document->hardware();
    const Hardware drawn = chart::selectRoofs(*m_document).hardware;
    std::vector<bool> undrawn(hw.compute.size(), false);
    for (std::size_t i = 0; i < hw.compute.size() && i < drawn.compute.size(); ++i)
        undrawn[i] = hw.compute[i].visible && !drawn.compute[i].visible;
    if (undrawn == m_undrawn)
        return;
    m_undrawn = std::move(undrawn);
    // The compute rows come first (not rowCount(): this runs from the constructor too).
    if (!m_undrawn.empty())
        emit dataChanged(
            index(0, 0), index(static_cast<int>(m_undrawn.size()) - 1, ColumnCount - 1));
}

bool CeilingsTableModel::undrawn(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_undrawn.size() && isComputeRow(row)
        && m_undrawn[static_cast<std::size_t>(row)];
}

void CeilingsTableModel::showMachine()
{
    // An edit in the table changes the machine while the view is still closing its editor: a
    // reset would destroy that editor under it ("closeEditor called with an editor that does
    // not belong to this view"). Same rows: only the cells changed. Other rows: a reset (the
    // table is a dozen rows at most).
    const int rows = rowCount();
    if (rows == m_rows) {
        if (rows > 0)
            emit dataChanged(index(0, 0), index(rows - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

int CeilingsTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    const Hardware &hw = m_document->hardware();
    return static_cast<int>(hw.compute.size() + hw.memory.size());
}

int CeilingsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool CeilingsTableModel::isComputeRow(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_document->hardware().compute.size();
}

QVariant CeilingsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Shown:
        return tr("Show");
    case Name:
        return tr("Ceiling");
    case Kind:
        return tr("Kind");
    case Value:
        return tr("π / β");
    case Basis:
        return tr("Basis");
    default:
        return {};
    }
}

Qt::ItemFlags CeilingsTableModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == Shown)
        flags |= Qt::ItemIsUserCheckable;
    if (index.column() == Name || index.column() == Value)
        flags |= Qt::ItemIsEditable;
    return flags;
}

QVariant CeilingsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Hardware &hw = m_document->hardware();
    const int row = index.row();
    const bool compute = isComputeRow(row);
    const auto memoryRow = static_cast<std::size_t>(row) - hw.compute.size();
    const bool visible = compute ? hw.compute[static_cast<std::size_t>(row)].visible
                                 : hw.memory[memoryRow].visible;
    if (role == Qt::CheckStateRole && index.column() == Shown)
        return visible ? Qt::Checked : Qt::Unchecked;
    if (role == Qt::TextAlignmentRole && index.column() == Value)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    // Grey: a roof the chart does not draw, whether the user unticked it (read from the
    // machine, never from m_undrawn, which lags behind an edit by its timer and counts only the
    // rows the user left ticked) or the chart left it out.
    if (role == Qt::ForegroundRole && (!visible || undrawn(row)))
        return QPalette().color(QPalette::Disabled, QPalette::Text);
    if (role == Qt::ToolTipRole) {
        if (!visible)
            return tr("<p><i>Hidden: tick Show to draw it.</i></p>") + provenance(row, false);
        if (undrawn(row))
            return tr("<p><i>Not drawn: no point uses this precision, or it is a sparse figure. "
                      "View ▸ Show all roofs draws it.</i></p>")
                + provenance(row, false);
        return provenance(row, false);
    }
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    if (index.column() == Basis)
        return basisText(compute ? ceilingFacts(hw.compute[static_cast<std::size_t>(row)])
                                 : ceilingFacts(hw.memory[memoryRow]));
    if (compute) {
        const ComputeCeiling &c = hw.compute[static_cast<std::size_t>(row)];
        switch (index.column()) {
        case Name:
            return q(c.name);
        case Kind:
            return q(precisionName(c.precision)) + (c.unit.empty() ? QString() : " " + q(c.unit))
                + (c.sparse ? tr(" (2:4 sparse)") : QString());
        case Value:
            return q(computeRateText(c.peak, c.precision));
        default:
            return {};
        }
    }
    const MemoryCeiling &m = hw.memory[memoryRow];
    switch (index.column()) {
    case Name:
        return q(m.name);
    case Kind:
        return q(memoryLevelName(m.level));
    case Value:
        return q(formatQuantity(m.bandwidth, Dimension::ByteRate));
    default:
        return {};
    }
}

QString CeilingsTableModel::provenance(int row, bool links) const
{
    if (row < 0 || row >= rowCount())
        return {};
    const Hardware &hw = m_document->hardware();
    const auto r = static_cast<std::size_t>(row);
    return provenanceHtml(isComputeRow(row) ? ceilingFacts(hw.compute[r])
                                            : ceilingFacts(hw.memory[r - hw.compute.size()]),
        links);
}

bool CeilingsTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || index.row() >= rowCount())
        return false;
    Hardware hw = m_document->hardware();
    const int row = index.row();
    const bool compute = isComputeRow(row);
    const auto memoryRow = static_cast<std::size_t>(row) - hw.compute.size();
    std::string &name
        = compute ? hw.compute[static_cast<std::size_t>(row)].name : hw.memory[memoryRow].name;
    const QString oldName = q(name);

    if (index.column() == Shown && role == Qt::CheckStateRole) {
        // What is drawn, not the machine: a preset keeps its name.
        m_document->setCeilingShown(compute, compute ? static_cast<std::size_t>(row) : memoryRow,
            value.toInt() == Qt::Checked);
        m_lastError.clear();
        return true;
    }
    if (role != Qt::EditRole)
        return false;
    const std::string text = value.toString().trimmed().toStdString();
    if (index.column() == Name) {
        if (text.empty())
            return reject(tr("A ceiling needs a name."));
        if (text == name)
            return true;
        if (nameTaken(hw, text, name))
            return reject(tr("Another ceiling is already called \"%1\".").arg(q(text)));
        if (compute && hw.defaultCompute == name)
            hw.defaultCompute = text;
        name = text;
        m_document->editHardware(std::move(hw), tr("Rename %1 to %2").arg(oldName, q(text)));
        m_lastError.clear();
        return true;
    }
    if (index.column() == Value) {
        const auto parsed
            = parsePositiveQuantity(text, compute ? Dimension::FlopRate : Dimension::ByteRate);
        if (!parsed)
            return reject(q(parsed.error()));
        if (auto problem = valueProblem(*parsed, compute ? Quantity::Peak : Quantity::Bandwidth))
            return reject(q(*problem));
        if (compute)
            hw.compute[static_cast<std::size_t>(row)].peak = *parsed;
        else
            hw.memory[memoryRow].bandwidth = *parsed;
        m_document->editHardware(std::move(hw),
            tr("Set %1 to %2")
                .arg(oldName,
                    q(formatQuantity(
                        *parsed, compute ? Dimension::FlopRate : Dimension::ByteRate))));
        m_lastError.clear();
        return true;
    }
    return false;
}

int CeilingsTableModel::addComputeCeiling()
{
    Hardware hw = m_document->hardware();
    const ComputeCeiling *base = hw.defaultComputeCeiling();
    ComputeCeiling ceiling;
    ceiling.name = uniqueName(hw, "Compute");
    ceiling.precision = base ? base->precision : Precision::FP32;
    ceiling.peak = base ? base->peak / 2.0 : 1e12;
    const QString text = tr("Add %1").arg(q(ceiling.name));
    hw.compute.push_back(std::move(ceiling));
    const int row = static_cast<int>(hw.compute.size()) - 1;
    m_document->editHardware(std::move(hw), text);
    return row;
}

int CeilingsTableModel::addMemoryCeiling()
{
    Hardware hw = m_document->hardware();
    const MemoryCeiling *base = hw.mainMemory();
    MemoryCeiling ceiling;
    ceiling.name = uniqueName(hw, "Memory");
    ceiling.level = base ? base->level : MemoryLevel::DRAM;
    ceiling.bandwidth = base ? base->bandwidth * 4.0 : 1e11;
    // A second ceiling of a level goes after the primary one (files list the primary first).
    const QString text = tr("Add %1").arg(q(ceiling.name));
    hw.memory.push_back(std::move(ceiling));
    const int row = static_cast<int>(hw.compute.size() + hw.memory.size()) - 1;
    m_document->editHardware(std::move(hw), text);
    return row;
}

bool CeilingsTableModel::removeCeiling(int row)
{
    if (row < 0 || row >= rowCount())
        return false;
    Hardware hw = m_document->hardware();
    if (isComputeRow(row)) {
        if (hw.compute.size() == 1)
            return reject(tr("A machine needs at least one compute ceiling."));
        const auto it = hw.compute.begin() + row;
        const QString text = tr("Remove %1").arg(q(it->name));
        if (hw.defaultCompute == it->name)
            hw.defaultCompute.clear(); // the fastest dense ceiling takes over
        hw.compute.erase(it);
        m_document->editHardware(std::move(hw), text);
    } else {
        if (hw.memory.size() == 1)
            return reject(tr("A machine needs at least one memory ceiling."));
        const auto it = hw.memory.begin() + (row - static_cast<int>(hw.compute.size()));
        const QString text = tr("Remove %1").arg(q(it->name));
        hw.memory.erase(it);
        m_document->editHardware(std::move(hw), text);
    }
    m_lastError.clear();
    return true;
}

bool CeilingsTableModel::reject(const QString &message)
{
    m_lastError = message;
    emit editRejected(message);
    return false;
}

} // namespace ridgepoint
