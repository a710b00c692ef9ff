#include "core/analysis/levels.h"

#include <algorithm>

namespace ridgepoint {

int levelRank(MemoryLevel level)
{
    switch (level) {
    case MemoryLevel::L1:
        return 0;
    case MemoryLevel::LDS:
        return 1;
    case MemoryLevel::L2:
        return 2;
    case MemoryLevel::L3:
        return 3;
    case MemoryLevel::DRAM:
        return 4;
    case MemoryLevel::HBM:
        return 5;
    case MemoryLevel::PCIe:
        return 6;
    case MemoryLevel::NVLink:
        return 7;
    case MemoryLevel::ICI:
        return 8;
    case MemoryLevel::DCN:
        return 9;
    }
    return 10;
}

std::vector<const LevelAnalysis *> allLevels(const PointAnalysis &analysis)
{
    std::vector<const LevelAnalysis *> out;
    out.reserve(analysis.levels.size() + analysis.unbounded.size());
    for (const auto &level : analysis.levels)
        out.push_back(&level);
    for (const auto &level : analysis.unbounded)
        out.push_back(&level);
    std::stable_sort(out.begin(), out.end(), [](const LevelAnalysis *a, const LevelAnalysis *b) {
        return levelRank(a->level) < levelRank(b->level);
    });
    return out;
}

const LevelAnalysis *mainLevel(const PointAnalysis &analysis)
{
    const auto main = std::find_if(analysis.levels.begin(), analysis.levels.end(),
        [](const LevelAnalysis &level) { return isMainMemory(level.level); });
    if (main != analysis.levels.end())
        return &*main;
    if (!analysis.levels.empty())
        return &analysis.levels.front();
    return analysis.unbounded.empty() ? nullptr : &analysis.unbounded.front();
}

std::optional<Bound> levelBound(const PointAnalysis &analysis, const LevelAnalysis &level)
{
    if (!level.bounded)
        return std::nullopt;
    return level.bandwidth * level.intensity < analysis.peak ? Bound::Memory : Bound::Compute;
}

} // namespace ridgepoint
