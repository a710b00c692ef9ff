#include "widgets/document/document.h"

#include "widgets/document/changevalue.h"

#include <QUndoStack>

#include <algorithm>
#include <utility>

namespace ridgepoint {

KernelPoint applyWhatIf(const KernelPoint &point, const WhatIf &move)
{
    if (move.isIdentity())
        return point;
    KernelPoint moved = point;
    for (auto &level : moved.bytes)
        level.bytes *= move.bytesFactor;
    // A point known only by intensities (no byte counts) moves the same way: I = F / B.
    if (moved.intensity)
        *moved.intensity /= move.bytesFactor;
    for (auto &level : moved.levelIntensities)
        level.intensity /= move.bytesFactor;
    if (moved.seconds)
        *moved.seconds *= move.timeFactor;
    else if (moved.measuredRate)
        *moved.measuredRate /= move.timeFactor;
    return moved;
}

std::string customMachineName(const Hardware &hardware)
{
    static constexpr std::string_view kPrefix = "Custom (from ";
    if (hardware.name.starts_with(kPrefix) || hardware.name == "Custom machine")
        return hardware.name;
    const std::string &shortName
        = hardware.aliases.empty() ? hardware.name : hardware.aliases.front();
    return std::string(kPrefix) + shortName + ")";
}

// Adds or removes rows; the same command undoes the other way.
class PointListCommand : public QUndoCommand
{
public:
    enum class Kind { Insert, Remove };

    PointListCommand(Document *document, Kind kind, const QString &text,
        std::vector<std::size_t> indices, std::vector<KernelPoint> points,
        std::vector<WhatIf> moves, Document::WorkloadRows workloads)
        : QUndoCommand(text)
        , m_document(document)
        , m_kind(kind)
        , m_indices(std::move(indices))
        , m_points(std::move(points))
        , m_moves(std::move(moves))
        , m_workloads(std::move(workloads))
    { }

    void redo() override { apply(m_kind == Kind::Insert); }
    void undo() override { apply(m_kind != Kind::Insert); }

private:
    void apply(bool insert)
    {
        if (insert) {
            m_document->insertRows(m_indices, m_points, m_moves, m_workloads);
            m_document->setSelection(m_indices);
        } else {
            m_document->removeRows(m_indices);
        }
    }

    Document *m_document;
    Kind m_kind;
    std::vector<std::size_t> m_indices; // ascending; positions after insertion
    std::vector<KernelPoint> m_points;
    std::vector<WhatIf> m_moves;
    Document::WorkloadRows m_workloads;
};

Document::Document(QObject *parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this))
{ }

Document::~Document() = default;

void Document::resetHardware(const Hardware &hardware)
{
    m_undoStack->clear();
    applyHardware(hardware);
}

void Document::resetPoints(std::vector<KernelPoint> points)
{
    m_undoStack->clear();
    m_points = std::move(points);
    m_moves.assign(m_points.size(), WhatIf {});
    m_workloads.clear();
    m_selection.clear();
    reanalyseAll();
    emit pointsReset();
    emit selectionChanged();
}

void Document::setAnalysisOptions(AnalysisOptions options)
{
    m_options = std::move(options);
    reanalyseAll();
    if (!m_points.empty())
        emit pointsChanged(0, static_cast<qsizetype>(m_points.size()) - 1);
}

void Document::selectHardware(const Hardware &hardware)
{
    m_undoStack->push(new ChangeValue<Hardware>(
        tr("Select %1").arg(QString::fromStdString(hardware.name)), CommandId::Hardware, "machine",
        m_hardware, hardware, [this](const Hardware &value) { applyHardware(value); }, true));
}

void Document::editHardware(Hardware edited, const QString &text, EditPhase phase)
{
    edited.name = customMachineName(m_hardware);
    if (edited.name != m_hardware.name) {
        edited.aliases.clear();
        edited.source = "edited from " + m_hardware.name + "; " + m_hardware.source;
    }
    m_undoStack->push(new ChangeValue<Hardware>(
        text, CommandId::Hardware, "ceilings", m_hardware, std::move(edited),
        [this](const Hardware &value) { applyHardware(value); }, phase == EditPhase::Final));
}

