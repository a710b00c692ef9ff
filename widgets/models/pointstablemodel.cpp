#include "widgets/models/pointstablemodel.h"
#include "widgets/qtext.h"

#include "core/analysis/doctor.h"
#include "core/analysis/levels.h"
#include "core/model/units.h"
#include "widgets/chart/geometry/pointlabelplacement.h"
#include "widgets/chart/tracenames.h"
#include "widgets/document/document.h"

#include <QColor>
#include <QFont>

#include <algorithm>
#include <span>
#include <tuple>

namespace ridgepoint {
namespace {

QString shortName(const Hardware &machine)
{
    return q(machine.aliases.empty() ? machine.name : machine.aliases.front());
}

// The analysed level of `level` (with or without a ceiling, those with one first), or null.
const LevelPlacement *levelIn(std::span<const LevelPlacement> levels, MemoryLevel level)
{
    const auto found = std::ranges::find(levels, level, &LevelPlacement::level);
    return found != levels.end() ? &*found : nullptr;
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
        followCurrent();
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
        // By operator, a point's time changes the speed-up of its operator's other points.
        if (m_baseline.byOperator() && rowCount() > 0) {
            followCurrent();
            const int column = columnOf(SpeedupVsBaseline);
            emit dataChanged(index(0, column), index(rowCount() - 1, column));
        }
    });
    connect(document, &Document::baselineChanged, this, &PointsTableModel::baselineChanged);
    connect(document, &Document::compareHardwareChanged, this, &PointsTableModel::compareChanged);
    connect(document, &Document::traceChanged, this, &PointsTableModel::traceChanged);
    m_baseline.rebuild(document->baseline());
    followCurrent();
    m_compare = document->compareHardware() != nullptr;
    m_trace = document->trace() != nullptr;
    m_kinds = shownKinds();
    m_times.rebuild(*document);
    findLevels();
}

