#include "widgets/document/document.h"

#include "core/model/value_ranges.h"

#include "widgets/document/changevalue.h"
#include "widgets/qtext.h"

#include <QUndoStack>

#include <algorithm>
#include <utility>

namespace ridgepoint {
namespace {

// A figure the user typed or dragged rests on nothing a file said: its provenance becomes
// "edited in Ridgepoint" (basis unstated) and the other figure is dropped, so that the value
// typed is the one analysed whichever figures are chosen (docs/MODEL.md, "Spec and measured").
template<typename Ceiling>
void markEdited(const Ceiling &before, Ceiling &after, double Ceiling::*value)
{
    if (before.*value == after.*value)
        return;
    after.provenance = Provenance {};
    after.provenance.source = kEditedSource;
    after.alternate.reset();
}

template<typename Ceiling>
void markEditedList(
    const std::vector<Ceiling> &before, std::vector<Ceiling> &after, double Ceiling::*value)
{
    for (std::size_t i = 0; i < after.size(); ++i) {
        // Same list length: the same ceiling at the same place (a rename keeps its place).
        // Otherwise one was added or removed: matched by name; a new one is "edited" too.
        const Ceiling *old = nullptr;
        if (before.size() == after.size())
            old = &before[i];
        for (std::size_t j = 0; !old && j < before.size(); ++j) {
            if (before[j].name == after[i].name)
                old = &before[j];
        }
        if (old)
            markEdited(*old, after[i], value);
        else if (after[i].provenance == Provenance {})
            after[i].provenance.source = kEditedSource;
    }
}

} // namespace

// Adds or removes rows; the same command undoes the other way.
class PointListCommand : public QUndoCommand
{
public:
    enum class Kind { Insert, Remove };

    PointListCommand(Document *document, Kind kind, const QString &text, PointRows rows)
        : QUndoCommand(text)
        , m_document(document)
        , m_kind(kind)
        , m_rows(std::move(rows))
    { }

    void redo() override { apply(m_kind == Kind::Insert); }
    void undo() override { apply(m_kind != Kind::Insert); }

private:
    void apply(bool insert)
    {
        if (insert) {
            m_document->insertRows(m_rows);
            m_document->setSelection(m_rows.indices);
        } else {
            m_document->removeRows(m_rows.indices);
        }
    }

    Document *m_document;
    Kind m_kind;
    PointRows m_rows; // indices ascending; positions after insertion
};

Document::Document(QObject *parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this))
{
    // The doctor's machine guess is found again after a change (documentdoctor.cpp).
    const auto forget = [this] { m_machineFit.reset(); };
    connect(this, &Document::pointsReset, this, forget);
    connect(this, &Document::hardwareChanged, this, forget);
    connect(this, &Document::figuresChanged, this, forget);
    connect(this, &Document::pointsChanged, this, [this] {
        if (!hasOpenPreview())
            m_machineFit.reset();
    });
}

Document::~Document() = default;

void Document::resetHardware(const Hardware &hardware)
{
    m_undoStack->clear();
    applyHardware(hardware);
}

void Document::resetPoints(const std::vector<KernelPoint> &points)
{
    resetPoints(PointTable(points));
}

void Document::resetPoints(PointTable points)
{
    m_undoStack->clear();
    const bool hadTrace = m_trace.has_value();
    m_trace.reset();
    m_launches.clear();
    m_workspace.setPoints(std::move(points));
    m_selection.clear();
    emit pointsReset();
    emit selectionChanged();
    if (hadTrace)
        emit traceChanged();
}

void Document::setTrace(TraceSummary trace)
{
    m_launches.clear();
    for (const TracedPoint &point : trace.points)
        m_launches[point.group + '\n' + point.name] += point.launches;
    m_trace = std::move(trace);
    emit traceChanged();
}

