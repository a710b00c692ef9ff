#include "widgets/models/pointstablemodel.h"

#include "core/analysis/doctor.h"
#include "core/model/units.h"
#include "widgets/document/document.h"

#include <QColor>
#include <QFont>

namespace ridgepoint {
namespace {

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

double totalBytes(const KernelPoint &point)
{
    double sum = 0.0;
    for (const auto &level : point.bytes)
        sum += level.bytes;
    return sum;
}

} // namespace

PointsTableModel::PointsTableModel(Document *document, QObject *parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    connect(document, &Document::pointsReset, this, [this] {
        beginResetModel();
        endResetModel();
    });
    connect(document, &Document::pointsChanged, this, [this](qsizetype first, qsizetype last) {
        emit dataChanged(
            index(static_cast<int>(first), 0), index(static_cast<int>(last), columnCount() - 1));
    });
    connect(document, &Document::baselineChanged, this, &PointsTableModel::baselineChanged);
    m_baseline.rebuild(document->baseline());
}

void PointsTableModel::baselineChanged()
{
    const bool had = !m_baseline.empty();
    const bool has = m_document->baseline().has_value();
    if (!had && has)
        beginInsertColumns({}, SpeedupVsBaseline, SpeedupVsBaseline);
    else if (had && !has)
        beginRemoveColumns({}, SpeedupVsBaseline, SpeedupVsBaseline);
    m_baseline.rebuild(m_document->baseline());
    if (!had && has)
        endInsertColumns();
    else if (had && !has)
        endRemoveColumns();
    else if (has && rowCount() > 0)
        emit dataChanged(index(0, SpeedupVsBaseline), index(rowCount() - 1, SpeedupVsBaseline));
}

int PointsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_document->pointCount());
}

int PointsTableModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return m_baseline.empty() ? ColumnCount - 1 : ColumnCount;
}

QVariant PointsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Kernel");
    case Group:
        return tr("Group");
    case Flops:
        return tr("FLOPs");
    case Bytes:
        return tr("Bytes");
    case Intensity:
        return tr("Intensity [FLOP/B]");
    case Performance:
        return tr("Performance");
    case Attainable:
        return tr("Attainable");
    case Bound:
        return tr("Bound");
    case Utilization:
        return tr("Utilization");
    case Consistency:
        return tr("Consistency");
    case SpeedupVsBaseline:
        return tr("Speed-up vs baseline");
    default:
        return {};
    }
}

QVariant PointsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case kSortRole:
        return sortValue(row, index.column());
    case Qt::ToolTipRole:
        if (index.column() == Name)
            return q(m_document->measuredPoint(row).name);
        if (index.column() == Consistency) {
            const auto &a = m_document->analysis(row);
            if (!a)
                return q(a.error());
            if (a->diagnosis.empty())
                return q(a->note);
            const Diagnosis &top = a->diagnosis.front(); // the doctor's likeliest cause
            return q(a->note) + "\n"
                + tr("likely: %1 (%2)\ncheck: %3")
                      .arg(q(diagnosisVerdict(top)), q(top.evidence), q(top.fix));
        }
        if (index.column() == SpeedupVsBaseline) {
            const KernelPoint point = m_document->point(row);
            if (!m_baseline.find(point.name))
                return tr("no point named \"%1\" in the baseline").arg(q(point.name));
            const auto s = m_baseline.speedupOf(point);
            return s ? tr("%1 (%2)").arg(
                       q(formatSignificant(s->factor, 6)), q(std::string(speedupFormula(s->basis))))
                     : tr("one of the two has no time or rate");
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() >= Flops && index.column() <= Attainable)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        if (index.column() == Utilization || index.column() == SpeedupVsBaseline)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ForegroundRole: {
        const auto &a = m_document->analysis(row);
        if (!a || (!a->consistent && index.column() == Consistency))
            return QColor(0xc0, 0x00, 0x00);
        return {};
    }
    case Qt::FontRole:
        if (!m_document->whatIf(row).isIdentity()) {
            QFont font;
            font.setItalic(true); // a what-if, not a measurement
            return font;
        }
        return {};
    default:
        return {};
    }
}

QVariant PointsTableModel::display(std::size_t row, int column) const
{
    const KernelPoint point = m_document->point(row);
    const auto &a = m_document->analysis(row);
    switch (column) {
    case Name:
        return m_document->whatIf(row).isIdentity() ? q(point.name)
                                                    : q(point.name) + tr(" (what-if)");
    case Group:
        return q(point.group);
    case Flops:
        return q(formatQuantity(point.flops, Dimension::Flops));
    case Bytes:
        return q(formatQuantity(totalBytes(point), Dimension::Bytes));
    case SpeedupVsBaseline: {
        const auto s = m_baseline.speedupOf(point);
        return s ? QStringLiteral("×") + q(formatSignificant(s->factor, 3)) : QStringLiteral("–");
    }
    default:
        break;
    }
    if (!a)
        return column == Consistency ? tr("cannot be placed") : QVariant(QStringLiteral("–"));
    switch (column) {
    case Intensity:
        return q(formatSignificant(a->levels.front().intensity, 4));
    case Performance:
        return a->performance ? q(formatQuantity(*a->performance, Dimension::FlopRate))
                              : tr("planned");
    case Attainable:
        return q(formatQuantity(a->attainable, Dimension::FlopRate));
    case Bound:
        return tr("%1 (%2)").arg(q(std::string(boundName(a->bound))), q(a->limitingCeiling));
    case Utilization:
        return a->utilization ? q(formatSignificant(*a->utilization * 100.0, 3)) + " %"
                              : QStringLiteral("–");
    case Consistency:
        if (a->consistent)
            return tr("ok");
        // The doctor's top cause, unless only the generic one is left.
        if (a->diagnosis.size() > 1)
            return tr("faster than the roof: %1").arg(q(diagnosisVerdict(a->diagnosis.front())));
        return tr("faster than the roof");
    default:
        return {};
    }
}

QVariant PointsTableModel::sortValue(std::size_t row, int column) const
{
    const auto &a = m_document->analysis(row);
    switch (column) {
    case Flops:
        return m_document->measuredPoint(row).flops;
    case Bytes:
        return totalBytes(m_document->point(row));
    case Intensity:
        return a ? a->levels.front().intensity : -1.0;
    case Performance:
        return a && a->performance ? *a->performance : -1.0;
    case Attainable:
        return a ? a->attainable : -1.0;
    case Utilization:
        return a && a->utilization ? *a->utilization : -1.0;
    case Consistency:
        return a ? (a->consistent ? 1 : 0) : -1;
    case SpeedupVsBaseline: {
        const auto s = m_baseline.speedupOf(m_document->point(row));
        return s ? s->factor : -1.0;
    }
    default:
        return display(row, column);
    }
}

} // namespace ridgepoint
