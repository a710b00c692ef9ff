#include "core/workspace/workspace.h"

#include <algorithm>
#include <utility>

namespace ridgepoint {

KernelPoint applyWhatIf(const KernelPoint &point, const WhatIf &move)
{
    KernelPoint moved = point;
    moveInPlace(moved, move);
    return moved;
}

void moveInPlace(KernelPoint &moved, const WhatIf &move)
{
    if (move.isIdentity())
        return;
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

// ---- the machine and the options

void Workspace::setHardware(const Hardware &hardware)
{
    m_hardware = hardware;
    rederiveWorkloads();
    reanalyseAll();
}

void Workspace::setAnalysisOptions(AnalysisOptions options)
{
    m_options = std::move(options);
    reanalyseAll();
}

// ---- points and moves

KernelPoint Workspace::point(std::size_t index) const
{
    KernelPoint point = m_points.at(index);
    moveInPlace(point, whatIf(index));
    return point;
}

std::vector<KernelPoint> Workspace::points() const
{
    std::vector<KernelPoint> out = m_points.toVector();
    for (std::size_t i = 0; i < out.size(); ++i)
        moveInPlace(out[i], whatIf(i));
    return out;
}

std::vector<WhatIf> Workspace::whatIfs() const
{
    return m_moves.empty() ? std::vector<WhatIf>(m_points.size()) : m_moves;
}

void Workspace::keepMoves()
{
    if (m_moves.empty())
        m_moves.assign(m_points.size(), WhatIf {});
}

bool Workspace::hasWhatIfs() const
{
    return std::any_of(
        m_moves.begin(), m_moves.end(), [](const WhatIf &m) { return !m.isIdentity(); });
}

PointResult Workspace::measuredAnalysis(std::size_t index) const
{
    if (whatIf(index).isIdentity() || workloadError(index))
        return analysis(index);
    if (const WorkloadSlot *slot = workloadSlot(index); slot && hasOwnMachine(slot->workload))
        return analyzePoint(
            m_points.at(index), workloadMachine(slot->workload, m_hardware), m_options);
    return analyzePoint(m_points.at(index), m_hardware, m_options);
}

void Workspace::setPoints(const std::vector<KernelPoint> &points)
{
    setPoints(PointTable(points));
}

void Workspace::setPoints(PointTable points)
{
    m_points = std::move(points);
    m_moves.clear();
    m_moves.shrink_to_fit();
    m_workloads.clear();
    reanalyseAll();
}

void Workspace::setWhatIf(std::size_t index, const WhatIf &move)
{
    if (m_moves.empty() && !move.isIdentity())
        keepMoves();
    if (!m_moves.empty())
        m_moves[index] = move;
    reanalyse(index);
}

void Workspace::setWhatIfs(std::vector<WhatIf> moves)
{
    m_moves = std::move(moves);
    if (std::ranges::all_of(m_moves, &WhatIf::isIdentity)) {
        m_moves.clear();
        m_moves.shrink_to_fit();
    }
    reanalyseAll();
}

std::optional<std::size_t> Workspace::findPoint(std::string_view name) const
{
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        if (m_points.name(i) == name)
            return i;
    }
    return std::nullopt;
}

std::vector<std::size_t> Workspace::validIndices(std::vector<std::size_t> indices) const
{
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    std::erase_if(indices, [this](std::size_t i) { return i >= m_points.size(); });
    return indices;
}

// ---- workloads and quantization

const Workload *Workspace::workload(std::size_t index) const
{
    const WorkloadSlot *slot = workloadSlot(index);
    return slot ? &slot->workload : nullptr;
}

std::optional<IoBoundExcess> Workspace::ioBoundExcess(std::size_t index) const
{
    const Workload *planned = index < m_points.size() ? workload(index) : nullptr;
    if (!planned)
        return std::nullopt;
    return workloadIoExcess(*planned, m_quant, m_hardware, point(index));
}

std::vector<Workspace::WorkloadSlot>::iterator Workspace::firstSlotFrom(std::size_t index)
{
    return std::lower_bound(m_workloads.begin(), m_workloads.end(), index,
        [](const WorkloadSlot &slot, std::size_t i) { return slot.point < i; });
}

const Workspace::WorkloadSlot *Workspace::workloadSlot(std::size_t index) const
{
    const auto it = std::lower_bound(m_workloads.begin(), m_workloads.end(), index,
        [](const WorkloadSlot &slot, std::size_t i) { return slot.point < i; });
    return it != m_workloads.end() && it->point == index ? &*it : nullptr;
}

const std::string *Workspace::workloadError(std::size_t index) const
{
    if (m_workloads.empty()) // measured points only: no search per point
        return nullptr;
    const WorkloadSlot *slot = workloadSlot(index);
    return slot && !slot->error.empty() ? &slot->error : nullptr;
}

void Workspace::setQuantMode(QuantMode mode)
{
    m_quant = mode;
    rederiveWorkloads();
    reanalyseAll();
}

const ComputeCeiling *Workspace::activeComputeCeiling() const
{
    if (!m_options.computeCeiling.empty()) {
        if (const ComputeCeiling *named = m_hardware.findCompute(m_options.computeCeiling))
            return named;
    }
    for (const WorkloadSlot &slot : m_workloads) {
        if (const std::uint32_t used = m_placements[slot.point].computeCeiling;
            used != PointPlacement::kNone)
            return &m_hardware.compute[used];
    }
    return m_hardware.defaultComputeCeiling();
}

void Workspace::rederiveWorkloads()
{
    for (WorkloadSlot &slot : m_workloads)
        rederive(slot);
}

void Workspace::rederive(WorkloadSlot &slot)
{
    auto point = workloadPoint(slot.workload, m_quant, m_hardware);
    if (point) {
        m_points.set(slot.point, *point);
        slot.error.clear();
    } else {
        slot.error = point.error();
    }
}

// ---- analysis

PointResult Workspace::compareAnalysis(std::size_t index) const
{
    if (!m_compare)
        return ridgepoint::Unexpected(std::string("no machine to compare with"));
    // The other machine's own ceiling for the point's precision: a named ceiling of this
    // machine may not exist there.
    AnalysisOptions options = m_options;
    options.computeCeiling.clear();
    return analyzePoint(point(index), *m_compare, options);
}

PointResult Workspace::analysis(std::size_t index) const
{
    if (!m_lastAnalysis || m_lastAnalysis->first != index)
        m_lastAnalysis.emplace(index, analyse(index));
    return m_lastAnalysis->second;
}

void Workspace::reanalyseAll()
{
    m_lastAnalysis.reset();
    m_placements.reset(m_points.size());
    KernelPoint scratch;
    for (std::size_t i = 0; i < m_points.size(); ++i)
        m_placements.set(i, analyse(i, scratch), m_hardware);
}

void Workspace::reanalyse(std::size_t index)
{
    m_lastAnalysis.reset();
    m_placements.set(index, analyse(index), m_hardware);
}

PointResult Workspace::analyse(std::size_t index) const
{
    KernelPoint scratch;
    return analyse(index, scratch);
}

PointResult Workspace::analyse(std::size_t index, KernelPoint &scratch) const
{
    const WorkloadSlot *slot = m_workloads.empty() ? nullptr : workloadSlot(index);
    if (const std::string *error = workloadError(index))
        return ridgepoint::Unexpected(*error);
    m_points.fill(index, scratch);
    moveInPlace(scratch, whatIf(index));
    if (slot && hasOwnMachine(slot->workload)) // a sharded matmul: its own link
        return analyzePoint(scratch, workloadMachine(slot->workload, m_hardware), m_options);
    return analyzePoint(scratch, m_hardware, m_options);
}

} // namespace ridgepoint