std::optional<std::size_t> Document::launchesOf(std::size_t index) const
{
    if (m_launches.empty())
        return std::nullopt;
    const PointTable &points = m_workspace.pointTable();
    std::string key(points.group(index));
    key += '\n';
    key += points.name(index);
    const auto found = m_launches.find(key);
    return found == m_launches.end() ? std::nullopt : std::optional(found->second);
}

void Document::setAnalysisOptions(AnalysisOptions options)
{
    m_workspace.setAnalysisOptions(std::move(options));
    emitAllPointsChanged();
}

void Document::selectHardware(const Hardware &hardware)
{
    m_undoStack->push(new ChangeValue<Hardware>(
        tr("Select %1").arg(QString::fromStdString(hardware.name)), CommandId::Hardware, "machine",
        m_workspace.hardware(), hardware, [this](const Hardware &value) { applyHardware(value); },
        true));
}

void Document::editHardware(Hardware edited, const QString &text, EditPhase phase)
{
    const Hardware &current = m_workspace.hardware();
    markEditedList(current.compute, edited.compute, &ComputeCeiling::peak);
    markEditedList(current.memory, edited.memory, &MemoryCeiling::bandwidth);
    edited.name = customMachineName(current);
    if (edited.name != current.name) {
        edited.aliases.clear();
        edited.source = "edited from " + current.name + "; " + current.source;
    }
    m_undoStack->push(new ChangeValue<Hardware>(
        text, CommandId::Hardware, "ceilings", current, std::move(edited),
        [this](const Hardware &value) { applyHardware(value); }, phase == EditPhase::Final));
}

void Document::setCeilingShown(bool compute, std::size_t index, bool shown)
{
    const Hardware &current = m_workspace.hardware();
    if (index >= (compute ? current.compute.size() : current.memory.size()))
        return;
    Hardware edited = current;
    bool &visible = compute ? edited.compute[index].visible : edited.memory[index].visible;
    if (visible == shown)
        return;
    visible = shown;
    const QString name = QString::fromStdString(
        compute ? current.compute[index].name : current.memory[index].name);
    m_undoStack->push(new ChangeValue<Hardware>(
        shown ? tr("Show %1").arg(name) : tr("Hide %1").arg(name), CommandId::Hardware, "ceilings",
        current, std::move(edited), [this](const Hardware &value) { applyHardware(value); }, true));
}

QString Document::setWhatIf(std::size_t index, const WhatIf &move, EditPhase phase)
{
    if (index >= m_workspace.pointCount())
        return {};
    // A move whose product leaves the accepted ranges would give inf: refused, with why.
    const KernelPoint measured = m_workspace.measuredPoint(index);
    if (auto problem = moveProblem(measured, move.bytesFactor, move.timeFactor)) {
        QString why
            = tr("Move of %1 refused: %2")
                  .arg(QString::fromStdString(measured.name), QString::fromStdString(*problem));
        emit editRefused(why);
        return why;
    }
    if (phase == EditPhase::Final && !hasOpenPreview() && move == m_workspace.whatIf(index))
        return {}; // a click without a drag is not an edit
    const QString text = tr("Move %1").arg(QString::fromStdString(measured.name));
    m_undoStack->push(new ChangeValue<WhatIf>(
        text, CommandId::WhatIf, "point " + std::to_string(index), m_workspace.whatIf(index), move,
        [this, index](const WhatIf &value) { applyWhatIf(index, value); },
        phase == EditPhase::Final));
    return {};
}

void Document::clearWhatIfs()
{
    if (!m_workspace.hasWhatIfs())
        return;
    const std::vector<WhatIf> &moves = m_workspace.whatIfs();
    m_undoStack->push(new ChangeValue<std::vector<WhatIf>>(
        tr("Clear what-if moves"), CommandId::WhatIf, "all moves", moves,
        std::vector<WhatIf>(moves.size()),
        [this](const std::vector<WhatIf> &value) { applyWhatIfs(value); }, true));
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
    indices = m_workspace.validIndices(std::move(indices));
    if (indices.empty())
        return;
    const QString text = indices.size() == 1
        ? tr("Delete %1").arg(q(m_workspace.pointTable().name(indices.front())))
        : tr("Delete %n points", nullptr, static_cast<int>(indices.size()));
    m_undoStack->push(new PointListCommand(
        this, PointListCommand::Kind::Remove, text, m_workspace.rowsAt(indices)));
}

