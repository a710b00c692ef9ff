#include "core/report/level_columns.h"

#include "core/analysis/levels.h"

#include <algorithm>
#include <utility>

namespace ridgepoint {

void LevelColumns::see(const PointAnalysis &analysis)
{
    for (const LevelAnalysis *level : allLevels(analysis)) {
        if (std::find(m_levels.begin(), m_levels.end(), level->level) == m_levels.end())
            m_levels.push_back(level->level);
    }
    std::stable_sort(m_levels.begin(), m_levels.end(),
        [](MemoryLevel a, MemoryLevel b) { return levelRank(a) < levelRank(b); });
}

std::optional<MemoryLevel> LevelColumns::intensityLevel() const
{
    const auto main = std::find_if(m_levels.begin(), m_levels.end(), isMainMemory);
    if (main != m_levels.end())
        return *main;
    if (m_levels.empty())
        return std::nullopt;
    return m_levels.front();
}

std::string LevelColumns::intensityHeader() const
{
    const auto level = intensityLevel();
    return level ? std::string(memoryLevelName(*level)) + " intensity" : std::string("intensity");
}

// allLevels sorts by rank, stably, and equal levels have equal ranks: the first at `wanted` in
// its order is the first in `levels`, else the first in `unbounded`.
const LevelAnalysis *LevelColumns::find(const PointAnalysis &analysis, MemoryLevel wanted)
{
    for (const auto *list : { &analysis.levels, &analysis.unbounded }) {
        for (const LevelAnalysis &level : *list) {
            if (level.level == wanted)
                return &level;
        }
    }
    return nullptr;
}

std::vector<std::string> LevelColumns::cells(const PointAnalysis &analysis,
    const std::function<std::string(const LevelAnalysis &)> &format) const
{
    std::vector<std::string> out;
    out.reserve(m_levels.size());
    for (const MemoryLevel column : m_levels) {
        const LevelAnalysis *level = find(analysis, column);
        out.push_back(level ? format(*level) : std::string());
    }
    return out;
}

std::string LevelColumns::intensityCell(
    const PointAnalysis &analysis, const std::function<std::string(double)> &format) const
{
    const LevelAnalysis *main = mainLevel(analysis);
    if (!main)
        return {};
    std::string cell = format(main->intensity);
    if (main->level != intensityLevel())
        cell += " (" + std::string(memoryLevelName(main->level)) + ")";
    return cell;
}

std::string LevelColumns::missing(const PointAnalysis &analysis,
    const std::function<std::string(const LevelAnalysis &)> &format) const
{
    std::string out;
    for (const LevelAnalysis *level : allLevels(analysis)) {
        if (std::find(m_levels.begin(), m_levels.end(), level->level) != m_levels.end())
            continue;
        out += out.empty() ? "also " : ", ";
        out += std::string(memoryLevelName(level->level)) + " " + format(*level);
    }
    return out;
}

PointLookAhead::PointLookAhead(std::size_t lookAhead, Start start, Emit emit)
    : m_lookAhead(std::max<std::size_t>(lookAhead, 1))
    , m_start(std::move(start))
    , m_emit(std::move(emit))
{ }

void PointLookAhead::add(
    const KernelPoint &point, const PointAnalysis &analysis, const std::optional<Speedup> &speedup)
{
    if (m_started) {
        m_emit(point, analysis, speedup);
        return;
    }
    m_columns.see(analysis);
    m_held.push_back({ point, analysis, speedup });
    if (m_held.size() >= m_lookAhead)
        release();
}

void PointLookAhead::finish()
{
    if (!m_started)
        release();
}

void PointLookAhead::release()
{
    m_started = true;
    m_start(m_columns);
    for (const Held &held : m_held)
        m_emit(held.point, held.analysis, held.speedup);
    m_held.clear();
    m_held.shrink_to_fit();
}

} // namespace ridgepoint
