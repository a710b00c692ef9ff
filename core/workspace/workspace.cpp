#include "core/workspace/workspace.h"

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
    return ridgepoint::applyWhatIf(m_points[index], m_moves[index]);
}

std::vector<KernelPoint> Workspace::points() const
{
    std::vector<KernelPoint> out;
    out.reserve(m_points.size());
    for (std::size_t i = 0; i < m_points.size(); ++i)
        out.push_back(point(i));
    return out;
}

bool Workspace::hasWhatIfs() const
{
    return std::any_of(
        m_moves.begin(), m_moves.end(), [](const WhatIf &m) { return !m.isIdentity(); });
}

PointResult Workspace::measuredAnalysis(std::size_t index) const
{
    if (m_moves[index].isIdentity() || workloadError(index))
        return analysis(index);
    if (const WorkloadSlot *slot = workloadSlot(index); slot && hasOwnMachine(slot->workload))
        return analyzePoint(
            m_points[index], workloadMachine(slot->workload, m_hardware), m_options);
    return analyzePoint(m_points[index], m_hardware, m_options);
}

void Workspace::setPoints(std::vector<KernelPoint> points)
{
    m_points = std::move(points);
    m_moves.assign(m_points.size(), WhatIf {});
    m_workloads.clear();
    reanalyseAll();
}

void Workspace::setWhatIf(std::size_t index, const WhatIf &move)
{
    m_moves[index] = move;
    reanalyse(index);
}

void Workspace::setWhatIfs(std::vector<WhatIf> moves)
{
    m_moves = std::move(moves);
    reanalyseAll();
}

std::optional<std::size_t> Workspace::findPoint(std::string_view name) const
{
    const auto it = std::find_if(
        m_points.begin(), m_points.end(), [&](const KernelPoint &p) { return p.name == name; });
    if (it == m_points.end())
        return std::nullopt;
    return static_cast<std::size_t>(it - m_points.begin());
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
        m_points[slot.point] = std::move(*point);
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
    for (std::size_t i = 0; i < m_points.size(); ++i)
        m_placements.set(i, analyse(i), m_hardware);
}

void Workspace::reanalyse(std::size_t index)
{
    m_lastAnalysis.reset();
    m_placements.set(index, analyse(index), m_hardware);
}

PointResult Workspace::analyse(std::size_t index) const
{
    const WorkloadSlot *slot = m_workloads.empty() ? nullptr : workloadSlot(index);
    if (const std::string *error = workloadError(index))
        return ridgepoint::Unexpected(*error);
    if (slot && hasOwnMachine(slot->workload)) // a sharded matmul: its own link
        return analyzePoint(point(index), workloadMachine(slot->workload, m_hardware), m_options);
    if (m_moves[index].isIdentity()) // no copy of the point: most are not moved
        return analyzePoint(m_points[index], m_hardware, m_options);
    return analyzePoint(point(index), m_hardware, m_options);
}

} // namespace ridgepoint