KernelPoint Document::point(std::size_t index) const
{
    return ridgepoint::applyWhatIf(m_points[index], m_moves[index]);
}

PointResult Document::measuredAnalysis(std::size_t index) const
{
    if (m_moves[index].isIdentity() || workloadError(index))
        return m_analysis[index];
    return analyzePoint(m_points[index], m_hardware, m_options);
}

void Document::setWhatIf(std::size_t index, const WhatIf &move, EditPhase phase)
{
    if (index >= m_points.size())
        return;
    if (phase == EditPhase::Final && !hasOpenPreview() && move == m_moves[index])
        return; // a click without a drag is not an edit
    const QString text = tr("Move %1").arg(QString::fromStdString(m_points[index].name));
    m_undoStack->push(new ChangeValue<WhatIf>(
        text, CommandId::WhatIf, "point " + std::to_string(index), m_moves[index], move,
        [this, index](const WhatIf &value) { applyWhatIf(index, value); },
        phase == EditPhase::Final));
}

void Document::clearWhatIfs()
{
    if (std::all_of(m_moves.begin(), m_moves.end(), [](const WhatIf &m) { return m.isIdentity(); }))
        return;
    m_undoStack->push(new ChangeValue<std::vector<WhatIf>>(
        tr("Clear what-if moves"), CommandId::WhatIf, "all moves", m_moves,
        std::vector<WhatIf>(m_moves.size()),
        [this](const std::vector<WhatIf> &moves) { applyWhatIfs(moves); }, true));
}

bool Document::hasOpenPreview() const
{
    const int top = m_undoStack->index() - 1;
    if (top < 0 || top >= m_undoStack->count())
        return false;
    const auto *command = dynamic_cast<const ChangeValueBase *>(m_undoStack->command(top));
    return command && !command->isCommitted();
}

void Document::cancelPreview()
{
    if (!hasOpenPreview())
        return;
    auto *command = const_cast<ChangeValueBase *>(
        dynamic_cast<const ChangeValueBase *>(m_undoStack->command(m_undoStack->index() - 1)));
    command->cancelOnUndo();
    m_undoStack->undo();
}

void Document::removePoints(std::vector<std::size_t> indices)
{
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    std::erase_if(indices, [this](std::size_t i) { return i >= m_points.size(); });
    if (indices.empty())
        return;
    std::vector<KernelPoint> points;
    std::vector<WhatIf> moves;
    WorkloadRows workloads;
    for (std::size_t i : indices) {
        if (const WorkloadSlot *slot = workloadSlot(i))
            workloads.emplace_back(points.size(), slot->workload);
        points.push_back(m_points[i]);
        moves.push_back(m_moves[i]);
    }
    const QString text = indices.size() == 1
        ? tr("Delete %1").arg(QString::fromStdString(m_points[indices.front()].name))
        : tr("Delete %n points", nullptr, static_cast<int>(indices.size()));
    m_undoStack->push(new PointListCommand(this, PointListCommand::Kind::Remove, text,
        std::move(indices), std::move(points), std::move(moves), std::move(workloads)));
}

void Document::duplicatePoints(std::vector<std::size_t> indices)
{
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    std::erase_if(indices, [this](std::size_t i) { return i >= m_points.size(); });
    if (indices.empty())
        return;
    std::vector<std::size_t> positions;
    std::vector<KernelPoint> points;
    std::vector<WhatIf> moves;
    WorkloadRows workloads;
    for (std::size_t i : indices) {
        if (const WorkloadSlot *slot = workloadSlot(i)) {
            Workload workload = slot->workload;
            // A copy of a sweep's point is not part of the sweep's trajectory.
            workload.sweep.reset();
            workloads.emplace_back(points.size(), std::move(workload));
        }
        positions.push_back(m_points.size() + positions.size());
        KernelPoint copy = m_points[i];
        copy.name += " (copy)";
        points.push_back(std::move(copy));
        moves.push_back(m_moves[i]);
    }
    const QString text = indices.size() == 1
        ? tr("Duplicate %1").arg(QString::fromStdString(m_points[indices.front()].name))
        : tr("Duplicate %n points", nullptr, static_cast<int>(indices.size()));
    m_undoStack->push(new PointListCommand(this, PointListCommand::Kind::Insert, text,
        std::move(positions), std::move(points), std::move(moves), std::move(workloads)));
}

