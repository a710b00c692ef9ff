#include "core/workspace/placements.h"

#include "core/analysis/levels.h"

#include <algorithm>

namespace ridgepoint {

// docs/PERFORMANCE.md counts a point's memory by these sizes.
static_assert(sizeof(PointPlacement) == 48);
static_assert(sizeof(LevelPlacement) == 32);

namespace {

std::uint32_t indexIn(const std::vector<LevelAnalysis> &list, const LevelAnalysis *level)
{
    return static_cast<std::uint32_t>(level - list.data());
}

// levels.h's mainLevel() as an index into levels-then-unbounded.
std::uint32_t mainLevelIndex(const PointAnalysis &a)
{
    const LevelAnalysis *main = mainLevel(a);
    if (!main)
        return PointPlacement::kNone;
    if (!a.levels.empty() && main >= a.levels.data() && main < a.levels.data() + a.levels.size())
        return indexIn(a.levels, main);
    return static_cast<std::uint32_t>(a.levels.size()) + indexIn(a.unbounded, main);
}

std::uint32_t computeIndex(const Hardware &hardware, const std::string &name)
{
    const ComputeCeiling *found = hardware.findCompute(name);
    return found ? static_cast<std::uint32_t>(found - hardware.compute.data())
                 : PointPlacement::kNone;
}

LevelPlacement placementOf(const LevelAnalysis &level)
{
    return { level.intensity, level.attainable, level.bytes, level.level, level.bounded };
}

} // namespace

std::vector<LevelPlacement> levelPlacements(const PointAnalysis &analysis)
{
    std::vector<LevelPlacement> out;
    out.reserve(analysis.levels.size() + analysis.unbounded.size());
    for (const auto *list : { &analysis.levels, &analysis.unbounded }) {
        for (const LevelAnalysis &level : *list)
            out.push_back(placementOf(level));
    }
    return out;
}

std::span<const LevelPlacement> Placements::levels(std::size_t index) const
{
    const PointPlacement &p = m_points[index];
    return std::span<const LevelPlacement>(m_levels).subspan(p.firstLevel, p.levelCount());
}

const LevelPlacement *Placements::mainLevel(std::size_t index) const
{
    const PointPlacement &p = m_points[index];
    return p.mainLevel == PointPlacement::kNone ? nullptr : &levels(index)[p.mainLevel];
}

void Placements::reset(std::size_t count)
{
    m_points.assign(count, PointPlacement {});
    m_levels.clear();
    m_levels.reserve(count); // most points have one level
    m_liveLevels = 0;
    m_ceilingNames.assign(1, std::string());
}

void Placements::set(std::size_t index, const PointResult &result, const Hardware &hardware)
{
    PointPlacement &p = m_points[index];
    const std::size_t before = p.levelCount();
    m_liveLevels -= before;
    if (!result) {
        p = PointPlacement { .firstLevel = p.firstLevel };
        compactLevels();
        return;
    }
    const PointAnalysis &a = *result;
    const std::size_t count = a.levels.size() + a.unbounded.size();
    // A point moved or re-derived keeps its level count: its levels are written over in place.
    const std::size_t first = count <= before ? p.firstLevel : m_levels.size();
    if (first == m_levels.size())
        m_levels.resize(m_levels.size() + count);
    std::size_t k = first;
    for (const auto *list : { &a.levels, &a.unbounded }) {
        for (const LevelAnalysis &level : *list)
            m_levels[k++] = placementOf(level);
    }
    p = PointPlacement {
        .y = a.performance.value_or(a.attainable),
        .attainable = a.attainable,
        .firstLevel = static_cast<std::uint32_t>(first),
        .boundedLevels = static_cast<std::uint32_t>(a.levels.size()),
        .unboundedLevels = static_cast<std::uint32_t>(a.unbounded.size()),
        .mainLevel = mainLevelIndex(a),
        .computeCeiling = computeIndex(hardware, a.computeCeiling),
        .bound = a.bound,
        .limitingCeiling = ceilingName(a.limitingCeiling),
        .placed = true,
        .measured = a.performance.has_value(),
        .consistent = a.consistent,
        .diagnosed = !a.diagnosis.empty(),
    };
    m_liveLevels += count;
    compactLevels();
}

std::uint16_t Placements::ceilingName(const std::string &name)
{
    const auto found = std::find(m_ceilingNames.begin(), m_ceilingNames.end(), name);
    if (found != m_ceilingNames.end())
        return static_cast<std::uint16_t>(found - m_ceilingNames.begin());
    if (m_ceilingNames.size() >= PointPlacement::kUnnamed)
        return PointPlacement::kUnnamed;
    m_ceilingNames.push_back(name);
    return static_cast<std::uint16_t>(m_ceilingNames.size() - 1);
}

void Placements::insert(std::size_t index)
{
    m_points.insert(m_points.begin() + static_cast<std::ptrdiff_t>(index), PointPlacement {});
}

void Placements::erase(std::size_t index)
{
    m_liveLevels -= m_points[index].levelCount();
    m_points.erase(m_points.begin() + static_cast<std::ptrdiff_t>(index));
    compactLevels();
}

void Placements::compactLevels()
{
    // Rows removed and re-analysed one at a time (undo, redo, a quantization switch) would
    // otherwise grow the table without bound.
    if (m_levels.size() <= 2 * m_liveLevels + 64)
        return;
    std::vector<LevelPlacement> kept;
    kept.reserve(m_liveLevels);
    for (PointPlacement &p : m_points) {
        const auto first = m_levels.begin() + static_cast<std::ptrdiff_t>(p.firstLevel);
        const std::size_t at = kept.size();
        kept.insert(kept.end(), first, first + static_cast<std::ptrdiff_t>(p.levelCount()));
        p.firstLevel = static_cast<std::uint32_t>(at);
    }
    m_levels = std::move(kept);
}

} // namespace ridgepoint