std::pair<std::optional<MemoryLevel>, std::vector<MemoryLevel>>
PointsTableModel::levelsOfPoints() const
{
    std::optional<MemoryLevel> main;
    std::vector<MemoryLevel> seen;
    const Placements &placements = m_document->placements();
    for (std::size_t i = 0; i < m_document->pointCount(); ++i) {
        if (!placements[i].placed)
            continue;
        if (const LevelPlacement *level = placements.mainLevel(i); level && !main)
            main = level->level;
        for (const auto &entry : placements.levels(i)) {
            if (std::find(seen.begin(), seen.end(), entry.level) == seen.end())
                seen.push_back(entry.level);
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

std::vector<int> PointsTableModel::shownKinds() const
{
    std::vector<int> kinds;
    for (int kind = Number; kind <= Utilization; ++kind)
        kinds.push_back(kind);
    // Beside Attainable and the rest of the point's standing here, before the judgements of
    // the measurement (Consistency) and of the time (Payoff).
    if (m_compare)
        kinds.insert(kinds.end(), { CompareAttainable, CompareSpeedup });
    kinds.insert(kinds.end(), { Consistency, Payoff });
    if (!m_baseline.empty())
        kinds.push_back(SpeedupVsBaseline);
    if (m_trace)
        kinds.insert(kinds.end(), { Operator, Shapes, Launches });
    return kinds;
}

int PointsTableModel::fixedColumns() const
{
    return static_cast<int>(m_kinds.size());
}

int PointsTableModel::kindOf(int column) const
{
    return column >= 0 && column < fixedColumns() ? m_kinds[static_cast<std::size_t>(column)] : -1;
}

int PointsTableModel::columnOf(Column column) const
{
    const auto found = std::find(m_kinds.begin(), m_kinds.end(), int(column));
    return found == m_kinds.end() ? -1 : static_cast<int>(found - m_kinds.begin());
}

void PointsTableModel::compareChanged()
{
    const bool has = m_document->compareHardware() != nullptr;
    const int first = Utilization + 1;
    if (has && !m_compare) {
        beginInsertColumns({}, first, first + 1);
        m_compare = true;
        m_kinds = shownKinds();
        endInsertColumns();
    } else if (!has && m_compare) {
        beginRemoveColumns({}, first, first + 1);
        m_compare = false;
        m_kinds = shownKinds();
        endRemoveColumns();
    } else if (has) {
        // Another machine: its name in the headers, its figures in the cells.
        emit headerDataChanged(Qt::Horizontal, first, first + 1);
        if (rowCount() > 0)
            emit dataChanged(index(0, first), index(rowCount() - 1, first + 1));
    }
}

void PointsTableModel::traceChanged()
{
    const bool has = m_document->trace() != nullptr;
    const int first = has && !m_trace ? fixedColumns() : columnOf(Operator);
    if (has && !m_trace) {
        beginInsertColumns({}, first, first + 2);
        m_trace = true;
        m_kinds = shownKinds();
        endInsertColumns();
    } else if (!has && m_trace) {
        beginRemoveColumns({}, first, first + 2);
        m_trace = false;
        m_kinds = shownKinds();
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

void PointsTableModel::followCurrent()
{
    if (m_baseline.byOperator())
        m_baseline.setCurrent(m_document->workspace().points());
}

void PointsTableModel::baselineChanged()
{
    const bool had = !m_baseline.empty();
    const bool has = m_document->baseline().has_value();
    const int at = columnOf(Payoff) + 1;
    if (!had && has)
        beginInsertColumns({}, at, at);
    else if (had && !has)
        beginRemoveColumns({}, at, at);
    m_baseline.rebuild(m_document->baseline());
    followCurrent();
    m_kinds = shownKinds();
    if (!had && has)
        endInsertColumns();
    else if (had && !has)
        endRemoveColumns();
    else if (has && rowCount() > 0)
        emit dataChanged(index(0, at), index(rowCount() - 1, at));
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
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole)
        return headerToolTip(kindOf(section));
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
    // The machine's short name (its first alias), and short: "Speed-up on AMD Instinct MI300X
    // 192GB" was wider than any of its cells. A cell and its header read "×1.32 on MI300X";
    // the header's tooltip gives the whole name and what the figures are.
    case CompareAttainable:
        return other ? tr("%1 roof").arg(shortName(*other)) : QVariant();
    case CompareSpeedup:
        return other ? tr("× on %1").arg(shortName(*other)) : QVariant();
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

QVariant PointsTableModel::headerToolTip(int kind) const
{
    const Hardware *other = m_document->compareHardware();
    switch (kind) {
    case Intensity:
        if (!m_mainLevel)
            return {};
        return tr("FLOP/B at %1: FLOPs / %1 bytes, the level the bound is read on")
            .arg(q(std::string(memoryLevelName(*m_mainLevel))));
    case Number:
        return tr("the point's number: its marker carries it when points are numbered, and the "
                  "exported table's \"#\" column");
    case Payoff:
        return tr("share of the total time this kernel would save at its roof: time share × "
                  "(1 − utilization)");
    case CompareAttainable:
        return other
            ? tr("Attainable on %1: the kernel's roof there, at its intensity").arg(q(other->name))
            : QVariant();
    case CompareSpeedup:
        return other ? tr("Speed-up on %1: the kernel's roof there ÷ its roof here (attainable "
                          "there ÷ attainable here); a measured kernel's tooltip also says how "
                          "much faster than now it could be at its roof there")
                           .arg(q(other->name))
                     : QVariant();
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
    case Qt::TextAlignmentRole: {
        // Text to the left, numbers (and an extra level's bytes, kind -1) to the right.
        const int kind = kindOf(index.column());
        if (kind == Name || kind == Group || kind == Bound || kind == Consistency
            || kind == Operator || kind == Shapes)
            return {};
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    case Qt::ForegroundRole: {
        const PointPlacement &a = m_document->placement(row);
        if (!a.placed || (!a.consistent && kindOf(index.column()) == Consistency))
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
        return q(m_document->pointTable().name(row));
    if (kind == Consistency) {
        const auto &a = m_document->analysis(row);
        if (!a)
            return q(a.error());
        if (a->diagnosis.empty())
            return q(a->note);
        // The cell's whole text first: the column is narrow and elides it.
        const QString cell = display(row, columnOf(Consistency)).toString();
        const Diagnosis &top = a->diagnosis.front(); // the doctor's likeliest cause
        return cell + "\n" + q(a->note) + "\n"
            + tr("likely: %1 (%2)\ncheck: %3")
                  .arg(q(diagnosisVerdict(top)), q(top.evidence), q(top.fix));
    }
    if (kind == SpeedupVsBaseline) {
        const KernelPoint point = m_document->point(row);
        if (!m_baseline.find(point))
            return m_baseline.byOperator()
                ? tr("no %1 in the baseline (matched by operator and shapes)").arg(q(point.group))
                : tr("no point named \"%1\" in the baseline").arg(q(point.name));
        const auto s = m_baseline.speedupOf(point);
        return s ? tr("%1 (%2)").arg(
                   q(formatSignificant(s->factor, 6)), q(std::string(speedupFormula(s->basis))))
                 : tr("one of the two has no time or rate");
    }
    if (kind == Payoff) {
        const auto share = m_times.share(row);
        const PointPlacement &a = m_document->placement(row);
        if (!share || !a.placed || !a.utilization())
            return tr("no payoff: the point has no measured time or no utilization");
        return tr("time share %1 % × (1 − utilization %2 %)")
            .arg(q(formatSignificant(*share * 100.0, 3)),
                q(formatSignificant(std::min(*a.utilization(), 1.0) * 100.0, 3)));
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
    // below reads the moved point). Read from the table, not a point made per cell: the filter
    // reads every cell.
    const PointTable &points = m_document->pointTable();
    const PointPlacement &a = m_document->placement(row);
    if (column == Bytes || extraLevel(column)) {
        // This level's bytes alone, never a sum over levels.
        const double bytes = a.placed ? bytesIn(row, column) : 0.0;
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
        return m_document->whatIf(row).isIdentity() ? q(points.name(row))
                                                    : q(points.name(row)) + tr(" (what-if)");
    case Group:
        return q(points.group(row));
    case Flops:
        return q(formatQuantity(points.flops(row), Dimension::Flops));
    case SpeedupVsBaseline: {
        const auto s = m_baseline.speedupOf(m_document->point(row));
        return s ? QStringLiteral("×") + q(formatSignificant(s->factor, 3)) : QStringLiteral("–");
    }
    case Operator:
    case Shapes: {
        const auto parts = chart::operatorAndShapes(points.group(row));
        return q(kind == Operator ? parts.first : parts.second);
    }
    case Launches: {
        const auto launches = m_document->launchesOf(row);
        return launches ? QString::number(*launches) : QStringLiteral("–");
    }
    default:
        break;
    }
    if (!a.placed)
        return kind == Consistency ? tr("cannot be placed") : QVariant(QStringLiteral("–"));
    switch (kind) {
    case Intensity:
        return intensityText(row);
    case Performance:
        return a.measured ? q(formatQuantity(a.y, Dimension::FlopRate)) : tr("planned");
    case Attainable:
        return q(formatQuantity(a.attainable, Dimension::FlopRate));
    case Utilization:
        return a.measured ? q(formatSignificant(*a.utilization() * 100.0, 3)) + " %"
                          : QStringLiteral("–");
    default:
        return analysedDisplay(row, kind);
    }
}

// The cells that name the limiting ceiling or the doctor's verdict. The compact placement says
// the name and whether there is a verdict, so the common cells ("memory (HBM3)", "ok") cost no
// analysis: the filter's first keystroke reads every cell of every row.
QVariant PointsTableModel::analysedDisplay(std::size_t row, int kind) const
{
    const PointPlacement &placed = m_document->placement(row);
    const std::string *limiting = m_document->placements().limitingCeiling(row);
    if (kind == Bound && limiting)
        return tr("%1 (%2)").arg(q(std::string(boundName(placed.bound))), q(*limiting));
    if (kind == Consistency && placed.consistent && !placed.diagnosed)
        return tr("ok");
    const auto a = m_document->analysis(row);
    if (!a)
        return {};
    switch (kind) {
    case Bound:
        return tr("%1 (%2)").arg(q(std::string(boundName(a->bound))), q(a->limitingCeiling));
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
    const PointPlacement &a = m_document->placement(row);
    if (extraLevel(column))
        return a.placed ? bytesIn(row, column) : -1.0;
    switch (kindOf(column)) {
    case Number: // numerically: #10 after #9
        return static_cast<double>(row + 1);
    case Flops:
        return m_document->pointTable().flops(row);
    case Bytes:
        return a.placed ? bytesIn(row, column) : -1.0;
    case Intensity:
        return a.placed ? m_document->placements().mainLevel(row)->intensity : -1.0;
    case Performance:
        return a.placed && a.measured ? a.y : -1.0;
    case Attainable:
        return a.placed ? a.attainable : -1.0;
    case Utilization:
        return a.placed && a.measured ? *a.utilization() : -1.0;
    case Consistency:
        return a.placed ? (a.consistent ? 1 : 0) : -1;
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
        const auto launches = m_document->launchesOf(row);
        return launches ? static_cast<double>(*launches) : -1.0;
    }
    default:
        return display(row, column);
    }
}

double PointsTableModel::bytesIn(std::size_t row, int column) const
{
    const Placements &placements = m_document->placements();
    const LevelPlacement *level = column == Bytes
        ? (m_mainLevel ? levelIn(placements.levels(row), *m_mainLevel) : placements.mainLevel(row))
        : levelIn(placements.levels(row), extraLevel(column).value_or(MemoryLevel::DRAM));
    return level ? level->bytes : 0.0;
}

// The main level's intensity, with its level named when it is not the column's.
QString PointsTableModel::intensityText(std::size_t row) const
{
    const LevelPlacement *main = m_document->placements().mainLevel(row);
    QString text = q(formatSignificant(main->intensity, 4));
    if (main->level != m_mainLevel)
        text += " (" + q(std::string(memoryLevelName(main->level))) + ")";
    return text;
}

} // namespace ridgepoint