ridgepoint::Expected<void, std::string> Document::addWorkloads(
    std::vector<Workload> workloads, const QString &text)
{
    if (workloads.empty())
        return {};
    std::vector<std::size_t> positions;
    std::vector<KernelPoint> points;
    WorkloadRows stored;
    for (auto &workload : workloads) {
        auto point = workloadPoint(workload, m_quant, m_hardware);
        if (!point)
            return ridgepoint::Unexpected(point.error());
        stored.emplace_back(points.size(), std::move(workload));
        positions.push_back(m_points.size() + positions.size());
        points.push_back(std::move(*point));
    }
    std::vector<WhatIf> moves(points.size());
    m_undoStack->push(new PointListCommand(this, PointListCommand::Kind::Insert, text,
        std::move(positions), std::move(points), std::move(moves), std::move(stored)));
    return {};
}

const Workload *Document::workload(std::size_t index) const
{
    const WorkloadSlot *slot = workloadSlot(index);
    return slot ? &slot->workload : nullptr;
}

Document::WorkloadSlot *Document::workloadSlot(std::size_t index)
{
    return const_cast<WorkloadSlot *>(std::as_const(*this).workloadSlot(index));
}

const Document::WorkloadSlot *Document::workloadSlot(std::size_t index) const
{
    const auto it = std::lower_bound(m_workloads.begin(), m_workloads.end(), index,
        [](const WorkloadSlot &slot, std::size_t i) { return slot.point < i; });
    return it != m_workloads.end() && it->point == index ? &*it : nullptr;
}

const std::string *Document::workloadError(std::size_t index) const
{
    if (m_workloads.empty()) // measured points only: no search per point
        return nullptr;
    const WorkloadSlot *slot = workloadSlot(index);
    return slot && !slot->error.empty() ? &slot->error : nullptr;
}

void Document::setQuantMode(QuantMode mode)
{
    if (mode == m_quant)
        return;
    m_undoStack->push(new ChangeValue<QuantMode>(
        tr("Quantization %1").arg(QString::fromStdString(std::string(quantModeName(mode)))),
        CommandId::QuantMode, "quantization", m_quant, mode,
        [this](const QuantMode &value) { applyQuantMode(value); }, true));
}

const ComputeCeiling *Document::activeComputeCeiling() const
{
    if (!m_options.computeCeiling.empty()) {
        if (const ComputeCeiling *named = m_hardware.findCompute(m_options.computeCeiling))
            return named;
    }
    for (const WorkloadSlot &slot : m_workloads) {
        if (const auto &a = m_analysis[slot.point]) {
            if (const ComputeCeiling *used = m_hardware.findCompute(a->computeCeiling))
                return used;
        }
    }
    return m_hardware.defaultComputeCeiling();
}

void Document::applyQuantMode(QuantMode mode)
{
    m_quant = mode;
    rederiveWorkloads();
    reanalyseAll();
    emit quantModeChanged();
    if (!m_points.empty())
        emit pointsChanged(0, static_cast<qsizetype>(m_points.size()) - 1);
}

void Document::rederiveWorkloads()
{
    for (WorkloadSlot &slot : m_workloads)
        rederive(slot);
}

void Document::rederive(WorkloadSlot &slot)
{
    auto point = workloadPoint(slot.workload, m_quant, m_hardware);
    if (point) {
        m_points[slot.point] = std::move(*point);
        slot.error.clear();
    } else {
        slot.error = point.error();
    }
}

void Document::setCompareHardware(std::optional<Hardware> hardware)
{
    m_compare = std::move(hardware);
    emit compareHardwareChanged();
}

