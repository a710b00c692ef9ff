#include "widgets/models/pointstablemodel.h"
#include "widgets/qtext.h"

#include "core/analysis/doctor.h"
#include "core/analysis/levels.h"
#include "core/model/units.h"
#include "widgets/chart/pointlabelplacement.h"
#include "widgets/document/document.h"

#include <QColor>
#include <QFont>

#include <algorithm>
#include <tuple>

namespace ridgepoint {
namespace {

QString shortName(const Hardware &machine)
{
    return q(machine.aliases.empty() ? machine.name : machine.aliases.front());
}

// The analysed level of `level` (with or without a ceiling), or null.
const LevelAnalysis *levelIn(const PointAnalysis &a, MemoryLevel level)
{
    for (const auto *list : { &a.levels, &a.unbounded }) {
        for (const auto &entry : *list) {
            if (entry.level == level)
                return &entry;
        }
    }
    return nullptr;
}

// A trace point's group, "aten::mm(float[64, 32], float[32, 16])", as its operator and its
// shapes; a group without parentheses is all operator.
std::pair<std::string, std::string> operatorAndShapes(const std::string &group)
{
    const auto open = group.find('(');
    if (open == std::string::npos || !group.ends_with(')'))
        return { group, {} };
    return { group.substr(0, open), group.substr(open + 1, group.size() - open - 2) };
}

} // namespace

PointsTableModel::PointsTableModel(Document *document, QObject *parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    connect(document, &Document::pointsReset, this, [this] {
        beginResetModel();
        findLevels();
        m_times.rebuild(*m_document);
        endResetModel();
    });
    connect(document, &Document::pointsChanged, this, [this](qsizetype first, qsizetype last) {
        const double total = m_times.totalSeconds();
        m_times.update(
            *m_document, static_cast<std::size_t>(first), static_cast<std::size_t>(last));
        // Another machine may name main memory differently (DRAM, HBM): new headers.
        if (auto [main, extra] = levelsOfPoints(); main != m_mainLevel || extra != m_extraLevels) {
            beginResetModel();
            m_mainLevel = main;
            m_extraLevels = std::move(extra);
            endResetModel();
            return;
        }
        emit dataChanged(
            index(static_cast<int>(first), 0), index(static_cast<int>(last), columnCount() - 1));
        if (total != m_times.totalSeconds() && rowCount() > 0) // every share changed
            emit dataChanged(index(0, Payoff), index(rowCount() - 1, Payoff));
    });
    connect(document, &Document::baselineChanged, this, &PointsTableModel::baselineChanged);
    connect(document, &Document::compareHardwareChanged, this, &PointsTableModel::compareChanged);
    connect(document, &Document::traceChanged, this, &PointsTableModel::traceChanged);
    m_baseline.rebuild(document->baseline());
    m_compare = document->compareHardware() != nullptr;
    m_trace = document->trace() != nullptr;
    m_times.rebuild(*document);
    findLevels();
}

std::pair<std::optional<MemoryLevel>, std::vector<MemoryLevel>>
PointsTableModel::levelsOfPoints() const
{
    std::optional<MemoryLevel> main;
    std::vector<MemoryLevel> seen;
    for (std::size_t i = 0; i < m_document->pointCount(); ++i) {
        const auto &a = m_document->analysis(i);
        if (!a)
            continue;
        if (const LevelAnalysis *level = mainLevel(*a); level && !main)
            main = level->level;
        for (const auto *list : { &a->levels, &a->unbounded }) {
            for (const auto &entry : *list) {
                if (std::find(seen.begin(), seen.end(), entry.level) == seen.end())
                    seen.push_back(entry.level);
            }
        }
    }
    if (main)
        std::erase(seen, *main);
    std::sort(seen.begin(), seen.end(),
        [](MemoryLevel l, MemoryLevel r) { return levelRank(l) < levelRank(r); });
    return { main, seen };
}

void PointsTableModel::findLevels()
{
    std::tie(m_mainLevel, m_extraLevels) = levelsOfPoints();
}

int PointsTableModel::fixedColumns() const
{
    return Payoff + 1 + (m_baseline.empty() ? 0 : 1) + (m_compare ? 2 : 0) + (m_trace ? 3 : 0);
}

int PointsTableModel::kindOf(int column) const
{
    if (column <= Payoff)
        return column;
    int k = column - (Payoff + 1);
    if (!m_baseline.empty() && k-- == 0)
        return SpeedupVsBaseline;
    if (m_compare) {
        if (k == 0)
            return CompareAttainable;
        if (k == 1)
            return CompareSpeedup;
        k -= 2;
    }
    if (m_trace && k >= 0 && k < 3)
        return Operator + k;
    return -1;
}

int PointsTableModel::columnOf(Column column) const
{
    for (int c = 0; c < fixedColumns(); ++c)
        if (kindOf(c) == column)
            return c;
    return -1;
}

void PointsTableModel::compareChanged()
{
    const bool has = m_document->compareHardware() != nullptr;
    const int first = Payoff + 1 + (m_baseline.empty() ? 0 : 1);
    if (has && !m_compare) {
        beginInsertColumns({}, first, first + 1);
        m_compare = true;
        endInsertColumns();
    } else if (!has && m_compare) {
        beginRemoveColumns({}, first, first + 1);
        m_compare = false;
        endRemoveColumns();
    } else if (has && rowCount() > 0) {
        emit dataChanged(index(0, first), index(rowCount() - 1, first + 1));
    }
}

void PointsTableModel::traceChanged()
{
    const bool has = m_document->trace() != nullptr;
    const int first = Payoff + 1 + (m_baseline.empty() ? 0 : 1) + (m_compare ? 2 : 0);
    if (has && !m_trace) {
        beginInsertColumns({}, first, first + 2);
        m_trace = true;
        endInsertColumns();
    } else if (!has && m_trace) {
        beginRemoveColumns({}, first, first + 2);
        m_trace = false;
        endRemoveColumns();
    } else if (has && rowCount() > 0) {
        emit dataChanged(index(0, first), index(rowCount() - 1, first + 2));
    }
}

std::optional<MachineMove> PointsTableModel::moveOf(std::size_t row) const
{
    const auto &here = m_document->analysis(row);
    if (!here || !m_compare)
        return std::nullopt;
    const auto there = m_document->compareAnalysis(row);
    return there ? moveTo(*here, *there) : std::nullopt;
}

QVariant PointsTableModel::compareDisplay(std::size_t row, int kind) const
{
    const auto move = moveOf(row);
    if (!move)
        return QStringLiteral("–");
    if (kind == CompareAttainable)
        return q(formatQuantity(move->attainableThere, Dimension::FlopRate));
    return QStringLiteral("×") + q(formatSignificant(move->speedup, 3));
}

std::optional<MemoryLevel> PointsTableModel::extraLevel(int column) const
{
    const int k = column - fixedColumns();
    if (k < 0 || k >= static_cast<int>(m_extraLevels.size()))
        return std::nullopt;
    return m_extraLevels[static_cast<std::size_t>(k)];
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
    return fixedColumns() + static_cast<int>(m_extraLevels.size());
}

QVariant PointsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Intensity
        && m_mainLevel) {
        const QString level = q(std::string(memoryLevelName(*m_mainLevel)));
        return tr("FLOP/B at %1: FLOPs / %1 bytes, the level the bound is read on").arg(level);
    }
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Number)
        return tr("the point's number: its marker carries it when points are numbered, and the "
                  "exported table's \"#\" column");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Payoff)
        return tr("share of the total time this kernel would save at its roof: time share × "
                  "(1 − utilization)");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    const QString mainName = m_mainLevel ? QString::fromUtf8(memoryLevelName(*m_mainLevel).data(),
                                 static_cast<qsizetype>(memoryLevelName(*m_mainLevel).size()))
                                         : QString();
    if (const auto level = extraLevel(section))
        return tr("%1 bytes").arg(q(std::string(memoryLevelName(*level))));
    const Hardware *other = m_document->compareHardware();
    switch (kindOf(section)) {
    case Number:
        return QStringLiteral("#");
    case Name:
        return tr("Kernel");
    case Group:
        return tr("Group");
    case Flops:
        return tr("FLOPs");
    case Bytes:
        return mainName.isEmpty() ? tr("Bytes") : tr("%1 bytes").arg(mainName);
    case Intensity:
        // The level in the header, the unit (FLOP/B) in its tooltip: short enough for the
        // exported picture's table.
        return mainName.isEmpty() ? tr("Intensity [FLOP/B]") : tr("%1 intensity").arg(mainName);
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
    case Payoff:
        return tr("Payoff");
    case SpeedupVsBaseline:
        return tr("Speed-up vs baseline");
    // The machine's short name (its first alias): "Speed-up on AMD Instinct MI300X 192GB" is
    // wider than any of its cells; the header's tooltip gives the whole name.
    case CompareAttainable:
        return other ? tr("Attainable on %1").arg(shortName(*other)) : QVariant();
    case CompareSpeedup:
        return other ? tr("Speed-up on %1").arg(shortName(*other)) : QVariant();
    case Operator:
        return tr("Operator");
    case Shapes:
        return tr("Shapes");
    case Launches:
        return tr("Launches");
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
        return extraLevel(index.column()) ? QVariant() : toolTip(row, kindOf(index.column()));
    case Qt::TextAlignmentRole:
        if (index.column() == Number || (index.column() >= Flops && index.column() <= Attainable)
            || extraLevel(index.column()))
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        if (kindOf(index.column()) >= Utilization && kindOf(index.column()) != Consistency
            && kindOf(index.column()) != Operator && kindOf(index.column()) != Shapes)
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

QVariant PointsTableModel::toolTip(std::size_t row, int kind) const
{
    if (kind == Name)
        return q(m_document->measuredPoint(row).name);
    if (kind == Consistency) {
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
    if (kind == SpeedupVsBaseline) {
        const KernelPoint point = m_document->point(row);
        if (!m_baseline.find(point.name))
            return tr("no point named \"%1\" in the baseline").arg(q(point.name));
        const auto s = m_baseline.speedupOf(point);
        return s ? tr("%1 (%2)").arg(
                   q(formatSignificant(s->factor, 6)), q(std::string(speedupFormula(s->basis))))
                 : tr("one of the two has no time or rate");
    }
    if (kind == Payoff) {
        const auto share = m_times.share(row);
        const auto &a = m_document->analysis(row);
        if (!share || !a || !a->utilization)
            return tr("no payoff: the point has no measured time or no utilization");
        return tr("time share %1 % × (1 − utilization %2 %)")
            .arg(q(formatSignificant(*share * 100.0, 3)),
                q(formatSignificant(std::min(*a->utilization, 1.0) * 100.0, 3)));
    }
    if (kind == CompareAttainable || kind == CompareSpeedup) {
        const auto move = moveOf(row);
        if (!move)
            return tr("cannot be placed on one of the two machines");
        QString text = tr("%1 = %2").arg(
            q(formatSignificant(move->speedup, 6)), q(std::string(moveFormula(move->basis))));
        if (move->atTheRoof)
            text += tr("; up to ×%1 at its roof there (attainable there ÷ achieved here)")
                        .arg(q(formatSignificant(*move->atTheRoof, 3)));
        return text;
    }
    return {};
}

QVariant PointsTableModel::display(std::size_t row, int column) const
{
    // Name, group and FLOPs as measured: a what-if moves bytes and time only (the speed-up
    // below reads the moved point). Not a copy per cell: the filter reads every cell.
    const KernelPoint &point = m_document->measuredPoint(row);
    const auto &a = m_document->analysis(row);
    if (column == Bytes || extraLevel(column)) {
        // This level's bytes alone, never a sum over levels.
        const double bytes = a ? bytesIn(*a, column) : 0.0;
        return bytes > 0.0 ? q(formatQuantity(bytes, Dimension::Bytes)) : QStringLiteral("–");
    }
    const int kind = kindOf(column);
    if (kind == CompareAttainable || kind == CompareSpeedup)
        return compareDisplay(row, kind);
    if (kind == Payoff) {
        const auto value = m_times.payoff(*m_document, row);
        return value ? q(formatSignificant(*value * 100.0, 3)) + " %" : QStringLiteral("–");
    }
    switch (kind) {
    case Number:
        return chart::pointNumber(row);
    case Name:
        return m_document->whatIf(row).isIdentity() ? q(point.name)
                                                    : q(point.name) + tr(" (what-if)");
    case Group:
        return q(point.group);
    case Flops:
        return q(formatQuantity(point.flops, Dimension::Flops));
    case SpeedupVsBaseline: {
        const auto s = m_baseline.speedupOf(m_document->point(row));
        return s ? QStringLiteral("×") + q(formatSignificant(s->factor, 3)) : QStringLiteral("–");
    }
    case Operator:
    case Shapes: {
        const auto parts = operatorAndShapes(point.group);
        return q(kind == Operator ? parts.first : parts.second);
    }
    case Launches: {
        const auto launches = m_document->launchesOf(point);
        return launches ? QString::number(*launches) : QStringLiteral("–");
    }
    default:
        break;
    }
    if (!a)
        return kind == Consistency ? tr("cannot be placed") : QVariant(QStringLiteral("–"));
    switch (kind) {
    case Intensity:
        return intensityText(*a);
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
        // "ok" only when the doctor has nothing to say: a possible point can still be far off
        // (slower than its no-overlap time many times over), as the tooltip says.
        if (a->consistent && a->diagnosis.empty())
            return tr("ok");
        if (a->consistent)
            return tr("possible; likely %1").arg(q(diagnosisVerdict(a->diagnosis.front())));
        // The doctor's top cause (another machine the points fit comes first), unless only
        // the generic one is left.
        if (const auto elsewhere = m_document->otherMachineDiagnosis(row))
            return tr("faster than the roof: %1").arg(q(diagnosisVerdict(*elsewhere)));
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
    if (extraLevel(column))
        return a ? bytesIn(*a, column) : -1.0;
    switch (kindOf(column)) {
    case Number: // numerically: #10 after #9
        return static_cast<double>(row + 1);
    case Flops:
        return m_document->measuredPoint(row).flops;
    case Bytes:
        return a ? bytesIn(*a, column) : -1.0;
    case Intensity:
        return a ? mainLevel(*a)->intensity : -1.0;
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
    case Payoff:
        return m_times.payoff(*m_document, row).value_or(-1.0);
    case CompareAttainable:
    case CompareSpeedup: {
        const auto move = moveOf(row);
        return move ? (kindOf(column) == CompareSpeedup ? move->speedup : move->attainableThere)
                    : -1.0;
    }
    case Launches: {
        const auto launches = m_document->launchesOf(m_document->point(row));
        return launches ? static_cast<double>(*launches) : -1.0;
    }
    default:
        return display(row, column);
    }
}

double PointsTableModel::bytesIn(const PointAnalysis &a, int column) const
{
    const LevelAnalysis *level = column == Bytes
        ? (m_mainLevel ? levelIn(a, *m_mainLevel) : mainLevel(a))
        : levelIn(a, extraLevel(column).value_or(MemoryLevel::DRAM));
    return level ? level->bytes : 0.0;
}

// The main level's intensity, with its level named when it is not the column's.
QString PointsTableModel::intensityText(const PointAnalysis &a) const
{
    const LevelAnalysis *main = mainLevel(a);
    QString text = q(formatSignificant(main->intensity, 4));
    if (main->level != m_mainLevel)
        text += " (" + q(std::string(memoryLevelName(main->level))) + ")";
    return text;
}

} // namespace ridgepoint