void Document::duplicatePoints(std::vector<std::size_t> indices)
{
    indices = m_workspace.validIndices(std::move(indices));
    if (indices.empty())
        return;
    const QString text = indices.size() == 1
        ? tr("Duplicate %1").arg(q(m_workspace.pointTable().name(indices.front())))
        : tr("Duplicate %n points", nullptr, static_cast<int>(indices.size()));
    m_undoStack->push(new PointListCommand(
        this, PointListCommand::Kind::Insert, text, m_workspace.duplicateRows(indices)));
}

ridgepoint::Expected<void, std::string> Document::addWorkloads(
    std::vector<Workload> workloads, const QString &text)
{
    if (workloads.empty())
        return {};
    auto rows = m_workspace.workloadRows(std::move(workloads));
    if (!rows)
        return ridgepoint::Unexpected(rows.error());
    m_undoStack->push(
        new PointListCommand(this, PointListCommand::Kind::Insert, text, std::move(*rows)));
    return {};
}

void Document::setQuantMode(QuantMode mode)
{
    if (mode == m_workspace.quantMode())
        return;
    m_undoStack->push(new ChangeValue<QuantMode>(
        tr("Quantization %1").arg(QString::fromStdString(std::string(quantModeName(mode)))),
        CommandId::QuantMode, "quantization", m_workspace.quantMode(), mode,
        [this](const QuantMode &value) { applyQuantMode(value); }, true));
}

void Document::setCompareHardware(std::optional<Hardware> hardware)
{
    if (hardware)
        hardware = withFigures(*hardware, m_figures);
    m_workspace.setCompareHardware(std::move(hardware));
    emit compareHardwareChanged();
}

void Document::setFigures(FigureChoice figures)
{
    if (figures == m_figures)
        return;
    m_figures = figures;
    // The machines hold both figures (the other one as the alternate): swapping them back is
    // lossless, so the history's machines stay valid whichever choice they were made under.
    if (const Hardware *other = m_workspace.compareHardware())
        m_workspace.setCompareHardware(withFigures(*other, figures));
    m_workspace.setHardware(withFigures(m_workspace.hardware(), figures));
    emit figuresChanged();
    emit hardwareChanged();
    emit compareHardwareChanged();
    emitAllPointsChanged();
}

void Document::setSelection(std::vector<std::size_t> indices)
{
    indices = m_workspace.validIndices(std::move(indices));
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
    m_workspace.setHardware(withFigures(hardware, m_figures));
    emit hardwareChanged();
    emitAllPointsChanged();
}

void Document::applyWhatIf(std::size_t index, const WhatIf &move)
{
    m_workspace.setWhatIf(index, move);
    emit pointsChanged(static_cast<qsizetype>(index), static_cast<qsizetype>(index));
}

void Document::applyWhatIfs(const std::vector<WhatIf> &moves)
{
    m_workspace.setWhatIfs(moves);
    emitAllPointsChanged();
}

void Document::applyQuantMode(QuantMode mode)
{
    m_workspace.setQuantMode(mode);
    emit quantModeChanged();
    emitAllPointsChanged();
}

void Document::insertRows(const PointRows &rows)
{
    m_workspace.insertRows(rows);
    m_selection.clear();
    emit pointsReset();
    emit selectionChanged();
}

void Document::removeRows(const std::vector<std::size_t> &indices)
{
    m_workspace.removeRows(indices);
    m_selection.clear();
    emit pointsReset();
    emit selectionChanged();
}

void Document::emitAllPointsChanged()
{
    if (m_workspace.pointCount() > 0)
        emit pointsChanged(0, static_cast<qsizetype>(m_workspace.pointCount()) - 1);
}

} // namespace ridgepoint