PointResult Document::compareAnalysis(std::size_t index) const
{
    if (!m_compare)
        return ridgepoint::Unexpected(std::string("no machine to compare with"));
    // The other machine's own ceiling for the point's precision: a named ceiling of this
    // machine may not exist there.
    AnalysisOptions options = m_options;
    options.computeCeiling.clear();
    return analyzePoint(point(index), *m_compare, options);
}

void Document::setSelection(std::vector<std::size_t> indices)
{
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    std::erase_if(indices, [this](std::size_t i) { return i >= m_points.size(); });
    if (indices == m_selection)
        return;
    m_selection = std::move(indices);
    emit selectionChanged();
}

bool Document::isSelected(std::size_t index) const
{
    return std::binary_search(m_selection.begin(), m_selection.end(), index);
}

void Document::applyHardware(const Hardware &hardware)
{
    m_hardware = hardware;
    rederiveWorkloads();
    reanalyseAll();
    emit hardwareChanged();
    if (!m_points.empty())
        emit pointsChanged(0, static_cast<qsizetype>(m_points.size()) - 1);
}

void Document::applyWhatIf(std::size_t index, const WhatIf &move)
{
    m_moves[index] = move;
    reanalyse(index);
    emit pointsChanged(static_cast<qsizetype>(index), static_cast<qsizetype>(index));
}

void Document::applyWhatIfs(const std::vector<WhatIf> &moves)
{
    m_moves = moves;
    reanalyseAll();
    if (!m_points.empty())
        emit pointsChanged(0, static_cast<qsizetype>(m_points.size()) - 1);
}

void Document::insertRows(const std::vector<std::size_t> &indices,
    const std::vector<KernelPoint> &points, const std::vector<WhatIf> &moves,
    const WorkloadRows &workloads)
{
    auto workload = workloads.begin();
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const std::size_t index = indices[k];
        const auto at = static_cast<std::ptrdiff_t>(index);
        m_points.insert(m_points.begin() + at, points[k]);
        m_moves.insert(m_moves.begin() + at, moves[k]);
        m_analysis.insert(m_analysis.begin() + at, PointResult {});
        // The workload points at or after the new row move down one.
        auto slot = std::lower_bound(m_workloads.begin(), m_workloads.end(), index,
            [](const WorkloadSlot &s, std::size_t i) { return s.point < i; });
        for (auto later = slot; later != m_workloads.end(); ++later)
            ++later->point;
        if (workload != workloads.end() && workload->first == k) {
            slot = m_workloads.insert(slot, WorkloadSlot { index, workload->second, {} });
            ++workload;
            // The mode or the machine may have changed since the rows were removed.
            rederive(*slot);
        }
        reanalyse(index);
    }
    m_selection.clear();
    emit pointsReset();
    emit selectionChanged();
}

void Document::removeRows(const std::vector<std::size_t> &indices)
{
    for (auto it = indices.rbegin(); it != indices.rend(); ++it) {
        const auto at = static_cast<std::ptrdiff_t>(*it);
        m_points.erase(m_points.begin() + at);
        m_moves.erase(m_moves.begin() + at);
        m_analysis.erase(m_analysis.begin() + at);
        auto slot = std::lower_bound(m_workloads.begin(), m_workloads.end(), *it,
            [](const WorkloadSlot &s, std::size_t i) { return s.point < i; });
        if (slot != m_workloads.end() && slot->point == *it)
            slot = m_workloads.erase(slot);
        for (; slot != m_workloads.end(); ++slot)
            --slot->point;
    }
    m_selection.clear();
    emit pointsReset();
    emit selectionChanged();
}

void Document::reanalyseAll()
{
    m_analysis.clear();
    m_analysis.reserve(m_points.size());
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        m_analysis.emplace_back();
        reanalyse(i);
    }
}

void Document::reanalyse(std::size_t index)
{
    if (const std::string *error = workloadError(index))
        m_analysis[index] = ridgepoint::Unexpected(*error);
    else if (m_moves[index].isIdentity()) // no copy of the point: most are not moved
        m_analysis[index] = analyzePoint(m_points[index], m_hardware, m_options);
    else
        m_analysis[index] = analyzePoint(point(index), m_hardware, m_options);
}

} // namespace ridgepoint
